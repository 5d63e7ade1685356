"""Substitutes travel in the tournament file: an export names them on their entrant, an import
stores them as the page records them, and the copy credits each round to whoever played it in
ratings and season standings exactly as the original; a night without substitutes exports as
before, byte for byte."""

from __future__ import annotations

import copy
import json
from typing import Any

from test_tournament_substitutes import _into_season, _night, _substitute

from app.extensions import db
from app.models import Club, Substitution, Tournament
from app.services.tournaments.audit import Actor
from app.services.tournaments.substitutes import remove_substitute


def _export(runner, name: str) -> str:  # type: ignore[no-untyped-def]
    r = runner.invoke(args=["tournament", "export", name])
    assert r.exit_code == 0, r.output
    return str(r.stdout)


def _season_json(runner, club: str) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    r = runner.invoke(args=["season", "standings", club, "Winter", "--json"])
    assert r.exit_code == 0, r.output
    out: list[dict[str, Any]] = json.loads(r.stdout)
    return out


def _subs_of(t: Tournament) -> list[tuple[str, int, int, str, str | None]]:
    return sorted(
        (s.entrant.name, s.seat, s.from_round, s.name, s.reason)
        for s in db.session.query(Substitution).all()
        if s.entrant.tournament_id == t.id
    )


def test_substitutes_round_trip_through_the_file(app, client, runner, tmp_path) -> None:  # type: ignore[no-untyped-def]
    w, t, base, eid, _rounds = _night(client)
    club = w.club
    _into_season(client, club, t)
    r = _substitute(client, base, eid, reason="Olga left at the break")
    assert r.status_code == 303
    doc = json.loads(_export(runner, t.name))
    entrant = doc["entrants"][0]
    assert entrant["name"] == "Olga Owner & Gus Guest"
    assert entrant["substitutes"] == [
        {"seat": 0, "from_round": 2, "name": "Pete Player", "reason": "Olga left at the break"}
    ]
    assert all("substitutes" not in e for e in doc["entrants"][1:])  # only where there are some
    # import a copy into another club (its own season Winter): the same substitution, the same
    # credit in the season standings command and the ratings
    copy_doc = copy.deepcopy(doc)
    copy_doc["name"], copy_doc["club"] = "Friday Night (copy)", "Copy Club"
    path = tmp_path / "copy.json"
    path.write_text(json.dumps(copy_doc, ensure_ascii=False), "utf-8")
    r = runner.invoke(args=["tournament", "import", str(path)])
    assert r.exit_code == 0, r.output
    db.session.expire_all()
    original = db.session.get(Tournament, t.id)
    twin = db.session.query(Tournament).filter_by(name="Friday Night (copy)").one()
    assert (
        _subs_of(twin)
        == _subs_of(original)
        == [("Olga Owner & Gus Guest", 0, 2, "Pete Player", "Olga left at the break")]
    )
    assert json.loads(_export(runner, twin.name)) == copy_doc
    before = _season_json(runner, club.name)
    after = _season_json(runner, "Copy Club")
    assert after == before
    scores = {row["player"]: row["score"] for row in after}
    assert scores["Pete Player"] > 0 or scores["Olga Owner"] > 0
    assert scores["Gus Guest"] == scores["Pete Player"] + scores["Olga Owner"]
    from app.services.ratings.club import rated

    copy_club = db.session.query(Club).filter_by(name="Copy Club").one()
    theirs, ours = rated(copy_club), rated(db.session.get(Club, club.id))
    assert theirs["Pete Player"].matches == 1 == theirs["Olga Owner"].matches
    assert theirs["Gus Guest"].matches == 2
    for name in ("Pete Player", "Olga Owner", "Gus Guest"):
        a, b = theirs[name], ours[name]
        assert (a.mu, a.sigma, a.games, a.matches) == (b.mu, b.sigma, b.games, b.matches)


def test_a_night_without_substitutes_exports_as_before(app, client, runner) -> None:  # type: ignore[no-untyped-def]
    w, t, base, eid, _rounds = _night(client)
    plain = _export(runner, t.name)
    assert "substitutes" not in plain
    assert _substitute(client, base, eid).status_code == 303
    assert _export(runner, t.name) != plain
    db.session.expire_all()
    t = db.session.get(Tournament, t.id)
    e = t.entrants[0]
    remove_substitute(t, e, e.substitutions[0].id, Actor("test", None))
    db.session.commit()
    assert _export(runner, t.name) == plain  # byte for byte
