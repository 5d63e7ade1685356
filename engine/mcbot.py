"""``MCBot`` (``mc``): determinized Monte Carlo search on what one seat may see.

For each play the bot reads the seat's view (``views.seat_view``: its hand, the public table,
the kitty it buried itself) — never the deal's hidden hands — and

1. samples *worlds*: the hidden cards dealt to the other hands (and to the kitty when the seat
   did not bury it), consistent with everything the seat has seen: the cards played, the hand
   sizes, the suits a seat showed it is out of (it did not follow), the cards a seat showed
   when calling and has not played since, its own buried kitty;
2. plays every candidate move out in each world with fast rollouts (``HeuristicBot`` or
   ``RandomBot`` at every seat) on the same worlds (common random numbers);
3. picks the candidate with the best average result for its side (levels, or 积分 in red five,
   with the card points as a tie-breaker).

It searches for as long as its time box allows (``time_per_move`` seconds, default 1 s, on the
``clock`` it is given: the arena passes this thread's CPU time, ``time.thread_time``, so a busy
machine does not shrink the search; a web request passes ``time.perf_counter``; tests pass a
fake clock) or for a fixed number of worlds (``samples``; ``DEFAULT_SAMPLES`` when no clock is
given — like the rest of the engine the bot reads no clock of its own). A world's round counts only when
every candidate was played out in it; with no complete round the heuristic's play stands. Calls, the burial and the friend card come from ``HeuristicBot``, which reads only
the seat's own hand and the public table.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from . import combos
from .bots import HeuristicBot, RandomBot, _complete, _follow_base
from .cards import card_points, full_pack, parse_card
from .deal import PLAY, Deal, DealSetup, Trick
from .errors import EngineError
from .order import TrumpContext
from .views import seat_view

Clock = Callable[[], float]
DEFAULT_SAMPLES = 20  # worlds per move when no clock is given
V = TypeVar("V")  # a sampled world
W = TypeVar("W")  # a candidate play


@dataclass
class Knowledge:
    """What one seat knows during the play, read from its view."""

    variant: str
    options: dict[str, Any]
    n: int
    seat: int
    hand: list[int]
    hand_sizes: list[int]
    dealer: int
    level: str
    trump: str | None
    levels: tuple[str, str]
    ctx: TrumpContext
    kitty_size: int
    kitty_owner: int | None
    buried: list[int] | None  # known only to the seat that buried them
    tricks: list[tuple[int, list[tuple[int, tuple[int, ...]]], int, int]]
    trick: tuple[int, list[tuple[int, tuple[int, ...]]]] | None
    won: list[int]
    failed_throws: list[int]
    friend_card: int | None
    friend_called: bool
    friend: int | None  # revealed friend
    played_by: list[list[int]] = field(default_factory=list)
    voids: list[set[int]] = field(default_factory=list)  # effective suit indexes (4 = trumps)
    must_hold: list[Counter[int]] = field(default_factory=list)


def _plays(raw: Any) -> list[tuple[int, tuple[int, ...]]]:
    return [(p["seat"], tuple(parse_card(c) for c in p["cards"])) for p in raw]


def read_view(view: dict[str, Any]) -> Knowledge:
    """The facts a seat's view gives for sampling (the view must be of the play phase)."""
    if not isinstance(view, dict) or view.get("phase") != PLAY or view.get("seat") is None:
        raise EngineError("bots.view_phase")
    from .variants import make_variant

    var = make_variant(view["variant"], view["options"])
    seat = view["seat"]
    n = var.players
    ctx = TrumpContext(var, view["level"], view["trump"])
    kitty = view["kitty"]
    buried = None
    if kitty["owner"] == seat and kitty["cards"] is not None:
        buried = [parse_card(c) for c in kitty["cards"]]
    tricks = [(t["leader"], _plays(t["plays"]), t["winner"], t["points"]) for t in view["tricks"]]
    cur = view["trick"]
    trick = None if cur is None else (cur["leader"], _plays(cur["plays"]))
    k = Knowledge(
        variant=var.id,
        options=dict(view["options"]),
        n=n,
        seat=seat,
        hand=[parse_card(c) for c in view["hand"]],
        hand_sizes=list(view["hand_sizes"]),
        dealer=view["dealer"],
        level=view["level"],
        trump=view["trump"],
        levels=(view["levels"][0], view["levels"][1]),
        ctx=ctx,
        kitty_size=kitty["size"],
        kitty_owner=kitty["owner"],
        buried=buried,
        tricks=tricks,
        trick=trick,
        won=list(view["won"]),
        failed_throws=list(view["failed_throws"]),
        friend_card=None if view["friend_card"] is None else parse_card(view["friend_card"]),
        friend_called=bool(view["friend_called"]),
        friend=view["friend"],
    )
    st = ctx.suit_tab
    k.played_by = [[] for _ in range(n)]
    k.voids = [set() for _ in range(n)]
    all_plays = [plays for _, plays, _, _ in tricks] + ([] if trick is None else [trick[1]])
    for plays in all_plays:
        for s, cs in plays:
            k.played_by[s].extend(cs)
        if not plays:
            continue
        lead = plays[0][1]
        suit = st[lead[0]]
        for s, cs in plays[1:]:
            if sum(1 for c in cs if st[c] == suit) < len(lead):
                k.voids[s].add(suit)  # it did not follow: it holds no more of that suit
    shown: list[Counter[int]] = [Counter() for _ in range(n)]
    for call in view["calls"]:
        s = call["seat"]
        if s is None:
            continue
        for c, m in Counter(parse_card(x) for x in call["cards"]).items():
            shown[s][c] = max(shown[s][c], m)
    k.must_hold = []
    for s in range(n):
        need: Counter[int] = Counter()
        if s != seat and s != k.kitty_owner:  # a burier may have buried what it showed
            need = shown[s] - Counter(k.played_by[s])
            need = Counter({c: m for c, m in need.items() if st[c] not in k.voids[s]})
        k.must_hold.append(need)
    return k


def unknown_cards(k: Knowledge) -> list[int]:
    """The cards the seat cannot place: the pack less its hand, the cards played and the
    kitty it buried."""
    from .variants import make_variant

    left = Counter(full_pack(make_variant(k.variant, k.options).decks))
    left.subtract(k.hand)
    for cs in k.played_by:
        left.subtract(cs)
    if k.buried is not None:
        left.subtract(k.buried)
    if any(m < 0 for m in left.values()):
        raise EngineError("bots.view_cards")
    return sorted(left.elements())


def sample_world(k: Knowledge, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """One deal of the unknown cards to the other hands and the hidden kitty that agrees with
    everything the seat knows: ``(hands, kitty)`` with the seat's own hand as it is."""
    pool = unknown_cards(k)
    n = k.n
    kitty_slot = n  # holder index of the hidden kitty
    cap = [0] * (n + 1)
    for s in range(n):
        if s != k.seat:
            cap[s] = k.hand_sizes[s]
    if k.buried is None:
        cap[kitty_slot] = k.kitty_size
    if sum(cap) != len(pool):
        raise EngineError("bots.view_cards")
    st = k.ctx.suit_tab
    voids = k.voids
    for attempt in range(40):
        use_voids = attempt < 30
        if attempt == 10:  # the greedy deal keeps failing: a deal by flow always fits
            fitted = _fit_by_flow(k, pool, cap, rng)
            if fitted is not None:
                return fitted
        hands: list[list[int]] = [[] for _ in range(n + 1)]
        room = list(cap)
        rest = Counter(pool)
        for s in range(n):  # cards shown in a call and not played since
            for c, m in k.must_hold[s].items():
                m = min(m, rest[c], room[s])
                if m > 0:
                    hands[s].extend([c] * m)
                    room[s] -= m
                    rest[c] -= m
        cards = list(rest.elements())
        rng.shuffle(cards)

        def holders(c: int, room: list[int] = room, use_voids: bool = use_voids) -> list[int]:
            su = st[c]
            return [
                h
                for h in range(n + 1)
                if room[h] > 0 and (h == kitty_slot or not use_voids or su not in voids[h])
            ]

        elig = {c: len(holders(c)) for c in set(cards)}
        cards.sort(key=lambda c: elig[c])  # the most constrained cards first
        ok = True
        for c in cards:
            hs = holders(c)
            if not hs:
                ok = False
                break
            h = rng.choices(hs, weights=[room[x] for x in hs])[0]
            hands[h].append(c)
            room[h] -= 1
        if ok:
            out = hands[:n]
            out[k.seat] = list(k.hand)
            kitty = hands[kitty_slot] if k.buried is None else list(k.buried)
            return out, kitty
    raise EngineError("bots.view_cards")  # pragma: no cover - the constraints always fit


def _fit_by_flow(
    k: Knowledge, pool: list[int], cap: list[int], rng: random.Random
) -> tuple[list[list[int]], list[int]] | None:
    """A deal of ``pool`` that keeps every void and every card shown in a call, when the
    greedy deal does not find one: how many cards of each suit each holder gets is a maximum
    flow (suits → holders that may hold them → each holder's room), explored in a random
    order; the cards of each suit are then shuffled into those counts. ``None`` when no deal
    fits (the view contradicts itself)."""
    n = k.n
    kitty_slot = n
    st = k.ctx.suit_tab
    hands: list[list[int]] = [[] for _ in range(n + 1)]
    room = list(cap)
    rest = Counter(pool)
    for s in range(n):
        for c, m in k.must_hold[s].items():
            m = min(m, rest[c], room[s])
            if m > 0:
                hands[s].extend([c] * m)
                room[s] -= m
                rest[c] -= m
    by_suit: dict[int, list[int]] = {}
    for c in rest.elements():
        by_suit.setdefault(st[c], []).append(c)
    suits = list(by_suit)
    rng.shuffle(suits)
    flow: dict[tuple[int, int], int] = {}
    left = {su: len(by_suit[su]) for su in suits}

    def may(su: int, h: int) -> bool:
        return h == kitty_slot or (h != k.seat and su not in k.voids[h])

    def augment(su: int, seen: set[int]) -> bool:
        """One more card of suit ``su`` placed, moving others along a path if need be."""
        order = list(range(n + 1))
        rng.shuffle(order)
        for h in order:
            if h in seen or not may(su, h):
                continue
            seen.add(h)
            if room[h] > 0:
                room[h] -= 1
                flow[su, h] = flow.get((su, h), 0) + 1
                return True
            for other in suits:  # h is full: move one of its cards of another suit elsewhere
                if other != su and flow.get((other, h), 0) > 0 and augment(other, seen):
                    flow[other, h] -= 1
                    flow[su, h] = flow.get((su, h), 0) + 1
                    return True
        return False

    for su in suits:
        while left[su] > 0:
            if not augment(su, set()):
                return None
            left[su] -= 1
    for su in suits:
        cards = by_suit[su]
        rng.shuffle(cards)
        i = 0
        for h in range(n + 1):
            m = flow.get((su, h), 0)
            hands[h].extend(cards[i : i + m])
            i += m
    out = hands[:n]
    out[k.seat] = list(k.hand)
    kitty = hands[kitty_slot] if k.buried is None else list(k.buried)
    return out, kitty


def build_world(k: Knowledge, hands: Sequence[Sequence[int]], kitty: Sequence[int]) -> Deal:
    """A deal in the play phase with the public state of the view and the given hidden cards."""
    setup = DealSetup(k.variant, k.options, 0, k.levels, dealer=k.dealer, first=False)
    d = Deal(setup)
    d.phase = PLAY
    d.dealer = k.dealer
    d.level = k.level
    d.trump = k.trump
    d.trump_set = True
    d.ctx = k.ctx
    d.hands = [list(h) for h in hands]
    d.drawn = d.to_deal
    d.buried = list(kitty)
    d.kitty_owner = k.kitty_owner
    d.burials = 1
    d.burier = None
    d.friend_card = k.friend_card
    d.friend_called = k.friend_called
    d.friend = k.friend
    d.friend_revealed = k.friend is not None
    fc = k.friend_card
    if fc is not None and k.friend is None:
        # 死拼: the dealer held two copies when calling; the third copy's holder is the friend
        held = d.hands[k.dealer].count(fc) + k.played_by[k.dealer].count(fc)
        if held == 2:
            for s in range(k.n):
                if s != k.dealer and fc in d.hands[s]:
                    d.friend = s
    for leader, plays, winner, points in k.tricks:
        t = Trick(leader, list(plays), winner, points)
        d.tricks.append(t)
    if k.trick is None:  # pragma: no cover - a play-phase view always has a trick
        d.trick = Trick(k.dealer)
    else:
        leader, plays = k.trick
        d.trick = Trick(leader, list(plays))
        if plays:
            d.trick.lead_comps = combos.lead_components(list(plays[0][1]), k.ctx)
    d.won = list(k.won)
    d.failed_throws = list(k.failed_throws)
    # the cards each failed throw took back (ten_per_card): not in the seat's view, one each
    # is the least a failed throw takes back
    d.failed_throw_cards = [1] * len(d.failed_throws)
    d.window = []
    return d


def _clone(world: Deal) -> Deal:
    """A copy of a play-phase world that a rollout may change."""
    d = copy.copy(world)
    d.hands = [list(h) for h in world.hands]
    d.tricks = list(world.tricks)
    assert world.trick is not None
    t = world.trick
    d.trick = Trick(t.leader, list(t.plays), None, 0, t.lead_comps)
    d.won = list(world.won)
    d.failed_throws = list(world.failed_throws)
    d.failed_throw_cards = list(world.failed_throw_cards)
    d.log = []
    return d


def utility(d: Deal, seat: int) -> float:
    """How good the finished world ``d`` is for ``seat``'s side: levels won (minus lost), or
    红五's 积分, plus the card points as a small tie-breaker."""
    r = d.result
    assert r is not None and d.dealer is not None
    attacker = d.is_attacker(seat)
    total = r.total or 0  # None only for a deal a penalty ended (never in a rollout)
    pts = (total if attacker else -total) / 100.0
    if r.scores is not None:
        return r.scores[seat] + pts * 0.5
    lv = r.levels or 0
    mine = (r.winner == "attackers") == attacker
    return (lv if mine else -lv) + pts


def candidates(
    d: Deal, seat: int, rng: random.Random, extra: Sequence[list[int]] = (), limit: int = 8
) -> list[list[int]]:
    """The plays worth searching (``extra`` first, at most ``limit``): leading, the largest
    pair or tractor of each suit, then its highest card, then its cheapest; following a single,
    the highest, lowest, cheapest and richest playable card and the lowest and highest trump;
    following more cards, a few random legal follows."""
    assert d.trick is not None and d.ctx is not None
    ctx = d.ctx
    hand = d.hands[seat]
    out: list[list[int]] = [list(e) for e in extra]
    if not d.trick.plays:
        by_suit: dict[int, list[int]] = {}
        for c in hand:
            by_suit.setdefault(ctx.suit_tab[c], []).append(c)
        highs: list[list[int]] = []
        multis: list[list[int]] = []
        lows: list[list[int]] = []
        for cs in by_suit.values():
            distinct = sorted(set(cs), key=ctx.strength)
            highs.append([distinct[-1]])
            lows.append([min(distinct, key=lambda c: (card_points(c), ctx.strength(c)))])
            multi = [comp for comp in combos.decompose(cs, ctx) if comp.size >= 2]
            if multi:
                multis.append(max(multi, key=lambda comp: (comp.size, comp.top)).cards())
        out += multis + highs + lows
    else:
        n = len(d.trick.plays[0][1])
        if n == 1:
            ok = sorted(set(d.playable_cards(seat)), key=ctx.strength)
            trumps = [c for c in ok if ctx.suit_tab[c] == 4]
            out += [[ok[-1]], [ok[0]]]
            out.append([min(ok, key=lambda c: (card_points(c), ctx.strength(c)))])
            out.append([max(ok, key=lambda c: (card_points(c), -ctx.strength(c)))])
            if trumps:
                out += [[trumps[0]], [trumps[-1]]]
        else:
            suit, other, core = _follow_base(d, seat)
            for _ in range(6):
                out.append(_complete(rng, n, suit, other, core))
    seen: set[tuple[int, ...]] = set()
    uniq: list[list[int]] = []
    for cand in out:
        key = tuple(sorted(cand))
        if key not in seen and d.can_play(seat, cand):
            seen.add(key)
            uniq.append(cand)
    return uniq[:limit]


@dataclass
class SearchStats:
    worlds: int = 0
    candidates: int = 0
    rollouts: int = 0
    seconds: float = 0.0
    means: dict[tuple[int, ...], float] = field(default_factory=dict)


def check_search_options(time_per_move: object, samples: object, rollout: object) -> None:
    """Refuse a search bot's options: the time box not a number of seconds, ``samples`` not
    ``None`` nor a whole number 1 or more, a rollout policy other than heuristic or random."""
    if isinstance(time_per_move, bool) or not isinstance(time_per_move, int | float):
        raise EngineError(
            "bots.option",
            name="time_per_move",
            what="a number of seconds",
            got=repr(time_per_move),
        )
    if samples is not None and (
        isinstance(samples, bool) or not isinstance(samples, int) or samples < 1
    ):
        raise EngineError(
            "bots.option", name="samples", what="a whole number, 1 or more", got=repr(samples)
        )
    if rollout not in ("heuristic", "random"):
        raise EngineError("bots.kind", got=repr(rollout))


class Searcher(Protocol):
    """What ``run_search`` reads of a search bot: its budget, clock and prior, and ``last``."""

    samples: int | None
    max_samples: int
    time_per_move: float
    prior: float
    last: SearchStats

    def _now(self) -> float: ...


def run_search(
    cands: Sequence[W],
    world: V,
    draw_world: Callable[[], V],
    rollout: Callable[[V, W, list[int]], float],
    players: int,
    rng: random.Random,
    bot: Searcher,
    start: float,
) -> int:
    """The index of the candidate to play (at least two): each candidate played out in the
    same worlds with the same rollout seeds (``world`` the first, ``draw_world`` the next
    ones), for ``bot.samples`` worlds, or while ``bot``'s time box allows; a world counts only
    when every candidate was played out in it. The heuristic's play (candidate 0) stands
    unless another does clearly better, or when no world was complete. ``bot.last`` gets the
    search's figures."""
    totals = [0.0] * len(cands)
    worlds = 0
    limit = bot.samples if bot.samples is not None else bot.max_samples
    while worlds < limit:
        if worlds:
            world = draw_world()
        seeds = [rng.getrandbits(32) for _ in range(players)]
        round_totals = []
        for cand in cands:
            round_totals.append(rollout(world, cand, seeds))
            if bot.samples is None and bot._now() - start >= bot.time_per_move:
                break  # out of time: this round is incomplete, so it does not count
        if len(round_totals) < len(cands):
            break
        for i, u in enumerate(round_totals):
            totals[i] += u
        worlds += 1
        if bot.samples is None:
            spent = bot._now() - start
            # stop before a round that would overrun the time box
            if spent + spent / worlds > bot.time_per_move:
                break
    if worlds == 0:  # not even one world in the time box: the heuristic's play
        bot.last.seconds = bot._now() - start
        return 0
    # the heuristic's play (candidate 0) stands unless another does clearly better on
    # these worlds: with few worlds a lucky rollout is not evidence
    margin = bot.prior / worlds**0.5
    best = max(range(len(cands)), key=lambda i: totals[i] + (margin * worlds if i == 0 else 0))
    bot.last.worlds = worlds
    bot.last.rollouts = worlds * len(cands)
    bot.last.seconds = bot._now() - start
    bot.last.means = {_key(c): totals[i] / worlds for i, c in enumerate(cands)}
    return best


def _key(cand: Any) -> tuple[int, ...]:
    return tuple(sorted(cand))


class MCBot(HeuristicBot):
    """Determinized Monte Carlo search for the play (see the module text)."""

    name = "mc"

    def __init__(
        self,
        seed: int = 0,
        time_per_move: float = 1.0,
        samples: int | None = None,
        rollout: str = "heuristic",
        clock: Clock | None = None,
        max_samples: int = 400,
        prior: float = 0.3,
    ) -> None:
        super().__init__(seed)
        check_search_options(time_per_move, samples, rollout)
        self.time_per_move = float(time_per_move)
        self.samples = samples
        self.rollout = rollout
        self.clock: Clock | None = clock
        if clock is None and samples is None:
            self.samples = DEFAULT_SAMPLES  # no clock, no time box: a fixed search
        self.max_samples = max_samples
        self.prior = prior
        self.last = SearchStats()

    def _choose_play(self, deal: Deal, seat: int) -> list[int]:
        # the deal is consulted for nothing but the seat's view
        return self.choose_from_view(seat_view(deal, seat))

    def _now(self) -> float:
        return 0.0 if self.clock is None else self.clock()

    def choose_from_view(self, view: dict[str, Any]) -> list[int]:
        """The play for the seat whose view this is (its turn to play)."""
        start = self._now()
        k = read_view(view)
        seat = k.seat
        rng = self.rng
        hands, kitty = sample_world(k, rng)
        world = build_world(k, hands, kitty)
        heur = HeuristicBot._choose_play(self, world, seat)
        cands = candidates(world, seat, rng, [heur])
        self.last = SearchStats(candidates=len(cands))
        if len(cands) <= 1 or len(k.hand) == 1:
            self.last.seconds = self._now() - start
            return cands[0] if cands else heur
        best = run_search(
            cands,
            world,
            lambda: build_world(k, *sample_world(k, rng)),
            lambda w, cand, seeds: self._rollout(w, seat, cand, seeds),
            k.n,
            rng,
            self,
            start,
        )
        return cands[best]

    def _rollout(self, world: Deal, seat: int, cand: list[int], seeds: list[int]) -> float:
        d = _clone(world)
        d.play(seat, cand)
        cls = HeuristicBot if self.rollout == "heuristic" else RandomBot
        bots = [cls(s) for s in seeds]
        while d.outcome is None:
            s = d.to_act
            assert s is not None
            d.play(s, bots[s]._choose_play(d, s))
        return utility(d, seat)
