"""Server-side login sessions (``UserSession``): every login gets a random id that the signed
session cookie holds through Flask-Login's user id (``User.get_id``: ``"<user id>:<session id>"``,
also what a remember cookie would carry). The user loader accepts the cookie only while its row
exists, so logging out, "log out everywhere" and a password change end copies of the cookie too.
A session lasts at most ``PERMANENT_SESSION_LIFETIME`` from its login."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from flask import current_app
from sqlalchemy import delete, select

from ..extensions import db
from ..models import User, UserSession, utcnow


def _digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


def _oldest_valid() -> datetime:
    return utcnow() - current_app.permanent_session_lifetime


def open_session(user: User) -> str:
    """A new login of ``user``: its row (the caller commits) and its random id, set on ``user``."""
    session_id = secrets.token_urlsafe(32)
    db.session.execute(  # housekeeping: this user's logins that have expired anyway
        delete(UserSession).where(
            UserSession.user_id == user.id, UserSession.created_at < _oldest_valid()
        )
    )
    db.session.add(UserSession(user_id=user.id, token_hash=_digest(session_id)))
    db.session.flush()
    user.session_id = session_id
    return session_id


def load_session_user(identity: str) -> User | None:
    """The user of a live login named by ``identity`` (``User.get_id``), else None."""
    uid, _sep, session_id = identity.partition(":")
    if not uid.isdigit() or len(uid) > 18 or not session_id or len(session_id) > 100:
        return None
    user = db.session.scalar(
        select(User)
        .join(UserSession, UserSession.user_id == User.id)
        .where(
            User.id == int(uid),
            UserSession.token_hash == _digest(session_id),
            UserSession.created_at >= _oldest_valid(),
        )
    )
    if user is not None:
        user.session_id = session_id
    return user


def end_session(user: User) -> None:
    """Log out this one login (the caller commits)."""
    if user.session_id:
        db.session.execute(
            delete(UserSession).where(
                UserSession.user_id == user.id,
                UserSession.token_hash == _digest(user.session_id),
            )
        )


def end_all_sessions(user: User) -> None:
    """Log ``user`` out in every browser (the caller commits)."""
    db.session.execute(delete(UserSession).where(UserSession.user_id == user.id))
