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
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import abort
from flask_login import current_user
from sqlalchemy import select

from .extensions import db, login_manager
from .models import ROLE_RANK, Club, Member, User

M = TypeVar("M")
F = TypeVar("F", bound=Callable[..., Any])


def membership(user: User | Any, club: Club) -> Member | None:
    """The user's member record in this club, or None (also for anonymous users)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return db.session.scalar(
        select(Member).where(Member.club_id == club.id, Member.user_id == user.id)
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
    """Load ``model`` by id, only if it belongs to ``club`` (the model needs ``club_id``)."""
    obj: M | None = db.session.scalar(
        select(model).where(  # type: ignore[arg-type]
            model.id == obj_id,  # type: ignore[attr-defined]
            model.club_id == club.id,  # type: ignore[attr-defined]
        )
    )
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
