"""Registration, login with a database-backed rate limit (device cookies), password changes."""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from itsdangerous import BadData, URLSafeTimedSerializer
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
from .sessions import end_all_sessions
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


# --- device cookies (OWASP, "Slow down online guessing attacks with device cookies") ----------
#
# A browser that logs in as a user gets a signed cookie naming that user with a random id (a new
# id at every login). Its failed attempts are counted by that id, so an attacker elsewhere who
# uses up the account's allowance does not lock the owner's own browsers out. Clients without a
# valid cookie for the name they type are "untrusted": they share one allowance per login name
# and one per address, and only they are locked when it is used up.

DEVICE_COOKIE = "device"
DEVICE_COOKIE_PATH = "/account"  # sent to the login form only
DEVICE_COOKIE_DAYS = 365
DEVICE_COOKIE_USERS = 5  # a shared club laptop remembers this many users


def _device_signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key or "", salt="login-device-cookie")


def read_device_cookie(value: str | None) -> dict[str, str]:
    """User id → device id from a device cookie; empty when absent, forged or too old."""
    if not value or len(value) > 2000:
        return {}
    try:
        data = _device_signer().loads(value, max_age=DEVICE_COOKIE_DAYS * 86400)
    except BadData:
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, str) and len(v) == 32}


def device_cookie_for(user: User, value: str | None) -> str:
    """The device cookie after ``user`` logged in on this browser: a fresh id for this user
    (the old one's failures no longer count), the other users this browser knows kept."""
    devices = read_device_cookie(value)
    devices.pop(str(user.id), None)
    devices[str(user.id)] = secrets.token_hex(16)
    kept = list(devices.items())[-DEVICE_COOKIE_USERS:]
    return _device_signer().dumps(dict(kept))


def _failures(since: datetime, *conditions: Any) -> int:
    return (
        db.session.scalar(
            select(func.count(LoginAttempt.id)).where(
                LoginAttempt.succeeded.is_(False), LoginAttempt.created_at > since, *conditions
            )
        )
        or 0
    )


def _untrusted_name_failures(name: str, since: datetime) -> int:
    """Untrusted failures for this login name since the window began or the name's last
    untrusted success (a trusted browser's login does not give an attacker a fresh allowance)."""
    last_success = db.session.scalar(
        select(func.max(LoginAttempt.created_at)).where(
            LoginAttempt.username == name,
            LoginAttempt.device.is_(None),
            LoginAttempt.succeeded.is_(True),
        )
    )
    start = max(since, last_success) if last_success is not None else since
    return _failures(start, LoginAttempt.username == name, LoginAttempt.device.is_(None))


def _names_failed_from(ip: str, since: datetime) -> int:
    """How many login names failed from this address (untrusted) in the window: the address
    limit is for one client trying many accounts, not for a room of players mistyping their
    own (no success resets it, so logging into one's own account does not clear it)."""
    return (
        db.session.scalar(
            select(func.count(func.distinct(LoginAttempt.username))).where(
                LoginAttempt.succeeded.is_(False),
                LoginAttempt.created_at > since,
                LoginAttempt.ip == ip,
                LoginAttempt.device.is_(None),
            )
        )
        or 0
    )


def _too_many(minutes: int) -> LoginRefused:
    return LoginRefused(
        _(
            "Too many failed login attempts. Please wait %(minutes)d minutes and try again.",
            minutes=minutes,
        )
    )


def authenticate(
    username: str,
    password: str,
    ip: str,
    device_cookie: str | None = None,
    now: datetime | None = None,
) -> User:
    """Return the user, or raise ``LoginRefused`` with one message for every kind of failure.

    Unknown names and wrong passwords get the same message and take the same time; attempts
    are recorded (the caller commits even on failure). A browser whose device cookie names this
    user may fail ``LOGIN_MAX_FAILURES_PER_DEVICE`` times in the window, whatever others do;
    beyond that, and for every other client, the untrusted limits hold: per login name, and per
    address once its failures name ``LOGIN_MAX_NAMES_PER_IP`` accounts (a spray over many
    accounts; no success resets it). A room sharing one address where players mistype their
    own passwords locks only those accounts.
    """
    now = now or utcnow()
    cfg = current_app.config
    name = normalize_username(username)
    since = now - timedelta(seconds=cfg["LOGIN_WINDOW_SECONDS"])
    minutes = max(1, cfg["LOGIN_WINDOW_SECONDS"] // 60)
    user = db.session.scalar(select(User).where(User.username == name)) if name else None
    device = read_device_cookie(device_cookie).get(str(user.id)) if user is not None else None
    if device is not None and (
        _failures(since, LoginAttempt.device == device) >= cfg["LOGIN_MAX_FAILURES_PER_DEVICE"]
    ):
        device = None  # this browser's allowance is used up: it is one more untrusted client
    if device is None and (
        _untrusted_name_failures(name, since) >= cfg["LOGIN_MAX_FAILURES_PER_NAME"]
        or _names_failed_from(ip[:64], since) >= cfg["LOGIN_MAX_NAMES_PER_IP"]
    ):
        raise _too_many(minutes)
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
            device=device,
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
    end_all_sessions(user)  # every login ends; the caller opens a new one for this browser
