"""An entrant's ``substitutes`` in the tournament file (docs/TOURNAMENT_EXTENSIONS.md): read
into the entrant, written back only when there are some, refused with the JSON path when a seat
or a round does not exist, a name is empty or someone would play twice in a round; the season
lines of a loaded night credit each round to whoever played it."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from app.competition import tfile
from app.competition.model import Substitute
from app.competition.seasons import night_lines
from app.competition.standings import entrant_history
from app.competition.tfile import TournamentFileError
from tests.competition.tfile_examples import EXAMPLE, ONE20, RED_FIVE

SUN = {"seat": 1, "from_round": 1, "name": "Sun Li", "reason": "Zhang Min is ill"}


def _with(*subs: Any, entrant: int = 0) -> dict[str, Any]:
    d = copy.deepcopy(EXAMPLE)
    d["entrants"][entrant]["substitutes"] = list(subs)
    return d


def test_substitutes_are_read_and_written_back() -> None:
    later = {"seat": 0, "from_round": 3, "name": "Zhou Yu"}
    d = _with(SUN, later)
    t = tfile.load(d)
    e = t.entrant_map["Li & Zhang"]
    assert e.substitutes == (
        Substitute(1, 1, "Sun Li", "Zhang Min is ill"),
        Substitute(0, 3, "Zhou Yu"),
    )
    assert e.players == ("Li Wei", "Zhang Min")  # as entered
    assert e.players_in(1) == ("Li Wei", "Sun Li")
    assert e.players_in(3) == ("Zhou Yu", "Sun Li")
    assert tfile.dump(t) == d
    assert list(tfile.dump(t)["entrants"][0]) == ["name", "players", "substitutes"]


@pytest.mark.parametrize("doc", [EXAMPLE, RED_FIVE, ONE20], ids=["tractor", "red-five", "120"])
def test_a_file_without_substitutes_is_written_as_before(doc: dict[str, Any]) -> None:
    out = tfile.dump(tfile.load(copy.deepcopy(doc)))
    assert json.dumps(out, ensure_ascii=False) == json.dumps(doc, ensure_ascii=False)
    assert all("substitutes" not in e for e in out["entrants"])


def test_the_season_lines_of_a_loaded_night_credit_the_substitute() -> None:
    t = tfile.load(_with(SUN))
    lines = {(x.player, x.entrant): x.number for x in night_lines(t)}
    (history,) = entrant_history(t, "Li & Zhang")  # one round played
    assert lines[("Sun Li", "Li & Zhang")] == history.match_points
    assert lines[("Li Wei", "Li & Zhang")] == history.match_points
    assert ("Zhang Min", "Li & Zhang") not in lines
    plain = {x.player for x in night_lines(tfile.load(copy.deepcopy(EXAMPLE)))}
    assert "Zhang Min" in plain and "Sun Li" not in plain


S = "entrants[0].substitutes[0]"


@pytest.mark.parametrize(
    ("subs", "expected"),
    [
        (
            [{**SUN, "seat": 2}],
            f"{S}.seat: must be the index of one of the entrant's players, 0 … 1, not 2",
        ),
        ([{**SUN, "seat": -1}], f"{S}.seat: must be the index of one of the entrant's players"),
        ([{**SUN, "seat": "1"}], f"{S}.seat: must be the index"),
        (
            [{**SUN, "from_round": 4}],
            f"{S}.from_round: must be a round of the tournament, 1 … 3, not 4",
        ),
        ([{**SUN, "from_round": 0}], f"{S}.from_round: must be a round of the tournament"),
        ([{**SUN, "name": "  "}], f"{S}.name: must be a non-empty name, not '  '"),
        ([{"seat": 1, "from_round": 1}], f"{S}.name: is missing"),
        ([{**SUN, "name": "x" * 81}], f"{S}.name: 81 characters: at most 80, please"),
        ([{**SUN, "reason": ""}], f"{S}.reason: must be a non-empty text"),
        (
            [{**SUN, "why": "ill"}],
            f"{S}.why: unknown field (known: seat, from_round, name, reason)",
        ),
        ("Sun Li", "entrants[0].substitutes: must be a list"),
        (
            [{**SUN, "name": "Wang Fang"}],
            f"{S}.name: 'Wang Fang' would play twice in round 1: as this substitute and for "
            "'Wang & Zhao'",
        ),
        (
            [{**SUN, "name": "Li  Wei"}],
            f"{S}.name: 'Li Wei' would play twice in round 1: as this substitute and for the same "
            "entrant",
        ),
        ([{**SUN, "name": "Zhang Min"}], f"{S}.name: 'Zhang Min' already plays seat 1 in round 1"),
        (
            [SUN, {**SUN, "name": "Zhou Yu"}],
            "entrants[0].substitutes[1].from_round: seat 1 already has a substitute from round 1",
        ),
    ],
)
def test_bad_substitutes_are_refused_with_their_path(subs: Any, expected: str) -> None:
    with pytest.raises(TournamentFileError) as info:
        tfile.load(_with(*subs) if isinstance(subs, list) else _with_raw(subs))
    assert any(str(e).startswith(expected) for e in info.value.errors), info.value.errors


def _with_raw(value: Any) -> dict[str, Any]:
    d = copy.deepcopy(EXAMPLE)
    d["entrants"][0]["substitutes"] = value
    return d


def test_a_substitute_of_two_entrants_in_one_round_is_refused_on_the_later_one() -> None:
    d = _with({"seat": 0, "from_round": 2, "name": "Sun Li"})
    d["entrants"][1]["substitutes"] = [{"seat": 1, "from_round": 3, "name": "Sun Li"}]
    with pytest.raises(TournamentFileError) as info:
        tfile.load(d)
    assert [str(e) for e in info.value.errors] == [
        "entrants[1].substitutes[0].name: 'Sun Li' would play twice in round 3: as this "
        "substitute and for 'Li & Zhang'"
    ]
    # a player whose seat was taken may substitute elsewhere once free; a withdrawn entrant's
    # players are free after its last round
    d["entrants"][1]["substitutes"] = [{"seat": 1, "from_round": 3, "name": "Li Wei"}]
    assert tfile.load(d).entrant_map["Wang & Zhao"].players_in(3) == ("Wang Fang", "Li Wei")
    d = _with({"seat": 0, "from_round": 3, "name": "Chen Jie"})
    d["entrants"][2]["withdrawn_after"] = 2
    assert tfile.load(d).entrant_map["Li & Zhang"].players_in(3)[0] == "Chen Jie"
