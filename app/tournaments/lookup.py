"""What every tournament view needs first: the acting user, and the rows named by the URL (404
when absent or in another tournament)."""

from __future__ import annotations

from typing import Any

from flask import abort
from flask_login import current_user
from sqlalchemy import select

from ..extensions import db
from ..models import Club, Entrant, Member, Round, Table, Tournament, User
from ..services.duplicate.hosts import is_host
from ..services.tournaments.audit import Actor
from .forms import MATCH_LABELS, PAIRING_LABELS, VARIANT_LABELS


def current() -> User | None:
    if not current_user.is_authenticated:
        return None
    return current_user._get_current_object()  # type: ignore[attr-defined,no-any-return]


def actor(me: Member) -> Actor:
    return Actor(
        label=me.display_name,
        user=current(),
        owner=me.role == "owner",
        director=me.role in ("owner", "director"),
    )


def tournament(club: Club, tid: int) -> Tournament:
    """The club's tournament; a duplicate event's online tournament only for its directors (its
    sheets would show a board's results at other tables: no peeking, the event page is the
    players' view)."""
    # one statement: the tournament with whether it hosts a duplicate event's tables
    row = db.session.execute(
        select(Tournament, is_host(Tournament.id)).where(
            Tournament.id == tid, Tournament.club_id == club.id, Tournament.deleted_at.is_(None)
        )
    ).first()
    if row is None:
        abort(404)
    t, hidden = row
    if hidden and not _directs(club):
        abort(404)
    return t


def _directs(club: Club) -> bool:
    user = current()
    if user is None:
        return False
    role = db.session.scalar(
        select(Member.role).where(
            Member.club_id == club.id, Member.user_id == user.id, Member.deleted_at.is_(None)
        )
    )
    return role in ("owner", "director")


def public_tournament(tid: int) -> Tournament:
    t = db.session.get(Tournament, tid)
    if t is None or t.deleted_at is not None:
        abort(404)
    return t


def entrant(t: Tournament, eid: int) -> Entrant:
    e = db.session.scalar(select(Entrant).where(Entrant.id == eid, Entrant.tournament_id == t.id))
    if e is None:
        abort(404)
    return e


def round_(t: Tournament, n: int) -> Round:
    rnd = db.session.scalar(select(Round).where(Round.tournament_id == t.id, Round.number == n))
    if rnd is None:
        abort(404)
    return rnd


def table(rnd: Round, tno: int, bye: bool = True) -> Table:
    """Table ``tno`` of the round; with ``bye=False`` a bye is a 404 (it has no sheet)."""
    tab = db.session.scalar(select(Table).where(Table.round_id == rnd.id, Table.number == tno))
    if tab is None or (not bye and tab.kind == "bye"):
        abort(404)
    return tab


def labels() -> dict[str, Any]:
    return {
        "variant_labels": VARIANT_LABELS,
        "pairing_labels": PAIRING_LABELS,
        "match_labels": MATCH_LABELS,
    }
