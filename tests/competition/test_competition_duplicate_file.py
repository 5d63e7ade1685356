"""The duplicate part of the tournament file, pure: dump → load → dump is identical for each
kind of event; every problem comes with its JSON path and code; hostile values of every field
are refused without a crash; an old tournament file never reads as an event."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest

from app.competition import duplicate_file as df
from app.competition import tfile
from tests.competition.test_competition_tfile import EXAMPLE

LIMITS = df.Limits({"pairs": 4, "teams": 2, "individuals": 5}, {"pairs": 60, "teams": 20}, 8)


def _pairs() -> df.EventFile:
    e = df.EventFile(
        "Club", "Pairs", "tractor-4p", {}, "pairs", "round-robin", 1, None, 77, tuple("ABCDEF")
    )
    m = df.movement(e)
    results = tuple(
        df.Result(b, s.round, s.table, declarer=(b + s.table) % 2, total=5 * ((b * s.table) % 17))
        for s in m.sittings
        for b in s.boards
        if b <= 2
    )
    return df.EventFile(**{**e.__dict__, "results": results})


def _swiss() -> df.EventFile:
    e = df.EventFile(
        "Club",
        "Swiss",
        "one-twenty-6p",
        {},
        "teams",
        "swiss",
        1,
        3,
        5,
        ("T1", "T2", "T3", "T4", "T5"),
        paired=(
            df.PairedRound(
                1, ((0, 2), (1, 3)), 4, (0.0,) * 5, "Dora", datetime(2026, 12, 1, 19, 30)
            ),
        ),
    )
    m = df.movement(e)
    results = tuple(df.Result(b, s.round, s.table, 0, 60) for s in m.sittings for b in s.boards)
    return df.EventFile(**{**e.__dict__, "results": results})


def _red_five() -> df.EventFile:
    e = df.EventFile(
        "Club", "Red", "red-five-5p", {}, "individuals", "round-robin", 2, None, 3, tuple("VWXYZ")
    )
    m = df.movement(e)
    s = m.sittings[0]
    return df.EventFile(
        **{
            **e.__dict__,
            "results": (df.Result(s.boards[0], s.round, s.table, scores=(4, 2, -2, -2, -2)),),
        }
    )


@pytest.mark.parametrize("make", [_pairs, _swiss, _red_five])
def test_dump_load_dump_is_identical(make) -> None:  # type: ignore[no-untyped-def]
    e = make()
    doc = df.dump(e)
    text = json.dumps(doc, ensure_ascii=False)
    back = df.load(json.loads(text), LIMITS)
    assert back == replace(
        e, results=tuple(sorted(e.results, key=lambda r: (r.board, r.round, r.table)))
    )
    assert df.dump(back) == doc
    assert [b["board"] for b in doc["duplicate"]["boards"]] == list(
        range(1, df.movement(e).boards + 1)
    )


def _problems(doc: object) -> list[tuple[str, str]]:
    with pytest.raises(df.DuplicateFileError) as info:
        df.load(doc, LIMITS)
    return [(p.path, p.code) for p in info.value.problems]


def test_every_problem_has_its_path_and_code() -> None:
    doc = df.dump(_pairs())
    bad = copy.deepcopy(doc)
    bad["duplicate"]["results"][0]["total"] = 37
    bad["duplicate"]["results"][1]["declarer"] = True
    bad["duplicate"]["results"][2]["extra"] = 1
    assert _problems(bad) == [
        ("duplicate.results[0].total", "total"),
        ("duplicate.results[1].declarer", "declarer"),
        ("duplicate.results[2].extra", "unknown_field"),
    ]
    bad = copy.deepcopy(doc)
    bad["duplicate"]["results"].append(dict(bad["duplicate"]["results"][0]))
    assert _problems(bad) == [
        (f"duplicate.results[{len(bad['duplicate']['results']) - 1}]", "result_twice")
    ]
    bad = copy.deepcopy(doc)
    bad["duplicate"]["boards"][0]["first_drawer"] = 3
    assert _problems(bad) == [("duplicate.boards[0].first_drawer", "board_differs")]
    bad = copy.deepcopy(doc)
    bad["variant"] = "red-five-5p"
    assert ("duplicate.kind", "kind_variant") in _problems(bad)
    bad = copy.deepcopy(doc)
    bad["duplicate"]["entrants"] = ["A", "B", "C"]
    assert _problems(bad) == [("duplicate.entrants", "entrants_count")]
    bad = copy.deepcopy(doc)
    bad["options"] = {"decks": 7}
    assert _problems(bad) == [("options", "option")]


def test_a_swiss_is_checked_against_its_stored_pairings() -> None:
    doc = df.dump(_swiss())
    bad = copy.deepcopy(doc)
    bad["duplicate"]["paired"][0]["bye"] = "T1"
    assert ("duplicate.paired[0].bye", "bye") in _problems(bad)
    bad = copy.deepcopy(doc)
    bad["duplicate"]["paired"][0]["matches"][1] = ["T2", "T1"]
    assert ("duplicate.paired[0].matches[1]", "team_twice") in _problems(bad)
    bad = copy.deepcopy(doc)
    bad["duplicate"]["paired"][0]["paired_at"] = "yesterday"
    assert _problems(bad) == [("duplicate.paired[0].paired_at", "when")]
    # round 2 paired while round 1 misses a result
    e = _swiss()
    second = df.PairedRound(2, ((4, 0), (2, 1)), 3)
    bad = df.dump(
        df.EventFile(**{**e.__dict__, "paired": (*e.paired, second), "results": e.results[1:]})
    )
    assert _problems(bad) == [("duplicate.paired[1]", "paired_early")]
    ok = df.dump(df.EventFile(**{**e.__dict__, "paired": (*e.paired, second)}))
    assert len(df.load(ok, LIMITS).paired) == 2
    bad = copy.deepcopy(doc)
    bad["duplicate"]["paired"] = []
    assert _problems(bad) == [("duplicate.paired", "paired_missing")]


HOSTILE: list[object] = [
    None,
    True,
    -1,
    2**70,
    1.5,
    "",
    "x" * 500,
    [],
    {},
    [[[[]]]],
    "\u202e",
    float("nan"),
]


def test_hostile_values_in_every_field_are_refused_without_a_crash() -> None:
    doc = df.dump(_swiss())
    paths: list[tuple[object, ...]] = [(k,) for k in doc]
    paths += [("duplicate", k) for k in doc["duplicate"]]
    paths += [("duplicate", "paired", 0, k) for k in doc["duplicate"]["paired"][0]]
    paths += [("duplicate", "boards", 0, k) for k in doc["duplicate"]["boards"][0]]
    paths += [("duplicate", "results", 0, k) for k in doc["duplicate"]["results"][0]]
    tried = 0
    for path in paths:
        for value in HOSTILE:
            bad = copy.deepcopy(doc)
            where = bad
            for k in path[:-1]:
                where = where[k]
            where[path[-1]] = value
            try:
                df.load(bad, LIMITS)
            except df.DuplicateFileError as error:
                assert error.problems and all(p.code for p in error.problems)
            tried += 1
    assert tried > 300
    assert _problems([]) == [("", "not_object")]


def test_old_tournament_files_are_not_events_and_an_event_is_not_a_tournament() -> None:
    assert tfile.load(EXAMPLE).name == EXAMPLE["name"]  # an old file reads as before
    assert _problems(EXAMPLE) == [("duplicate", "no_event")]
    with pytest.raises(tfile.TournamentFileError) as info:
        tfile.load(df.dump(_pairs()))
    assert [e.path for e in info.value.errors] == ["duplicate"]


def test_the_documented_example_reads() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "TOURNAMENT_EXTENSIONS.md").read_text(
        encoding="utf-8"
    )
    part = text.split("## `duplicate`", 1)[1]
    doc = json.loads(part.split("```json", 1)[1].split("```", 1)[0])
    e = df.load(doc, LIMITS)
    assert e.swiss and [p.bye for p in e.paired] == [2] and len(e.results) == 2
    assert df.dump(e) == doc


def _four_deck_teams() -> df.EventFile:
    """升级 with 4 decks, teams on a VP scale factor of 12.5."""
    e = df.EventFile(
        "Club",
        "Teams",
        "tractor-4p",
        {"decks": 4},
        "teams",
        "round-robin",
        2,
        None,
        11,
        ("T1", "T2", "T3"),
        vp_factor=12.5,
    )
    m = df.movement(e)
    results = tuple(df.Result(b, s.round, s.table, 1, 360) for s in m.sittings for b in s.boards)
    return df.EventFile(**{**e.__dict__, "results": results})


def test_the_variant_options_and_the_vp_factor_travel_in_the_file() -> None:
    e = _four_deck_teams()
    doc = df.dump(e)
    assert doc["options"] == {"decks": 4} and doc["duplicate"]["vp_factor"] == 12.5
    back = df.load(json.loads(json.dumps(doc)), LIMITS)
    assert back.vp_factor == 12.5 and back.options == {"decks": 4}
    assert df.dump(back) == doc
    # the boards are 4-deck boards: the attackers' points go up to 400 × 4
    assert all(b.options.get("decks") == 4 for b in df.boards(back))
    assert df.max_total(back.variant, back.options) == 1600
    # the default factor is not written: older files read as before
    assert "vp_factor" not in df.dump(_swiss())["duplicate"]
    assert df.load(df.dump(_swiss()), LIMITS).vp_factor == 10.0
    for bad_value in ("12", 0, 101, True, None):
        bad = copy.deepcopy(doc)
        bad["duplicate"]["vp_factor"] = bad_value
        assert _problems(bad) == [("duplicate.vp_factor", "vp_factor")]
    bad = df.dump(_pairs())
    bad["duplicate"]["vp_factor"] = 12
    assert _problems(bad) == [("duplicate.vp_factor", "vp_factor_teams")]


def test_a_result_of_a_table_that_does_not_play_the_board_is_refused() -> None:
    e = _pairs()
    m = df.movement(e)
    doc = df.dump(e)
    playing = {(s.round, s.table) for s in m.board_tables(1)}
    rnd, table = next((s.round, s.table) for s in m.sittings if (s.round, s.table) not in playing)
    bad = copy.deepcopy(doc)
    row = next(r for r in bad["duplicate"]["results"] if r["board"] == 1)
    row["round"], row["table"] = rnd, table
    problems = _problems(bad)
    assert problems and problems[0][1] == "no_table"
