"""``HundredMCBot`` (``mc`` for the 打百分 family): determinized Monte Carlo search on what one
seat may see, as ``engine.mcbot`` does for the trick games.

For each play the bot reads the seat's view (``hundred_seat_view``: its hand, the public table,
the dummy once shown, the kitty and the burial when the seat may see them) — never the deal's
hidden hands — and

1. samples *worlds*: the hidden cards dealt to the hidden hands and to the buried kitty when
   the seat has not seen it, consistent with everything the seat has seen: the cards played,
   the hand sizes, the groups a hand showed it is out of (it did not follow; to a horizontal
   throw, a group missing from its four cards), the friend card (with the mode: who may hold
   it, or that the friend is known), 40分下台's turned card in a first deal (its drawer
   declares), and the auction: among a few deals that fit the rest, one is drawn in proportion
   to how likely each bid and pass was for the hands it gives (the heuristic's bidding rule,
   made soft);
2. plays every candidate out in each world with heuristic rollouts, the same worlds and the same
   rollout seeds for every candidate;
3. picks the candidate with the best mean result for the seat (its 积分 or units of the deal,
   the attackers' points as a tie-breaker), the heuristic's play standing unless another does
   clearly better (``engine.mcbot.run_search``).

The budget is ``engine.mcbot``'s: ``samples`` worlds per move (repeatable, whatever the
machine's speed), or a time box of ``time_per_move`` seconds on an injected ``clock``;
``DEFAULT_SAMPLES`` when no clock is given. The auction, trump, the friend card and the burial
are the heuristic's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import hundred_rules as hr
from .cards import LJ, card_points, parse_card
from .errors import EngineError
from .hundred import DUMMY, PLAY, HundredDeal, HundredSetup, hundred_seat_view
from .hundred_bots import HeuristicHundredBot, random_follow, suit_strength
from .mcbot import DEFAULT_SAMPLES, Clock, SearchStats, check_search_options, run_search

KITTY_SLOT = 4  # the holder index of the buried kitty in a sampled world
AUCTION_DRAWS = 4  # deals drawn per world to weigh by the auction
BID_SLOPE = 1.5  # how sharply a bid or a pass tells a hand's strength (per point of strength)
BID_THRESHOLD = HeuristicHundredBot().threshold  # the strength at which the heuristic bids 60


@dataclass
class HundredKnowledge:
    """What one seat knows during the play, read from its view."""

    variant: str
    options: dict[str, Any]
    seat: int
    hand_index: int  # the hand whose turn it is (the dummy's for 3人百分's declarer)
    own: dict[int, list[int]]  # the hands the seat sees: its own, the dummy once shown
    hand_counts: list[int]
    first: int
    declarer: int
    bid: int | None
    trump: int
    friend_mode: str
    friend_card: int | None
    friend: int | None  # the friend as the seat knows it
    alone: bool | None
    turned: int | None
    first_deal: bool
    buried: list[int] | None  # None: not seen
    kitty: list[int] | None  # the kitty as taken, when seen
    tricks: list[tuple[list[tuple[int, tuple[int, ...]]], int]]
    trick: list[tuple[int, tuple[int, ...]]]
    won_points: list[int]
    auction: list[tuple[int, int | None]]
    played_by: list[list[int]] = field(default_factory=list)
    voids: list[set[int]] = field(default_factory=list)  # groups (4 = trumps) per hand

    @property
    def players(self) -> int:
        return 3 if self.variant == hr.HUNDRED_3P else 4

    @property
    def played(self) -> list[int]:
        out = [c for plays, _ in self.tricks for _, cs in plays for c in cs]
        return out + [c for _, cs in self.trick for c in cs]


def _plays(raw: Any) -> list[tuple[int, tuple[int, ...]]]:
    return [(p["hand"], tuple(parse_card(c) for c in p["cards"])) for p in raw]


def _cards(raw: Any) -> list[int] | None:
    return None if raw is None else [parse_card(c) for c in raw]


def read_hundred_view(view: dict[str, Any], first_deal: bool = False) -> HundredKnowledge:
    """The facts a seat's view (of the play phase) gives for sampling. ``first_deal``: the deal
    is a first deal (public: in 40分下台 the turned card's drawer then declares)."""
    if not isinstance(view, dict) or view.get("phase") != PLAY or view.get("seat") is None:
        raise EngineError("bots.view_phase")
    variant = hr.make_hundred_variant(view["variant"], view["options"])
    seat = view["seat"]
    declarer = view["declarer"]
    trump = hr.check_trump(view["trump"])
    own = {seat: [parse_card(c) for c in view["hand"]]}
    dummy = _cards(view["dummy"])
    if dummy is not None:
        own[DUMMY] = dummy
    buried = _cards(view["buried"])
    auction = view["auction"]
    k = HundredKnowledge(
        variant=variant.id,
        options=dict(variant.options),
        seat=seat,
        hand_index=view["turn_hand"] if view["turn_hand"] is not None else seat,
        own=own,
        hand_counts=list(view["hand_counts"]),
        first=view["first"],
        declarer=declarer,
        bid=view["bid"],
        trump=trump,
        friend_mode=variant.friend_mode,
        friend_card=None if view["friend_card"] is None else parse_card(view["friend_card"]),
        friend=view["friend"],
        alone=view["alone"],
        turned=None if view["turned"] is None else parse_card(view["turned"]),
        first_deal=first_deal,
        buried=buried,
        kitty=_cards(view["kitty"]),
        tricks=[(_plays(t["plays"]), t["winner"]) for t in view["tricks"]],
        trick=_plays(view["trick"]),
        won_points=list(view["won_points"]),
        auction=[] if auction is None else [(e["seat"], e["bid"]) for e in auction["entries"]],
    )
    k.played_by = [[] for _ in range(4)]
    k.voids = [set() for _ in range(4)]
    for plays in [p for p, _ in k.tricks] + ([k.trick] if k.trick else []):
        for h, cs in plays:
            k.played_by[h].extend(cs)
        lead = plays[0][1]
        sh = hr.shape(lead, trump)
        for h, cs in plays[1:]:
            shown = {hr.group(c, trump) for c in cs}
            if sh.combo == hr.HORIZONTAL:
                # a horizontal throw is followed by one card of every group still held
                k.voids[h].update(g for g in _groups_of(trump) if g not in shown)
            elif sh.group is not None and sum(
                1 for c in cs if hr.group(c, trump) == sh.group
            ) < len(lead):
                k.voids[h].add(sh.group)  # it did not follow in full: none of it is left
    return k


def _groups_of(trump: int) -> list[int]:
    """The four groups of a deal: the three side suits and the trumps."""
    return [g for g in range(4) if g != trump] + [hr.TRUMP]


def hidden_holders(k: HundredKnowledge) -> list[int]:
    """The holders the seat cannot see: hands (0..3) and the buried kitty (``KITTY_SLOT``)."""
    out = [h for h in range(4) if h not in k.own and k.hand_counts[h] > 0]
    if k.buried is None:
        out.append(KITTY_SLOT)
    return out


def unknown_cards(k: HundredKnowledge) -> list[int]:
    """The cards the seat cannot place: the deck less what it sees and what was played."""
    seen = set(k.played)
    for cs in k.own.values():
        seen.update(cs)
    if k.buried is not None:
        seen.update(k.buried)
    return [c for c in range(54) if c not in seen]


def allowed_holders(k: HundredKnowledge, card: int, holders: Sequence[int]) -> list[int]:
    """The hidden holders that may hold ``card``: a hand not void in its group, narrowed for
    the friend card and 40分下台's turned card by what the seat knows of them."""
    g = hr.group(card, k.trump)
    out = [h for h in holders if h == KITTY_SLOT or g not in k.voids[h]]
    d = k.declarer
    if card == k.friend_card:
        if k.friend is not None:
            out = [h for h in out if h == k.friend]
        elif k.friend_mode != hr.BLIND or k.alone is False:
            # named after the burial (or the declarer has seen it is not in the kitty): a
            # card the declarer neither held nor buried, so another seat's
            out = [h for h in out if h not in (d, KITTY_SLOT)]
    if card == k.turned and k.first_deal and k.variant == hr.FORTY_4P:
        out = [h for h in out if h in (d, KITTY_SLOT)]  # its drawer declares, then buries
    return out


def _deal_cards(
    k: HundredKnowledge, cards: list[int], holders: list[int], rng: random.Random
) -> dict[int, list[int]] | None:
    """One deal of ``cards`` to ``holders`` by their sizes, every card where it may be."""
    cap = {h: (hr.KITTY if h == KITTY_SLOT else k.hand_counts[h]) for h in holders}
    allowed = {c: allowed_holders(k, c, holders) for c in cards}
    for _ in range(12):
        room = dict(cap)
        out: dict[int, list[int]] = {h: [] for h in holders}
        order = list(cards)
        rng.shuffle(order)
        order.sort(key=lambda c: len(allowed[c]))  # the most constrained first
        ok = True
        for c in order:
            hs = [h for h in allowed[c] if room[h] > 0]
            if not hs:
                ok = False
                break
            h = rng.choices(hs, weights=[room[x] for x in hs])[0]
            out[h].append(c)
            room[h] -= 1
        if ok:
            return out
    return _match(cards, allowed, cap, rng)


def _match(
    cards: list[int], allowed: dict[int, list[int]], cap: dict[int, int], rng: random.Random
) -> dict[int, list[int]] | None:
    """A deal by augmenting paths (cards to holders with room) when the greedy deal keeps
    failing; ``None`` when none fits (the view contradicts itself)."""
    held: dict[int, list[int]] = {h: [] for h in cap}
    order = list(cards)
    rng.shuffle(order)

    def place(c: int, seen: set[int], old: int | None = None) -> bool:
        """Put ``c`` in a holder other than ``old``, moving others along a path if need be."""
        hs = list(allowed[c])
        rng.shuffle(hs)
        for h in hs:
            if h == old or h in seen:
                continue
            seen.add(h)
            if len(held[h]) < cap[h]:
                held[h].append(c)
                return True
            for other in list(held[h]):
                if place(other, seen, h):
                    held[h].remove(other)
                    held[h].append(c)
                    return True
        return False

    for c in order:
        if not place(c, set()):
            return None
    return held


def sample_hundred_world(
    k: HundredKnowledge, rng: random.Random
) -> tuple[list[list[int]], list[int]]:
    """One deal of the unknown cards that agrees with everything the seat knows: the four
    hands (the seen ones as they are) and the buried kitty. With an auction, the deal is drawn
    among ``AUCTION_DRAWS`` that fit the rest, in proportion to how well each explains it."""
    cards = unknown_cards(k)
    holders = hidden_holders(k)
    need = sum(hr.KITTY if h == KITTY_SLOT else k.hand_counts[h] for h in holders)
    if need != len(cards):
        raise EngineError("bots.view_cards")
    draws = AUCTION_DRAWS if _auction_tells(k) else 1
    options: list[tuple[list[list[int]], list[int]]] = []
    weights: list[float] = []
    for _ in range(draws):
        dealt = _deal_cards(k, cards, holders, rng)
        if dealt is None:
            raise EngineError("bots.view_cards")
        hands = [list(k.own.get(h, dealt.get(h, []))) for h in range(4)]
        buried = list(k.buried) if k.buried is not None else dealt[KITTY_SLOT]
        options.append((hands, buried))
        if draws > 1:
            weights.append(auction_likelihood(k, hands, buried))
    if draws == 1:
        return options[0]
    if sum(weights) <= 0:
        return options[0]
    return rng.choices(options, weights=weights)[0]


def _auction_tells(k: HundredKnowledge) -> bool:
    """Whether any other seat's bid or pass is worth weighing."""
    return any(s != k.seat for s, _ in k.auction)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def bidding_strength(cards: Sequence[int], scale: float = 1.0) -> float:
    """The heuristic's measure of a hand for bidding: its best suit as trump plus its points."""
    best = max(suit_strength(cards, s) for s in range(4))
    return (best + sum(card_points(c) for c in cards) / 40.0) * scale


def auction_likelihood(
    k: HundredKnowledge, hands: Sequence[Sequence[int]], buried: list[int]
) -> float:
    """How likely the other seats' bids and passes were with these hands, by the heuristic's
    rule made soft: a bid of B from a hand of strength s ≥ 6 + (B − 60) / 10, a pass below the
    lowest bid open to it. The declarer's hand at the auction lacked the kitty: its cards now
    with those played and buried, less the kitty when seen (else scaled to 12 of 18)."""
    strength: dict[int, float] = {}
    for s in range(k.players):
        if s == k.seat:
            continue
        cards = list(hands[s]) + k.played_by[s]
        scale = 1.0
        if s == k.declarer:
            cards += buried
            if k.kitty is not None:
                cards = [c for c in cards if c not in k.kitty]
            else:
                scale = hr.HAND / (hr.HAND + hr.KITTY)
        strength[s] = bidding_strength(cards, scale)
    threshold = BID_THRESHOLD
    p = 1.0
    standing: int | None = None
    for s, b in k.auction:
        lowest = hr.MIN_BID if standing is None else standing + hr.BID_STEP
        if s != k.seat and s in strength:
            if b is None:
                need = threshold + (lowest - hr.MIN_BID) / 10.0
                p *= 1.0 - _sigmoid(BID_SLOPE * (strength[s] - need))
            else:
                need = threshold + (b - hr.MIN_BID) / 10.0
                p *= _sigmoid(BID_SLOPE * (strength[s] - need))
        if b is not None:
            standing = b
    return p


def build_hundred_world(
    k: HundredKnowledge, hands: Sequence[Sequence[int]], buried: Sequence[int]
) -> HundredDeal:
    """A deal in the play phase with the public state of the view and these hidden cards."""
    d = HundredDeal(HundredSetup(k.variant, dict(k.options), 0, k.first))
    d.phase = PLAY
    d.declarer = k.declarer
    d.bid = k.bid
    d.trump = k.trump
    d.kitty_taken = True
    d.hands = [list(h) for h in hands]
    d.buried = list(buried)
    d.kitty = list(buried) if k.kitty is None else list(k.kitty)
    d.turned = k.turned
    fc = k.friend_card
    d.friend_card = fc
    if fc is None:
        d.friend = None
    elif k.friend is not None:
        d.friend = k.friend
    else:  # the seat holding the card in this world (none: the declarer is alone)
        d.friend = next((s for s in range(4) if s != k.declarer and fc in d.hands[s]), None)
    played = k.played
    d.friend_revealed = fc is not None and (k.friend_mode == hr.SHOWN or fc in played)
    d.tricks = [(tuple(plays), w) for plays, w in k.tricks]
    d.trick = [(h, list(cs)) for h, cs in k.trick]
    if k.trick:
        d.leader = k.trick[0][0]
    elif k.tricks:
        d.leader = k.tricks[-1][1]
    else:
        d.leader = k.declarer
    d.won_points = list(k.won_points)
    d.played = played
    d.log = []
    return d


def hundred_utility(d: HundredDeal, seat: int) -> float:
    """How good the finished world is for ``seat``: its 积分 (fixed pairs: units) of the deal,
    plus the attackers' points as a small tie-breaker for its side."""
    r = d.result
    assert r is not None and r.scores is not None
    total = r.total or 0
    attacker = seat in d.attackers()
    return r.scores[seat] + 0.5 * (total if attacker else -total) / 100.0


def hundred_candidates(
    d: HundredDeal, seat: int, hand: int, rng: random.Random, extra: Sequence[list[int]]
) -> list[list[int]]:
    """The plays worth searching (``extra`` first, at most 8): leading, each group's highest
    and cheapest card, the group's longest run of cards no unseen card beats (a vertical
    throw), a horizontal throw; following a single, the highest, lowest, cheapest and richest
    legal card and the lowest and highest trump; following more, a few random legal follows."""
    assert d.trump is not None
    t = d.trump
    cards = d.hands[hand]
    out: list[list[int]] = [list(e) for e in extra]
    if not d.trick:
        groups: dict[int, list[int]] = {}
        for c in cards:
            groups.setdefault(hr.group(c, t), []).append(c)
        gone = set(d.played) | set(cards)
        for g, cs in groups.items():
            cs.sort(key=lambda c: hr.strength(c, t))
            out.append([cs[-1]])
            out.append([min(cs, key=lambda c: (card_points(c), hr.strength(c, t)))])
            others = [x for x in range(54) if hr.group(x, t) == g and x not in gone]
            top = max((hr.strength(x, t) for x in others), default=-1)
            masters = [c for c in cs if hr.strength(c, t) > top]
            if len(masters) >= 2:
                out.append(masters)
        by_rank: dict[int, list[int]] = {}
        for c in cards:
            if c < LJ:
                by_rank.setdefault(c % 13, []).append(c)
        out += [cs for cs in by_rank.values() if len(cs) == 4]
    else:
        lead = d.trick[0][1]
        if len(lead) == 1:
            ok = sorted(
                (c for c in cards if hr.follow_reason(lead, cards, [c], t) is None),
                key=lambda c: hr.strength(c, t),
            )
            trumps = [c for c in ok if hr.group(c, t) == hr.TRUMP]
            out += [[ok[-1]], [ok[0]]]
            out.append([min(ok, key=lambda c: (card_points(c), hr.strength(c, t)))])
            out.append([max(ok, key=lambda c: (card_points(c), -hr.strength(c, t)))])
            if trumps:
                out += [[trumps[0]], [trumps[-1]]]
        else:
            for _ in range(6):
                out.append(random_follow(rng, lead, cards, t))
    seen: set[tuple[int, ...]] = set()
    uniq: list[list[int]] = []
    for cand in out:
        key = tuple(sorted(cand))
        if key not in seen and d.can_play(seat, cand):
            seen.add(key)
            uniq.append(cand)
    return uniq[:8]


class HundredMCBot(HeuristicHundredBot):
    """Determinized Monte Carlo search for the play of 打百分 (see the module text)."""

    name = "mc"

    def __init__(
        self,
        seed: int = 0,
        time_per_move: float = 1.0,
        samples: int | None = None,
        clock: Clock | None = None,
        max_samples: int = 400,
        prior: float = 0.3,
    ) -> None:
        super().__init__(seed)
        check_search_options(time_per_move, samples, "heuristic")
        self.time_per_move = float(time_per_move)
        self.samples = samples
        self.clock: Clock | None = clock
        if clock is None and samples is None:
            self.samples = DEFAULT_SAMPLES  # no clock, no time box: a fixed search
        self.max_samples = max_samples
        self.prior = prior
        self.last = SearchStats()

    def _now(self) -> float:
        return 0.0 if self.clock is None else self.clock()

    def play(self, deal: HundredDeal, seat: int, hand: int) -> list[int]:
        # the deal is consulted for nothing but the seat's view and whether it is a first deal
        view = hundred_seat_view(deal, seat)
        return self.choose_from_view(view, deal.setup.declarer is None)

    def choose_from_view(self, view: dict[str, Any], first_deal: bool = False) -> list[int]:
        """The play for the seat whose view this is (its turn to play)."""
        start = self._now()
        k = read_hundred_view(view, first_deal)
        seat, hand = k.seat, k.hand_index
        rng = self.rng
        world = build_hundred_world(k, *sample_hundred_world(k, rng))
        heur = HeuristicHundredBot.play(self, world, seat, hand)
        cands = hundred_candidates(world, seat, hand, rng, [heur])
        self.last = SearchStats(candidates=len(cands))
        if len(cands) <= 1 or len(world.hands[hand]) == 1:
            self.last.seconds = self._now() - start
            return cands[0] if cands else heur
        best = run_search(
            cands,
            world,
            lambda: build_hundred_world(k, *sample_hundred_world(k, rng)),
            lambda w, cand, seeds: self._rollout(k, w, seat, cand, seeds),
            4,
            rng,
            self,
            start,
        )
        return cands[best]

    def _rollout(
        self, k: HundredKnowledge, world: HundredDeal, seat: int, cand: list[int], seeds: list[int]
    ) -> float:
        d = build_hundred_world(k, world.hands, world.buried)
        d.play(seat, cand)
        bots = [HeuristicHundredBot(s) for s in seeds]
        while d.result is None:
            s = d.to_act
            hand = d.turn_hand
            assert s is not None and hand is not None
            d.play(s, bots[s].play(d, s, hand))
        return hundred_utility(d, seat)
