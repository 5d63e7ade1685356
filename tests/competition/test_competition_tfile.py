"""app.competition.tfile: the documented example, round trips, and every validation error."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from app.competition import tfile
from app.competition.tfile import TournamentFileError
from tests.competition.tfile_examples import EXAMPLE, ONE20, RED_FIVE


@pytest.mark.parametrize("doc", [EXAMPLE, RED_FIVE, ONE20], ids=["example", "red5", "120"])
def test_round_trip_exact(doc: dict[str, Any]) -> None:
    t = tfile.load(copy.deepcopy(doc))
    out = tfile.dump(t)
    assert out == doc
    assert json.dumps(out, ensure_ascii=False) == json.dumps(doc, ensure_ascii=False)  # key order
    again = tfile.load(json.loads(json.dumps(out)))
    assert again == t
    assert tfile.standings_json(again) == tfile.standings_json(t)


def test_dump_omits_defaults() -> None:
    d = copy.deepcopy(EXAMPLE)
    deal = d["played"][0]["tables"][0]["deals"][0]
    deal.update({"multiplier": 0, "failed_throws": {"declarer": 0}, "misplays": []})
    del d["options"]
    d["played"][0]["tables"][0].update({"mode": "paper", "finished": False})
    out = tfile.dump(tfile.load(d))
    assert "options" not in out
    assert out["played"][0]["tables"][0] == {
        "table": 1,
        "sides": ["Li & Zhang", "Wang & Zhao"],
        "deals": [
            {"declarer": 0, "trump": "S", "points": 85, "kitty": 10},
            EXAMPLE["played"][0]["tables"][0]["deals"][1],
        ],
    }
    assert tfile.dump(tfile.load(out)) == out


def test_example_standings() -> None:
    rows = tfile.standings_json(tfile.load(EXAMPLE))
    # deal 1: 85 + 10 × 4 = 125, Wang & Zhao take over +1 (3); deal 2 at 3: 35 + 10 = 45 → 4
    assert rows == [
        {
            "rank": 1,
            "entrant": "Wang & Zhao",
            "played": 1,
            "match_points": 2,
            "level_diff": 2,
            "opponents_points": 0,
        },
        {
            "rank": 2,
            "entrant": "Chen & Liu",
            "played": 0,
            "match_points": 2,
            "level_diff": 0,
            "opponents_points": 0,
        },
        {
            "rank": 3,
            "entrant": "Li & Zhang",
            "played": 1,
            "match_points": 0,
            "level_diff": -2,
            "opponents_points": 2,
        },
    ]


def _errors(doc: Any) -> list[str]:
    with pytest.raises(TournamentFileError) as info:
        tfile.load(doc)
    return [str(e) for e in info.value.errors]


def _deal(d: dict[str, Any], i: int = 0) -> dict[str, Any]:
    return d["played"][0]["tables"][0]["deals"][i]


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(d: dict[str, Any]) -> None:
        obj = d
        for key in path[:-1]:
            obj = obj[key]
        if value is _DELETE:
            del obj[path[-1]]
        else:
            obj[path[-1]] = value

    return edit


_DELETE = object()
DEALS = ["played", 0, "tables", 0, "deals"]
TABLE = ["played", 0, "tables", 0]
P = "played[0].tables[0]"


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (_set([*DEALS, 1, "points"], 87), f"{P}.deals[1].points: 87 is not a multiple of 5"),
        (_set([*DEALS, 1, "points"], 205), f"{P}.deals[1].points: 205 is more than the 200"),
        (_set([*DEALS, 1, "points"], "35"), f"{P}.deals[1].points: must be a whole number"),
        (_set([*DEALS, 1, "points"], _DELETE), f"{P}.deals[1].points: is missing"),
        (_set([*DEALS, 1, "trump"], _DELETE), f"{P}.deals[1].trump: is missing"),
        (_set([*DEALS, 1, "trump"], "X"), f"{P}.deals[1].trump: 'X' is not a suit"),
        (_set([*DEALS, 1, "kitty"], 90), f"{P}.deals[1].kitty: 90 is more than a kitty of 8"),
        (_set([*DEALS, 0, "points"], 195), f"{P}.deals[0].kitty: points 195 + kitty 10"),
        (_set([*DEALS, 0, "multiplier"], 6), f"{P}.deals[0].multiplier: 6 is not a multiplier"),
        (_set([*DEALS, 0, "declarer"], 2), f"{P}.deals[0].declarer: 2 is not a side"),
        (
            _set([*DEALS, 0, "level"], "5"),
            f"{P}.deals[0].level: the sheet says 5 but side 0 is at 2",
        ),
        (_set([*DEALS, 1, "level"], 3), f"{P}.deals[1].level: must be a level written as text"),
        (_set([*DEALS, 1, "failed_throws"], [1]), f"{P}.deals[1].failed_throws: must be an object"),
        (
            _set([*DEALS, 1, "failed_throws", "attackers"], -1),
            f"{P}.deals[1].failed_throws.attackers",
        ),
        (_set([*DEALS, 1, "misplays"], [0]), f"{P}.deals[1].misplays: are recorded in 120分 only"),
        (
            _set([*DEALS, 1, "friend_grabbed"], True),
            f"{P}.deals[1].friend_grabbed: belongs to red five",
        ),
        (_set([*DEALS, 1, "colour"], 1), f"{P}.deals[1].colour: unknown field"),
        (_set([*DEALS, 1], 7), f"{P}.deals[1]: must be an object"),
        (_set(["match"], {"deals": 1}), f"{P}.deals[1]: the match is 1 deals; this is deal 2"),
        (_set([*TABLE, "forfeit"], 1), f"{P}.deals: a forfeited table has no deals"),
        (_set([*TABLE, "forfeit"], 2), f"{P}.forfeit: must be the absent side"),
        (_set([*TABLE, "mode"], "radio"), f"{P}.mode: 'radio' is not one of paper, online"),
        (_set([*TABLE, "finished"], "yes"), f"{P}.finished: must be true or false"),
        (
            _set([*TABLE, "sides"], ["Li & Zhang", "Nobody"]),
            f"{P}.sides[1]: 'Nobody' is not an entrant",
        ),
        (_set([*TABLE, "sides"], ["Li & Zhang"]), f"{P}.sides: must name 2 entrants, not 1"),
        (
            _set([*TABLE, "sides"], ["Li & Zhang", "Li & Zhang"]),
            f"{P}.sides[1]: 'Li & Zhang' is already at",
        ),
        (_set([*TABLE, "players"], ["a"]), f"{P}: must hold exactly one of"),
        (
            _set(["played", 0, "tables", 1, "bye"], "Li & Zhang"),
            "played[0].tables[1].bye: 'Li & Zhang' is already at played[0].tables[0]",
        ),
        (
            _set(["played", 0, "tables", 1, "table"], 1),
            "played[0].tables[1].table: table 1 is already in this round",
        ),
        (
            _set(["played", 0, "tables", 1, "deals"], []),
            "played[0].tables[1].deals: a bye has only table and bye",
        ),
        (
            _set(["played", 0, "round"], 2),
            "played[0].round: 2: rounds are numbered 1, 2, … in order; expected 1",
        ),
        (_set(["rounds"], 0), "rounds: must be a number of rounds, 1 or more"),
        (
            _set(["entrants", 1, "withdrawn_after"], 0),
            f"{P}.sides[1]: 'Wang & Zhao' withdrew after round 0",
        ),
        (
            _set(["entrants", 1, "name"], "Li & Zhang"),
            "entrants[1].name: 'Li & Zhang' is already an entrant",
        ),
        (
            _set(["entrants", 1, "players"], ["Wang Fang"]),
            "entrants[1].players: has 1 players; an entrant here is a pair",
        ),
        (
            _set(["entrants", 1, "players"], ["Wang Fang", "Li Wei"]),
            "entrants[1].players[1]: 'Li Wei' already plays for 'Li & Zhang'",
        ),
        (
            _set(["entrants", 1, "players"], ["Wang Fang", ""]),
            "entrants[1].players[1]: must be a non-empty name",
        ),
        (_set(["entrants", 0, "players"], _DELETE), "entrants[0].players: is missing"),
        (_set(["format"], "shengji-tournament/2"), "format: 'shengji-tournament/2' is not"),
        (_set(["club"], ""), "club: must be a non-empty text"),
        (_set(["name"], _DELETE), "name: is missing"),
        (_set(["variant"], "bridge"), "variant: 'bridge' is not one of"),
        (_set(["options", "decks"], 3), "options.decks: option decks takes one of 2, 4"),
        (
            _set(["options", "score_table"], "units60"),
            "options.score_table: tractor-4p has no option",
        ),
        (_set(["pairing"], "reseat"), "pairing: reseat is for red five"),
        (_set(["pairing"], "knockout"), "pairing: 'knockout' is not one of"),
        (_set(["match"], {"deals": 2, "minutes": 30}), "match: must hold exactly one of"),
        (_set(["match"], {"to_a": False}), "match.to_a: must be true"),
        (_set(["match"], {"minutes": 0}), "match.minutes: must be a whole number 1 or more"),
        (_set(["points", "win"], -1), "points.win: must be a whole number 0 or more"),
        (_set(["points", "draw"], _DELETE), "points.draw: is missing"),
        (_set(["points", "extra"], 1), "points.extra: unknown field"),
        (_set(["played"], {}), "played: must be a list"),
        (_set(["surprise"], 1), "surprise: unknown field"),
    ],
)
def test_every_error(edit: Callable[[dict[str, Any]], None], expected: str) -> None:
    d = copy.deepcopy(EXAMPLE)
    edit(d)
    errors = _errors(d)
    assert any(e.startswith(expected) for e in errors), errors


def test_passed_a_then_another_deal() -> None:
    d = copy.deepcopy(EXAMPLE)
    shut = {"declarer": 0, "trump": "S", "points": 0, "kitty": 0}
    win = {"declarer": 0, "trump": "S", "points": 60, "kitty": 0}
    d["match"] = {"deals": 8}
    d["played"][0]["tables"][0]["deals"] = [shut] * 4 + [win, win]
    assert _errors(d) == [f"{P}.deals[5]: side 0 passed A in deal 5: the match was over"]


def test_played_more_rounds_than_planned() -> None:
    d = copy.deepcopy(EXAMPLE)
    d["rounds"] = 1
    d["played"].append({"round": 2, "tables": []})
    assert _errors(d) == ["played[1]: the tournament has 1 rounds"]


def test_collects_every_error_at_once() -> None:
    d = copy.deepcopy(EXAMPLE)
    _deal(d, 0)["points"] = 87
    _deal(d, 1)["kitty"] = 3
    d["entrants"][2]["players"] = ["Chen Jie"]
    d["club"] = 5
    errors = _errors(d)
    assert "club: must be a non-empty text, not 5" in errors
    assert f"{P}.deals[0].points: 87 is not a multiple of 5" in errors
    assert f"{P}.deals[1].kitty: 3 is not a multiple of 5" in errors
    assert any(e.startswith("entrants[2].players: has 1 players") for e in errors)
    assert len(errors) == 4, errors  # the flawed entrant's bye is not reported a second time


def test_flawed_entrant_is_still_named_an_entrant() -> None:
    """An entrant whose players are wrong is reported once, on its players; the tables that seat
    it by name do not add a misleading ''Chen & Liu' is not an entrant'."""
    d = copy.deepcopy(EXAMPLE)
    d["entrants"][2]["players"] = ["Chen Jie"]
    d["entrants"][0]["players"] = ["Li Wei", ""]
    errors = _errors(d)
    assert errors == [
        "entrants[0].players[1]: must be a non-empty name, not ''",
        "entrants[2].players: has 1 players; an entrant here is a pair: 2 players",
    ]
    d["played"][0]["tables"][1]["bye"] = "Nobody"
    assert "played[0].tables[1].bye: 'Nobody' is not an entrant" in _errors(d)


def test_bad_deal_stops_level_checks_but_not_field_checks() -> None:
    d = copy.deepcopy(EXAMPLE)
    d["match"] = {"deals": 4}
    deals = d["played"][0]["tables"][0]["deals"]
    deals[0]["points"] = "lots"
    deals.append({"declarer": 0, "trump": "S", "points": 12, "kitty": 0, "level": "K"})
    errors = _errors(d)
    assert errors == [
        f"{P}.deals[0].points: must be a whole number, not 'lots'",
        f"{P}.deals[2].points: 12 is not a multiple of 5",
    ]


def test_not_an_object() -> None:
    assert _errors([1, 2]) == ["must be an object (a tournament file), not [1, 2]"]


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (_set([*DEALS, 0, "friend"], 0), f"{P}.deals[0].friend: is the dealer"),
        (_set([*DEALS, 0, "friend"], _DELETE), f"{P}.deals[0].friend: is missing"),
        (_set([*DEALS, 0, "dealer"], 5), f"{P}.deals[0].dealer: 5 is not a seat 0 … 4"),
        (_set([*DEALS, 0, "trump"], None), f"{P}.deals[0].trump: is missing: red five always"),
        (_set([*DEALS, 0, "failed_throws"], [9]), f"{P}.deals[0].failed_throws: 9 is not a seat"),
        (
            _set([*DEALS, 0, "failed_throws"], {"declarer": 1}),
            f"{P}.deals[0].failed_throws: must be a list",
        ),
        (
            _set([*DEALS, 0, "level"], "3"),
            f"{P}.deals[0].level: '3': red five is always played at level 2",
        ),
        (_set([*DEALS, 0, "declarer"], 0), f"{P}.deals[0].declarer: is for fixed sides"),
        (_set([*DEALS, 1, "friend_grabbed"], True), f"{P}.deals[1].friend_grabbed: needs a friend"),
        (
            _set([*TABLE, "players"], ["张三", "李四", "王五", "赵六"]),
            f"{P}.players: must name 5 entrants, not 4",
        ),
        (_set([*TABLE, "forfeit"], 0), f"{P}.forfeit: forfeits are for fixed-side tables only"),
        (
            _set(["played", 0, "tables", 1], {"table": 2, "sides": ["孙八", "张三"]}),
            "played[0].tables[1].sides: red five tables list their five players",
        ),
        (_set(["pairing"], "swiss"), "pairing: red five re-seats individuals: use reseat"),
        (_set(["match"], {"to_a": True}), "match.to_a: red five stays at level 2"),
        (
            _set(["entrants", 0, "players"], ["张三", "x"]),
            "entrants[0].players: has 2 players; an entrant here is one player",
        ),
        (
            _set(["entrants", 5, "withdrawn_after"], 0),
            "played[0].tables[1].bye: '孙八' withdrew after round 0",
        ),
    ],
)
def test_red_five_errors(edit: Callable[[dict[str, Any]], None], expected: str) -> None:
    d = copy.deepcopy(RED_FIVE)
    edit(d)
    errors = _errors(d)
    assert any(e.startswith(expected) for e in errors), errors


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            _set([*DEALS, 0, "failed_throws"], {"declarer": 1}),
            f"{P}.deals[0].failed_throws: is not used in 120分",
        ),
        (_set([*DEALS, 0, "misplays"], [2]), f"{P}.deals[0].misplays: 2 is not a side"),
        (_set([*DEALS, 0, "misplays"], "1"), f"{P}.deals[0].misplays: must be a list"),
        (_set([*DEALS, 1, "multiplier"], 4), f"{P}.deals[1].multiplier: 4 is not a multiplier"),
        (
            _set([*DEALS, 1, "level"], "4"),
            f"{P}.deals[1].level: the sheet says 4 but side 0 is at 5",
        ),
        (
            _set(["entrants", 0, "players"], ["x1", "x2"]),
            "entrants[0].players: has 2 players; an entrant here is a trio",
        ),
    ],
)
def test_one_twenty_errors(edit: Callable[[dict[str, Any]], None], expected: str) -> None:
    d = copy.deepcopy(ONE20)
    edit(d)
    errors = _errors(d)
    assert any(e.startswith(expected) for e in errors), errors


def test_one_twenty_levels() -> None:
    from app.competition.matches import derive_fixed

    t = tfile.load(ONE20)
    m = derive_fixed(t.rules, t.match, t.played[0].tables[0])
    # deal 1: 40 < 60 → +2, plus side 1's misplay → 5; deal 2 at 5: 180 + 20 = 200 → Y +1
    assert [r.levels_after for r in m.rows] == [("5", "2"), ("5", "3")]
    assert not m.counts  # to_a, not finished, A not passed


def test_red_five_players_may_be_omitted() -> None:
    d = copy.deepcopy(RED_FIVE)
    for e in d["entrants"]:
        del e["players"]
    out = tfile.dump(tfile.load(d))
    assert out == RED_FIVE


def test_a_match_by_deals_ended_early_in_the_file() -> None:
    d = copy.deepcopy(EXAMPLE)
    d["match"] = {"deals": 4}
    tab = d["played"][0]["tables"][0]
    tab["finished"] = True
    tab["end_reason"] = "time ran out"
    t = tfile.load(copy.deepcopy(d))
    assert t.played[0].tables[0].end_reason == "time ran out"
    assert tfile.dump(t) == d
    rows = tfile.standings_json(t)
    assert sum(r["played"] for r in rows) == 2  # counted on its 2 deals of 4
    # the reason belongs to a finished table of a match by deals
    del tab["finished"]
    assert any(e.startswith(f"{P}.end_reason: belongs to a finished table") for e in _errors(d))
    tab["finished"] = True
    d["match"] = {"minutes": 60}
    assert any(
        e.startswith(f"{P}.end_reason: belongs to a match of a number of deals") for e in _errors(d)
    )
    d["match"] = {"deals": 4}
    tab["end_reason"] = 7
    assert any(e.startswith(f"{P}.end_reason: must be a text") for e in _errors(d))
