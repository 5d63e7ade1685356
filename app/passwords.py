"""Password hashing with argon2id (argon2-cffi).

The default profile is RFC 9106's second recommended option (t=3, 64 MiB, p=4), which is above
OWASP ASVS 5.0's minimum. ``PASSWORD_HASH_PROFILE = "fast"`` is for tests only. Hashes made with
weaker parameters are upgraded at the next successful login.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from flask import current_app

_HASHERS: dict[str, PasswordHasher] = {
    "default": PasswordHasher(),  # argon2id, t=3, m=64 MiB, p=4
    "fast": PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1),
}

MIN_PASSWORD_LENGTH = 8
MAX_PASSWORD_LENGTH = 256


def _hasher() -> PasswordHasher:
    return _HASHERS[current_app.config.get("PASSWORD_HASH_PROFILE", "default")]


def hash_password(password: str) -> str:
    return _hasher().hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher().verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _hasher().check_needs_rehash(password_hash)


_dummy: dict[str, str] = {}


def burn_verify(password: str) -> None:
    """Spend the time of one verification, for unknown login names (no timing enumeration)."""
    profile = current_app.config.get("PASSWORD_HASH_PROFILE", "default")
    if profile not in _dummy:
        _dummy[profile] = _hasher().hash("not-a-real-password")
    verify_password(_dummy[profile], password)
