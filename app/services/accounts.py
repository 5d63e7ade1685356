"""Registration, login with a database-backed rate limit, password changes."""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import delete, func, select
from zxcvbn import zxcvbn

from ..extensions import db
from ..models import LoginAttempt, User, utcnow
from ..passwords import (
    MAX_PASSWORD_LENGTH,
    MIN_PASSWORD_LENGTH,
    burn_verify,
    hash_password,
    needs_rehash,
    verify_password,
)
from . import ServiceError
from .text import clean_name

USERNAME_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]{2,39}$")


def normalize_username(value: str | None) -> str:
    return (value or "").strip().lower()[:40]


# zxcvbn's score from 0 (top-10 password) to 4; 3 is "safely unguessable" for an online attack
MIN_PASSWORD_SCORE = 3
ZXCVBN_MAX_LENGTH = 72  # zxcvbn refuses more (and slows down); longer passwords: their start
# zxcvbn keeps the user's words in a module-level dictionary while it checks: one check at a time
_zxcvbn_lock = threading.Lock()


def _weakness_reason(sequence: list[dict[str, Any]]) -> str:
    """Our own translated sentence for what zxcvbn found (its English feedback is not shown)."""
    if any(m.get("dictionary_name") == "user_inputs" for m in sequence):
        return _("It contains your login name or your name.")
    match = max(sequence, key=lambda m: len(m.get("token", "")), default={})
    pattern = match.get("pattern")
    if pattern == "dictionary":
        name = match.get("dictionary_name")
        if name == "passwords":
            return _("It is one of the most common passwords, or close to one.")
        if name in ("surnames", "male_names", "female_names"):
            return _("Names by themselves are easy to guess.")
        if match.get("l33t"):
            return _("Writing letters as look-alike symbols (like @ for a) does not help much.")
        return _("A common word or two by themselves are easy to guess.")
    if pattern == "spatial":
        return _("Rows of keys on the keyboard are easy to guess.")
    if pattern == "repeat":
        return _("Repeated letters or words are easy to guess.")
    if pattern == "sequence":
        return _("Sequences like abc or 6543 are easy to guess.")
    if pattern in ("regex", "date"):
        return _("Years and dates are easy to guess.")
    return _("It is short or simple.")


def check_password_strength(
    password: str, field: str = "password", user_inputs: Sequence[str] = ()
) -> None:
    """Refuse a password that is too short, too long, or guessable (zxcvbn score below 3,
    counting the user's own login name and name as known words)."""
    if len(password) < MIN_PASSWORD_LENGTH:
        raise ServiceError(
            _("Use at least %(n)d characters for the password.", n=MIN_PASSWORD_LENGTH), field
        )
    if len(password) > MAX_PASSWORD_LENGTH:
        raise ServiceError(_("At most %(n)d characters, please.", n=MAX_PASSWORD_LENGTH), field)
    words = [w for w in user_inputs if w]
    words += [part for w in words for part in w.split()]
    with _zxcvbn_lock:
        result = zxcvbn(password[:ZXCVBN_MAX_LENGTH], user_inputs=words)
    if result["score"] < MIN_PASSWORD_SCORE:
        raise ServiceError(
            _(
                "This password is too easy to guess. %(reason)s Try a few unrelated words "
                "together, a short phrase only you would think of.",
                reason=_weakness_reason([dict(m) for m in result.get("sequence") or []]),
            ),
            field,
        )


def register(username: str, display_name: str, password: str) -> User:
    name = normalize_username(username)
    if not USERNAME_RE.match(name):
        raise ServiceError(
            _(
                "3 to 40 characters: lower-case letters, digits, dot, dash or underscore, "
                "starting with a letter or digit."
            ),
            "username",
        )
    shown = clean_name(display_name, "display_name")
    check_password_strength(password, user_inputs=[name, shown])
    if db.session.scalar(select(User.id).where(User.username == name)) is not None:
        raise ServiceError(_("This login name is taken; please choose another."), "username")
    user = User(username=name, display_name=shown, password_hash=hash_password(password))
    db.session.add(user)
    db.session.flush()
    return user


class LoginRefused(ServiceError):
    pass


def _recent_failures(column: object, value: str, since: datetime) -> int:
    last_success = db.session.scalar(
        select(func.max(LoginAttempt.created_at)).where(
            column == value,  # type: ignore[arg-type]
            LoginAttempt.succeeded.is_(True),
        )
    )
    start = max(since, last_success) if last_success is not None else since
    return (
        db.session.scalar(
            select(func.count(LoginAttempt.id)).where(
                column == value,  # type: ignore[arg-type]
                LoginAttempt.succeeded.is_(False),
                LoginAttempt.created_at > start,
            )
        )
        or 0
    )


def authenticate(username: str, password: str, ip: str, now: datetime | None = None) -> User:
    """Return the user, or raise ``LoginRefused`` with one message for every kind of failure.

    Unknown names and wrong passwords get the same message and take the same time; attempts
    are recorded (the caller commits even on failure) and throttled per name and per address.
    """
    now = now or utcnow()
    cfg = current_app.config
    name = normalize_username(username)
    since = now - timedelta(seconds=cfg["LOGIN_WINDOW_SECONDS"])
    too_many = (
        _recent_failures(LoginAttempt.username, name, since) >= cfg["LOGIN_MAX_FAILURES_PER_NAME"]
        or _recent_failures(LoginAttempt.ip, ip, since) >= cfg["LOGIN_MAX_FAILURES_PER_IP"]
    )
    if too_many:
        minutes = max(1, cfg["LOGIN_WINDOW_SECONDS"] // 60)
        raise LoginRefused(
            _(
                "Too many failed login attempts. Please wait %(minutes)d minutes and try again.",
                minutes=minutes,
            )
        )
    user = db.session.scalar(select(User).where(User.username == name)) if name else None
    if user is None:
        burn_verify(password)
        ok = False
    else:
        ok = verify_password(user.password_hash, password)
    db.session.add(
        LoginAttempt(
            username=name,
            ip=ip[:64],
            succeeded=ok,
            created_at=now,
            user_id=user.id if ok and user else None,
        )
    )
    # Housekeeping: attempts older than a day no longer matter.
    db.session.execute(
        delete(LoginAttempt).where(LoginAttempt.created_at < now - timedelta(days=1))
    )
    if not ok or user is None:
        raise LoginRefused(_("Wrong login name or password."))
    if needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
    return user


def change_password(user: User, current: str, new: str) -> None:
    if not verify_password(user.password_hash, current):
        raise ServiceError(_("The current password is not right."), "current_password")
    check_password_strength(new, "new_password", user_inputs=[user.username, user.display_name])
    user.password_hash = hash_password(new)
    user.session_version += 1  # ends every other session of this user
