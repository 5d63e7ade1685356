"""Bots of the 打百分 family: ``random`` (a random legal actor) and ``heuristic`` (bids from its
hand's trumps and points against a threshold, names its longest strong suit, buries low side
cards, calls the highest card it lacks as friend, wins tricks cheaply and gives points to a
known partner). ``play_hundred_deal`` plays a deal out; ``hundred_selfplay`` plays many."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from . import draws
from . import hundred_rules as hr
from .cards import LJ, SUITS, card_points, card_str
from .errors import EngineError
from .hundred import (
    AUCTION,
    BURY,
    DONE,
    DUMMY,
    FRIEND,
    TRUMP_PHASE,
    Act,
    HundredDeal,
    new_hundred_deal,
)

Action = tuple[Any, ...]


def _groups(cards: Sequence[int], trump: int) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for c in cards:
        out.setdefault(hr.group(c, trump), []).append(c)
    return out


def random_lead(rng: random.Random, hand: Sequence[int], trump: int) -> list[int]:
    by_rank: dict[int, list[int]] = {}
    for c in hand:
        if c < LJ:
            by_rank.setdefault(c % 13, []).append(c)
    fours = [cs for cs in by_rank.values() if len(cs) == 4]
    longs = [cs for cs in _groups(hand, trump).values() if len(cs) >= 2]
    r = rng.random()
    if fours and r < 0.15:
        return list(draws.choice(rng, fours))
    if longs and r < 0.35:
        cs = draws.choice(rng, longs)
        return draws.sample(rng, cs, draws.randint(rng, 2, min(len(cs), 4)))
    return [draws.choice(rng, list(hand))]


def random_follow(
    rng: random.Random, lead: Sequence[int], hand: Sequence[int], trump: int
) -> list[int]:
    sh = hr.shape(lead, trump)
    k = len(lead)
    if sh.combo == hr.HORIZONTAL:
        chosen = [draws.choice(rng, cs) for cs in _groups(hand, trump).values()]
        rest = [c for c in hand if c not in chosen]
        return chosen + draws.sample(rng, rest, k - len(chosen))
    assert sh.group is not None
    suited = [c for c in hand if hr.group(c, trump) == sh.group]
    if len(suited) >= k:
        return draws.sample(rng, suited, k)
    others = [c for c in hand if hr.group(c, trump) != sh.group]
    return suited + draws.sample(rng, others, k - len(suited))


class RandomHundredBot:
    """A random legal actor (bids low now and then, passes otherwise)."""

    def __init__(self, seed: int = 0) -> None:
        if type(seed) is not int:
            raise EngineError("bots.seed", got=repr(seed))
        self.rng = random.Random(seed)

    def act(self, deal: HundredDeal, seat: int) -> Action:
        if not isinstance(deal, HundredDeal):
            raise EngineError("bots.deal_type", got=repr(deal))
        if deal.to_act != seat:
            raise EngineError("bots.not_turn", seat=seat, phase=deal.phase)
        phase = deal.phase
        if phase == AUCTION:
            return self.bid(deal, seat)
        if phase == TRUMP_PHASE:
            return ("trump", seat, self.trump(deal, seat))
        if phase == FRIEND:
            return ("friend", seat, self.friend(deal, seat))
        if phase == BURY:
            return ("bury", seat, self.bury(deal, seat))
        hand = deal.turn_hand
        assert hand is not None and deal.trump is not None
        return ("play", seat, self.play(deal, seat, hand))

    def bid(self, deal: HundredDeal, seat: int) -> Action:
        bids = deal.legal_bids(seat)
        if bids and self.rng.random() < 0.4:
            return ("bid", seat, draws.choice(self.rng, bids[:3]))
        return ("pass", seat)

    def trump(self, deal: HundredDeal, seat: int) -> str:
        return draws.choice(self.rng, SUITS)

    def friend(self, deal: HundredDeal, seat: int) -> int:
        mine = set(deal.hands[seat]) | set(deal.buried)
        return draws.choice(self.rng, [c for c in range(54) if c not in mine])

    def bury(self, deal: HundredDeal, seat: int) -> list[int]:
        return draws.sample(self.rng, deal.hands[seat], hr.KITTY)

    def play(self, deal: HundredDeal, seat: int, hand: int) -> list[int]:
        assert deal.trump is not None
        cards = deal.hands[hand]
        if not deal.trick:
            return random_lead(self.rng, cards, deal.trump)
        return random_follow(self.rng, deal.trick[0][1], cards, deal.trump)


def suit_strength(cards: Sequence[int], suit: int) -> float:
    """How good ``suit`` is as trump for these cards: trumps count, high trumps and jokers more."""
    value = 0.0
    for c in cards:
        if c >= LJ:
            value += 1.5
        elif c // 13 == suit:
            value += 1.0 + (0.5 if c % 13 >= 10 else 0.0)
        elif c % 13 == 12:
            value += 0.5  # a side ace
    return value


class HeuristicHundredBot(RandomHundredBot):
    """Bids while its best suit's strength reaches ``threshold`` (5 more per point above it),
    then plays from the cards it can see."""

    def __init__(self, seed: int = 0, threshold: float = 6.0) -> None:
        super().__init__(seed)
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
            raise EngineError("bots.option", name="threshold", what="a number", got=repr(threshold))
        self.threshold = float(threshold)

    def bid(self, deal: HundredDeal, seat: int) -> Action:
        bids = deal.legal_bids(seat)
        hand = deal.hands[seat]
        best = max(suit_strength(hand, s) for s in range(4))
        best += sum(card_points(c) for c in hand) / 40.0
        most = hr.MIN_BID + 5 * int((best - self.threshold) * 2)
        if bids and best >= self.threshold and bids[0] <= most:
            return ("bid", seat, bids[0])
        return ("pass", seat)

    def trump(self, deal: HundredDeal, seat: int) -> str:
        hand = deal.hands[seat]
        return SUITS[max(range(4), key=lambda s: (suit_strength(hand, s), -s))]

    def friend(self, deal: HundredDeal, seat: int) -> int:
        mine = set(deal.hands[seat]) | set(deal.buried)
        assert deal.trump is not None
        t = deal.trump
        order = sorted(range(54), key=lambda c: -hr.strength(c, t) - (50 if c % 13 == 12 else 0))
        return next(c for c in order if c not in mine)

    def bury(self, deal: HundredDeal, seat: int) -> list[int]:
        hand = deal.hands[seat]
        t = deal.trump if deal.trump is not None else self._guess_trump(hand)
        groups = _groups(hand, t)

        def key(c: int) -> tuple[int, int, int]:
            g = hr.group(c, t)
            if g == hr.TRUMP:
                return (2, 0, hr.strength(c, t))
            if c % 13 >= 11:
                return (1, 0, c % 13)  # keep kings and aces
            return (0, len(groups[g]), c % 13)  # shortest suits first, low cards first

        return sorted(hand, key=key)[: hr.KITTY]

    @staticmethod
    def _guess_trump(hand: Sequence[int]) -> int:
        return max(range(4), key=lambda s: (suit_strength(hand, s), -s))

    def _partners(self, deal: HundredDeal, seat: int, hand: int) -> set[int]:
        """The hands this seat knows to be on its side (itself included)."""
        d = deal.declarer
        v = deal.variant
        if v.fixed_pairs:
            return {hand, (hand + 2) % 4}
        if v.id == hr.HUNDRED_3P:
            return {d, DUMMY} if seat == d else {s for s in range(3) if s != d}
        if seat == d:
            return deal.declarer_side(final=False)
        if seat == deal.friend:
            return {seat, d} if d is not None else {seat}
        if deal.friend_revealed:  # known to all once the card is played
            return {s for s in range(4) if s not in deal.declarer_side()}
        return {seat}

    def play(self, deal: HundredDeal, seat: int, hand: int) -> list[int]:
        assert deal.trump is not None
        t = deal.trump
        cards = deal.hands[hand]
        if not deal.trick:
            return self._lead(deal, cards, t)
        lead = deal.trick[0][1]
        if len(lead) > 1:
            return self._follow_many(lead, cards, t)
        plays = [cs for _, cs in deal.trick]
        best = hr.winner(plays, t)
        best_hand = deal.trick[best][0]
        lead_shape = hr.shape(lead, t)
        legal = [c for c in cards if hr.follow_reason(lead, cards, [c], t) is None]
        friends = self._partners(deal, seat, hand)
        if best_hand in friends:
            return [max(legal, key=lambda c: (card_points(c), -hr.strength(c, t)))]
        winning = [c for c in legal if hr.beats([c], plays[best], lead_shape, t)]
        pts = sum(card_points(c) for cs in plays for c in cs)
        if winning and (pts > 0 or len(deal.trick) == 3 or hr.group(lead[0], t) != hr.TRUMP):
            return [min(winning, key=lambda c: (hr.strength(c, t), card_points(c)))]
        return [min(legal, key=lambda c: (card_points(c), hr.strength(c, t)))]

    def _lead(self, deal: HundredDeal, cards: Sequence[int], t: int) -> list[int]:
        gone = set(deal.played)
        for c in sorted(cards, key=lambda c: -hr.strength(c, t)):
            g = hr.group(c, t)
            if g == hr.TRUMP:
                continue
            higher = [
                x
                for x in range(54)
                if hr.group(x, t) == g and hr.strength(x, t) > hr.strength(c, t)
            ]
            if all(x in gone or x in cards for x in higher):
                return [c]  # the best card left of its suit
        side = [c for c in cards if hr.group(c, t) != hr.TRUMP]
        pool = side or list(cards)
        groups = _groups(pool, t)
        shortest = min(groups.values(), key=len)
        return [min(shortest, key=lambda c: (card_points(c), hr.strength(c, t)))]

    @staticmethod
    def _follow_many(lead: Sequence[int], cards: Sequence[int], t: int) -> list[int]:
        sh = hr.shape(lead, t)
        k = len(lead)
        cheap = sorted(cards, key=lambda c: (card_points(c), hr.strength(c, t)))
        if sh.combo == hr.HORIZONTAL:
            chosen: list[int] = []
            for cs in _groups(cards, t).values():
                chosen.append(min(cs, key=lambda c: (card_points(c), hr.strength(c, t))))
            return chosen + [c for c in cheap if c not in chosen][: k - len(chosen)]
        suited = [c for c in cheap if hr.group(c, t) == sh.group]
        if len(suited) >= k:
            return suited[:k]
        return suited + [c for c in cheap if c not in suited][: k - len(suited)]


def make_hundred_bots(kind: str, players: int, seed: int = 0) -> list[RandomHundredBot]:
    if kind == "random":
        return [RandomHundredBot(seed * 10 + i) for i in range(players)]
    if kind == "heuristic":
        return [HeuristicHundredBot(seed * 10 + i) for i in range(players)]
    raise EngineError("bots.kind", got=repr(kind))


def perform(deal: HundredDeal, action: Action) -> Act:
    kind, seat = action[0], action[1]
    if kind == "bid":
        return deal.bid_(seat, action[2])
    if kind == "pass":
        return deal.pass_(seat)
    if kind == "trump":
        return deal.name_trump(seat, action[2])
    if kind == "friend":
        return deal.call_friend(seat, action[2])
    if kind == "bury":
        return deal.bury(seat, action[2])
    if kind == "play":
        return deal.play(seat, action[2])
    raise EngineError("action.unknown", got=repr(action))


def play_hundred_deal(deal: HundredDeal, bots: Sequence[RandomHundredBot]) -> HundredDeal:
    """Play ``deal`` to its end with one bot per seat (the declarer's bot plays the dummy)."""
    if len(bots) != deal.variant.players:
        raise EngineError(
            "bots.count", variant=deal.variant.id, need=deal.variant.players, got=len(bots)
        )
    while deal.phase != DONE:
        seat = deal.to_act
        assert seat is not None
        perform(deal, bots[seat].act(deal, seat))
    return deal


def hundred_selfplay(
    variant: str, options: dict[str, Any] | None, deals: int, seed: int, kind: str = "random"
) -> list[HundredDeal]:
    """``deals`` deals of ``variant``, each from the previous one's next setup."""
    out: list[HundredDeal] = []
    deal = new_hundred_deal(variant, options, seed)
    for i in range(deals):
        bots = make_hundred_bots(kind, deal.variant.players, seed + i)
        play_hundred_deal(deal, bots)
        out.append(deal)
        deal = HundredDeal(deal.next_setup(seed + i + 1))
    return out


# --- self-play and the legality check ------------------------------------------------------------

MODES: tuple[tuple[str, dict[str, Any]], ...] = (
    *((hr.HUNDRED_4P, {"friend": m}) for m in hr.FRIEND_MODES),
    (hr.FORTY_4P, {}),
    (hr.HUNDRED_3P, {}),
)


def describe(deal: HundredDeal) -> str:
    """One readable line for a finished deal."""
    r = deal.result
    assert r is not None and deal.trump is not None
    parts = [f"declarer {deal.declarer}", f"trump {SUITS[deal.trump]}"]
    if deal.variant.bidding:
        parts.append(f"bid {deal.bid}")
    else:
        parts.append(f"turned {card_str(deal.turned) if deal.turned is not None else '-'}")
    if deal.friend_card is not None:
        who = "alone" if deal.friend is None else f"seat {deal.friend}"
        parts.append(f"friend {card_str(deal.friend_card)} ({who})")
    parts.append(f"points {r.total}{' 抠底' if r.kou_di else ''}")
    parts.append(f"-> {r.winner} {r.units} units, scores {list(r.scores or ())}")
    return f"seed {deal.setup.seed}: " + ", ".join(parts)


def check_action(deal: HundredDeal, action: Action) -> None:
    """Verify a bot's action through the public ``verify_…`` methods, on copies of its cards."""
    kind, seat = action[0], action[1]
    if kind == "bid":
        deal.verify_bid(seat, action[2])
    elif kind == "pass":
        deal.verify_pass(seat)
    elif kind == "trump":
        deal.verify_name_trump(seat, action[2])
    elif kind == "friend":
        deal.verify_call_friend(seat, action[2])
    elif kind == "bury":
        deal.verify_bury(seat, list(action[2]))
    elif kind == "play":
        deal.verify_play(seat, list(action[2]))
    else:
        raise EngineError("action.unknown", got=repr(action))


def legality(deals: int, seed: int = 0) -> tuple[int, int, dict[str, int]]:
    """Play ``deals`` deals spread over every variant and friend mode (open or hidden kitty,
    both stakes) with random, heuristic and mixed bots, checking every move before it is made.
    Returns (illegal moves, moves checked, deals per mode)."""
    illegal = moves = 0
    per_mode: dict[str, int] = {}
    for i in range(deals):
        variant, base = MODES[i % len(MODES)]
        options = dict(base)
        options["open_kitty"] = (i // len(MODES)) % 2 == 1
        if variant != hr.FORTY_4P:
            options["stakes"] = "flat" if (i // (2 * len(MODES))) % 2 else "bid"
        players = 3 if variant == hr.HUNDRED_3P else 4
        deal = new_hundred_deal(variant, options, seed + i, first=(seed + i) % players)
        mix = i % 3
        bots: list[RandomHundredBot] = [
            HeuristicHundredBot(seed + i + s)
            if mix == 1 or (mix == 2 and s % 2)
            else RandomHundredBot(seed + i + s)
            for s in range(players)
        ]
        while deal.phase != DONE:
            s = deal.to_act
            assert s is not None
            action = bots[s].act(deal, s)
            moves += 1
            try:
                check_action(deal, action)
            except EngineError:
                illegal += 1
                action = RandomHundredBot(moves).act(deal, s)
            perform(deal, action)
        key = variant + ("" if variant != hr.HUNDRED_4P else "/" + str(base["friend"]))
        per_mode[key] = per_mode.get(key, 0) + 1
    return illegal, moves, per_mode


def selfplay_main(
    variant: str, options: dict[str, Any], deals: int, seed: int, kind: str, log: str | None
) -> int:
    """``python -m engine.selfplay --variant hundred-4p …``: a line per deal, then totals;
    ``log`` gets each deal's setup and action log as JSON lines (``engine.hundred.replay``)."""
    import json
    import sys

    try:
        out = open(log, "w", encoding="utf-8") if log else None  # noqa: SIM115
    except OSError as e:
        print(f"error: cannot write the log {log}: {e.strerror or e}", file=sys.stderr)
        return 2
    won = {hr.DECLARER: 0, hr.ATTACKERS: 0}
    try:
        for deal in hundred_selfplay(variant, options, deals, seed, kind):
            assert deal.result is not None
            print(describe(deal))
            won[deal.result.winner] += 1
            if out is not None:
                rec = {"setup": deal.setup.to_json(), "log": [a.to_json() for a in deal.log]}
                out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        if out is not None:
            out.close()
    print(
        f"total: {deals} deals, won by declarer {won[hr.DECLARER]}, by attackers {won[hr.ATTACKERS]}"
    )
    return 0
