"""Bots for any seat of any variant: ``RandomBot`` (a random legal player) and ``HeuristicBot``
(keeps points away from the attackers, leads from strength, ruffs points).

A bot answers two questions: ``on_draw(deal, seat)`` — a call to show right after this seat
drew a card, or ``None`` (a bot considers calling only when it draws, so the calling check is
not repeated for every seat at every draw) — and ``act(deal, seat)`` — the action for the seat
``deal.to_act``, as a tuple ``(kind, *args)`` that ``perform`` applies. Bots read only what the
seat may see (its hand, the public table) except that they call the deal's own legality checks.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from . import combos, draws
from . import play as rules
from .cards import HJ, LJ, RANKS, card_points
from .deal import BURY, CALLS, FRIEND, OVERCALL, PLAY, REDEAL, Deal, Record
from .errors import EngineError, IllegalAction

Action = tuple[Any, ...]


def _check(deal: object, seat: object) -> Deal:
    """A bot is asked about a real deal and one of its seats."""
    if type(deal) is not Deal and not isinstance(deal, Deal):
        raise EngineError("bots.deal_type", got=repr(deal))
    deal._seat(seat)
    return deal


def _calls_after_draw(deal: object, seat_arg: object) -> list[list[int]]:
    """The calls ``seat`` may make right after drawing (none when the hand is empty or the card
    just drawn, being neither a level card nor a joker, cannot have made a new call possible)."""
    d = _check(deal, seat_arg)
    seat = d._seat(seat_arg)
    hand = d.hands[seat]
    if not hand:
        return []
    card = hand[-1]
    lv = d._call_level(seat)
    if card < LJ and RANKS[card % 13] != lv:
        return []  # only a level card or a joker can make a new call possible
    return legal_calls(d, seat)


def _check_acting(deal: object, seat: object) -> Deal:
    """A bot is asked to act on a real deal for the seat whose turn it is."""
    d = _check(deal, seat)
    if d.to_act != seat:
        raise IllegalAction("bots.not_turn", seat=seat, phase=d.phase)
    return d


def _check_turn(deal: object, seat: object, phase: str, what: str) -> Deal:
    d = _check(deal, seat)
    if d.phase != phase or d.to_act != seat:
        raise IllegalAction("bots.nothing_to_choose", seat=seat, what=what, phase=d.phase)
    return d


def possible_calls(deal: Deal, seat: int) -> list[list[int]]:
    """Every call shape the seat's hand could show now (see ``Deal.call_options``)."""
    return _check(deal, seat).call_options(seat)


def legal_calls(deal: Deal, seat: int) -> list[list[int]]:
    return _check(deal, seat).legal_calls(seat)


def perform(deal: Deal, action: Action) -> Record:
    """Apply a bot action ``(kind, seat, *args)`` to the deal."""
    if type(deal) is not Deal and not isinstance(deal, Deal):
        raise EngineError("deal.type", got=repr(deal))
    return _perform(deal, action)


def _perform(deal: Deal, action: Any) -> Record:
    """``perform`` on a checked deal: typed, for the compiled build's loops (the action is checked
    here, so it may be anything)."""
    t = type(action)
    if (t is not tuple and not isinstance(action, tuple | list)) or len(action) < 2:
        raise IllegalAction("action.type", got=repr(action))
    kind, seat = action[0], action[1]
    if kind in ("call", "bury", "friend", "play") and len(action) != 3:
        raise IllegalAction("action.arity", kind=repr(kind), got=repr(action))
    if kind == "play":  # the commonest action first
        return deal.play(seat, action[2])
    if kind == "call":
        return deal.call(seat, action[2])
    if kind == "pass":
        return deal.pass_(seat)
    if kind == "redeal":
        return deal.redeal(seat)
    if kind == "bury":
        return deal.bury(seat, action[2])
    if kind == "friend":
        return deal.call_friend(seat, action[2])
    raise IllegalAction("action.unknown", got=repr(kind))


def _follow_base(deal: Deal, seat: int) -> tuple[list[int], list[int], list[int] | None]:
    """(cards of the led suit in hand, other cards, the cards a legal follow must contain from
    the led suit beyond which any suit cards may fill — None when the suit is short)."""
    assert deal.trick is not None and deal.ctx is not None
    lead = deal.trick.plays[0][1]
    ctx = deal.ctx
    st = ctx.suit_tab
    s = st[lead[0]]
    hand = deal.hands[seat]
    suit = [c for c in hand if st[c] == s]
    other = [c for c in hand if st[c] != s]
    n = len(lead)
    if len(suit) <= n:
        return suit, other, None
    comps = deal.trick.lead_comps or combos.lead_components(list(lead), ctx)
    if all(c.kind == combos.SINGLE for c in comps):
        return suit, other, []
    cnt = Counter(suit)
    if len(comps) == 1 and not comps[0].is_chain:
        w = comps[0].units[0][1]
        best = max(cnt.values())
        take = min(w, best)
        if take < 2:
            return suit, other, []
        cands = [c for c, k in cnt.items() if k >= take]
        return suit, other, [cands[0]] * take
    try:  # play.py's demand search finds the shape a legal follow must hold, directly
        pool = rules._Pool(cnt, ctx)
        fixed = rules._fixed_demands(comps, pool)
        search, order = rules._search, rules._order
    except AttributeError:  # pragma: no cover - only if play.py's internals change
        return suit, other, _sampled_follow(deal, seat, suit, n)
    found: list[int] = []

    def on_found(used: list[tuple[int, int]]) -> bool:
        for i, w in used:
            found.extend([pool.cards[i]] * w)
        return True

    search(pool, order(fixed), on_found)
    return suit, other, found


def _sampled_follow(deal: Deal, seat: int, suit: list[int], n: int) -> list[int]:
    """A legal follow found by trying random choices of the led suit's cards (slow path)."""
    rng = random.Random(deal.version)
    for _ in range(2000):
        cand = draws.sample(rng, suit, n)
        if deal.can_play(seat, cand):
            return cand
    for combo in itertools.combinations(sorted(suit), n):
        if deal.can_play(seat, list(combo)):
            return list(combo)
    raise IllegalAction("bots.no_follow")  # cannot happen: a legal follow always exists


def _complete(
    rng: random.Random, n: int, suit: list[int], other: list[int], core: list[int] | None
) -> list[int]:
    """A legal follow of ``n`` cards: every card of the led suit and random others when the suit
    is short, else the cards the follow must hold (``core``) and random other cards of the suit."""
    if core is None:
        return suit + draws.sample(rng, other, n - len(suit))
    if not core:
        # one card: choice draws exactly what sample(suit, 1) draws, with less overhead
        return [draws.choice(rng, suit)] if n == 1 else draws.sample(rng, suit, n)
    left = list(suit)
    for c in core:
        left.remove(c)
    return core + draws.sample(rng, left, n - len(core))


class RandomBot:
    """A random legal player (seeded). Not uniform over whole plays: it picks a card and a
    shape at random when leading and fills a legal follow at random."""

    name = "random"

    def __init__(self, seed: int = 0, call_rate: float = 0.5, throw_rate: float = 0.1) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise EngineError("bots.seed", got=repr(seed))
        for name, rate in (("call_rate", call_rate), ("throw_rate", throw_rate)):
            if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate <= 1:
                raise EngineError("bots.rate", name=name, got=repr(rate))
        self.rng = random.Random(seed)
        self.call_rate = call_rate
        self.throw_rate = throw_rate

    def on_draw(self, deal: Deal, seat: int) -> list[int] | None:
        calls = _calls_after_draw(deal, seat)
        if calls and self.rng.random() < self.call_rate:
            return draws.choice(self.rng, calls)
        return None

    def act(self, deal: Deal, seat: int) -> Action:
        # the checked deal and seat as typed locals: in the compiled build the parameters of a
        # public method are untyped (tools/compile_engine.py), the locals are native
        d = _check_acting(deal, seat)
        s = d._seat(seat)
        ph = d.phase
        if ph == PLAY:  # the commonest phase first
            return ("play", s, self._choose_play(d, s))
        rng = self.rng
        if ph in (CALLS, OVERCALL):
            calls = legal_calls(d, s)
            if calls and rng.random() < self.call_rate:
                return ("call", s, draws.choice(rng, calls))
            return ("pass", s)
        if ph == REDEAL:
            if d.can_redeal(s) and rng.random() < 0.5:
                return ("redeal", s)
            return ("pass", s)
        if ph == BURY:
            return ("bury", s, draws.sample(rng, d.hands[s], d.kitty_size))
        if ph == FRIEND:
            choices: list[int | None] = [None, HJ, 13 + 3]
            choices += [s * 13 + r for s in range(4) for r in (11, 12)]
            return ("friend", s, draws.choice(rng, choices))
        raise IllegalAction("bots.nothing_to_do", seat=s, phase=ph)

    def choose_play(self, deal: Deal, seat: int) -> list[int]:
        """The cards this bot plays now (``seat`` must be the seat to play)."""
        _check_turn(deal, seat, PLAY, "play")
        return self._choose_play(deal, seat)

    def _choose_play(self, deal: Deal, seat: int) -> list[int]:
        """A random legal play, built from the deal's own rules: the deal is told so
        (``Deal._vouch``) and ``play`` does not prove it again."""
        assert deal.trick is not None and deal.ctx is not None
        rng = self.rng
        hand = deal.hands[seat]
        if not deal.trick.plays:
            card = draws.choice(rng, hand)
            r = rng.random()
            if r < self.throw_rate:
                st = deal.ctx.suit_tab
                suit = [c for c in hand if st[c] == st[card]]
                k = draws.randint(rng, 1, min(len(suit), 6))
                cards = draws.sample(rng, suit, k)  # cards of one suit: a lead (a throw may fail)
            else:
                copies = hand.count(card)
                cards = [card] * draws.randint(rng, 2, copies) if copies > 1 and r < 0.6 else [card]
        else:
            n = len(deal.trick.plays[0][1])
            suit, other, core = _follow_base(deal, seat)
            cards = _complete(rng, n, suit, other, core)
        deal._vouch(seat, cards)
        return cards


class HeuristicBot(RandomBot):
    """A simple player with a memory of the cards played (``_Memory``): calls with long trumps,
    buries to void its shortest side suits (else low side cards), leads what nobody can beat
    (a pair or a card with no higher one left out, in a suit no opponent is known to be out
    of), else pairs and aces, else a low card of its shortest side suit; gives points to a
    partner only when the partner's card is sure to win (or nobody plays after it), ruffs or
    beats a trick with points and otherwise plays its cheapest cards.

    Measured against the same bot without the memory, the voiding burial and the short-suit
    lead (``python -m engine.arena``, 2,000 duplicate pairs, seed 11): +0.252 levels a deal
    [0.235, 0.269] in 升级, +0.050 积分 [0.033, 0.067] in 红五, +0.107 levels [0.091, 0.123]
    in 120分."""

    name = "heuristic"

    def on_draw(self, deal: Deal, seat: int) -> list[int] | None:
        calls = _calls_after_draw(deal, seat)
        if not calls:
            return None
        d: Deal = deal  # checked: a typed local (see RandomBot.act)
        hand = d.hands[d._seat(seat)]
        drawn = len(hand)

        def length(call: list[int]) -> int:
            s = call[0] // 13 if call[0] < LJ else None
            return sum(1 for c in hand if c >= LJ or (s is not None and c // 13 == s))

        best = max(calls, key=lambda c: (len(c), length(c)))
        if length(best) * d.n >= drawn + 4 or drawn >= d.variant.hand - 2:
            return best
        return None

    def act(self, deal: Deal, seat: int) -> Action:
        d = _check_acting(deal, seat)  # typed locals (see RandomBot.act)
        s = d._seat(seat)
        ph = d.phase
        if ph in (CALLS, OVERCALL):
            calls = legal_calls(d, s)
            if calls:
                return ("call", s, max(calls, key=len))
            return ("pass", s)
        if ph == REDEAL:
            return ("redeal", s) if d.can_redeal(s) else ("pass", s)
        if ph == BURY:
            return ("bury", s, self._choose_bury(d, s))
        if ph == FRIEND:
            return ("friend", s, self._choose_friend(d, s))
        return super().act(d, s)

    def _value(self, deal: Deal, card: int) -> tuple[int, int, int]:
        ctx = deal.ctx
        assert ctx is not None
        return (1 if ctx.is_trump(card) else 0, card_points(card), ctx.strength(card))

    def choose_bury(self, deal: Deal, seat: int) -> list[int]:
        _check_turn(deal, seat, BURY, "burial")
        return self._choose_bury(deal, seat)

    def _choose_bury(self, deal: Deal, seat: int) -> list[int]:
        assert deal.ctx is not None
        ctx = deal.ctx
        hand = deal.hands[seat]
        cnt = Counter(hand)
        suit_len = Counter(ctx.suit_index(c) for c in hand)

        def key(c: int) -> tuple[int, int, int, int, int]:
            return (
                1 if ctx.is_trump(c) else 0,
                card_points(c),
                1 if cnt[c] > 1 else 0,
                suit_len[ctx.suit_index(c)],
                ctx.strength(c),
            )

        # void the shortest side suits that fit whole (no ace, no pair in them), so the
        # declarer can ruff them; then the cheapest cards as before
        size = deal.kitty_size
        by_suit: dict[int, list[int]] = {}
        for c in hand:
            if not ctx.is_trump(c):
                by_suit.setdefault(ctx.suit_index(c), []).append(c)
        chosen: list[int] = []
        for cards in sorted(by_suit.values(), key=len):
            if len(chosen) + len(cards) > size:
                break
            if any(c % 13 == 12 or cnt[c] > 1 for c in cards):
                continue
            chosen += cards
        rest = sorted((c for c in hand if c not in chosen), key=key)
        return chosen + rest[: size - len(chosen)]

    def choose_friend(self, deal: Deal, seat: int) -> int | None:
        _check_turn(deal, seat, FRIEND, "friend card")
        return self._choose_friend(deal, seat)

    def _choose_friend(self, deal: Deal, seat: int) -> int | None:
        assert deal.ctx is not None
        hand = deal.hands[seat]
        for s in range(4):
            ace = s * 13 + 12
            if (
                not deal.ctx.is_trump(ace)
                and hand.count(ace) == 0
                and any(c < LJ and c // 13 == s for c in hand)
            ):
                return ace
        return HJ if hand.count(HJ) < 2 else None

    def _choose_play(self, deal: Deal, seat: int) -> list[int]:
        """Every lead and follow below is legal by construction (or checked with ``can_play``),
        so the deal is told so (``Deal._vouch``)."""
        assert deal.trick is not None and deal.ctx is not None
        cards = self._lead(deal, seat) if not deal.trick.plays else self._follow(deal, seat)
        deal._vouch(seat, cards)
        return cards

    def _lead(self, deal: Deal, seat: int) -> list[int]:
        ctx = deal.ctx
        assert ctx is not None
        hand = deal.hands[seat]
        cnt = Counter(hand)
        # strength first: a side-suit pair or card nobody can beat (card memory), the highest
        # side-suit pair, a side ace, else a low side card
        side = [c for c in cnt if not ctx.is_trump(c)]
        if _keep_back_friend_card(deal, seat):
            side = [c for c in side if c != deal.friend_card]
        memory = _Memory(deal, seat)
        # a suit an opponent is known to be out of would be ruffed: no winners led there
        safe = [c for c in side if not memory.ruffable(deal, seat, ctx.suit_index(c))]
        boss_pairs = [c for c in safe if cnt[c] >= 2 and memory.boss(ctx, c, 2)]
        if boss_pairs:
            c = max(boss_pairs, key=lambda x: (card_points(x), ctx.strength(x)))
            return [c, c]
        bosses = [c for c in safe if memory.boss(ctx, c, 1) and (c % 13 == 12 or card_points(c))]
        if bosses:
            return [max(bosses, key=lambda x: (card_points(x), ctx.strength(x)))]
        pairs = [c for c in side if cnt[c] >= 2 and c % 13 >= 9]
        if pairs:
            c = max(pairs, key=ctx.strength)
            return [c] * cnt[c]
        aces = [c for c in side if c % 13 == 12]
        if aces:
            return [aces[0]]
        pool = side or list(cnt)
        # a low card of the shortest side suit: soon out of it, the seat can ruff it
        length = Counter(ctx.suit_index(c) for c in hand)
        c = min(pool, key=lambda x: (card_points(x), length[ctx.suit_index(x)], ctx.strength(x)))
        return [c]

    def _follow(self, deal: Deal, seat: int) -> list[int]:
        ctx = deal.ctx
        trick = deal.trick
        assert ctx is not None and trick is not None
        n = len(trick.plays[0][1])
        suit, other, core = _follow_base(deal, seat)
        plays = [list(p) for _, p in trick.plays]
        winner_seat = (
            trick.plays[rules.trick_winner(plays, ctx)][0] if len(plays) > 1 else (trick.leader)
        )
        friendly = _friendly(deal, seat, winner_seat)
        if friendly and len(plays) < deal.n - 1 and n == 1:
            # a partner's single wins for sure only if nobody left can beat it: otherwise no
            # points thrown onto it (card memory: higher cards still out, voids shown)
            memory = _Memory(deal, seat)
            win = plays[rules.trick_winner(plays, ctx)][0]
            lead_suit = ctx.suit_index(plays[0][0])
            later = [(seat + k) % deal.n for k in range(1, deal.n - len(plays))]
            friendly = memory.boss(ctx, win, 1) and not (
                ctx.suit_index(win) == lead_suit
                and lead_suit != 4
                and any(memory.void(s, lead_suit) and not _friendly(deal, seat, s) for s in later)
            )
        pts = sum(card_points(c) for p in plays for c in p)
        if core is None and not suit and not friendly and pts > 0:
            trumps = sorted((c for c in other if ctx.is_trump(c)), key=ctx.strength)
            if len(trumps) >= n:
                cand = trumps[:n] if n == 1 else trumps[-n:]
                if rules.trick_winner(plays + [cand], ctx) == len(plays) and deal.can_play(
                    seat, cand
                ):
                    return cand

        keep_back = _keep_back_friend_card(deal, seat)

        # choose the fill: points to a friendly winner, cheap cards otherwise (red five: the
        # friend card last while playing it would be 抢伴)
        def order(c: int) -> tuple[int, int, int, int]:
            t, p, st = self._value(deal, c)
            held = 1 if keep_back and c == deal.friend_card else 0
            return (held, t, -p, st) if friendly else (held, t, p, st)

        if core is None:
            rest = sorted(other, key=order)
            return suit + rest[: n - len(suit)]
        left = Counter(suit)
        left.subtract(core)
        fill = sorted(left.elements(), key=order)
        cand = core + fill[: n - len(core)]
        if not friendly and n == 1 and suit:
            # beat the trick with the cheapest winning card when it holds points
            for c in sorted(suit, key=ctx.strength):
                if keep_back and c == deal.friend_card:
                    continue
                if pts and rules.trick_winner(plays + [[c]], ctx) == len(plays):
                    return [c]
        if keep_back and deal.friend_card in cand:
            # another card of the suit instead of the friend card, when the follow allows it
            fc = deal.friend_card
            for x in sorted(set(suit) - {fc}, key=order):
                alt = list(cand)
                alt[alt.index(fc)] = x
                if Counter(alt)[x] <= Counter(suit)[x] and deal.can_play(seat, alt):
                    return alt
        return cand


class _Memory:
    """What a seat remembers of the deal, all of it public or its own: how many copies of each
    card may still be in other hands (not in its hand, not played, not in the kitty it buried
    itself) and the suits each seat showed it is out of (it did not follow a lead)."""

    def __init__(self, deal: Deal, seat: int) -> None:
        ctx = deal.ctx
        assert ctx is not None
        out = [deal.variant.decks] * 54
        for c in deal.hands[seat]:
            out[c] -= 1
        if deal.kitty_owner == seat and not deal.kitty_revealed:
            for c in deal.buried:
                out[c] -= 1
        voids: list[set[int]] = [set() for _ in range(deal.n)]
        tricks = list(deal.tricks)
        if deal.trick is not None:
            tricks.append(deal.trick)
        for t in tricks:
            if not t.plays:
                continue
            lead = t.plays[0][1]
            suit, size = ctx.suit_index(lead[0]), len(lead)
            for s, cards in t.plays:
                for c in cards:
                    out[c] -= 1
                if sum(1 for c in cards if ctx.suit_index(c) == suit) < size:
                    voids[s].add(suit)
        self.out = out
        self.voids = voids

    def boss(self, ctx: Any, card: int, width: int) -> bool:
        """Can no other hand beat ``card`` (``width`` = 2: a pair of it) in its own suit?"""
        suit = ctx.suit_index(card)
        above = ctx.positions[suit][ctx.pos_tab[card] + 1 :]
        return all(self.out[x] < width for cards in above for x in cards)

    def void(self, seat: int, suit: int) -> bool:
        return suit in self.voids[seat]

    def ruffable(self, deal: Deal, seat: int, suit: int) -> bool:
        """Has a seat not on ``seat``'s side shown it is out of ``suit``?"""
        return any(
            suit in self.voids[s] and not _friendly(deal, seat, s)
            for s in range(deal.n)
            if s != seat
        )


def _friendly(deal: Deal, seat: int, other: int) -> bool:
    """Is ``other`` on ``seat``'s side as far as ``seat`` can tell? Red five: from the revealed
    friend only (a 死拼 friend known to the engine is not known to the table); a seat holding a
    copy of the pending friend card treats the dealer as its partner."""
    if deal.variant.fixed_sides:
        return other % 2 == seat % 2
    dealer = deal.dealer
    friend = deal.friend if deal.friend_revealed else None
    if seat == dealer:
        return other in (seat, friend)
    if seat == friend:
        return other in (seat, dealer)
    if friend is not None:
        return other not in (dealer, friend)
    if deal.friend_card is not None and deal.friend_card in deal.hands[seat]:
        return other in (seat, dealer)
    return other == seat


def _keep_back_friend_card(deal: Deal, seat: int) -> bool:
    """Red five: would playing the friend card now be 抢伴 (it is a side-suit card, not yet
    played by anyone but the dealer, and the seat holds more of its suit)? A careful player
    keeps it back: if the dealer's side loses, 抢伴 swaps the dealer's and friend's scores."""
    fc = deal.friend_card
    ctx = deal.ctx
    if fc is None or ctx is None or seat == deal.dealer or deal.friend_revealed:
        return False
    hand = deal.hands[seat]
    if fc not in hand or ctx.is_trump(fc):
        return False
    suit = ctx.suit_index(fc)
    return sum(1 for c in hand if ctx.suit_index(c) == suit) > 1


def make_bots(kind: str, players: int, seed: int = 0) -> list[RandomBot]:
    """One bot per seat: ``kind`` is ``random`` or ``heuristic``."""
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 6:
        raise EngineError("bots.players", got=repr(players))
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise EngineError("seed.type", got=repr(seed))
    if kind == "random":
        return [RandomBot(seed * 1000 + s) for s in range(players)]
    if kind == "heuristic":
        return [HeuristicBot(seed * 1000 + s) for s in range(players)]
    raise IllegalAction("bots.kind", got=repr(kind))


def play_deal(deal: Deal, bots: Sequence[RandomBot]) -> Deal:
    """Run the deal to its end with one bot per seat."""
    if not isinstance(deal, Deal):
        raise EngineError("bots.deal_type", got=repr(deal))
    if not isinstance(bots, Sequence) or not all(isinstance(b, RandomBot) for b in bots):
        raise EngineError("bots.list_type", got=repr(bots))
    if len(bots) != deal.n:
        raise IllegalAction("bots.count", variant=deal.variant.id, need=deal.n, got=len(bots))
    d: Deal = deal  # checked: typed locals (see RandomBot.act)
    seated: list[RandomBot] = list(bots)
    while d.outcome is None:
        if d.phase == "draw":
            drew = d.draw().seat
            if d.can_call_now(drew):
                call = seated[drew].on_draw(d, drew)
                if call is not None:
                    d.call(drew, call)
            continue
        seat = d.to_act
        assert seat is not None
        _perform(d, seated[seat].act(d, seat))
    return d
