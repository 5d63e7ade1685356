"""The tournament file (``shared/formats/TOURNAMENT.md``, JSON): importing one into the database
and exporting a tournament as one. Reading and checking the file is ``app.competition.tfile``'s."""

from __future__ import annotations

import json
from datetime import date

from flask_babel import gettext as _
from sqlalchemy import select

from ..competition import model as cm
from ..competition.tfile import dump
from ..extensions import db
from ..models import Club, Tournament, User
from . import ServiceError
from .seasons.manage import ensure_season
from .tournament_audit import Actor, audit
from .tournament_rounds import store_round, unfinished_tables
from .tournament_rows import load, points_json
from .tournament_setup import entrant_row, find_by_name, member_ids, new_tournament_row


def import_tournament(
    comp: cm.Tournament, user: User | None = None, club: Club | None = None
) -> Tournament:
    """Create the club if new (by exact name) and the tournament, rounds, tables and deals."""
    if find_by_name(comp.name) is not None:
        raise ServiceError(_("A tournament named %(name)s already exists.", name=comp.name), "name")
    if club is None:
        club = db.session.scalar(select(Club).where(Club.name == comp.club))
        if club is None:
            from .clubs import unique_slug

            club = Club(name=comp.club, slug=unique_slug(comp.club))
            db.session.add(club)
            db.session.flush()
    t = new_tournament_row(
        club,
        user,
        name=comp.name,
        variant=comp.variant,
        options=dict(comp.options),
        pairing=comp.pairing,
        rounds=comp.rounds,
        match=comp.match.as_json(),
        points=points_json(comp.points),
    )
    _night_of(t, club, comp)
    members = member_ids(club)
    ids: dict[str, int] = {}
    for pos, e in enumerate(comp.entrants, 1):
        row = entrant_row(t, e.name, pos, e.players, members, e.withdrawn_after)
        db.session.add(row)
        db.session.flush()
        ids[e.name] = row.id
    for rnd in comp.played:
        store_round(t, ids, rnd, _imported_status(comp, rnd))
    db.session.flush()
    actor = Actor(user.display_name if user else "import", user)
    audit(
        t,
        actor,
        "import",
        t.name,
        None,
        {"rounds": len(comp.played), "entrants": len(comp.entrants)},
    )
    return t


def _night_of(t: Tournament, club: Club, comp: cm.Tournament) -> None:
    """The file's optional ``date``, ``venue`` and ``season`` (created in the club if new)."""
    if comp.date:
        t.date = date.fromisoformat(comp.date)
    t.venue = comp.venue
    if comp.season:
        t.season_id = ensure_season(club, comp.season).id


def _imported_status(comp: cm.Tournament, rnd: cm.Round) -> str:
    """Closed when every match counts; started when a result is in; seated otherwise."""
    if not unfinished_tables(comp, rnd):
        return "closed"
    if any(tab.deals or tab.forfeit is not None for tab in rnd.playing):
        return "started"
    return "seated"


def export_json(t: Tournament) -> str:
    return json.dumps(dump(load(t).tournament), ensure_ascii=False, indent=2) + "\n"
