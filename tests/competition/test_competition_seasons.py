"""Season standings under each rule, against hand-computed tables (TOURNAMENT.md "Seasons"):
partner changes keep one line per player, absent nights, best:N's choice of nights, the average's
rounding and minimum, league points per place, ties, divisions and carry-over."""

from __future__ import annotations

import pytest

from app.competition import tfile
from app.competition.seasons import (
    NightLine,
    Rule,
    SeasonRuleError,
    carry_over,
    night_lines,
    parse_rule,
    promote_relegate,
    season_standings,
)


def L(night: str, player: str, number: int, diff: int = 0, place: int = 1) -> NightLine:  # noqa: N802
    return NightLine(night, player, number, diff, place, player)


NIGHTS = [
    [
        L("n1", "Ann", 6, 5, 1),
        L("n1", "Bob", 4, 2, 2),
        L("n1", "Cai", 2, -3, 3),
        L("n1", "Dan", 0, -4, 4),
    ],
    [L("n2", "Ann", 2, -1, 3), L("n2", "Bob", 6, 6, 1), L("n2", "Dan", 4, 1, 2)],  # Cai absent
    [L("n3", "Ann", 4, 2, 2), L("n3", "Cai", 6, 4, 1), L("n3", "Dan", 0, -6, 3)],  # Bob absent
]


def table(rule: Rule) -> list[tuple[int | None, str, int, int | float, int]]:
    return [
        (r.rank, r.player, r.nights, r.score, r.level_diff) for r in season_standings(NIGHTS, rule)
    ]


def test_total_sums_every_night_and_orders_by_score_then_level_diff():
    # Ann 12 (+6), Bob 10 (+8), Cai 8 (+1), Dan 4 (-9)
    assert table(Rule("total")) == [
        (1, "Ann", 3, 12, 6),
        (2, "Bob", 2, 10, 8),
        (3, "Cai", 2, 8, 1),
        (4, "Dan", 3, 4, -9),
    ]


def test_best_two_nights_and_their_level_diff():
    # Ann: best 6(+5), 4(+2) = 10 (+7); Bob 6+4 = 10 (+8); Cai 6+2 = 8 (+1); Dan 4+0: the 0s tie
    # on number, the better 级差 (-4) counts: 4 (-3)
    assert table(parse_rule("best:2")) == [
        (1, "Bob", 2, 10, 8),
        (2, "Ann", 3, 10, 7),
        (3, "Cai", 2, 8, 1),
        (4, "Dan", 3, 4, -3),
    ]


def test_average_rounds_half_up_and_respects_the_minimum():
    # Ann 12/3 = 4.0; Bob 10/2 = 5.0; Cai 8/2 = 4.0 (+1); Dan 4/3 = 1.33
    assert table(parse_rule("average")) == [
        (1, "Bob", 2, 5, 8),
        (2, "Ann", 3, 4, 6),
        (3, "Cai", 2, 4, 1),
        (4, "Dan", 3, 1.33, -9),
    ]
    rows = season_standings(NIGHTS, parse_rule("average", min_nights=3))
    assert [(r.rank, r.player, r.ranked) for r in rows] == [
        (1, "Ann", True),
        (2, "Dan", True),
        (None, "Bob", False),
        (None, "Cai", False),
    ]
    two_thirds = [[L("a", "X", 1)], [L("b", "X", 1)], [L("c", "X", 0)]]
    assert season_standings(two_thirds, Rule("average"))[0].score == 0.67  # 0.666… half up


def test_league_points_per_place():
    rule = parse_rule("places", places=[10, 7, 5])
    # Ann 10+5+7 = 22; Bob 7+10 = 17; Cai 5+10 = 15; Dan 0(4th)+7+5 = 12
    assert table(rule) == [
        (1, "Ann", 3, 22, 6),
        (2, "Bob", 2, 17, 8),
        (3, "Cai", 2, 15, 1),
        (4, "Dan", 3, 12, -9),
    ]


def test_ties_fall_to_nights_then_the_name_by_code_point():
    nights = [[L("a", "张", 2), L("a", "Zed", 2), L("a", "Amy", 2)], [L("b", "Zed", 0)]]
    assert [r.player for r in season_standings(nights)] == ["Zed", "Amy", "张"]


@pytest.mark.parametrize(
    "text",
    ["best:0", "best:x", "median", "", "places", "best:-1"],
)
def test_bad_rules_are_refused_with_a_sentence(text):
    with pytest.raises(SeasonRuleError):
        parse_rule(text)


def _night(name: str, entrants, tables, variant="tractor-4p", pairing="round-robin"):
    return tfile.load(
        {
            "format": "shengji-tournament/1",
            "club": "C",
            "name": name,
            "variant": variant,
            "pairing": pairing,
            "rounds": 1,
            "match": {"deals": 1},
            "entrants": [{"name": n, "players": p} for n, p in entrants],
            "played": [{"round": 1, "tables": tables}],
        }
    )


def test_a_player_who_changes_partner_keeps_one_line():
    n1 = _night(
        "N1",
        [("Li & Wang", ["Li", "Wang"]), ("Zhao & Chen", ["Zhao", "Chen"])],
        [
            {
                "table": 1,
                "sides": ["Li & Wang", "Zhao & Chen"],
                "deals": [{"declarer": 0, "trump": "S", "points": 0, "kitty": 0}],
            }
        ],
    )
    n2 = _night(
        "N2",
        [("Li & Zhao", ["Li", "Zhao"]), ("Wang & Chen", ["Wang", "Chen"])],
        [
            {
                "table": 1,
                "sides": ["Li & Zhao", "Wang & Chen"],
                "deals": [{"declarer": 1, "trump": "H", "points": 120, "kitty": 0}],
            }
        ],
    )
    rows = season_standings([night_lines(n1), night_lines(n2)])
    got = {r.player: (r.nights, r.score, r.level_diff) for r in rows}
    # N1: Li & Wang keep at 0 points: +3 levels, win 2 points; N2: attackers Li & Zhao take 120
    # as attackers of side 1: +1 level for side 0 (take over), win.
    assert got["Li"][0] == 2 and got["Wang"][0] == 2
    assert got["Li"][1] == 4  # two wins
    assert got["Chen"][1] == 0
    assert got["Wang"][1] == 2 and got["Zhao"][1] == 2
    assert len(rows) == 4


def test_red_five_credits_the_player_with_the_nights_score():
    n = _night(
        "R1",
        [(p, [p]) for p in "ABCDE"],
        [
            {
                "table": 1,
                "players": list("ABCDE"),
                "deals": [{"dealer": 0, "friend": 1, "trump": "S", "points": 0, "kitty": 0}],
            }
        ],
        variant="red-five-5p",
        pairing="reseat",
    )
    rows = {r.player: r for r in season_standings([night_lines(n)])}
    assert rows["A"].score > rows["B"].score > rows["C"].score
    assert all(r.level_diff == 0 for r in rows.values())


def test_promotion_and_relegation_seed_the_next_season():
    moved = promote_relegate([["a1", "a2", "a3", "a4"], ["b1", "b2", "b3"], ["c1", "c2"]], 1)
    assert moved.divisions == (("a1", "a2", "a3", "b1"), ("a4", "b2", "c1"), ("b3", "c2"))
    assert moved.promoted == ("b1", "c1") and moved.relegated == ("a4", "b3")
    two = promote_relegate([["a1", "a2", "a3"], ["b1", "b2", "b3"]], 2)
    assert two.divisions == (("a1", "b1", "b2"), ("a2", "a3", "b3"))
    with pytest.raises(SeasonRuleError):
        promote_relegate([["a"]], -1)


def test_carry_over_by_the_division_seeded_into():
    rows = season_standings(NIGHTS)
    carried = carry_over(rows, {"Ann": 0, "Bob": 1, "Cai": 1}, [1.15, 0.9])
    assert carried == {"Ann": 13.8, "Bob": 9.0, "Cai": 7.2}
    nxt = season_standings([[L("m1", "Bob", 2), L("m1", "Ann", 0)]], carried=carried)
    assert [(r.player, r.score, r.nights) for r in nxt] == [
        ("Ann", 13.8, 1),
        ("Bob", 11.0, 1),
        ("Cai", 7.2, 0),
    ]
