"""Who acts on a tournament, and the audit trail every change leaves (who, when, what, from what
to what)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..models import AuditEntry, Tournament, User, utcnow


@dataclass(frozen=True)
class Actor:
    """Who is acting: a signed-in user (with their club role) or a table code holder."""

    label: str
    user: User | None = None
    owner: bool = False
    director: bool = False


def audit(
    t: Tournament, actor: Actor, action: str, target: str, before: Any, after: Any
) -> AuditEntry:
    entry = AuditEntry(
        tournament_id=t.id,
        user_id=actor.user.id if actor.user is not None else None,
        actor=actor.label[:120],
        action=action,
        target=target[:200],
        before=before,
        after=after,
        at=utcnow(),
    )
    db.session.add(entry)
    return entry


def audit_trail(t: Tournament) -> list[AuditEntry]:
    return list(
        db.session.scalars(
            select(AuditEntry)
            .where(AuditEntry.tournament_id == t.id)
            .order_by(AuditEntry.at.desc(), AuditEntry.id.desc())
        )
    )
