"""app.competition.matches: running score sheets, results, deal checks keyed by field."""

from __future__ import annotations

import pytest

from app.competition.matches import check_deal, derive_fixed, derive_red_five
from app.competition.model import Deal, FailedThrows, MatchSpec, Table
from engine.variants import make_variant

TRACTOR = make_variant("tractor-4p")
ONE20 = make_variant("one-twenty-6p")
RED = make_variant("red-five-5p")


def D(declarer: int, points: int, kitty: int = 0, multiplier: int = 0, **kw: object) -> Deal:
    kw.setdefault("trump", "S")
    return Deal(points=points, kitty=kitty, declarer=declarer, multiplier=multiplier, **kw)  # type: ignore[arg-type]


def table(*deals: Deal, **kw: object) -> Table:
    return Table(1, sides=("A", "B"), deals=tuple(deals), **kw)  # type: ignore[arg-type]


def test_running_sheet_levels() -> None:
    deals = [
        D(0, 0),  # side 0 at 2, shutout: +3 → 5
        D(0, 85, 10, 4),  # 85 + 40 = 125: side 1 takes over +1 → 3
        D(1, 40, failed_throws=FailedThrows(1, 0)),  # 40 + 10 = 50: side 1 +1 → 4
        D(1, 100),  # 100: side 0 takes over, +0
    ]
    m = derive_fixed(TRACTOR, MatchSpec(deals=4), table(*deals))
    assert not m.errors
    assert [r.level for r in m.rows] == ["2", "5", "3", "4"]
    assert [r.levels_after for r in m.rows] == [("5", "2"), ("5", "3"), ("5", "4"), ("5", "4")]
    assert [r.total for r in m.rows] == [0, 125, 50, 100]
    assert [r.next_declarer for r in m.rows] == [0, 1, 1, 0]
    assert [r.gain for r in m.rows] == [3, 1, 1, 0]
    assert m.counts and m.levels == ("5", "4") and m.values == (5, 4)
    assert m.outcome(0) == "win" and m.outcome(1) == "loss"
    assert m.level_diff(0) == 1 and m.level_diff(1) == -1


def test_unfinished_and_too_many_deals() -> None:
    m = derive_fixed(TRACTOR, MatchSpec(deals=4), table(D(0, 50)))
    assert not m.counts and not m.errors
    m = derive_fixed(TRACTOR, MatchSpec(deals=1), table(D(0, 50), D(0, 50)))
    assert not m.counts
    assert [(e.index, e.field) for e in m.errors] == [(1, "")]
    assert "this is deal 2" in m.errors[0].message


def test_draw() -> None:
    m = derive_fixed(TRACTOR, MatchSpec(deals=2), table(D(0, 60), D(0, 120)))  # 3, then 1 → 3
    assert m.levels == ("3", "3") and m.outcome(0) == m.outcome(1) == "draw"
    assert m.level_diff(0) == 0


def test_passing_a_ends_the_match() -> None:
    # side 0 climbs 2 → 5 → 8 → J → A, then wins at A
    climb = [D(0, 0)] * 4 + [D(0, 60)]
    m = derive_fixed(TRACTOR, MatchSpec(deals=8), table(*climb))
    assert [r.level for r in m.rows] == ["2", "5", "8", "J", "A"]
    assert m.passed_side == 0 and m.counts
    assert m.values == (15, 2) and m.level_diff(0) == 13
    m = derive_fixed(TRACTOR, MatchSpec(deals=8), table(*climb, D(0, 60)))
    assert not m.counts
    assert m.errors[0].index == 5 and "passed A" in m.errors[0].message
    # to_a counts once A is passed, minutes only when finished
    assert derive_fixed(TRACTOR, MatchSpec(to_a=True), table(*climb)).counts
    assert not derive_fixed(TRACTOR, MatchSpec(to_a=True), table(*climb[:4])).counts
    assert derive_fixed(TRACTOR, MatchSpec(to_a=True), table(*climb[:4], finished=True)).counts
    assert not derive_fixed(TRACTOR, MatchSpec(minutes=60), table(*climb[:2])).counts
    assert derive_fixed(TRACTOR, MatchSpec(minutes=60), table(*climb[:2], finished=True)).counts


def test_attackers_at_a_do_not_pass() -> None:
    climb = [D(0, 0)] * 4  # side 0 at A
    m = derive_fixed(TRACTOR, MatchSpec(deals=6), table(*climb, D(1, 130), D(1, 200)))
    # side 1 (at 2) declares: 130 → side 0 takes over +1 at A (stays A, not passed)
    assert m.rows[4].levels_after == ("A", "2") and m.passed_side is None
    assert m.values == (14, 2)


def test_must_play_levels() -> None:
    v = make_variant("tractor-4p", {"must_play_levels": ["5", "10"]})
    m = derive_fixed(v, MatchSpec(deals=3), table(D(0, 0), D(0, 0), D(0, 0)))
    assert [r.levels_after[0] for r in m.rows] == ["5", "8", "10"]


def test_one_twenty_misplays() -> None:
    # side 0 at 2 wins (+2: under 60) and side 1 misplayed once: 2 → 5
    m = derive_fixed(ONE20, MatchSpec(deals=2), table(D(0, 40, misplays=(1,))))
    assert m.rows[0].levels_after == ("5", "2")
    # the losing side's misplay gives the winner's opponent... the other side: side 0 misplays
    m = derive_fixed(ONE20, MatchSpec(deals=1), table(D(0, 130, misplays=(0, 0))))
    assert m.rows[0].levels_after == ("2", "4")  # took over +0, then two misplays of side 0
    v = make_variant("one-twenty-6p", {"must_play_levels": ["4"]})
    m = derive_fixed(v, MatchSpec(deals=1), table(D(0, 40, misplays=(1,))))
    assert m.rows[0].levels_after == ("4", "2")


def test_sheet_level_must_agree() -> None:
    m = derive_fixed(TRACTOR, MatchSpec(deals=2), table(D(0, 0, level="2"), D(0, 0, level="4")))
    assert [(e.index, e.field) for e in m.errors] == [(1, "level")]
    assert m.errors[0].message == "the sheet says 4 but side 0 is at 5"
    assert not m.counts


def test_forfeit() -> None:
    m = derive_fixed(TRACTOR, MatchSpec(deals=4), table(forfeit=1))
    assert m.counts and m.outcome(0) == "win" and m.outcome(1) == "loss"
    assert m.level_diff(0, 3) == 3 and m.level_diff(1, 5) == -5


@pytest.mark.parametrize(
    ("deal", "field", "message"),
    [
        (D(0, 87), "points", "87 is not a multiple of 5"),
        (D(0, 205), "points", "205 is more than the 200 points in 2 decks"),
        (D(0, -5), "points", "-5 is below 0"),
        (D(0, 80, 12), "kitty", "12 is not a multiple of 5"),
        (D(0, 80, 85), "kitty", "85 is more than a kitty of 8 cards can hold (80)"),
        (D(0, 150, 60), "kitty", "points 150 + kitty 60 = 210 is more than the 200 points"),
        (D(0, 80, 10, 6), "multiplier", "6 is not a multiplier that kitty_multiplier by_shape"),
        (D(2, 80), "declarer", "2 is not a side"),
        (Deal(80, 0, "S"), "declarer", "is missing"),
        (D(0, 80, trump="X"), "trump", "'X' is not a suit"),
        (D(0, 80, misplays=(1,)), "misplays", "120分 only"),
        (D(0, 80, dealer=1), "dealer", "red five"),
        (D(0, 80, level="1"), "level", "not a level"),
        (D(0, 80, failed_throws=FailedThrows(-1, 0)), "failed_throws", "declarer: -1"),
        (D(0, 80, failed_throws=(1,)), "failed_throws", '{"declarer": n'),
    ],
)
def test_check_deal_tractor(deal: Deal, field: str, message: str) -> None:
    errors = check_deal(TRACTOR, deal)
    assert field in errors, errors
    assert message in errors[field]


def test_check_deal_other_variants() -> None:
    four = make_variant("tractor-4p", {"decks": 4})
    assert "no kitty" in check_deal(four, D(0, 100, 10))["kitty"]
    assert "no kitty" in check_deal(four, D(0, 100, 0, 2))["multiplier"]
    assert check_deal(four, D(0, 400)) == {}
    assert (
        "misplay" in check_deal(ONE20, D(0, 80, failed_throws=FailedThrows(1, 0)))["failed_throws"]
    )
    assert "3 is not a side" in check_deal(ONE20, D(0, 80, misplays=(3,)))["misplays"]
    assert "4 is not a multiplier" in check_deal(ONE20, D(0, 80, 10, 4))["multiplier"]
    assert check_deal(ONE20, D(0, 240, 60, 2)) == {}
    assert "more than a kitty of 6" in check_deal(ONE20, D(0, 80, 65))["kitty"]


def R(dealer: int, friend: int | None, points: int, **kw: object) -> Deal:
    kw.setdefault("trump", "H")
    kw.setdefault("kitty", 0)
    return Deal(points=points, dealer=dealer, friend=friend, **kw)  # type: ignore[arg-type]


def test_red_five_table() -> None:
    t = Table(
        1,
        players=("a", "b", "c", "d", "e"),
        deals=(
            R(0, 2, 130),  # attackers 1 unit: [-2, 1, -1, 1, 1]
            R(1, None, 0),  # dealer alone shutout 3 units: [-3, 12, -3, -3, -3]
            R(3, 4, 50, failed_throws=(0,)),  # dealer side 2 units; seat 0 −4, others +1
        ),
    )
    tab = derive_red_five(RED, MatchSpec(deals=3), t)
    assert not tab.errors and tab.counts and tab.deals == 3
    assert tab.rows[0].scores == (-2, 1, -1, 1, 1)
    assert tab.rows[2].scores == (-2 - 4, -2 + 1, -2 + 1, 4 + 1, 2 + 1)
    assert tab.totals == (-2 - 3 - 6, 1 + 12 - 1, -1 - 3 - 1, 1 - 3 + 5, 1 - 3 + 3)
    assert sum(tab.totals) == 0
    assert tab.rows[-1].totals == tab.totals
    assert tab.dealer_wins == (0, 1, 0, 1, 1)
    assert not derive_red_five(RED, MatchSpec(deals=4), t).counts
    assert derive_red_five(
        RED, MatchSpec(deals=4), Table(1, players=t.players, deals=t.deals, finished=True)
    ).counts
    over = derive_red_five(RED, MatchSpec(deals=2), t)
    assert not over.counts and over.errors[0].index == 2


@pytest.mark.parametrize(
    ("deal", "field", "message"),
    [
        (R(5, None, 80), "dealer", "5 is not a seat 0 … 4"),
        (R(1, 1, 80), "friend", "is the dealer"),
        (Deal(80, 0, None, dealer=1), "trump", "always has a trump suit"),
        (R(1, None, 80, friend_grabbed=True), "friend_grabbed", "alone"),
        (R(1, 2, 80, failed_throws=(7,)), "failed_throws", "7 is not a seat"),
        (R(1, 2, 80, misplays=(0,)), "misplays", "120分 only"),
        (R(1, 2, 80, declarer=0), "declarer", "fixed sides"),
        (R(1, 2, 80, level="3"), "level", "level 2"),
        (R(1, 2, 80, multiplier=3), "multiplier", "3 is not a multiplier"),
        (R(1, 2, 235, kitty=70), "kitty", "305 is more than the 300"),
    ],
)
def test_check_deal_red_five(deal: Deal, field: str, message: str) -> None:
    errors = check_deal(RED, deal)
    assert field in errors, errors
    assert message in errors[field]


def test_check_entry_append_and_correct() -> None:
    from app.competition.matches import check_entry

    spec = MatchSpec(deals=3)
    t = table(D(0, 0, level="2"), D(0, 0, level="5"))
    assert check_entry(TRACTOR, spec, t, D(0, 60, level="8")) == {}
    assert check_entry(TRACTOR, spec, t, D(0, 60, level="7")) == {
        "level": "the sheet says 7 but side 0 is at 8"
    }
    assert check_entry(TRACTOR, spec, t, D(0, 87))["points"] == "87 is not a multiple of 5"
    full = table(D(0, 0), D(0, 0), D(0, 0))
    assert "this is deal 4" in check_entry(TRACTOR, spec, full, D(0, 0))[""]
    # correcting deal 1 changes the level of deal 2, whose written level no longer agrees
    fixed = check_entry(TRACTOR, spec, t, D(0, 60), index=0)
    assert fixed == {"later": "deal 2 (level): the sheet says 5 but side 0 is at 3"}
    assert check_entry(TRACTOR, spec, t, D(0, 0), index=5) == {
        "": "there is no deal 6 at this table"
    }
    assert check_entry(TRACTOR, spec, table(forfeit=0), D(0, 0))[""].startswith("this table was")
    red = Table(1, players=tuple("abcde"))
    assert check_entry(RED, MatchSpec(deals=2), red, R(0, 0, 50)) == {
        "friend": "is the dealer: write null when the dealer played alone (独打)"
    }
    assert check_entry(RED, MatchSpec(deals=2), red, R(0, 1, 50)) == {}


def test_fast_advance_agrees_with_the_engine() -> None:
    from itertools import product

    from app.competition.matches import _advance, _stops
    from engine.scoring import LEVELS, advance

    for must in (("A",), ("5", "10", "K", "A"), ("3", "A")):
        for level, gain in product(LEVELS, range(1, 6)):
            assert _advance(level, gain, _stops(must)) == advance(level, gain, must)


def test_a_match_by_deals_ended_early_counts_on_the_deals_played() -> None:
    from app.competition.matches import fixed_final

    played = (D(0, 0), D(1, 60))  # side 0 to 5, then side 1 wins as attackers… from 2 to 3
    spec = MatchSpec(deals=4, tie_break="extra_deal")
    assert not derive_fixed(TRACTOR, spec, table(*played)).counts
    assert fixed_final(TRACTOR, MatchSpec(deals=4), table(*played)) is None
    ended = table(*played, finished=True, end_reason="time ran out")
    m = derive_fixed(TRACTOR, spec, ended)
    assert m.counts and m.levels == derive_fixed(TRACTOR, spec, table(*played)).levels
    assert not m.extra_due and not m.errors
    # the fast path agrees with the derivation
    assert (
        fixed_final(TRACTOR, MatchSpec(deals=4), ended)
        == derive_fixed(TRACTOR, MatchSpec(deals=4), ended).values
    )
    # with no deal played there is nothing to score: still open (a forfeit is recorded instead)
    assert not derive_fixed(TRACTOR, spec, table(finished=True)).counts
    assert fixed_final(TRACTOR, MatchSpec(deals=4), table(finished=True)) is None
    # red five: the 积分 of the deals played
    red = Table(
        1,
        players=("a", "b", "c", "d", "e"),
        deals=(Deal(points=40, kitty=0, dealer=0, friend=1, trump="H"),),
        finished=True,
        end_reason="a player left",
    )
    assert derive_red_five(RED, MatchSpec(deals=5), red).counts
