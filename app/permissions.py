"""Object-level permissions for clubs: every club route goes through these helpers.

Rules:
* anonymous visitors of a club URL are sent to the login page (whether the club exists or not);
* a signed-in user who is not a member of the club gets 404 — a guessed slug or id reveals
  nothing;
* a member whose role is too weak gets 403;
* objects addressed by id inside a club (members, invites, tournaments …) are looked up *with*
  the club's id, so an id from another club is a 404 (``get_in_club_or_404``).

Roles: owner ≥ director ≥ player. Owners manage members; directors run tournaments and enter
and correct scores; players see their club.

A table's code (``/table/<code>``) is a capability for that one table's sheet. Guessing codes is
throttled per client address: wrong codes are recorded like failed logins (same table, own
marker) and past ``TABLE_CODE_MAX_FAILURES_PER_IP`` in the login window every code lookup from
that address is refused with 429 (``check_code_guessing`` / ``record_code_failure``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from functools import wraps
from typing import Any, TypeVar

from flask import abort, current_app
from flask_login import current_user
from sqlalchemy import delete, func, select

from .extensions import db, login_manager
from .models import ROLE_RANK, Club, LoginAttempt, Member, User, utcnow

M = TypeVar("M")
F = TypeVar("F", bound=Callable[..., Any])


def membership(user: User | Any, club: Club) -> Member | None:
    """The user's member record in this club, or None (also for anonymous users)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return db.session.scalar(
        select(Member).where(
            Member.club_id == club.id, Member.user_id == user.id, Member.deleted_at.is_(None)
        )
    )


def has_club_role(user: User | Any, club: Club, role: str = "player") -> bool:
    member = membership(user, club)
    return member is not None and ROLE_RANK[member.role] >= ROLE_RANK[role]


def can_view(user: User | Any, club: Club) -> bool:
    return has_club_role(user, club, "player")


def can_direct(user: User | Any, club: Club) -> bool:
    """Run tournaments, enter and correct scores."""
    return has_club_role(user, club, "director")


def can_manage(user: User | Any, club: Club) -> bool:
    """Manage members, roles and invitations."""
    return has_club_role(user, club, "owner")


def get_club_or_404(slug: str) -> Club:
    club = db.session.scalar(select(Club).where(Club.slug == slug))
    if club is None:
        abort(404)
    return club


def require_club_role(club: Club, role: str = "player") -> Member:
    """The current user's member record, or abort: login redirect / 404 / 403 (see module doc)."""
    if not current_user.is_authenticated:
        abort(login_manager.unauthorized())
    member = membership(current_user, club)
    if member is None:
        abort(404)
    if ROLE_RANK[member.role] < ROLE_RANK[role]:
        abort(403)
    return member


def get_in_club_or_404(model: type[M], club: Club, obj_id: int) -> M:
    """Load ``model`` by id, only if it belongs to ``club`` (the model needs ``club_id``) and,
    for a kind that can be deleted, is not deleted (``app.services.trash``)."""
    q = select(model).where(  # type: ignore[arg-type]
        model.id == obj_id,  # type: ignore[attr-defined]
        model.club_id == club.id,  # type: ignore[attr-defined]
    )
    if hasattr(model, "deleted_at"):
        q = q.where(model.deleted_at.is_(None))  # type: ignore[attr-defined]
    obj: M | None = db.session.scalar(q)
    if obj is None:
        abort(404)
    return obj


def club_route(role: str = "player") -> Callable[[F], F]:
    """Decorator for views under ``/clubs/<slug>/…``.

    Checks the current user's role in the club named by the ``slug`` URL argument and calls the
    view with ``club=`` and ``me=`` (the user's ``Member``) instead of ``slug``::

        @bp.get("/clubs/<slug>/tournaments/<int:tid>")
        @club_route("director")
        def tournament(club: Club, me: Member, tid: int): ...
    """

    def decorator(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, slug: str, **kwargs: Any) -> Any:
            if not current_user.is_authenticated:
                abort(login_manager.unauthorized())
            club = get_club_or_404(slug)
            me = require_club_role(club, role)
            return view(*args, club=club, me=me, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorator


# --- table codes: throttle guessing --------------------------------------------------------------

CODE_ATTEMPT_NAME = "#table-code"  # never a login name (those start with a letter or digit)
TABLE_CODE_MAX_FAILURES_PER_IP = 200  # the default of app.config


def _code_ip(ip: str) -> str:
    # Kept apart from the addresses of login attempts: code typos never lock anyone's login.
    return ("code:" + ip)[:64]


def code_failures(ip: str, now: datetime | None = None) -> int:
    now = now or utcnow()
    since = now - timedelta(seconds=current_app.config["LOGIN_WINDOW_SECONDS"])
    return (
        db.session.scalar(
            select(func.count(LoginAttempt.id)).where(
                LoginAttempt.ip == _code_ip(ip),
                LoginAttempt.username == CODE_ATTEMPT_NAME,
                LoginAttempt.succeeded.is_(False),
                LoginAttempt.created_at > since,
            )
        )
        or 0
    )


def check_code_guessing(ip: str) -> None:
    """Abort with 429 once this address has tried too many wrong table codes (a right code does
    not reset the count, or guesses could be interleaved with it)."""
    limit = current_app.config.get("TABLE_CODE_MAX_FAILURES_PER_IP", TABLE_CODE_MAX_FAILURES_PER_IP)
    if code_failures(ip) >= limit:
        abort(429)


def record_code_failure(ip: str) -> None:
    """Remember a wrong code from this address (committed at once: the request then fails)."""
    now = utcnow()
    db.session.add(
        LoginAttempt(username=CODE_ATTEMPT_NAME, ip=_code_ip(ip), succeeded=False, created_at=now)
    )
    db.session.execute(
        delete(LoginAttempt).where(
            LoginAttempt.username == CODE_ATTEMPT_NAME,
            LoginAttempt.created_at < now - timedelta(days=1),
        )
    )
    db.session.commit()
