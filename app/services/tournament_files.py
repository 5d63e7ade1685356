"""The tournament file (``shared/formats/TOURNAMENT.md``, JSON): importing one into the database
and exporting a tournament as one. Reading and checking the file is ``app.competition.tfile``'s."""

from __future__ import annotations

import json

from flask_babel import gettext as _
from sqlalchemy import select

from ..competition import model as cm
from ..competition.tfile import dump
from ..extensions import db
from ..models import Club, Entrant, EntrantPlayer, Tournament, User
from . import ServiceError
from .tournament_audit import Actor, audit
from .tournament_rounds import insert_rounds, unfinished_tables
from .tournament_rows import insert_returning_ids, insert_rows, load, points_json
from .tournament_setup import find_by_name, member_ids, new_tournament_row


def import_statuses(comp: cm.Tournament) -> list[str]:
    """Each round's status once imported (derives every match: do it before the write lock)."""
    return [_imported_status(comp, rnd) for rnd in comp.played]


def import_tournament(
    comp: cm.Tournament,
    user: User | None = None,
    club: Club | None = None,
    statuses: list[str] | None = None,
) -> Tournament:
    """Create the club if new (by exact name) and the tournament, rounds, tables and deals.

    ``comp`` is a checked tournament file (``tfile.load``) and ``statuses`` its rounds' statuses
    (``import_statuses``): the caller works both out before it opens the write transaction, so
    this only writes, in a few bulk inserts (thousands of rows in well under a second, while
    other tables' score entries wait for the database's write lock).
    """
    if statuses is None:
        statuses = import_statuses(comp)
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
    members = member_ids(club)
    entrant_ids = insert_returning_ids(
        Entrant,
        [
            {
                "tournament_id": t.id,
                "name": e.name,
                "position": pos,
                "withdrawn_after": e.withdrawn_after,
            }
            for pos, e in enumerate(comp.entrants, 1)
        ],
    )
    ids = {e.name: eid for e, eid in zip(comp.entrants, entrant_ids, strict=True)}
    insert_rows(
        EntrantPlayer,
        [
            {"entrant_id": ids[e.name], "seat": seat, "name": p, "member_id": members.get(p)}
            for e in comp.entrants
            for seat, p in enumerate(e.players)
        ],
    )
    insert_rounds(t, ids, list(zip(comp.played, statuses, strict=True)))
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


def _imported_status(comp: cm.Tournament, rnd: cm.Round) -> str:
    """Closed when every match counts; started when a result is in; seated otherwise."""
    if not unfinished_tables(comp, rnd):
        return "closed"
    if any(tab.deals or tab.forfeit is not None for tab in rnd.playing):
        return "started"
    return "seated"


def export_json(t: Tournament) -> str:
    return json.dumps(dump(load(t).tournament), ensure_ascii=False, indent=2) + "\n"
