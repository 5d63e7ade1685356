"""app.competition.standings: hand-made tournaments with known standings and every tie-break."""

from __future__ import annotations

import copy
from typing import Any

from app.competition import tfile
from app.competition.standings import fixed_standings, red_five_standings


def W(declarer: int) -> dict[str, Any]:
    """The declaring side gains one level (60 points): with one deal a win by 级差 1."""
    return {"declarer": declarer, "trump": "S", "points": 60, "kitty": 0}


def doc(rounds: list[list[dict[str, Any]]], names: str = "ABCDE", **top: Any) -> dict[str, Any]:
    d: dict[str, Any] = {
        "format": "shengji-tournament/1",
        "club": "Club",
        "name": "Cup",
        "variant": "tractor-4p",
        "pairing": "swiss",
        "rounds": max(len(rounds), 1),
        "match": {"deals": 1},
        "points": {"win": 2, "draw": 1, "loss": 0},
        "entrants": [{"name": n, "players": [n + "1", n + "2"]} for n in names],
        "played": [{"round": i + 1, "tables": tables} for i, tables in enumerate(rounds)],
    }
    d.update(top)
    return d


TIE_BREAKS = doc(
    [
        [
            {"table": 1, "sides": ["A", "B"], "deals": [W(0)]},
            {"table": 2, "sides": ["C", "D"], "deals": [W(0)]},
            {"table": 3, "bye": "E"},
        ],
        [
            {"table": 1, "sides": ["E", "A"], "deals": [W(0)]},
            {"table": 2, "sides": ["B", "C"], "deals": [W(0)]},
            {"table": 3, "bye": "D"},
        ],
    ]
)


def test_every_tie_break_level() -> None:
    t = tfile.load(TIE_BREAKS)
    got = [
        (r["entrant"], r["match_points"], r["level_diff"], r["opponents_points"], r["played"])
        for r in tfile.standings_json(t)
    ]
    assert got == [
        ("E", 4, 1, 2, 1),  # most match points
        ("A", 2, 0, 6, 2),  # 对手分 6 beats 4
        ("B", 2, 0, 4, 2),  # B before C: the name
        ("C", 2, 0, 4, 2),
        ("D", 2, -1, 2, 1),  # 级差 −1
    ]
    assert [r["rank"] for r in tfile.standings_json(t)] == [1, 2, 3, 4, 5]
    assert list(tfile.standings_json(t)[0]) == [
        "rank",
        "entrant",
        "played",
        "match_points",
        "level_diff",
        "opponents_points",
    ]


def test_through_round_and_byes() -> None:
    t = tfile.load(TIE_BREAKS)
    first = {r.entrant: r for r in fixed_standings(t, through_round=1)}
    assert first["E"].match_points == 2 and first["E"].byes == 1 and first["E"].played == 0
    assert first["A"].opponents == ["B"]
    d = copy.deepcopy(TIE_BREAKS)
    d["points"] = {"win": 3, "draw": 1, "loss": 0, "bye": 1}
    rows = {r["entrant"]: r for r in tfile.standings_json(tfile.load(d))}
    assert rows["E"]["match_points"] == 1 + 3
    assert rows["D"]["match_points"] == 0 + 1  # lost round 1, bye in round 2


def test_forfeit_and_unfinished() -> None:
    d = doc(
        [
            [
                {"table": 1, "sides": ["A", "B"], "forfeit": 1},
                {"table": 2, "sides": ["C", "D"], "deals": []},
            ]
        ],
        names="ABCD",
        match={"deals": 2},
        points={"win": 2, "draw": 1, "loss": 0, "forfeit_level_diff": 5},
    )
    rows = {r.entrant: r for r in fixed_standings(tfile.load(d))}
    assert (rows["A"].match_points, rows["A"].level_diff, rows["A"].played) == (2, 5, 1)
    assert (rows["B"].match_points, rows["B"].level_diff, rows["B"].forfeits) == (0, -5, 1)
    assert rows["A"].opponents_points == 0 and rows["B"].opponents_points == 2
    assert rows["C"].played == 0 and rows["C"].in_progress == 1 and rows["C"].match_points == 0


def test_draws_and_passed_a() -> None:
    shut = {"declarer": 0, "trump": "H", "points": 0, "kitty": 0}
    at_a = [shut] * 4 + [{"declarer": 0, "trump": None, "points": 60, "kitty": 0}]
    d = doc(
        [
            [
                {"table": 1, "sides": ["A", "B"], "deals": at_a},
                {"table": 2, "sides": ["C", "D"], "deals": [{**shut, "points": 100}]},
            ]
        ],
        names="ABCD",
        match={"deals": 8},
    )
    rows = {r.entrant: r for r in fixed_standings(tfile.load(d))}
    assert rows["A"].level_diff == 13 and rows["A"].wins == 1  # a passed A counts 15
    assert rows["C"].played == 0  # 1 of 8 deals: in progress
    d["match"] = {"deals": 1}
    d["played"][0]["tables"] = [d["played"][0]["tables"][1]]
    rows = {r.entrant: r for r in fixed_standings(tfile.load(d))}
    assert rows["C"].draws == 1 and rows["C"].match_points == 1 and rows["D"].match_points == 1


def red(dealer: int, friend: int | None, points: int) -> dict[str, Any]:
    return {"dealer": dealer, "friend": friend, "trump": "S", "points": points, "kitty": 0}


def test_red_five_standings() -> None:
    d = doc(
        [
            [
                {
                    "table": 1,
                    "players": ["a", "b", "c", "d", "e"],
                    "deals": [red(0, 2, 130), red(1, None, 0)],
                },
                {"table": 2, "bye": "f"},
            ]
        ],
        names="",
        variant="red-five-5p",
        pairing="reseat",
        match={"deals": 2},
    )
    d["entrants"] = [{"name": n} for n in "abcdef"]
    t = tfile.load(d)
    rows = tfile.standings_json(t)
    # deal 1: [-2, 1, -1, 1, 1]; deal 2 (b alone, shutout): [-3, 12, -3, -3, -3]
    assert [(r["entrant"], r["score"], r["dealer_wins"], r["deals"]) for r in rows] == [
        ("b", 13, 1, 2),
        ("f", 0, 0, 0),  # a bye scores 0
        ("d", -2, 0, 2),  # d before e: the name
        ("e", -2, 0, 2),
        ("c", -4, 0, 2),
        ("a", -5, 0, 2),
    ]
    assert list(rows[0]) == ["rank", "entrant", "deals", "score", "dealer_wins"]
    standing = {r.entrant: r for r in red_five_standings(t)}
    assert standing["f"].byes == 1 and standing["a"].tablemates == ["b", "c", "d", "e"]


def test_dealer_wins_break_ties() -> None:
    # one deal: dealer 0 with friend 1 win 1 unit: [2, 1, -1, -1, -1]; second deal: dealer 3 with
    # friend 4 win: [-1, -1, -1, 2, 1] → a 1, b 0, c -2, d 1, e 0: a and d tie on score and wins
    d = doc(
        [[{"table": 1, "players": list("abcde"), "deals": [red(0, 1, 100), red(3, 4, 100)]}]],
        variant="red-five-5p",
        pairing="reseat",
        match={"deals": 2},
    )
    d["entrants"] = [{"name": n} for n in "abcde"]
    rows = tfile.standings_json(tfile.load(d))
    assert [(r["entrant"], r["score"], r["dealer_wins"]) for r in rows] == [
        ("a", 1, 1),
        ("d", 1, 1),
        ("b", 0, 1),
        ("e", 0, 1),
        ("c", -2, 0),
    ]


def test_entrant_history() -> None:
    from app.competition.standings import entrant_history

    t = tfile.load(TIE_BREAKS)
    a = entrant_history(t, "A")
    assert [(h.round, h.opponent, h.outcome, h.level_diff, h.levels) for h in a] == [
        (1, "B", "win", 1, ("3", "2")),
        (2, "E", "loss", -1, ("2", "3")),
    ]
    e = entrant_history(t, "E")
    assert e[0].bye and e[0].match_points == 2 and e[0].table == 3
    assert entrant_history(t, "nobody") == []
