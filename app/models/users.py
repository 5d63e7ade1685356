"""Accounts and login attempts."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, cast

from flask_login import UserMixin
from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Base
from ._common import utcnow

if TYPE_CHECKING:
    from .clubs import Member


class User(UserMixin, Base):
    """A person with a login. Many club players never have one (see ``Member``)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    # Login name, stored lower-cased; unique.
    username: Mapped[str] = mapped_column(String(40), unique=True)
    display_name: Mapped[str] = mapped_column(String(80))
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    memberships: Mapped[list[Member]] = relationship(back_populates="user")

    # The random id of the login (``UserSession``) this object was loaded for; not a column.
    session_id = cast("str | None", None)

    def get_id(self) -> str:
        """What Flask-Login keeps in the session (and a remember cookie): the user and the login,
        so a login that has ended (``UserSession`` deleted) no longer loads anyone."""
        return f"{self.id}:{self.session_id or ''}"

    def __repr__(self) -> str:
        return f"<User {self.id} {self.username!r}>"


class UserSession(Base):
    """One login of a user in one browser, named by a random id that the signed session cookie
    holds (stored here only as its SHA-256). Logging out deletes the row, and with it every copy
    of that cookie; "log out everywhere" and a password change delete all of a user's rows."""

    __tablename__ = "user_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class LoginAttempt(Base):
    """One login try; recent failures throttle further tries (``services.accounts``): per device
    cookie for a browser that has logged in as that user before (``device`` is the cookie's
    random id), per login name and per address for all other ("untrusted") clients.

    Kept in the database so the limit holds across several worker processes and machines.
    """

    __tablename__ = "login_attempts"
    __table_args__ = (
        Index("ix_login_attempts_name_time", "username", "created_at"),
        Index("ix_login_attempts_ip_time", "ip", "created_at"),
        Index("ix_login_attempts_device_time", "device", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(40))  # as typed, normalized; may not exist
    ip: Mapped[str] = mapped_column(String(64))
    succeeded: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # the trusted device cookie's random id the attempt came with; None: an untrusted client
    device: Mapped[str | None] = mapped_column(String(32))
