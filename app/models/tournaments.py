"""Tournaments: entrants, rounds, tables, the recorded deals and the audit trail.

The deals are the source of truth. Standings, levels and match results are derived from them
(``app.competition``), never stored as counters. ``Tournament.version`` is bumped on every change
(set up, seating, a deal typed or corrected), so pages poll cheaply (204 when unchanged) and
caches are keyed on it.

A deal arrives the same way whether it was typed from a paper score sheet (``source="paper"``)
or recorded by the engine at an online table (``source="online"``): one row per deal, in order.
"""

from __future__ import annotations

from datetime import date as date_type
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    ForeignKey,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Base
from ._common import utcnow

ROUND_STATUSES: tuple[str, ...] = ("seated", "started", "closed")
TABLE_KINDS: tuple[str, ...] = ("sides", "players", "bye")


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    # Names are unique across the site: the tournament file and the CLI name a tournament alone.
    name: Mapped[str] = mapped_column(String(120), unique=True)
    variant: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    pairing: Mapped[str] = mapped_column(String(20))
    rounds: Mapped[int] = mapped_column()
    match: Mapped[dict[str, Any]] = mapped_column(JSON)  # {"deals": n} | {"minutes": n} | …
    points: Mapped[dict[str, Any]] = mapped_column(JSON)  # win, draw, loss[, bye, forfeit…]
    version: Mapped[int] = mapped_column(default=1)
    # online tables: seconds after a deal's end before the next deal starts without every human
    # seat having pressed "continue"
    online_pause: Mapped[int] = mapped_column(default=30, server_default="30")
    # online tables: seconds a human seat has for each move (its clock: app/services/online/
    # clock.py); when they run out a bot makes that one move for it. None: no clock
    move_seconds: Mapped[int | None] = mapped_column()
    # a night of a club league: when and where it was played, and the season it counts in
    date: Mapped[date_type | None] = mapped_column("date")
    venue: Mapped[str | None] = mapped_column(String(120))
    season_id: Mapped[int | None] = mapped_column(
        ForeignKey("seasons.id", ondelete="SET NULL"), index=True
    )
    division_id: Mapped[int | None] = mapped_column(
        ForeignKey("divisions.id", ondelete="SET NULL"), index=True
    )
    # who sees the standings: "club" (members only) or "public" (anyone with public_token's link)
    visibility: Mapped[str] = mapped_column(String(10), default="club", server_default="club")
    public_token: Mapped[str | None] = mapped_column(String(40), unique=True)
    # the seed of the first round's random draw (the entrants' order for pairing, shown so the
    # draw can be checked and repeated); None: the order the entrants were entered in
    draw_seed: Mapped[int | None] = mapped_column(BigInteger)
    # the rule preset the director started from (app.competition.presets), shown on the sheet
    preset: Mapped[str | None] = mapped_column(String(30))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # deleted by a director: hidden everywhere, restorable from the club's page for
    # ``app.services.trash.KEEP_DAYS`` days (then ``flask tournament purge-deleted`` removes it for good)
    deleted_at: Mapped[datetime | None] = mapped_column(index=True)
    deleted_by: Mapped[str | None] = mapped_column(String(120))

    entrants: Mapped[list[Entrant]] = relationship(
        back_populates="tournament", cascade="all, delete-orphan", order_by="Entrant.position"
    )
    rounds_played: Mapped[list[Round]] = relationship(
        back_populates="tournament", cascade="all, delete-orphan", order_by="Round.number"
    )

    def bump(self) -> None:
        self.version = (self.version or 0) + 1

    def __repr__(self) -> str:
        return f"<Tournament {self.id} {self.name!r}>"


class Entrant(Base):
    """A pair, trio or single player. ``players`` in seat order within the side."""

    __tablename__ = "entrants"
    __table_args__ = (UniqueConstraint("tournament_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(120))
    position: Mapped[int] = mapped_column()  # order of entry (the file's order)
    withdrawn_after: Mapped[int | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    tournament: Mapped[Tournament] = relationship(back_populates="entrants")
    players: Mapped[list[EntrantPlayer]] = relationship(
        back_populates="entrant", cascade="all, delete-orphan", order_by="EntrantPlayer.seat"
    )
    substitutions: Mapped[list[Substitution]] = relationship(
        back_populates="entrant",
        cascade="all, delete-orphan",
        order_by="(Substitution.from_round, Substitution.seat)",
    )


class EntrantPlayer(Base):
    """One player of an entrant: a club member or a guest typed in by name."""

    __tablename__ = "entrant_players"
    __table_args__ = (UniqueConstraint("entrant_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    entrant_id: Mapped[int] = mapped_column(
        ForeignKey("entrants.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column()  # order within the side
    name: Mapped[str] = mapped_column(String(80))
    member_id: Mapped[int | None] = mapped_column(
        ForeignKey("members.id", ondelete="SET NULL"), index=True
    )

    entrant: Mapped[Entrant] = relationship(back_populates="players")


class Substitution(Base):
    """From round ``from_round`` on, a substitute (a club member or a guest typed by name)
    plays the seat ``seat`` of an entrant instead of its player: the entrant's results stand,
    the deals are credited to whoever played them (``app.competition.model.Entrant.players_in``).
    """

    __tablename__ = "substitutions"
    __table_args__ = (UniqueConstraint("entrant_id", "seat", "from_round"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    entrant_id: Mapped[int] = mapped_column(
        ForeignKey("entrants.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column()  # the seat within the side (``EntrantPlayer.seat``)
    from_round: Mapped[int] = mapped_column()
    name: Mapped[str] = mapped_column(String(80))
    member_id: Mapped[int | None] = mapped_column(
        ForeignKey("members.id", ondelete="SET NULL"), index=True
    )
    reason: Mapped[str | None] = mapped_column(String(200))
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    entrant: Mapped[Entrant] = relationship(back_populates="substitutions")


class Round(Base):
    __tablename__ = "rounds"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number"),
        CheckConstraint("status IN ('seated', 'started', 'closed')", name="status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column()
    status: Mapped[str] = mapped_column(String(10), default="seated")
    # a match by time: the round's clock (server time, naive UTC), the same for every table.
    # Remaining = minutes - (now or paused_at - started_at - paused_seconds).
    clock_started_at: Mapped[datetime | None] = mapped_column()
    clock_paused_at: Mapped[datetime | None] = mapped_column()
    clock_paused_seconds: Mapped[int] = mapped_column(default=0, server_default="0")
    # the director's last-deal call (the tables finish the deal in progress, no new one starts)
    last_deal_at: Mapped[datetime | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    tournament: Mapped[Tournament] = relationship(back_populates="rounds_played")
    tables: Mapped[list[Table]] = relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="Table.number"
    )


class Table(Base):
    """A table of a round: two sides, five red five players by seat, or a bye.

    ``code`` is the table's score-entry capability: whoever has it may enter this table's deals
    and nothing else.
    """

    __tablename__ = "tables"
    __table_args__ = (
        UniqueConstraint("round_id", "number"),
        CheckConstraint("kind IN ('sides', 'players', 'bye')", name="kind"),
        CheckConstraint("mode IN ('paper', 'online')", name="mode"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column()
    kind: Mapped[str] = mapped_column(String(10))
    mode: Mapped[str] = mapped_column(String(10), default="paper")
    forfeit: Mapped[int | None] = mapped_column()  # the side index that did not play
    finished: Mapped[bool] = mapped_column(default=False)
    code: Mapped[str | None] = mapped_column(String(32), unique=True)
    paused: Mapped[bool] = mapped_column(
        default=False, server_default=false()
    )  # online: the director paused play
    # after the last-deal call: the deals this table may play in all (the one in progress
    # included); an extra deal may follow on equal levels (tie-break ``extra_deal``)
    last_deal: Mapped[int | None] = mapped_column()
    # a match of a number of deals the director ended early (``finished`` set): why
    end_reason: Mapped[str | None] = mapped_column(String(200))
    # online: counts the changes of who plays its seats (a bot handed a seat or a seat handed
    # back, a member bound, a link replaced): part of the state token, so every page sees them
    seats_version: Mapped[int] = mapped_column(default=0, server_default="0")
    # online: the director switched the table's chat off (app/services/online/chat.py)
    chat_off: Mapped[bool] = mapped_column(default=False, server_default=false())

    round: Mapped[Round] = relationship(back_populates="tables")
    seats: Mapped[list[TableSeat]] = relationship(
        back_populates="table", cascade="all, delete-orphan", order_by="TableSeat.position"
    )
    deals: Mapped[list[Deal]] = relationship(
        back_populates="table", cascade="all, delete-orphan", order_by="Deal.index"
    )


class TableSeat(Base):
    """Who sits at a table: side index (fixed sides), seat (red five), or 0 for a bye."""

    __tablename__ = "table_seats"
    __table_args__ = (UniqueConstraint("table_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column()
    entrant_id: Mapped[int] = mapped_column(
        ForeignKey("entrants.id", ondelete="CASCADE"), index=True
    )

    table: Mapped[Table] = relationship(back_populates="seats")
    entrant: Mapped[Entrant] = relationship()


class Deal(Base):
    """One row of a score sheet, field for field as TOURNAMENT.md's deal."""

    __tablename__ = "deals"
    __table_args__ = (
        UniqueConstraint("table_id", "index"),
        CheckConstraint("source IN ('paper', 'online')", name="source"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    index: Mapped[int] = mapped_column()  # 0-based order at the table
    source: Mapped[str] = mapped_column(String(10), default="paper")
    declarer: Mapped[int | None] = mapped_column()
    dealer: Mapped[int | None] = mapped_column()
    friend: Mapped[int | None] = mapped_column()
    trump: Mapped[str | None] = mapped_column(String(2))
    points: Mapped[int] = mapped_column()
    kitty: Mapped[int] = mapped_column(default=0)
    multiplier: Mapped[int] = mapped_column(default=0)
    # tractor-4p: {"declarer": n, "attackers": m}; red five: [seat, …]; else null
    failed_throws: Mapped[Any | None] = mapped_column(JSON)
    friend_grabbed: Mapped[bool] = mapped_column(default=False)
    misplays: Mapped[list[int] | None] = mapped_column(JSON)
    level: Mapped[str | None] = mapped_column(String(3))
    # competition penalties (RULES §7), in order: [{"kind", "side"}] or red five [{"kind", "seat"}]
    penalties: Mapped[list[Any] | None] = mapped_column(JSON)
    # 争上游: each seat's place 1 … n by seat, and the tribute (进贡) {"from", "to", "card"}
    places: Mapped[list[int] | None] = mapped_column(JSON)
    tribute: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # 打百分: {"bid", "turned", "friend_card", "kou_di", "kitty"} as the sheet has them (the
    # declarer's and the friend's seats, trump, points and penalties in the columns above)
    hundred: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime | None] = mapped_column()

    table: Mapped[Table] = relationship(back_populates="deals")


# an audit entry's owner: exactly one of its tournament, duplicate event and season
ONE_OWNER = (
    "(CASE WHEN tournament_id IS NULL THEN 0 ELSE 1 END"
    " + CASE WHEN duplicate_event_id IS NULL THEN 0 ELSE 1 END"
    " + CASE WHEN season_id IS NULL THEN 0 ELSE 1 END) = 1"
)


class AuditEntry(Base):
    """Who changed what in a tournament, a duplicate event or a season (its deletion, and its
    divisions'), when, from what to what (JSON snapshots). Each entry belongs to exactly one."""

    __tablename__ = "audit_entries"
    __table_args__ = (CheckConstraint(ONE_OWNER, name="one_owner"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    duplicate_event_id: Mapped[int | None] = mapped_column(
        ForeignKey("duplicate_events.id", ondelete="CASCADE"), index=True
    )
    season_id: Mapped[int | None] = mapped_column(
        ForeignKey("seasons.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    actor: Mapped[str] = mapped_column(String(120))  # a name, or "table 3 code" for a code
    action: Mapped[str] = mapped_column(String(40))
    target: Mapped[str] = mapped_column(String(200))
    before: Mapped[Any | None] = mapped_column(JSON)
    after: Mapped[Any | None] = mapped_column(JSON)
    reason: Mapped[str | None] = mapped_column(String(200))  # a director's, for a correction
    at: Mapped[datetime] = mapped_column(default=utcnow)
