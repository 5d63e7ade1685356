"""Seasons: a club's series of tournament nights, aggregated per player (never stored as
counters: the standings are re-derived from the nights' recorded deals).

A ``Season`` has a rule (``total``, ``best:N``, ``average`` with ``min_nights``, ``places`` with a
table of league points per place) the owner can change at any time, and optional ``Division``s
(甲级, 乙级 …, ``position`` 0 = the top) each with a carry-over factor and its players by name. A
night (``Tournament``) belongs to at most one season (``Tournament.season_id``) and, in a season
with divisions, to one division.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Base
from ._common import utcnow


class Season(Base):
    __tablename__ = "seasons"
    __table_args__ = (UniqueConstraint("club_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    starts_on: Mapped[date | None] = mapped_column()
    ends_on: Mapped[date | None] = mapped_column()
    rule: Mapped[str] = mapped_column(String(20), default="total", server_default="total")
    min_nights: Mapped[int] = mapped_column(default=1, server_default="1")
    places: Mapped[list[int]] = mapped_column(JSON, default=list)  # league points per place
    # the season this one follows (its divisions' movement seeds this one's)
    previous_id: Mapped[int | None] = mapped_column(ForeignKey("seasons.id", ondelete="SET NULL"))
    visibility: Mapped[str] = mapped_column(String(10), default="club", server_default="club")
    public_token: Mapped[str | None] = mapped_column(String(40), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # deleted by an owner: hidden everywhere (its nights keep ``season_id`` but count in no
    # season meanwhile), restorable from the club's page for ``app.services.trash.KEEP_DAYS``
    # days (then ``flask tournament purge-deleted`` removes it for good)
    deleted_at: Mapped[datetime | None] = mapped_column(index=True)
    deleted_by: Mapped[str | None] = mapped_column(String(120))

    # the divisions in play: a deleted one is not among them (it keeps its ``position``, which
    # no other division takes, so that a restore puts it back in its place)
    divisions: Mapped[list[Division]] = relationship(
        primaryjoin="and_(Season.id == Division.season_id, Division.deleted_at.is_(None))",
        cascade="all, delete-orphan",
        order_by="Division.position",
        passive_deletes=True,
    )

    def settings(self) -> dict[str, Any]:
        return {"rule": self.rule, "min_nights": self.min_nights, "places": list(self.places or [])}


class Division(Base):
    __tablename__ = "divisions"
    __table_args__ = (UniqueConstraint("season_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    position: Mapped[int] = mapped_column()  # 0 = the top division
    carry_factor: Mapped[float | None] = mapped_column(Float)  # e.g. 1.15, 0.90
    players: Mapped[list[str]] = mapped_column(JSON, default=list)  # names, in seeding order
    # deleted by an owner: its nights count in no division and its players are free meanwhile
    deleted_at: Mapped[datetime | None] = mapped_column(index=True)
    deleted_by: Mapped[str | None] = mapped_column(String(120))

    season: Mapped[Season] = relationship(overlaps="divisions")
