"""Deleting a tournament, reversibly: a deleted tournament is hidden everywhere (the club's
lists, its pages, table codes, seat links, public links, seasons, ratings, player pages) but
kept whole for ``KEEP_DAYS`` days, listed on the club's page with who deleted it and when, and
restored with one click. ``purge`` (``flask tournament purge-deleted``) removes the ones deleted
longer ago for good; nothing a director clicks removes a tournament that cannot be restored. The
mechanism is every deletable kind's (``app.services.trash``); this module keeps a tournament's
rules.

A tournament with an online table still being played is not deleted (its seats and bots would
play on unseen): finish or forfeit those tables, or close the round, first. A duplicate event's
online tournament goes with its event, never alone."""

from __future__ import annotations

from datetime import datetime

from flask_babel import gettext as _
from sqlalchemy import ColumnElement, select

from ...extensions import db
from ...models import Club, Round, Table, Tournament
from .. import ServiceError, trash
from ..duplicate.hosts import is_host, not_host
from .audit import Actor, audit

KEEP_DAYS = trash.KEEP_DAYS


def live() -> ColumnElement[bool]:
    """The condition every query of tournaments that people see adds: not deleted."""
    return trash.live(Tournament)


def is_deleted(t: Tournament | None) -> bool:
    return t is not None and t.deleted_at is not None


restorable_until = trash.restorable_until


def online_in_play(t: Tournament) -> list[int]:
    """The numbers of the round's online tables still being played (round open, not finished,
    not forfeited)."""
    return list(
        db.session.scalars(
            select(Table.number)
            .join(Round, Table.round_id == Round.id)
            .where(
                Round.tournament_id == t.id,
                Round.status != "closed",
                Table.mode == "online",
                Table.finished.is_(False),
                Table.forfeit.is_(None),
            )
            .order_by(Table.number)
        )
    )


def delete_tournament(t: Tournament, actor: Actor, reason: str | None = None) -> None:
    """Hide the tournament, restorable for ``KEEP_DAYS`` days; in its trail and the club's
    list of deleted things."""
    if t.deleted_at is not None:
        raise ServiceError(_("%(name)s is already deleted.", name=t.name))
    if db.session.scalar(select(is_host(t.id))):
        raise ServiceError(
            _("These are a duplicate event's online tables: they go with the event, not alone.")
        )
    playing = online_in_play(t)
    if playing:
        raise ServiceError(
            _(
                "Table %(n)d is still being played online: finish or forfeit its match, or close "
                "the round, before deleting the tournament.",
                n=playing[0],
            )
        )
    why = trash.hide(t, t.name, actor.label, reason)
    t.bump()
    audit(t, actor, "delete_tournament", t.name, None, None, reason=why)
    db.session.flush()


def restore_tournament(t: Tournament, actor: Actor) -> None:
    if t.deleted_at is not None and db.session.scalar(select(is_host(t.id))):
        raise ServiceError(
            _("These are a duplicate event's online tables: they go with the event, not alone.")
        )
    before = trash.unhide(t, t.name)
    t.bump()
    audit(t, actor, "restore_tournament", t.name, before, None)
    db.session.flush()


def _deleted_since(club: Club, start: datetime) -> list[trash.Deleted]:
    """The club's tournaments deleted since ``start`` (a duplicate event's online tournament is
    listed as its event)."""
    rows = db.session.scalars(
        select(Tournament).where(
            Tournament.club_id == club.id,
            Tournament.deleted_at.is_not(None),
            Tournament.deleted_at >= start,
            not_host(Tournament.id),
        )
    )
    return [trash.deleted("tournament", t, t.name) for t in rows]


def deleted_of(club: Club) -> list[trash.Deleted]:
    """The club's tournaments deleted in the last ``KEEP_DAYS`` days."""
    return _deleted_since(club, trash.since())


def deleted_tournament(club: Club, tid: int) -> Tournament | None:
    t = db.session.get(Tournament, tid)
    if t is None or t.club_id != club.id or t.deleted_at is None:
        return None
    return t


def _purge(cutoff: datetime) -> list[str]:
    old = list(
        db.session.scalars(
            select(Tournament).where(
                Tournament.deleted_at.is_not(None),
                Tournament.deleted_at < cutoff,
                not_host(Tournament.id),  # an event's: purged with the event
            )
        )
    )
    names = [t.name for t in old]
    for t in old:
        db.session.delete(t)
    db.session.flush()
    return names


def purge(now: datetime | None = None) -> list[str]:
    """Remove for good everything deleted more than ``KEEP_DAYS`` days before ``now`` (every
    kind: ``app.services.trash.purge``); returns the names."""
    return trash.purge(now)


KIND = trash.Kind(_deleted_since, _purge)
