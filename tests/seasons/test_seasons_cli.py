"""The tournament file's date, venue and season keys, and the season commands
(``flask season standings`` and ``flask season ratings``) as TOURNAMENT.md describes them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.extensions import db
from app.models import Season, Tournament


def night(name: str, pairs: list[tuple[str, list[str]]], deals: list[dict[str, Any]], **extra):
    doc: dict[str, Any] = {
        "format": "shengji-tournament/1",
        "club": "Riverside",
        "name": name,
        **extra,
        "variant": "tractor-4p",
        "pairing": "round-robin",
        "rounds": 1,
        "match": {"deals": len(deals)},
        "entrants": [{"name": n, "players": p} for n, p in pairs],
        "played": [
            {
                "round": 1,
                "tables": [{"table": 1, "sides": [pairs[0][0], pairs[1][0]], "deals": deals}],
            }
        ],
    }
    return doc


N1 = night(
    "Night 1",
    [("Li & Zhang", ["Li Wei", "Zhang Min"]), ("Wang & Zhao", ["Wang Fang", "Zhao Lei"])],
    [{"declarer": 0, "trump": "S", "points": 0, "kitty": 0}],  # Li & Zhang +3, win
    date="2026-12-04",
    venue="Hall A",
    season="Winter",
)
N2 = night(
    "Night 2",
    [("Li & Wang", ["Li Wei", "Wang Fang"]), ("Zhang & Zhao", ["Zhang Min", "Zhao Lei"])],
    [{"declarer": 1, "trump": "H", "points": 120, "kitty": 0}],  # Li & Wang take over +1, win
    date="2026-12-11",
    season="Winter",
)


def _import(runner, tmp_path: Path, doc: dict[str, Any]) -> None:
    path = tmp_path / f"{doc['name']}.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    r = runner.invoke(args=["tournament", "import", str(path)])
    assert r.exit_code == 0, r.output


def _standings(runner, *extra: str) -> list[dict[str, Any]]:
    r = runner.invoke(args=["season", "standings", "Riverside", "Winter", *extra, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.fixture
def season_runner(app, runner, tmp_path):
    _import(runner, tmp_path, N1)
    _import(runner, tmp_path, N2)
    return runner


def test_the_file_keys_are_stored_exported_and_round_trip(app, season_runner, tmp_path):
    t = db.session.query(Tournament).filter_by(name="Night 1").one()
    assert t.date.isoformat() == "2026-12-04" and t.venue == "Hall A"
    season = db.session.get(Season, t.season_id)
    assert season is not None and season.name == "Winter"
    r = season_runner.invoke(args=["tournament", "export", "Night 1"])
    doc = json.loads(r.stdout)
    assert list(doc)[:6] == ["format", "club", "name", "date", "venue", "season"]
    assert (doc["date"], doc["venue"], doc["season"]) == ("2026-12-04", "Hall A", "Winter")
    # an export imported again (under a new name) exports identically
    doc["name"] = "Night 1 copy"
    _import(season_runner, tmp_path, doc)
    again = json.loads(season_runner.invoke(args=["tournament", "export", "Night 1 copy"]).stdout)
    assert again == doc
    # old files without the keys stay valid and export without them
    plain = {k: v for k, v in N1.items() if k not in ("date", "venue", "season")}
    plain["name"] = "Old style"
    _import(season_runner, tmp_path, plain)
    old = json.loads(season_runner.invoke(args=["tournament", "export", "Old style"]).stdout)
    assert "date" not in old and "season" not in old


@pytest.mark.parametrize(
    ("bad", "path"),
    [
        ({"date": "2026-02-30"}, "date"),
        ({"date": 5}, "date"),
        ({"venue": " "}, "venue"),
        ({"season": ""}, "season"),
    ],
)
def test_bad_night_keys_are_refused_by_path(app, runner, tmp_path, bad, path):
    doc = {**N1, **bad}
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    r = runner.invoke(args=["tournament", "import", str(p)])
    assert r.exit_code == 1
    assert f"{path}:" in r.output
    assert db.session.query(Tournament).count() == 0


def test_season_standings_follow_the_player_under_each_rule(season_runner):
    total = _standings(season_runner)
    assert [(r["rank"], r["player"], r["nights"], r["score"], r["level_diff"]) for r in total] == [
        (1, "Li Wei", 2, 4, 4),
        (2, "Zhang Min", 2, 2, 2),
        (3, "Wang Fang", 2, 2, -2),
        (4, "Zhao Lei", 2, 0, -4),
    ]
    best = _standings(season_runner, "--rule", "best:1")
    # Li: best night 2 (+3); Zhang 2 (+3); Wang 2 (+1); Zhao 0: both nights 0, the better 级差 -1
    assert [(r["player"], r["score"], r["level_diff"]) for r in best] == [
        ("Li Wei", 2, 3),
        ("Zhang Min", 2, 3),
        ("Wang Fang", 2, 1),
        ("Zhao Lei", 0, -1),
    ]
    avg = _standings(season_runner, "--rule", "average")
    assert [(r["player"], r["score"]) for r in avg] == [
        ("Li Wei", 2),
        ("Zhang Min", 1),
        ("Wang Fang", 1),
        ("Zhao Lei", 0),
    ]
    places = _standings(season_runner, "--rule", "places", "--places", "10,5")
    assert [(r["player"], r["score"]) for r in places] == [
        ("Li Wei", 20),
        ("Zhang Min", 15),
        ("Wang Fang", 15),
        ("Zhao Lei", 10),
    ]


@pytest.mark.parametrize(
    "args",
    [
        ["season", "standings", "Nowhere", "Winter", "--json"],
        ["season", "standings", "Riverside", "Summer", "--json"],
        ["season", "standings", "Riverside", "Winter", "--rule", "median", "--json"],
        ["season", "standings", "Riverside", "Winter", "--rule", "best:0", "--json"],
        ["season", "standings", "Riverside", "Winter", "--rule", "places", "--json"],
        ["season", "standings", "Riverside", "Winter", "--rule", "places", "--places", "a,b"],
        ["season", "ratings", "Nowhere", "--json"],
    ],
)
def test_errors_exit_1_with_a_sentence_and_nothing_on_stdout(season_runner, args):
    r = season_runner.invoke(args=args)
    assert r.exit_code == 1
    assert r.stdout == ""
    assert r.stderr.startswith("error: ")


def test_a_corrected_night_re_derives_the_season(app, season_runner):
    from app.models import Deal, Round, Table

    t = db.session.query(Tournament).filter_by(name="Night 1").one()
    deal = (
        db.session.query(Deal)
        .join(Table, Table.id == Deal.table_id)
        .join(Round, Round.id == Table.round_id)
        .filter(Round.tournament_id == t.id)
        .one()
    )
    deal.points = 120  # the attackers Wang & Zhao now take over at night 1
    t.bump()
    db.session.commit()
    total = {r["player"]: r["score"] for r in _standings(season_runner)}
    assert total == {"Li Wei": 2, "Wang Fang": 4, "Zhang Min": 0, "Zhao Lei": 2}


def test_ratings_json_lists_players_with_matches_and_season_places(season_runner):
    r = season_runner.invoke(args=["season", "ratings", "Riverside", "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)
    assert rows[0]["player"] == "Li Wei"  # won both matches
    assert rows[-1]["player"] == "Zhao Lei"  # lost both
    assert all(row["matches"] == 2 for row in rows)
    assert rows[0]["rating"] > rows[-1]["rating"]
    assert rows[0]["seasons"] == [{"season": "Winter", "place": 1}]
