"""app.competition.tfile for 争上游: a night round-trips exactly, and every refusal names its
JSON path and field."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from app.competition import tfile
from app.competition.seasons import night_lines, season_standings
from app.competition.tfile import TournamentFileError

# five players at tables of four: one sits out each round
CLIMB: dict[str, Any] = {
    "format": "shengji-tournament/1",
    "club": "Riverside Card Club",
    "name": "争上游 night",
    "date": "2026-12-04",
    "season": "Winter climb",
    "variant": "climbing",
    "options": {"players": 4},
    "pairing": "reseat",
    "rounds": 2,
    "match": {"deals": 3},
    "points": {"win": 2, "draw": 1, "loss": 0},
    "entrants": [{"name": n, "players": [n]} for n in ("Li", "Wang", "Zhao", "Chen", "Liu")],
    "played": [
        {
            "round": 1,
            "tables": [
                {
                    "table": 1,
                    "players": ["Li", "Wang", "Zhao", "Chen"],
                    "deals": [
                        {"places": [2, 1, 4, 3]},
                        {
                            "places": [1, 3, 2, 4],
                            "tribute": {"from": 2, "to": 1, "card": "HJ"},
                            "penalties": [{"kind": "takeback", "seat": 0}],
                        },
                        {
                            "places": [3, 2, 1, 4],
                            "warnings": [{"seat": 3, "reason": "slow play"}],
                        },
                    ],
                },
                {"table": 2, "bye": "Liu"},
            ],
        },
        {
            "round": 2,
            "tables": [
                {
                    "table": 1,
                    "players": ["Liu", "Zhao", "Li", "Chen"],
                    "deals": [{"places": [1, 2, 3, 4]}],
                },
                {"table": 2, "bye": "Wang"},
            ],
        },
    ],
}


def test_round_trip_exact() -> None:
    t = tfile.load(copy.deepcopy(CLIMB))
    out = tfile.dump(t)
    assert out == CLIMB
    assert json.dumps(out, ensure_ascii=False) == json.dumps(CLIMB, ensure_ascii=False)
    again = tfile.load(json.loads(json.dumps(out)))
    assert again == t
    assert tfile.standings_json(again) == tfile.standings_json(t)


def test_an_online_table_round_trips() -> None:
    """争上游 is played online too (issue 25): a table's ``mode: "online"`` is written back."""
    d = copy.deepcopy(CLIMB)
    d["played"][0]["tables"][0]["mode"] = "online"
    t = tfile.load(copy.deepcopy(d))
    assert tfile.dump(t) == d


def test_standings_by_points_then_deals_won() -> None:
    rows = tfile.standings_json(tfile.load(CLIMB))
    # round 1 (counted): Li 2+3−1+1 = 5, Wang 3+1+2 = 6, Zhao 0+2+3 = 5, Chen 1+0+0 = 1;
    # round 2 holds 1 of 3 deals: in progress, nothing yet
    assert rows == [
        {"rank": 1, "entrant": "Wang", "deals": 3, "score": 6, "wins": 1},
        {"rank": 2, "entrant": "Li", "deals": 3, "score": 5, "wins": 1},
        {"rank": 3, "entrant": "Zhao", "deals": 3, "score": 5, "wins": 1},
        {"rank": 4, "entrant": "Chen", "deals": 3, "score": 1, "wins": 0},
        {"rank": 5, "entrant": "Liu", "deals": 0, "score": 0, "wins": 0},
    ]


def test_a_card_is_written_back_in_its_code() -> None:
    d = copy.deepcopy(CLIMB)
    _deal(d, 1)["tribute"]["card"] = " hj"
    assert tfile.dump(tfile.load(d)) == CLIMB


def test_a_climbing_season_credits_each_player_with_the_nights_points() -> None:
    one = tfile.load(CLIMB)
    two_doc = copy.deepcopy(CLIMB)
    two_doc["name"] = "争上游 night 2"
    two_doc["played"] = two_doc["played"][:1]
    two_doc["played"][0]["tables"][0]["players"] = ["Liu", "Wang", "Zhao", "Chen"]
    two_doc["played"][0]["tables"][1]["bye"] = "Li"
    two = tfile.load(two_doc)
    rows = {
        r.player: (r.nights, r.score, r.level_diff)
        for r in season_standings([night_lines(one), night_lines(two)])
    }
    # night 2: Liu in seat 0 scores 2 + 3 − 1 (the seat's take-back) + 1 = 5; Li sits out
    assert rows == {
        "Wang": (2, 12, 0),
        "Zhao": (2, 10, 0),
        "Li": (2, 5, 0),
        "Liu": (2, 5, 0),
        "Chen": (2, 2, 0),
    }


def _errors(doc: Any) -> list[str]:
    with pytest.raises(TournamentFileError) as info:
        tfile.load(doc)
    return [str(e) for e in info.value.errors]


def _deal(d: dict[str, Any], i: int) -> dict[str, Any]:
    return d["played"][0]["tables"][0]["deals"][i]


def _edit(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
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
P = "played[0].tables[0]"


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            _edit([*DEALS, 0, "places"], [2, 1, 1, 3]),
            f"{P}.deals[0].places[2]: seat 2 has place 1, as seat 1 has: each place once",
        ),
        (
            _edit([*DEALS, 0, "places"], [2, 1, None, 3]),
            f"{P}.deals[0].places[2]: seat 2 has no place",
        ),
        (
            _edit([*DEALS, 0, "places"], [2, 1, 5, 3]),
            f"{P}.deals[0].places[2]: 5 is not a place 1 … 4",
        ),
        (
            _edit([*DEALS, 0, "places"], [2, 1, 4]),
            f"{P}.deals[0].places: list 3 places: the table has 4 seats",
        ),
        (
            _edit([*DEALS, 0, "places"], [2, 1, "4", 3]),
            f"{P}.deals[0].places[2]: must be a place number, not '4'",
        ),
        (_edit([*DEALS, 0, "places"], _DELETE), f"{P}.deals[0].places: is missing"),
        (
            _edit([*DEALS, 1, "tribute", "from"], 3),
            f"{P}.deals[1].tribute.from: seat 3 did not come last in the deal before (seat 2 did)",
        ),
        (
            _edit([*DEALS, 1, "tribute", "to"], 0),
            f"{P}.deals[1].tribute.to: seat 0 did not come first in the deal before (seat 1 did)",
        ),
        (
            _edit([*DEALS, 1, "tribute", "card"], "ZZ"),
            f"{P}.deals[1].tribute.card: 'ZZ' is not a card",
        ),
        (_edit([*DEALS, 1, "tribute", "card"], 2), f"{P}.deals[1].tribute.card: must be a card"),
        (_edit([*DEALS, 1, "tribute", "to"], _DELETE), f"{P}.deals[1].tribute.to: is missing"),
        (
            _edit([*DEALS, 0, "tribute"], {"from": 0, "to": 1, "card": "2S"}),
            f"{P}.deals[0].tribute.from: a first deal has no tribute",
        ),
        (
            _edit(["options", "tribute"], False),
            f"{P}.deals[1].tribute.from: these rules pay no tribute (tribute: false)",
        ),
        (
            _edit([*DEALS, 0, "points"], 0),
            f"{P}.deals[0].points: is not used in 争上游",
        ),
        (
            _edit([*DEALS, 1, "penalties"], [{"kind": "revoke", "seat": 0}]),
            f"{P}.deals[1].penalties: 'revoke': in 争上游 only a take-back (悔牌) is recorded",
        ),
        (
            _edit(["played", 0, "tables", 0, "players"], ["Li", "Wang", "Zhao", "Chen", "Liu"]),
            f"{P}.players: must name 4 entrants, not 5",
        ),
        (
            _edit(["played", 0, "tables", 0, "sides"], ["Li", "Wang"]),
            f"{P}: must hold exactly one of",
        ),
        (_edit(["pairing"], "swiss"), "pairing: 争上游 re-seats individuals: use reseat"),
        (
            _edit(["played", 0, "tables", 0, "mode"], "online-ish"),
            f"{P}.mode: 'online-ish' is not one of",
        ),
        (_edit(["match"], {"to_a": True}), "match.to_a: 争上游 has no levels"),
        (_edit(["match", "tie_break"], "on_stage"), "match.tie_break: 争上游 has no tie-break"),
        (_edit(["options", "players"], 7), "options.players:"),
        (
            _edit(["match", "deals"], 2),
            f"{P}.deals[2]: the table plays 2 deals; this is deal 3",
        ),
    ],
)
def test_refusals_name_their_path(edit: Callable[[dict[str, Any]], None], expected: str) -> None:
    d = copy.deepcopy(CLIMB)
    edit(d)
    errors = _errors(d)
    assert any(e.startswith(expected) for e in errors), errors


def test_places_and_tribute_belong_to_climbing_only() -> None:
    d = copy.deepcopy(CLIMB)
    d["variant"] = "red-five-5p"
    del d["options"]
    errors = _errors(d)
    assert f"{P}.deals[0].places: belongs to 争上游 deals only" in errors
    assert f"{P}.deals[1].tribute: belongs to 争上游 deals only" in errors
