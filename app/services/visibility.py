"""Who sees a tournament's or a season's standings: the club only (the default), or anyone who
has its public link, ``/p/<token>`` for a tournament and ``/league/<token>`` for a season.

The token is ``secrets.token_urlsafe`` (128 random bits, 22 characters), made the first time the
link is turned on and kept while it is switched off and on again; renewing it makes a new one, and
the old link names nothing from then on. The id URLs (``/standings/<id>``) are for the club's
members only: to anyone else they are a plain 404, so counting ids reveals no names.

Services never commit (see ``app.services``).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l
from sqlalchemy import bindparam, select

from ..db import OneRow
from ..extensions import db
from ..models import Club, Season, Tournament
from ..permissions import can_view
from . import ServiceError, versions

CLUB, PUBLIC = "club", "public"
VISIBILITY_LABELS: dict[str, Any] = {
    CLUB: _l("Club only: members who are logged in"),
    PUBLIC: _l("Public: anyone with the link"),
}
TOKEN_BYTES = 16
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,40}")

Shared = Tournament | Season


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def _shown(obj: Shared) -> dict[str, Any]:
    return {"visibility": obj.visibility}


def set_visibility(obj: Shared, visibility: str, seen: str | None = None) -> None:
    """Club only or public; turning the link on the first time makes its token. A form shown
    before another change of it (``seen``, its ``Share.version`` then) is refused."""
    from flask_babel import gettext as _

    versions.check_seen(
        _shown(obj),
        seen,
        lambda _c: _(
            "Who sees the standings was changed by someone else since you opened this page "
            "(now: %(now)s): look again. Nothing was saved.",
            now=VISIBILITY_LABELS.get(obj.visibility, obj.visibility),
        ),
    )
    if visibility not in VISIBILITY_LABELS:
        raise ServiceError(_("Choose who may see the standings."), "visibility")
    obj.visibility = visibility
    if visibility == PUBLIC and not obj.public_token:
        obj.public_token = new_token()
    db.session.flush()


def renew_token(obj: Shared) -> str:
    """A new public link; the old one is dead from now on."""
    obj.public_token = new_token()
    db.session.flush()
    return obj.public_token


def is_public(obj: Shared) -> bool:
    return obj.visibility == PUBLIC and bool(obj.public_token)


def tournament_by_token(token: str) -> Tournament | None:
    """The public tournament this link names, or None (no such token, or club only now)."""
    if not _TOKEN.fullmatch(token):
        return None
    t = db.session.scalar(
        select(Tournament).where(Tournament.public_token == token, Tournament.deleted_at.is_(None))
    )
    return t if t is not None and is_public(t) else None


_PUBLIC_VERSION = OneRow(
    lambda: select(Tournament.version).where(
        Tournament.public_token == bindparam("token"),
        Tournament.visibility == PUBLIC,
        Tournament.deleted_at.is_(None),
    ),
    ("token",),
)


def public_version(token: str) -> int | None:
    """The version of the public tournament this link names in one row read on a connection
    of its own (a projector's live poll: ``app/poll_shortcut.py``), or None as
    ``tournament_by_token`` would find none."""
    if not _TOKEN.fullmatch(token):
        return None
    got = _PUBLIC_VERSION(token=token)
    return None if got is None else int(got[0])


def season_by_token(token: str) -> Season | None:
    """The public season this link names, or None."""
    if not _TOKEN.fullmatch(token):
        return None
    s = db.session.scalar(
        select(Season).where(Season.public_token == token, Season.deleted_at.is_(None))
    )
    return s if s is not None and is_public(s) else None


def member_sees(user: Any, obj: Shared) -> bool:
    """Whether ``user`` is a member of the club the tournament or season belongs to."""
    club = db.session.get(Club, obj.club_id)
    return club is not None and can_view(user, club)


@dataclass(frozen=True)
class Share:
    """What the visibility section of a tournament's or season's page shows."""

    visibility: str
    public: bool
    url: str | None  # the public link, while public
    version: str = ""  # what the form shows (``versions``): sent back as ``seen``

    @property
    def choices(self) -> list[tuple[str, str]]:
        return [(k, str(v)) for k, v in VISIBILITY_LABELS.items()]


def share_of(obj: Shared, public_url: str) -> Share:
    """``public_url``: the object's public link (the caller builds addresses)."""
    return Share(
        obj.visibility,
        is_public(obj),
        public_url if is_public(obj) else None,
        versions.version(_shown(obj)),
    )
