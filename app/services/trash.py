"""Deleted things, reversibly: one mechanism for every kind a club can delete (a tournament, a
duplicate event, a season, a division of a season, a member removed from the club). A deleted thing keeps its rows and gets
``deleted_at`` / ``deleted_by``; every query of things people see adds ``live(Model)``; the club's
page lists what was deleted in the last ``KEEP_DAYS`` days (``deleted_of``), each with a restore
button; ``purge`` (``flask tournament purge-deleted``) removes the older ones for good.

Each kind keeps its own rules (what it hides, when it is refused, what a restore checks) in its
service module, which offers a ``Kind``: ``app.services.tournaments.deletion``,
``app.services.duplicate.deletion``, ``app.services.seasons.deletion``, ``app.services.clubs``
(``MEMBER_KIND``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from flask_babel import gettext as _
from sqlalchemy import ColumnElement

from ..models import Club, utcnow
from . import ServiceError

KEEP_DAYS = 30


class Deletable(Protocol):
    deleted_at: Any
    deleted_by: Any


def live(model: Any) -> ColumnElement[bool]:
    """The condition every query of ``model`` (a deletable kind) that people see adds."""
    return model.deleted_at.is_(None)  # type: ignore[no-any-return]


def restorable_until(obj: Deletable) -> datetime:
    assert obj.deleted_at is not None
    return obj.deleted_at + timedelta(days=KEEP_DAYS)  # type: ignore[no-any-return]


def since(now: datetime | None = None) -> datetime:
    """The oldest deletion that can still be restored."""
    return (now or utcnow()) - timedelta(days=KEEP_DAYS)


def hide(obj: Deletable, name: str, by: str, reason: str | None) -> str | None:
    """Mark ``obj`` deleted by ``by``; returns the reason, cleaned, for the audit trail."""
    if obj.deleted_at is not None:
        raise ServiceError(_("%(name)s is already deleted.", name=name))
    obj.deleted_at = utcnow()
    obj.deleted_by = by[:120]
    return " ".join((reason or "").split())[:200] or None


def unhide(obj: Deletable, name: str) -> dict[str, Any]:
    """Clear ``obj``'s deletion (refused once ``KEEP_DAYS`` days have passed); returns what it
    was, for the audit trail."""
    if obj.deleted_at is None:
        raise ServiceError(_("%(name)s is not deleted.", name=name))
    if utcnow() > restorable_until(obj):
        raise ServiceError(
            _(
                "%(name)s was deleted more than %(n)d days ago and can no longer be restored.",
                name=name,
                n=KEEP_DAYS,
            )
        )
    before = {"deleted_at": obj.deleted_at.isoformat(timespec="seconds"), "by": obj.deleted_by}
    obj.deleted_at = None
    obj.deleted_by = None
    return before


@dataclass(frozen=True)
class Deleted:
    """A deleted thing as the club's page lists it: ``kind`` is "tournament", "duplicate",
    "season", "division" or "member" (``within``: the season of a division)."""

    kind: str
    id: int
    name: str
    deleted_at: datetime
    deleted_by: str
    until: datetime
    within: str | None = None


def deleted(kind: str, obj: Any, name: str, within: str | None = None) -> Deleted:
    return Deleted(
        kind, obj.id, name, obj.deleted_at, obj.deleted_by or "", restorable_until(obj), within
    )


@dataclass(frozen=True)
class Kind:
    """A deletable kind: ``listed(club, since)`` its things the club deleted since then;
    ``purge(cutoff)`` removes those deleted before ``cutoff`` for good, returns their names."""

    listed: Callable[[Club, datetime], list[Deleted]]
    purge: Callable[[datetime], list[str]]


def _kinds() -> tuple[Kind, ...]:
    # the order of a purge: an event takes its online tournament with it; a season its divisions
    from .clubs import MEMBER_KIND as MEMBER
    from .duplicate.deletion import KIND as DUPLICATE
    from .seasons.deletion import DIVISION, SEASON
    from .tournaments.deletion import KIND as TOURNAMENT

    return (DUPLICATE, TOURNAMENT, DIVISION, SEASON, MEMBER)


def deleted_of(club: Club) -> list[Deleted]:
    """What the club deleted in the last ``KEEP_DAYS`` days, newest first."""
    start = since()
    rows = [d for kind in _kinds() for d in kind.listed(club, start)]
    return sorted(rows, key=lambda d: (d.deleted_at, d.id), reverse=True)


def purge(now: datetime | None = None) -> list[str]:
    """Remove for good what was deleted more than ``KEEP_DAYS`` days before ``now``; returns the
    names."""
    cutoff = since(now)
    return [name for kind in _kinds() for name in kind.purge(cutoff)]
