"""engine.scoring: levels, must-play levels, penalties, red five 积分, validation, next dealer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.scoring import (
    ATTACKERS,
    DECLARER,
    LEVELS,
    DealResult,
    advance,
    allowed_multipliers,
    apply_misplays,
    attackers_total,
    component_sizes,
    deal_result,
    kitty_multiplier,
    level_value,
    max_kitty_points,
    next_dealer,
    next_declaring_side,
    next_levels,
)
from engine.variants import make_variant

TRACTOR = make_variant("tractor-4p")
TRACTOR4 = make_variant("tractor-4p", {"decks": 4})
RED = make_variant("red-five-5p")
ONE20 = make_variant("one-twenty-6p")


# --- advance ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "gain", "must", "to", "passed"),
    [
        ("2", 0, ["A"], "2", False),
        ("2", 1, ["A"], "3", False),
        ("9", 2, ["A"], "J", False),
        ("K", 3, ["A"], "A", False),
        ("Q", 2, ["A"], "A", False),
        ("A", 1, ["A"], "A", True),
        ("A", 3, ["A"], "A", True),
        ("A", 0, ["A"], "A", False),
        ("3", 3, ["5", "10", "K", "A"], "5", False),
        ("5", 3, ["5", "10", "K", "A"], "8", False),
        ("8", 3, ["5", "10", "K", "A"], "10", False),
        ("J", 3, ["5", "10", "K", "A"], "K", False),
        ("4", 1, ["5"], "5", False),
        ("9", 5, [], "A", False),
    ],
)
def test_advance(start: str, gain: int, must: list[str], to: str, passed: bool) -> None:
    assert advance(start, gain, must) == (to, passed)


@settings(max_examples=60)
@given(
    st.sampled_from(LEVELS),
    st.integers(0, 20),
    st.lists(st.sampled_from(LEVELS), max_size=5),
)
def test_advance_never_skips_a_must_play_level(start: str, gain: int, must: list[str]) -> None:
    to, passed = advance(start, gain, must)
    i, j = LEVELS.index(start), LEVELS.index(to)
    assert i <= j <= i + gain
    assert passed == (start == "A" and gain >= 1)
    for lv in [*must, "A"]:
        k = LEVELS.index(lv)
        assert not i < k < j, f"{start}+{gain} skipped {lv}"


@pytest.mark.parametrize("bad", [("1", 1), ("2", -1), ("2", 1.5), ("2", True), (2, 1)])
def test_advance_bad_input(bad: tuple) -> None:
    with pytest.raises(EngineError):
        advance(*bad)
    with pytest.raises(EngineError, match="list of levels"):
        advance("2", 1, "A")


def test_level_value() -> None:
    assert [level_value(lv) for lv in LEVELS] == list(range(2, 15))
    assert level_value("A", passed=True) == 15
    with pytest.raises(EngineError):
        level_value("K", passed=True)


# --- kitty multipliers ----------------------------------------------------------------------------


def test_kitty_multiplier_modes() -> None:
    assert [kitty_multiplier("by_shape", n) for n in (1, 2, 4, 6)] == [2, 4, 8, 12]
    assert [kitty_multiplier("power", n) for n in (1, 2, 3, 4)] == [2, 4, 8, 16]
    assert kitty_multiplier("double", 6) == 2
    with pytest.raises(EngineError, match="unknown kitty_multiplier"):
        kitty_multiplier("triple", 1)
    with pytest.raises(EngineError):
        kitty_multiplier("by_shape", 0)


def test_allowed_multipliers() -> None:
    t = allowed_multipliers(TRACTOR)
    assert {2, 4, 8, 12, 48} <= t and 6 not in t and 50 not in t  # no triples with 2 decks
    assert allowed_multipliers(make_variant("tractor-4p", {"kitty_multiplier": "power"})) >= {
        2,
        4,
        16,
        64,
    }
    assert 8 not in allowed_multipliers(make_variant("tractor-4p", {"kitty_multiplier": "power"}))
    assert allowed_multipliers(TRACTOR4) == set()
    assert allowed_multipliers(ONE20) == {2}
    red = allowed_multipliers(RED)
    assert {2, 4, 6, 8, 10, 12, 14, 18} <= red  # single, pair, triple, tractor, handled 5 and 7
    sizes = component_sizes(RED)
    assert {1, 2, 3, 4, 5, 6, 7, 8, 9} <= sizes and max(sizes) <= RED.hand
    no_triples = make_variant(
        "one-twenty-6p", {"triple_tractors": False, "kitty_multiplier": "by_shape"}
    )
    assert 9 not in component_sizes(no_triples) and 3 in component_sizes(no_triples)


def test_max_kitty_points() -> None:
    assert max_kitty_points(TRACTOR) == 80
    assert max_kitty_points(RED) == 70
    assert max_kitty_points(ONE20) == 60
    assert max_kitty_points(TRACTOR4) == 0


# --- penalties --------------------------------------------------------------------------------------


def test_tractor_throw_penalty() -> None:
    assert attackers_total(TRACTOR, 70, 0, None, {"declarer": 1, "attackers": 0}) == 80
    assert attackers_total(TRACTOR, 70, 0, None, {"declarer": 5, "attackers": 0}) == 100  # cap 3
    assert attackers_total(TRACTOR, 70, 0, None, {"declarer": 0, "attackers": 2}) == 50
    assert attackers_total(TRACTOR, 20, 0, None, {"attackers": 3}) == 0  # never below 0
    assert attackers_total(TRACTOR, 70, 0, None, {"declarer": 4, "attackers": 1}) == 90
    r = deal_result(TRACTOR, 70, 0, None, {"declarer": 1, "attackers": 0})
    assert (r.winner, r.levels) == (ATTACKERS, 0)  # the penalty moved 70 to 80
    off = make_variant("tractor-4p", {"throw_penalty": "none"})
    assert attackers_total(off, 70, 0, None, {"declarer": 3}) == 70
    assert deal_result(TRACTOR, 10, 0, None, {"attackers": 1}).levels == 3  # 0 is a shutout


@pytest.mark.parametrize(
    "bad",
    [{"declarer": -1}, {"defenders": 1}, [1, 2], {"declarer": True}, {"attackers": "2"}],
)
def test_tractor_failed_throws_bad(bad: object) -> None:
    with pytest.raises(EngineError):
        attackers_total(TRACTOR, 70, 0, None, bad)


def test_one_twenty_has_no_failed_throw_points() -> None:
    with pytest.raises(EngineError, match="misplay"):
        deal_result(ONE20, 70, 0, None, {"declarer": 1})


# --- red five -----------------------------------------------------------------------------------------


def test_red_five_alone() -> None:
    r = deal_result(RED, 0, 0, None, dealer=2, friend=None)
    assert (r.winner, r.units, r.scores) == (DECLARER, 3, [-3, -3, 12, -3, -3])
    r = deal_result(RED, 200, 0, None, dealer=0)
    assert r.scores == [-8, 2, 2, 2, 2]


def test_red_five_failed_throws() -> None:
    # dealer 0 + friend 1 win 1 unit; seat 3 failed once: −4 to it, +1 to everyone else
    r = deal_result(RED, 100, 0, None, [3], dealer=0, friend=1)
    assert r.scores == [2 + 1, 1 + 1, -1 + 1, -1 - 4, -1 + 1]
    # a seat's third and later failures change nothing
    two = deal_result(RED, 100, 0, None, [3, 3], dealer=0, friend=1).scores
    four = deal_result(RED, 100, 0, None, [3, 3, 3, 3], dealer=0, friend=1).scores
    assert two == four == [2 + 2, 1 + 2, -1 + 2, -1 - 8, -1 + 2]
    mixed = deal_result(RED, 100, 0, None, [3, 0, 3, 3], dealer=0, friend=1).scores
    assert mixed == [2 + 2 - 4, 1 + 3, -1 + 3, -1 - 8 + 1, -1 + 3]
    assert sum(mixed) == 0
    # failed throws are 积分 only: no card points
    assert r.total == 100


def test_red_five_friend_grabbed() -> None:
    # dealer side wins: 直拼, scores stand
    won = deal_result(RED, 50, 0, None, [1], dealer=0, friend=1, friend_grabbed=True)
    assert won.scores == deal_result(RED, 50, 0, None, [1], dealer=0, friend=1).scores
    # dealer side loses: 直搭, dealer's and friend's whole changes (penalties included) swap
    plain = deal_result(RED, 130, 0, None, [1], dealer=0, friend=1).scores
    assert plain == [-2 + 1, -1 - 4, 1 + 1, 1 + 1, 1 + 1]
    grabbed = deal_result(RED, 130, 0, None, [1], dealer=0, friend=1, friend_grabbed=True)
    assert grabbed.scores == [-1 - 4, -2 + 1, 2, 2, 2]
    with pytest.raises(EngineError, match="alone"):
        deal_result(RED, 130, 0, None, dealer=0, friend=None, friend_grabbed=True)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "dealer"),
        ({"dealer": 5}, "seat"),
        ({"dealer": 1, "friend": 1}, "friend cannot be the dealer"),
        ({"dealer": 1, "friend": -1}, "seat"),
        ({"dealer": 1, "failed_throws": [7]}, "seat"),
        ({"dealer": 1, "failed_throws": {"declarer": 1}}, "list"),
    ],
)
def test_red_five_bad(kwargs: dict, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        deal_result(RED, 100, 0, None, **kwargs)


@settings(max_examples=60)
@given(
    st.integers(0, 60).map(lambda x: 5 * x),
    st.integers(0, 4),
    st.one_of(st.none(), st.integers(0, 3)),
    st.lists(st.integers(0, 4), max_size=6),
    st.booleans(),
)
def test_red_five_zero_sum(
    points: int, dealer: int, friend_off: int | None, throws: list[int], grabbed: bool
) -> None:
    friend = None if friend_off is None else (dealer + 1 + friend_off) % 5
    r = deal_result(
        RED,
        points,
        0,
        None,
        throws,
        dealer=dealer,
        friend=friend,
        friend_grabbed=grabbed and friend is not None,
    )
    assert r.scores is not None and sum(r.scores) == 0


# --- validation -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((87, 0, None), "not a multiple of 5"),
        ((-5, 0, None), "outside"),
        ((205, 0, None), "outside"),
        ((80, 7, None), "kitty points 7 is not a multiple of 5"),
        ((80, 85, None), "more than a kitty of 8 cards"),
        ((150, 60, 2), "more than the 200 points"),
        ((80, 10, 6), "kitty multiplier 6 is not possible"),
        ((80, 10, -2), "not possible"),
        (("80", 0, None), "whole number"),
        ((80.0, 0, None), "whole number"),
    ],
)
def test_bad_numbers(args: tuple, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        deal_result(TRACTOR, *args)


def test_four_decks_no_kitty() -> None:
    with pytest.raises(EngineError, match="no kitty"):
        deal_result(TRACTOR4, 100, 10, None)
    with pytest.raises(EngineError, match="no kitty"):
        deal_result(TRACTOR4, 100, 0, 4)
    assert deal_result(TRACTOR4, 100, 0, 0).total == 100


def test_fixed_sides_refuse_red_five_fields() -> None:
    with pytest.raises(EngineError, match="red five"):
        deal_result(TRACTOR, 100, 0, None, dealer=1)


# --- both sides' levels ---------------------------------------------------------------------------------


def _r(winner: str, levels: int) -> DealResult:
    return DealResult(total=0, winner=winner, levels=levels)


def test_next_levels_winner_moves_only() -> None:
    ch = next_levels(("5", "3"), 0, _r(DECLARER, 2))
    assert ch.levels == ("7", "3") and not ch.passed
    ch = next_levels(("5", "3"), 0, _r(ATTACKERS, 1))
    assert ch.levels == ("5", "4")
    ch = next_levels(("5", "3"), 1, _r(ATTACKERS, 0))
    assert ch.levels == ("5", "3")


def test_next_levels_misplays() -> None:
    # at 7, winning the deal, with one misplay of the other side: 9 (8 is not played)
    ch = next_levels(("7", "2"), 0, _r(DECLARER, 1), misplays=[1])
    assert ch.levels == ("9", "2") and ch.gains == (2, 0)
    # a misplay gives the other side a level even when that side lost
    ch = next_levels(("7", "2"), 0, _r(DECLARER, 1), misplays=[0, 0])
    assert ch.levels == ("8", "4")
    # a must-play level stops the combined move
    ch = next_levels(("9", "2"), 0, _r(DECLARER, 1), misplays=[1], must_play=["10", "A"])
    assert ch.levels == ("10", "2")
    # misplays never pass A
    ch = next_levels(("A", "K"), 1, _r(DECLARER, 1), misplays=[1])
    assert ch.levels == ("A", "A") and not ch.passed


def test_next_levels_passing_a() -> None:
    assert next_levels(("A", "5"), 0, _r(DECLARER, 1)).passed
    assert not next_levels(("A", "5"), 1, _r(ATTACKERS, 1)).passed  # attackers at A take over
    assert next_levels(("A", "5"), 1, _r(ATTACKERS, 1)).levels == ("A", "5")
    assert not next_levels(("K", "5"), 0, _r(DECLARER, 3)).passed


def test_next_levels_bad() -> None:
    with pytest.raises(EngineError):
        next_levels(("2", "2"), 2, _r(DECLARER, 1))
    with pytest.raises(EngineError):
        next_levels(("2", "2"), 0, _r(DECLARER, 1), misplays=[3])
    with pytest.raises(EngineError):
        next_levels(("2", "2"), 0, DealResult(0, DECLARER, units=1, scores=[0] * 5))
    assert apply_misplays("7", 2, ["8"]) == "8"


# --- next dealer ---------------------------------------------------------------------------------------------


def test_next_dealer() -> None:
    assert next_dealer(TRACTOR, 1, DECLARER) == 3
    assert next_dealer(TRACTOR, 3, DECLARER) == 1
    assert next_dealer(TRACTOR, 3, ATTACKERS) == 0
    assert next_dealer(ONE20, 4, DECLARER) == 0  # the next player of that side in play order
    assert next_dealer(ONE20, 1, DECLARER) == 3
    assert next_dealer(ONE20, 5, ATTACKERS) == 0
    assert next_dealer(RED, 2, ATTACKERS) == 2
    assert next_dealer(RED, 2, DECLARER, first_to_show_two=4) == 4
    with pytest.raises(EngineError):
        next_dealer(TRACTOR, 4, DECLARER)
    with pytest.raises(EngineError):
        next_dealer(TRACTOR, 0, "nobody")
    assert next_declaring_side(0, _r(DECLARER, 1)) == 0
    assert next_declaring_side(0, _r(ATTACKERS, 1)) == 1


@settings(max_examples=80)
@given(
    st.sampled_from(["tractor-4p", "one-twenty-6p", "tractor-4p/4", "tractor-4p/none"]),
    st.integers(0, 80).map(lambda x: 5 * x),
    st.integers(0, 16).map(lambda x: 5 * x),
    st.sampled_from([0, 2, 4, 8, 16]),
    st.integers(0, 5),
    st.integers(0, 5),
)
def test_prechecked_scoring_agrees(
    vid: str, points: int, kitty: int, mult: int, dt: int, at: int
) -> None:
    from engine.scoring import fixed_result_prechecked

    name, _, extra = vid.partition("/")
    opts = {"decks": 4} if extra == "4" else {"throw_penalty": "none"} if extra == "none" else {}
    v = make_variant(name, opts)
    if v.id == "one-twenty-6p":
        throws = None
        mult = 2 if mult else 0
    else:
        throws = {"declarer": dt, "attackers": at}
    if v.kitty == 0:
        kitty, mult = 0, 0
    try:
        want = deal_result(v, points, kitty, mult, throws)
    except EngineError:
        return  # not a valid row: the prechecked path is only for checked rows
    assert fixed_result_prechecked(v, points, kitty, mult, throws) == want
