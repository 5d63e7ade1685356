"""Duplicate events (复式): the boards every table plays and the results typed from the
travellers.

An event stores what decides everything else: the variant, the kind (``pairs``: pairs or trios
across the field in a Mitchell movement; ``teams``: teams of four in a round robin or a Swiss
of team matches; ``individuals``: red five players), the entrants' names in order, the boards per round
and the seed the boards are dealt from. The movement and the boards are derived from these
(``app.competition.movements``, ``app.competition.boards``), and the standings from the results
(``app.competition.duplicate_event``), never stored — except a Swiss's pairings, which
depend on the scores when each round was paired (``DuplicateRound``).

A result is one table's result on one board: fixed sides, the declaring side and the attackers'
total; red five, each seat's 积分 change.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, BigInteger, Float, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Base
from ._common import utcnow

if TYPE_CHECKING:
    from .tournaments import Table

DUPLICATE_KINDS: tuple[str, ...] = ("pairs", "teams", "individuals")


class DuplicateEvent(Base):
    __tablename__ = "duplicate_events"
    __table_args__ = (UniqueConstraint("club_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    variant: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    kind: Mapped[str] = mapped_column(String(12))
    entrants: Mapped[list[str]] = mapped_column(JSON, default=list)
    boards_per_round: Mapped[int] = mapped_column()
    # rounds to play (None: the movement's full cycle); pairs: also the number of board sets,
    # each set then at several tables at once
    rounds: Mapped[int | None] = mapped_column()
    # teams: "round-robin" (the movement derived from the entrant count) or "swiss" (``rounds``
    # rounds, each paired from the VPs so far and stored in ``paired_rounds``)
    pairing: Mapped[str] = mapped_column(
        String(12), default="round-robin", server_default="round-robin"
    )
    seed: Mapped[int] = mapped_column(BigInteger)
    # teams: the VP scale's factor (DUPLICATE.md: B = factor × √N, default 10)
    vp_factor: Mapped[float] = mapped_column(Float, default=10.0, server_default="10")
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # deleted by a director, with its online tournament: hidden everywhere, restorable from the
    # club's page for ``app.services.trash.KEEP_DAYS`` days
    deleted_at: Mapped[datetime | None] = mapped_column(index=True)
    deleted_by: Mapped[str | None] = mapped_column(String(120))

    results: Mapped[list[DuplicateResult]] = relationship(
        back_populates="event", cascade="all, delete-orphan"
    )
    paired_rounds: Mapped[list[DuplicateRound]] = relationship(
        back_populates="event", cascade="all, delete-orphan", order_by="DuplicateRound.round"
    )

    def bump(self) -> None:
        self.version = (self.version or 0) + 1


class DuplicateResult(Base):
    __tablename__ = "duplicate_results"
    __table_args__ = (UniqueConstraint("event_id", "board", "round", "table_no"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(
        ForeignKey("duplicate_events.id", ondelete="CASCADE"), index=True
    )
    board: Mapped[int] = mapped_column()
    round: Mapped[int] = mapped_column()
    table_no: Mapped[int] = mapped_column()
    declarer: Mapped[int | None] = mapped_column()  # fixed sides: the declaring side
    total: Mapped[int | None] = mapped_column()  # fixed sides: the attackers' total
    scores: Mapped[list[int] | None] = mapped_column(JSON)  # red five: 积分 change per seat
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    event: Mapped[DuplicateEvent] = relationship(back_populates="results")


class DuplicateRound(Base):
    """One paired round of a Swiss of teams: its matches and bye as they were paired (never
    re-paired: a later correction of a result changes scores and standings only), and who
    paired it when (the pairing's audit record)."""

    __tablename__ = "duplicate_rounds"
    __table_args__ = (UniqueConstraint("event_id", "round"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(
        ForeignKey("duplicate_events.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column()
    pairs: Mapped[list[list[int]]] = mapped_column(JSON)  # [team A, team B] per match, from 0
    bye: Mapped[int | None] = mapped_column()  # the team sitting out (None: even count)
    # the VPs each team had when the round was paired (what the pairing was made from)
    vps: Mapped[list[float]] = mapped_column(JSON, default=list)
    paired_at: Mapped[datetime] = mapped_column(default=utcnow)
    paired_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    paired_by: Mapped[str] = mapped_column(String(120), default="")

    event: Mapped[DuplicateEvent] = relationship(back_populates="paired_rounds")


class DuplicateOnlineTable(Base):
    """One (table, board) of a duplicate round played online: the online table (a table of the
    event's online tournament, ``app.services.duplicate.online``) deals the board itself and,
    once played, writes its result as the traveller line of ``(board, round, table_no)``."""

    __tablename__ = "duplicate_online_tables"
    __table_args__ = (UniqueConstraint("event_id", "board", "round", "table_no"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(
        ForeignKey("duplicate_events.id", ondelete="CASCADE"), index=True
    )
    board: Mapped[int] = mapped_column()
    round: Mapped[int] = mapped_column()
    table_no: Mapped[int] = mapped_column()
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), unique=True)

    event: Mapped[DuplicateEvent] = relationship()
    table: Mapped[Table] = relationship(viewonly=True)
