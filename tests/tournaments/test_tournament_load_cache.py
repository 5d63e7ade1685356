"""The tournament as competition data (``rows.load``) is kept per version, but only once
committed: a version derived inside a write that is then rolled back must not be what the
next committed change of the same version number shows."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select

from app.extensions import db
from app.models import Entrant, Tournament
from app.services.tournaments import rows
from tests.tournaments.tournament_helpers import add_entrants, create, login, world


def _rename_first(tid: int, name: str) -> Tournament:
    t = db.session.get(Tournament, tid)
    assert t is not None
    first = db.session.scalars(
        select(Entrant).where(Entrant.tournament_id == tid).order_by(Entrant.position, Entrant.id)
    ).first()
    assert first is not None
    first.name = name
    t.bump()
    db.session.flush()
    return t


def _names(t: Tournament) -> list[str]:
    return [e.name for e in rows.load(t).tournament.entrants]


def test_a_version_read_in_a_rolled_back_write_is_not_kept(app: Flask, client) -> None:
    w = world()
    login(client, w.director)
    tid = create(client, w.club).id
    add_entrants(client, w.club, db.session.get(Tournament, tid), 4, 2)  # type: ignore[arg-type]
    db.session.remove()
    with app.test_request_context("/x", method="POST"):
        t = _rename_first(tid, "Ghost Pair")
        assert "Ghost Pair" in _names(t)  # the write sees its own change
        db.session.rollback()
        db.session.remove()
    with app.test_request_context("/x", method="POST"):
        _rename_first(tid, "Real Pair")  # the same version number, committed
        db.session.commit()
        db.session.remove()
    with app.test_request_context("/x"):  # a page
        t = db.session.get(Tournament, tid)
        assert t is not None
        names = _names(t)
        assert "Real Pair" in names and "Ghost Pair" not in names
        again = rows.load(t)
        assert again is rows.load(t)  # read in a page: kept for the version
        db.session.remove()
