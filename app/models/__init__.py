"""All database models. Import every model module here so Alembic and ``db.create_all`` see it.

Add a concept as a new module (``app/models/tournaments.py``), import its classes below, then
``flask --app app db migrate -m "add tournaments"`` and review the generated file.
"""

from ._common import utcnow
from .clubs import ROLE_RANK, ROLES, Club, Invite, Member
from .duplicate import (
    DUPLICATE_KINDS,
    DuplicateEvent,
    DuplicateOnlineTable,
    DuplicateResult,
    DuplicateRound,
)
from .online import OnlineAction, OnlineChat, OnlineDeal, OnlineSeat
from .seasons import Division, Season
from .tournaments import (
    AuditEntry,
    Deal,
    Entrant,
    EntrantPlayer,
    Round,
    Substitution,
    Table,
    TableSeat,
    Tournament,
)
from .users import LoginAttempt, User, UserSession

__all__ = [
    "DUPLICATE_KINDS",
    "DuplicateEvent",
    "DuplicateOnlineTable",
    "DuplicateResult",
    "DuplicateRound",
    "AuditEntry",
    "Deal",
    "Entrant",
    "EntrantPlayer",
    "Round",
    "Substitution",
    "Table",
    "TableSeat",
    "Tournament",
    "ROLES",
    "ROLE_RANK",
    "Club",
    "Division",
    "Season",
    "Invite",
    "LoginAttempt",
    "OnlineAction",
    "OnlineChat",
    "OnlineDeal",
    "OnlineSeat",
    "Member",
    "User",
    "UserSession",
    "utcnow",
]
