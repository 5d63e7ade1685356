"""Configuration from the environment, with safe defaults for a club laptop.

``DATABASE_URL``  SQLAlchemy URL; default: SQLite file ``instance/shengji.db``.
``SECRET_KEY``    signs sessions and CSRF tokens; default: generated once and kept in
                  ``instance/secret_key`` (so restarts keep people logged in).
``SESSION_COOKIE_SECURE=1`` when served over HTTPS (the session and remember cookies are then
                  ``Secure`` and responses carry HSTS).
``TRUST_PROXY=1`` behind one reverse proxy that sets ``X-Forwarded-For``/``-Proto``.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

SUPPORTED_LOCALES: tuple[str, ...] = ("zh", "en")


def database_url(instance_path: str) -> str:
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return "sqlite:///" + str(Path(instance_path) / "shengji.db")
    for bare in ("postgres://", "postgresql://"):  # Heroku-style, or no driver named
        if url.startswith(bare):
            url = "postgresql+psycopg://" + url.removeprefix(bare)  # psycopg 3, a dependency
    try:
        make_url(url).get_dialect()
    except Exception as exc:  # ArgumentError (not a URL), NoSuchModuleError (unknown database)
        scheme = url.split("://", 1)[0] if "://" in url else "no scheme"
        raise ValueError(
            f"DATABASE_URL is not a database URL this app can use ({scheme}: "
            f"{type(exc).__name__}). Examples: sqlite:////absolute/path/shengji.db, "
            "postgresql://user:password@host/dbname; leave it unset for the default SQLite "
            "file in instance/."
        ) from None
    return url


def secret_key(instance_path: str) -> str:
    key = os.environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    path = Path(instance_path) / "secret_key"
    if path.exists():
        stored = path.read_text().strip()
        if stored:
            return stored
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key + "\n")
    return key


def pool_options() -> dict[str, int]:
    """A server database's connection pool per process, from ``DB_POOL_SIZE`` (and
    ``DB_MAX_OVERFLOW``, default 0) when set, else SQLAlchemy's own (5, and 10 more opened
    and closed as needed). A gevent worker serves hundreds of requests and streams at once:
    with SQLAlchemy's default every burst beyond 5 opened new PostgreSQL connections and closed
    them again — a quarter of the worker's time and most of the server's under bench/push.py —
    so gunicorn.conf.py sets a fixed pool there (requests beyond it wait their turn)."""
    size = os.environ.get("DB_POOL_SIZE", "")
    if not size.strip():
        return {}
    return {
        "pool_size": max(1, int(size)),
        "max_overflow": max(0, int(os.environ.get("DB_MAX_OVERFLOW", "0") or 0)),
    }


def defaults() -> dict[str, Any]:
    """Settings that do not depend on the environment."""
    return {
        "SQLALCHEMY_ENGINE_OPTIONS": {},
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": os.environ.get("SESSION_COOKIE_SECURE", "") == "1",
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_SECURE": os.environ.get("SESSION_COOKIE_SECURE", "") == "1",
        # Tournament pages stay open all evening: CSRF tokens live as long as the session.
        "WTF_CSRF_TIME_LIMIT": None,
        "BABEL_DEFAULT_LOCALE": "en",
        "BABEL_TRANSLATION_DIRECTORIES": str(Path(__file__).parent / "translations"),
        "SUPPORTED_LOCALES": SUPPORTED_LOCALES,
        # SQLite: seconds a writer waits for the lock before "database is locked".
        "SQLITE_BUSY_TIMEOUT_MS": 15000,
        # Login rate limit, stored in the DB so it holds across worker processes: per device
        # cookie for a browser that has logged in as that user before; for all other clients per
        # normalized login name, and per client address only once failures from it name many
        # accounts (a club shares one address: its players' typos must not lock a new browser
        # out of an account nobody mistyped; see services/accounts.py).
        "LOGIN_WINDOW_SECONDS": 15 * 60,
        "LOGIN_MAX_FAILURES_PER_DEVICE": 5,
        "LOGIN_MAX_FAILURES_PER_NAME": 5,
        "LOGIN_MAX_NAMES_PER_IP": 20,
        # A whole club usually shares one address: many players mistype a table code on a
        # tournament night, and a 10-character code (about 50 bits) is not guessable in a few
        # hundred tries, so the limit is high enough never to lock a room out by typos.
        "TABLE_CODE_MAX_FAILURES_PER_IP": 200,
        # argon2id cost; "fast" is for tests only.
        "PASSWORD_HASH_PROFILE": "default",
        "INVITE_DAYS": 14,
        # Live pages pushed by server-sent events (app/services/live): on with Flask's own
        # server and gunicorn's gevent worker; gunicorn.conf.py turns them off for a worker
        # that serves one request at a time (a stream would hold it), and pages then poll.
        "LIVE_STREAMS": os.environ.get("LIVE_STREAMS", "1") == "1",
        # Behind a reverse proxy (nginx, a load balancer): trust its X-Forwarded-* headers.
        "TRUST_PROXY": os.environ.get("TRUST_PROXY", "") == "1",
    }
