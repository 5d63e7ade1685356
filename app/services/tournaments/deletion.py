"""Deleting a tournament, reversibly: a deleted tournament is hidden everywhere (the club's
lists, its pages, table codes, seat links, public links, seasons, ratings, player pages) but
kept whole for ``KEEP_DAYS`` days, listed on the club's page with who deleted it and when, and
restored with one click. ``purge`` (``flask tournament purge-deleted``) removes the ones deleted
longer ago for good; nothing a director clicks removes a tournament that cannot be restored.

A tournament with an online table still being played is not deleted (its seats and bots would
play on unseen): finish or forfeit those tables, or close the round, first. A duplicate event's
online tournament goes with its event, never alone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from flask_babel import gettext as _
from sqlalchemy import ColumnElement, select

from ...extensions import db
from ...models import Club, Round, Table, Tournament, utcnow
from .. import ServiceError
from ..duplicate.hosts import is_host
from .audit import Actor, audit

KEEP_DAYS = 30


def live() -> ColumnElement[bool]:
    """The condition every query of tournaments that people see adds: not deleted."""
    return Tournament.deleted_at.is_(None)


def is_deleted(t: Tournament | None) -> bool:
    return t is not None and t.deleted_at is not None


def restorable_until(t: Tournament) -> datetime:
    assert t.deleted_at is not None
    return t.deleted_at + timedelta(days=KEEP_DAYS)


def _online_in_play(t: Tournament) -> list[int]:
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
    playing = _online_in_play(t)
    if playing:
        raise ServiceError(
            _(
                "Table %(n)d is still being played online: finish or forfeit its match, or close "
                "the round, before deleting the tournament.",
                n=playing[0],
            )
        )
    why = " ".join((reason or "").split())[:200] or None
    t.deleted_at = utcnow()
    t.deleted_by = actor.label[:120]
    t.bump()
    audit(t, actor, "delete_tournament", t.name, None, None, reason=why)
    db.session.flush()


def restore_tournament(t: Tournament, actor: Actor) -> None:
    if t.deleted_at is None:
        raise ServiceError(_("%(name)s is not deleted.", name=t.name))
    if utcnow() > restorable_until(t):
        raise ServiceError(
            _(
                "%(name)s was deleted more than %(n)d days ago and can no longer be restored.",
                name=t.name,
                n=KEEP_DAYS,
            )
        )
    before = {"deleted_at": t.deleted_at.isoformat(timespec="seconds"), "by": t.deleted_by}
    t.deleted_at = None
    t.deleted_by = None
    t.bump()
    audit(t, actor, "restore_tournament", t.name, before, None)
    db.session.flush()


@dataclass(frozen=True)
class Deleted:
    """A deleted thing as the club's page lists it."""

    kind: str  # "tournament"
    id: int
    name: str
    deleted_at: datetime
    deleted_by: str
    until: datetime


def deleted_of(club: Club) -> list[Deleted]:
    """The club's tournaments deleted in the last ``KEEP_DAYS`` days, newest first."""
    since = utcnow() - timedelta(days=KEEP_DAYS)
    rows = db.session.scalars(
        select(Tournament)
        .where(
            Tournament.club_id == club.id,
            Tournament.deleted_at.is_not(None),
            Tournament.deleted_at >= since,
        )
        .order_by(Tournament.deleted_at.desc(), Tournament.id.desc())
    )
    out = []
    for t in rows:
        assert t.deleted_at is not None
        out.append(
            Deleted(
                "tournament", t.id, t.name, t.deleted_at, t.deleted_by or "", restorable_until(t)
            )
        )
    return out


def deleted_tournament(club: Club, tid: int) -> Tournament | None:
    t = db.session.get(Tournament, tid)
    if t is None or t.club_id != club.id or t.deleted_at is None:
        return None
    return t


def purge(now: datetime | None = None) -> list[str]:
    """Remove for good the tournaments deleted more than ``KEEP_DAYS`` days before ``now``;
    returns their names."""
    cutoff = (now or utcnow()) - timedelta(days=KEEP_DAYS)
    old = list(
        db.session.scalars(
            select(Tournament).where(
                Tournament.deleted_at.is_not(None), Tournament.deleted_at < cutoff
            )
        )
    )
    names = [t.name for t in old]
    for t in old:
        db.session.delete(t)
    db.session.flush()
    return names
