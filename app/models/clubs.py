"""Clubs, their members (with or without an account) and invitations."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Base
from ._common import utcnow

if TYPE_CHECKING:
    from .users import User

# Roles, weakest first. Owners manage members; directors run tournaments; players play.
ROLES: tuple[str, ...] = ("player", "director", "owner")
ROLE_RANK: dict[str, int] = {role: rank for rank, role in enumerate(ROLES)}
_ROLE_CHECK = "role IN ('player', 'director', 'owner')"


class Club(Base):
    __tablename__ = "clubs"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    slug: Mapped[str] = mapped_column(String(80), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    # the members in play: a removed one (``Member.deleted_at``) is not among them until it is
    # restored from the club's page (``app.services.clubs.restore_member``) or purged
    members: Mapped[list[Member]] = relationship(
        primaryjoin="and_(Club.id == Member.club_id, Member.deleted_at.is_(None))",
        back_populates="club",
        cascade="all, delete-orphan",
        order_by="Member.display_name",
        passive_deletes=True,
    )
    invites: Mapped[list[Invite]] = relationship(
        back_populates="club", cascade="all, delete-orphan"
    )

    def __repr__(self) -> str:
        return f"<Club {self.id} {self.slug!r}>"


class Member(Base):
    """A person in a club. ``user_id`` is empty until the person claims the record."""

    __tablename__ = "members"
    __table_args__ = (
        UniqueConstraint("club_id", "user_id"),
        UniqueConstraint("club_id", "display_name"),
        CheckConstraint(_ROLE_CHECK, name="role"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), index=True
    )
    display_name: Mapped[str] = mapped_column(String(80))
    contact: Mapped[str | None] = mapped_column(String(120))  # phone, WeChat id, e-mail …
    role: Mapped[str] = mapped_column(String(16), default="player")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # removed from the club, reversibly (``app.services.trash``): the row, its name and every
    # result pointing at it stay; it is in no list and its account has no membership meanwhile
    deleted_at: Mapped[datetime | None] = mapped_column(index=True)
    deleted_by: Mapped[str | None] = mapped_column(String(120))

    club: Mapped[Club] = relationship(back_populates="members")
    user: Mapped[User | None] = relationship(back_populates="memberships")

    def at_least(self, role: str) -> bool:
        return ROLE_RANK[self.role] >= ROLE_RANK[role]

    def __repr__(self) -> str:
        return f"<Member {self.id} {self.display_name!r} {self.role}>"


class Invite(Base):
    """An invitation link. Only a hash of its token is stored.

    With ``member_id`` it lets one person claim that member record (single use); without, it
    lets anyone with the link join with ``role`` until it expires or is revoked.
    """

    __tablename__ = "invites"
    __table_args__ = (CheckConstraint(_ROLE_CHECK, name="role"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[str] = mapped_column(String(16), default="player")
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column()
    revoked: Mapped[bool] = mapped_column(default=False)
    used_at: Mapped[datetime | None] = mapped_column()
    uses: Mapped[int] = mapped_column(default=0)

    club: Mapped[Club] = relationship(back_populates="invites")
    member: Mapped[Member | None] = relationship()

    def usable(self, now: datetime) -> bool:
        if self.revoked or now >= self.expires_at:
            return False
        return not (self.member_id is not None and self.used_at is not None)
