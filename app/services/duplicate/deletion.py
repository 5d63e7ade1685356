"""Deleting a duplicate event, reversibly (the mechanism: ``app.services.trash``): hidden
everywhere with its online tournament (the tournament's own ``deleted_at`` is set too, so its
tables, seat links and pages go with it, and it comes back with the event, never alone), listed
on the club's page for ``KEEP_DAYS`` days with a restore button, recorded in the event's audit
trail with the director's reason. Refused while one of its online tables is still being played."""

from __future__ import annotations

from datetime import datetime

from flask_babel import gettext as _
from sqlalchemy import and_, select

from ...extensions import db
from ...models import Club, DuplicateEvent, DuplicateOnlineTable, DuplicateResult, Round, Table
from .. import ServiceError, trash
from ..tournaments.audit import Actor, audit
from .online import tournament_of


def in_play(ev: DuplicateEvent) -> list[int]:
    """The event's table numbers still playing a board online: the board has no traveller line
    at that table yet, and the online table is neither finished nor forfeited, its round open."""
    return list(
        db.session.scalars(
            select(DuplicateOnlineTable.table_no)
            .join(Table, Table.id == DuplicateOnlineTable.table_id)
            .join(Round, Round.id == Table.round_id)
            .outerjoin(
                DuplicateResult,
                and_(
                    DuplicateResult.event_id == DuplicateOnlineTable.event_id,
                    DuplicateResult.board == DuplicateOnlineTable.board,
                    DuplicateResult.round == DuplicateOnlineTable.round,
                    DuplicateResult.table_no == DuplicateOnlineTable.table_no,
                ),
            )
            .where(
                DuplicateOnlineTable.event_id == ev.id,
                DuplicateResult.id.is_(None),
                Round.status != "closed",
                Table.finished.is_(False),
                Table.forfeit.is_(None),
            )
            .order_by(DuplicateOnlineTable.round, DuplicateOnlineTable.table_no)
        )
    )


def delete_event(ev: DuplicateEvent, actor: Actor, reason: str | None = None) -> None:
    host = tournament_of(ev)
    if ev.deleted_at is None:
        playing = in_play(ev)
        if playing:
            raise ServiceError(
                _(
                    "Table %(n)d is still being played online: finish or forfeit its match "
                    "before deleting the event.",
                    n=playing[0],
                )
            )
    why = trash.hide(ev, ev.name, actor.label, reason)
    if host is not None and host.deleted_at is None:
        trash.hide(host, host.name, actor.label, None)
        host.bump()
    ev.bump()
    audit(ev, actor, "delete_event", ev.name, None, None, reason=why)
    db.session.flush()


def restore_event(ev: DuplicateEvent, actor: Actor) -> None:
    before = trash.unhide(ev, ev.name)
    host = tournament_of(ev)
    if host is not None and host.deleted_at is not None:
        host.deleted_at = None
        host.deleted_by = None
        host.bump()
    ev.bump()
    audit(ev, actor, "restore_event", ev.name, before, None)
    db.session.flush()


def deleted_event(club: Club, did: int) -> DuplicateEvent | None:
    ev = db.session.get(DuplicateEvent, did)
    if ev is None or ev.club_id != club.id or ev.deleted_at is None:
        return None
    return ev


def _since(club: Club, start: datetime) -> list[trash.Deleted]:
    rows = db.session.scalars(
        select(DuplicateEvent).where(
            DuplicateEvent.club_id == club.id,
            DuplicateEvent.deleted_at.is_not(None),
            DuplicateEvent.deleted_at >= start,
        )
    )
    return [trash.deleted("duplicate", ev, ev.name) for ev in rows]


def _purge(cutoff: datetime) -> list[str]:
    old = list(
        db.session.scalars(
            select(DuplicateEvent).where(
                DuplicateEvent.deleted_at.is_not(None), DuplicateEvent.deleted_at < cutoff
            )
        )
    )
    names = []
    for ev in old:
        host = tournament_of(ev)
        names.append(ev.name)
        if host is not None:
            db.session.delete(host)
        db.session.delete(ev)
    db.session.flush()
    return names


KIND = trash.Kind(_since, _purge)
