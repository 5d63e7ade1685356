"""Accounts and login attempts."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

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
    # Bumped on password change: every other session of this user ends (see ``get_id``).
    session_version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    memberships: Mapped[list[Member]] = relationship(back_populates="user")

    def get_id(self) -> str:
        return f"{self.id}:{self.session_version}"

    def __repr__(self) -> str:
        return f"<User {self.id} {self.username!r}>"


class LoginAttempt(Base):
    """One login try; recent failures per name and per address throttle further tries.

    Kept in the database so the limit holds across several worker processes and machines.
    """

    __tablename__ = "login_attempts"
    __table_args__ = (
        Index("ix_login_attempts_name_time", "username", "created_at"),
        Index("ix_login_attempts_ip_time", "ip", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(40))  # as typed, normalized; may not exist
    ip: Mapped[str] = mapped_column(String(64))
    succeeded: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
