"""Online tables: a table of a round played in the browser through the engine.

The source of truth is the rules (the tournament's variant and options), each deal's seed and
setup, and the append-only action log; whatever the engine state is, it is rebuilt from them by
replay on every request (no game state lives in a process). ``OnlineDeal.version`` counts the
log entries: every move carries the version its player saw, and a stale one changes nothing.

``OnlineSeat.token`` is a seat's capability: its link shows that seat's hand and accepts that
seat's moves, nothing else. A seat marked ``bot`` is played by the server.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import DDL, JSON, BigInteger, ForeignKey, String, UniqueConstraint, event
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Base
from ._common import utcnow

if TYPE_CHECKING:
    from .tournaments import Table


class OnlineSeat(Base):
    __tablename__ = "online_seats"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column()  # the engine's seat 0 … players-1
    token: Mapped[str] = mapped_column(String(40), unique=True)
    bot: Mapped[bool] = mapped_column(default=False)
    # The link this seat had before the director replaced it: a page still open on it is told
    # so (and nothing else) instead of a bare "not found"
    replaced_token: Mapped[str | None] = mapped_column(String(40), index=True)
    # How strong the seat's bot plays: "easy" (random), "normal" (heuristic), "strong" (the
    # mc search, time-boxed for a web request); see app/services/online/botchoice.py
    bot_level: Mapped[str] = mapped_column(String(10), default="normal", server_default="normal")
    # A seat bound to a club member with an account: that member plays it from their home page,
    # without the link. None: the seat is played by whoever holds the link (a guest).
    member_id: Mapped[int | None] = mapped_column(
        ForeignKey("members.id", ondelete="SET NULL"), index=True
    )

    # read only: a seat's page loads its table (with its round and tournament) in the seat's
    # own query (``seats.seat_by_token``), instead of one query each
    table: Mapped[Table] = relationship(viewonly=True)


class OnlineDeal(Base):
    """One shuffle at an online table (a redeal is a new one). ``sheet_index``: the score
    sheet row it was recorded as, once played out."""

    __tablename__ = "online_deals"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column()  # 1-based order at the table
    seed: Mapped[int] = mapped_column(BigInteger)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)  # engine DealSetup.to_json()
    version: Mapped[int] = mapped_column(default=0)  # log entries so far
    outcome: Mapped[str | None] = mapped_column(String(10))
    sheet_index: Mapped[int | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    # compare and swap: an update writes only over the version it read, else StaleDataError
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}

    actions: Mapped[list[OnlineAction]] = relationship(
        back_populates="deal",
        cascade="all, delete-orphan",
        order_by="OnlineAction.seq",
        passive_deletes=True,
    )


# The channel of the live pages' announcements (app/services/live/bus.py). On PostgreSQL the
# database itself announces every written deal row: a trigger sends ``t:<table id>`` in the
# writing statement, so a move needs no ``pg_notify`` statement of its own (one database round
# trip less, and each round trip of a move waits behind the worker's other requests); it leaves
# with the commit, and not at all on a rollback, as the session's own announcements do.
LIVE_CHANNEL = "shengji_live"
DEAL_ANNOUNCED_FUNCTION = f"""
CREATE OR REPLACE FUNCTION online_deal_announced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{LIVE_CHANNEL}', 't:' || NEW.table_id);
    RETURN NULL;
END
$$
"""
DEAL_ANNOUNCED_TRIGGER = """
CREATE TRIGGER online_deal_announced AFTER INSERT OR UPDATE ON online_deals
FOR EACH ROW EXECUTE FUNCTION online_deal_announced()
"""
for _ddl in (DEAL_ANNOUNCED_FUNCTION, DEAL_ANNOUNCED_TRIGGER):  # also for create_all (tests)
    event.listen(OnlineDeal.__table__, "after_create", DDL(_ddl).execute_if(dialect="postgresql"))


class OnlineAction(Base):
    """One entry of a deal's log: an engine record (``Record.to_json()``), a seat's choice
    not to call during the draw (``{"kind": "continue", "seat": s}``), or, after a played deal,
    a seat's Continue on its summary (``{"kind": "ready", "seat": s}``); replay skips both."""

    __tablename__ = "online_actions"
    __table_args__ = (UniqueConstraint("deal_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    deal_id: Mapped[int] = mapped_column(
        ForeignKey("online_deals.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column()  # 1-based
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    actor: Mapped[str] = mapped_column(String(20))  # "seat 2", "bot", "chance"
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    deal: Mapped[OnlineDeal] = relationship(back_populates="actions")


class OnlineChat(Base):
    """A message of an online table's chat: a seat's (``seat``) or the director's (None), a
    preset phrase (``phrase``, its key: app/services/online/chat.py) or a short text. Never a
    card in it: the service refuses a text that names one."""

    __tablename__ = "online_chats"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column()
    phrase: Mapped[str | None] = mapped_column(String(20))
    text: Mapped[str | None] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
