"""The search bot ``mc``: its sampled worlds agree with the seat's view (hand sizes, voids,
cards played, calls shown, its own kitty), it reads nothing but the view, its time box holds on
an injected clock, and every bot plays only legal moves in every variant."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.arena import Tally, play_seated
from engine.bots import HeuristicBot, RandomBot, perform
from engine.cards import full_pack
from engine.deal import PLAY, Deal, DealSetup
from engine.mcbot import DEFAULT_SAMPLES, MCBot, build_world, read_view, sample_world
from engine.views import seat_view

SETUPS = [
    ("tractor-4p", {}, {"dealer": 0, "first": False}),
    ("tractor-4p", {"decks": 4}, {"dealer": 1, "first": False, "levels": ("5", "9")}),
    ("tractor-4p", {}, {}),
    ("red-five-5p", {}, {"dealer": 2}),
    ("red-five-5p", {"kitty_multiplier": "double"}, {}),
    ("one-twenty-6p", {}, {}),
    ("one-twenty-6p", {}, {"levels": ("5", "9"), "dealer": 3, "first": False, "deal_no": 2}),
]


def deal_at_play(i: int, seed: int, tricks: int) -> Deal | None:
    """A deal played by heuristic bots into its play phase, ``tricks`` tricks in plus a few
    plays of the next one; None if it ended before (a redeal)."""
    variant, options, setup = SETUPS[i]
    d = Deal(DealSetup(variant, options, seed, **setup))
    bots = [HeuristicBot(seed + s) for s in range(d.n)]
    extra = seed % d.n
    while d.outcome is None:
        if d.phase == "draw":
            drew = d.draw().seat
            if d.can_call_now(drew):
                call = bots[drew].on_draw(d, drew)
                if call is not None:
                    d.call(drew, call)
            continue
        if d.phase == PLAY and (
            len(d.tricks) > tricks
            or (len(d.tricks) == tricks and d.trick and len(d.trick.plays) >= extra)
        ):
            return d
        s = d.to_act
        assert s is not None
        perform(d, bots[s].act(d, s))
    return None


def suits_held(d: Deal, cards: list[int]) -> set[int]:
    assert d.ctx is not None
    return {d.ctx.suit_tab[c] for c in cards}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    i=st.integers(0, len(SETUPS) - 1),
    seed=st.integers(0, 10**6),
    tricks=st.integers(0, 22),
    sample_seed=st.integers(0, 10**6),
)
def test_every_sampled_world_agrees_with_the_view(
    i: int, seed: int, tricks: int, sample_seed: int
) -> None:
    import random

    d = deal_at_play(i, seed, tricks)
    if d is None or d.phase != PLAY:
        return
    seat = d.to_act
    assert seat is not None
    view = seat_view(d, seat)
    k = read_view(view)
    rng = random.Random(sample_seed)
    pack = Counter(full_pack(d.variant.decks))
    for _ in range(5):
        hands, kitty = sample_world(k, rng)
        # counts: every hand its size, the kitty its size, the whole pack accounted for
        assert [len(h) for h in hands] == [len(h) for h in d.hands]
        assert len(kitty) == d.variant.kitty
        total: Counter[int] = Counter(kitty)
        for h in hands:
            total.update(h)
        total.update(d.played_cards())
        assert total == pack
        # the seat's own hand as it is; its own buried kitty as it is
        assert sorted(hands[seat]) == sorted(d.hands[seat])
        if d.kitty_owner == seat:
            assert sorted(kitty) == sorted(d.buried)
        # a seat that failed to follow a suit holds none of it
        for s in range(d.n):
            for v in k.voids[s]:
                assert v not in suits_held(d, hands[s]), (s, v)
                assert v not in suits_held(d, d.hands[s])  # a void read from the view is real
        # cards shown in a call and not played since stay with the caller
        for s in range(d.n):
            assert not (k.must_hold[s] - Counter(hands[s]))
        world = build_world(k, hands, kitty)
        assert world.to_act == seat and seat_view(world, seat)["hand"] == view["hand"]
        assert world.playable_cards(seat) == d.playable_cards(seat)


def test_a_tightly_constrained_view_keeps_every_void() -> None:
    """Red five, late in a deal where most seats are out of two or three suits: the random
    deal of the hidden cards often cannot place the last cards; the deal by flow then does, and
    no sampled hand ever holds a suit its seat showed it is out of (hypothesis found this)."""
    import random

    d = deal_at_play(3, 330, 20)
    assert d is not None and d.to_act is not None
    k = read_view(seat_view(d, d.to_act))
    assert sum(len(v) for v in k.voids) >= 8
    rng = random.Random(0)
    for _ in range(200):
        hands, _kitty = sample_world(k, rng)
        for s in range(d.n):
            assert not (k.voids[s] & suits_held(d, hands[s])), s


def test_voids_are_read_from_failures_to_follow() -> None:
    """A deal far enough in always shows somebody out of a suit: the reading is not vacuous."""
    found = 0
    for seed in range(6):
        d = deal_at_play(0, seed, 15)
        assert d is not None and d.to_act is not None
        k = read_view(seat_view(d, d.to_act))
        found += sum(len(v) for v in k.voids)
    assert found > 0


def test_mc_reads_only_the_seat_view() -> None:
    """Two deals alike in everything the seat sees but with other hidden hands (cards swapped
    between two other hands, the kitty changed): mc decides the same in both."""
    checked = 0
    for seed in range(40):
        d = deal_at_play(0, seed, 6)
        if d is None:
            continue
        seat = d.to_act
        assert seat is not None
        a, b = [s for s in range(d.n) if s != seat][:2]
        twin = Deal(d.setup)
        for rec in d.log:
            from engine.deal import apply

            apply(twin, rec)
        # swap a card that differs between two hidden hands (same hand sizes)
        ca = next((c for c in twin.hands[a] if c not in twin.hands[b]), None)
        cb = next((c for c in twin.hands[b] if c not in twin.hands[a]), None)
        if ca is None or cb is None:
            continue
        twin.hands[a].remove(ca)
        twin.hands[a].append(cb)
        twin.hands[b].remove(cb)
        twin.hands[b].append(ca)
        assert seat_view(twin, seat) == seat_view(d, seat)
        assert sorted(twin.hands[a]) != sorted(d.hands[a])
        one, two = MCBot(5, samples=2), MCBot(5, samples=2)
        assert one.act(d, seat) == two.act(twin, seat)
        assert one.last.means == two.last.means  # the very same rollouts, not just the choice
        checked += 1
        if checked == 3:
            break
    assert checked == 3


class FakeClock:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.t = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.t += self.step
        return self.t


def _busy_deal() -> tuple[Deal, int]:
    for seed in range(50):
        d = deal_at_play(0, seed, 2)
        if d is None or d.to_act is None:
            continue
        bot = MCBot(1, samples=1)
        bot.act(d, d.to_act)
        if bot.last.candidates >= 3:
            return d, d.to_act
    raise AssertionError("no position with a choice")


def test_time_box_on_an_injected_clock() -> None:
    d, seat = _busy_deal()
    # each rollout reads the clock once: 0.01 s per read, a 0.2 s box
    bot = MCBot(3, time_per_move=0.2, clock=FakeClock(0.01))
    bot.act(d, seat)
    c = bot.last.candidates
    assert bot.last.worlds >= 1
    assert bot.last.seconds <= 0.2 + 0.01 * (c + 2)
    assert bot.last.worlds <= 0.2 / (0.01 * c) + 1
    # the same clock and seed give the same search
    again = MCBot(3, time_per_move=0.2, clock=FakeClock(0.01))
    again.act(d, seat)
    assert again.last.worlds == bot.last.worlds and again.last.means == bot.last.means
    # a box too small for one round: the heuristic's play, no world counted
    tiny = MCBot(3, time_per_move=0.001, clock=FakeClock(0.01))
    play = tiny.act(d, seat)
    assert tiny.last.worlds == 0
    assert sorted(play[2]) == sorted(HeuristicBot(3)._choose_play(d, seat))
    # no clock given: no time box, a fixed search (the engine reads no clock of its own)
    assert MCBot(3).samples == DEFAULT_SAMPLES and MCBot(3, samples=4).samples == 4
    # a fixed number of worlds ignores the clock
    fixed = MCBot(3, time_per_move=0.001, samples=3, clock=FakeClock(10.0))
    fixed.act(d, seat)
    assert fixed.last.worlds == 3 and fixed.last.rollouts == 3 * fixed.last.candidates


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(i=st.integers(0, len(SETUPS) - 1), seed=st.integers(0, 10**6))
def test_random_and_heuristic_play_only_legal_moves(i: int, seed: int) -> None:
    variant, options, setup = SETUPS[i]
    for cls in (RandomBot, HeuristicBot):
        d = Deal(DealSetup(variant, options, seed, **setup))
        tally = Tally()
        bots = [cls(seed + s) for s in range(d.n)]
        play_seated(d, bots, ["a"] * d.n, tally)
        assert d.outcome is not None and tally.illegal == {"a": 0, "b": 0}


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(i=st.integers(0, len(SETUPS) - 1), seed=st.integers(0, 10**6))
def test_mc_plays_only_legal_moves(i: int, seed: int) -> None:
    variant, options, setup = SETUPS[i]
    d = Deal(DealSetup(variant, options, seed, **setup))
    # one mc seat with a tiny fixed search and random rollouts keeps the test short
    bots: list[RandomBot] = [HeuristicBot(seed + s) for s in range(d.n)]
    bots[seed % d.n] = MCBot(seed, samples=1, rollout="random")
    own = ["b"] * d.n
    own[seed % d.n] = "a"
    tally = Tally()
    play_seated(d, bots, own, tally)
    assert d.outcome is not None and tally.illegal == {"a": 0, "b": 0}
