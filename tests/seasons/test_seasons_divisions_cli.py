"""The tournament file's ``division`` key and ``flask season standings … --division NAME``
(shared/formats/TOURNAMENT.md, Seasons): a night imported into a division counts in that
division's table; without ``--division`` the rows are grouped by division, each ranked within."""

from __future__ import annotations

import json

from app.extensions import db
from app.models import Division, Season, Tournament
from tests.seasons.test_seasons_cli import N1, N2, _import, _standings, night

N3 = night(
    "Night 3",
    [("Qian & Sun", ["Qian Hao", "Sun Yu"]), ("Zhou & Wu", ["Zhou Jie", "Wu Dan"])],
    [{"declarer": 0, "trump": "S", "points": 0, "kitty": 0}],  # Qian & Sun +3, win
    date="2026-12-12",
    season="Winter",
)


def _setup(runner, tmp_path):
    _import(runner, tmp_path, {**N1, "division": "甲级"})
    _import(runner, tmp_path, {**N2, "division": "甲级"})
    _import(runner, tmp_path, {**N3, "division": "乙级"})


def test_the_division_key_creates_the_division_after_the_existing_ones_and_exports(
    app, runner, tmp_path
):
    _setup(runner, tmp_path)
    season = db.session.query(Season).filter_by(name="Winter").one()
    assert [d.name for d in season.divisions] == ["甲级", "乙级"]
    t = db.session.query(Tournament).filter_by(name="Night 3").one()
    assert db.session.get(Division, t.division_id).name == "乙级"
    r = runner.invoke(args=["tournament", "export", "Night 3"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["season"] == "Winter" and doc["division"] == "乙级"


def test_a_division_without_a_season_is_refused_and_nothing_is_saved(app, runner, tmp_path):
    doc = {k: v for k, v in N1.items() if k != "season"}
    path = tmp_path / "no-season.json"
    path.write_text(json.dumps({**doc, "division": "甲级"}, ensure_ascii=False), encoding="utf-8")
    r = runner.invoke(args=["tournament", "import", str(path)])
    assert r.exit_code == 1
    assert "division" in r.output and "season" in r.output
    assert db.session.query(Tournament).count() == 0


def test_standings_of_one_division_rank_from_one_with_its_nights_only(app, runner, tmp_path):
    _setup(runner, tmp_path)
    rows = _standings(runner, "--division", "乙级")
    assert [(r["rank"], r["player"], r["nights"]) for r in rows] == [
        (1, "Qian Hao", 1),
        (2, "Sun Yu", 1),
        (3, "Wu Dan", 1),
        (4, "Zhou Jie", 1),
    ]
    assert all("division" not in r for r in rows)
    top = _standings(runner, "--division", "甲级")
    assert {r["player"] for r in top} == {"Li Wei", "Zhang Min", "Wang Fang", "Zhao Lei"}
    assert all(r["nights"] == 2 for r in top)


def test_standings_without_division_are_grouped_in_the_seasons_order(app, runner, tmp_path):
    _setup(runner, tmp_path)
    _import(runner, tmp_path, {**N3, "name": "Night 4", "date": "2026-12-13"})  # no division
    rows = _standings(runner)
    assert [r["division"] for r in rows] == ["甲级"] * 4 + ["乙级"] * 4 + [None] * 4
    for name in ("甲级", "乙级", None):
        assert [r["rank"] for r in rows if r["division"] == name] == [1, 2, 3, 4]
    assert [r["nights"] for r in rows if r["division"] == "甲级"] == [2, 2, 2, 2]


def test_an_unknown_division_is_a_clear_error(app, runner, tmp_path):
    _setup(runner, tmp_path)
    r = runner.invoke(args=["season", "standings", "Riverside", "Winter", "--division", "丙级"])
    assert r.exit_code == 1
    assert "no division named '丙级'" in r.output and "甲级, 乙级" in r.output


def test_a_web_upload_with_a_division_counts_in_that_divisions_table(app, client):
    import io

    from tests.tournaments.tournament_helpers import login, world

    w = world()
    login(client, w.director)
    url = f"/clubs/{w.club.slug}/tournaments/import"
    for doc in ({**N1, "division": "甲级"}, {**N3, "division": "乙级"}):
        body = json.dumps({**doc, "club": w.club.name}, ensure_ascii=False).encode()
        r = client.post(url, data={"file": (io.BytesIO(body), "t.json")})
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    season = db.session.query(Season).filter_by(name="Winter").one()
    assert [d.name for d in season.divisions] == ["甲级", "乙级"]
    page = client.get(f"/clubs/{w.club.slug}/seasons/{season.id}").get_data(as_text=True)
    top, low = page.index("甲级</h2>"), page.index("乙级</h2>")
    assert top < page.index("Li Wei") < low < page.index("Qian Hao")
