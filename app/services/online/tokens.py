"""State tokens: what a page saw, so a poll or a stream answers "nothing changed" from one
indexed query and a move made on an older state is refused (``bridge.Stale``).

A seat's token is ``"<deal number>.<version>"`` of the table's latest deal, then ``.s<n>`` once
who plays the seats has changed, ``p`` while the director has paused the table; a move is checked
against its deal part only (``deal_part``). The spectators' and the director's live views add
which seats bots play and how many whole minutes a human seat has kept the deal waiting
(``watch_token``, ``idle_for``). ``now`` is the one clock of the online tables.
"""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.engine import Dialect

from ...db import OneRow
from ...extensions import db
from ...models import OnlineAction, OnlineDeal, OnlineSeat, Table, utcnow
from .bridge import current_row, state_made
from .seats import seats_of

# A human seat the deal has waited for this long is shown to the director as not acting.
IDLE_AFTER = timedelta(minutes=1)


def _token(number: int | None, version: int | None, seats_version: int, paused: bool) -> str:
    """``deal.version``, then ``.s<n>`` once who plays the seats has changed, ``p`` while
    paused."""
    token = "0.0" if number is None else f"{number}.{version}"
    if seats_version:
        token += f".s{seats_version}"
    return token + "p" if paused else token


def deal_part(token: str) -> str:
    """The part of a state token a move is checked against: the deal and its version (a seat
    handed to a bot, or a pause and resume, leave a move made on the same deal valid)."""
    return token.split(".s", 1)[0].removesuffix("p")


def state_token(tab: Table) -> str:
    """What a seat's page saw: changes with every entry of every deal, when the director
    pauses or resumes the table and when who plays a seat changes (one indexed query: no
    replay)."""
    got = db.session.execute(_token_queries()[0], {"table": tab.id}).first()
    return _token(
        None if got is None else got[0],
        None if got is None else got[1],
        tab.seats_version or 0,
        tab.paused,
    )


def seat_state_token(token: str) -> str | None:
    """The state token of a guest seat link's table in one query (a poll's answer); None when
    the link is no guest seat of an online table."""
    if not token or len(token) > 40:
        return None
    got = _poll_row(token)
    if got is None:
        return None
    return _token(got[0], got[1], got[3] or 0, bool(got[2]))


def table_state_token(table_id: int) -> str:
    """``state_token`` of a table by its id, its row read with its latest deal (what a move's
    answer names: the table object may be expired after the move's writes); "" when there is
    no such table. A move of this transaction that wrote last knows it without a query
    (``bridge.state_made``): each of a move's database round trips waits behind whatever else
    its worker runs meanwhile."""
    made = state_made(table_id)
    if made is not None:
        return _token(*made)
    got = db.session.execute(_table_query(), {"table": table_id}).first()
    return "" if got is None else _token(got[0], got[1], got[3] or 0, bool(got[2]))


@functools.cache
def _table_query() -> Select[int, int, bool, int]:
    return (
        select(OnlineDeal.number, OnlineDeal.version, Table.paused, Table.seats_version)
        .select_from(Table)
        .outerjoin(OnlineDeal, OnlineDeal.table_id == Table.id)
        .where(Table.id == bindparam("table"))
        .order_by(OnlineDeal.number.desc())
        .limit(1)
    )


def _poll_row(token: str) -> Any:
    """The poll's one row (``app.db.OneRow``): a poll is most requests of a night and answers
    204 from this alone."""
    return _SEAT_POLL(token=token)


def _poll_sql(dialect: Dialect) -> tuple[str, tuple[str, ...] | None, dict[str, Any]]:
    """The seat poll's SQL for ``dialect`` (what the tests count it by)."""
    return _SEAT_POLL.sql(dialect)


@functools.cache
def _token_queries() -> tuple[Select[int, int], Select[int, int, bool, int]]:
    """The two state token queries, built once (a poll is mostly this query)."""
    latest = select(OnlineDeal.number, OnlineDeal.version).order_by(OnlineDeal.number.desc())
    by_table = latest.where(OnlineDeal.table_id == bindparam("table")).limit(1)
    by_seat = (
        select(OnlineDeal.number, OnlineDeal.version, Table.paused, Table.seats_version)
        .select_from(OnlineSeat)
        .join(Table, Table.id == OnlineSeat.table_id)
        .outerjoin(OnlineDeal, OnlineDeal.table_id == Table.id)
        .where(
            OnlineSeat.token == bindparam("token"),
            OnlineSeat.member_id.is_(None),
            Table.mode == "online",
        )
        .order_by(OnlineDeal.number.desc())
        .limit(1)
    )
    return by_table, by_seat


_SEAT_POLL = OneRow(lambda: _token_queries()[1], ("token",))


def now() -> datetime:
    """The time as the online tables read it (naive UTC, as stored); the one clock of this
    package, so a test can move it on."""
    return utcnow()


def last_moved_at(tab: Table) -> datetime | None:
    """When the table's current deal last changed: its log's last entry, or when it was dealt."""
    row = current_row(tab)
    if row is None:
        return None
    last = db.session.scalar(
        select(func.max(OnlineAction.created_at)).where(OnlineAction.deal_id == row.id)
    )
    return last or row.created_at


def _may_idle(tab: Table, row: OnlineDeal | None) -> bool:
    """Could a seat be keeping the table waiting (a deal in play, nobody stopped it)?"""
    return (
        row is not None
        and row.outcome is None
        and tab.mode == "online"
        and not tab.paused
        and not tab.finished
        and tab.round.status != "closed"
    )


def idle_for(tab: Table) -> timedelta | None:
    """How long the current deal has waited without a move, once that is ``IDLE_AFTER`` or more
    (bots act at once, so only a human seat keeps a deal waiting); None otherwise."""
    row = current_row(tab)
    if not _may_idle(tab, row):
        return None
    since = last_moved_at(tab)
    if since is None:  # pragma: no cover - a deal row always has its creation time
        return None
    waited = now() - since
    return waited if waited >= IDLE_AFTER else None


def watch_token(tab: Table) -> str:
    """What a spectator's or the director's live view saw: the state token, which seats bots
    play, and for how many whole minutes the table has been kept waiting (cheap: no replay)."""
    bots = "".join("b" if s.bot else "h" for s in seats_of(tab))
    waited = idle_for(tab)
    idle = "" if waited is None else f".idle{int(waited.total_seconds() // 60)}"
    return f"{state_token(tab)}.{bots}{idle}"


def token_of(tab: Table, row: OnlineDeal | None) -> str:
    """``state_token`` of a table whose latest deal row is ``row`` (already read: no query)."""
    return _token(
        None if row is None else row.number,
        None if row is None else row.version,
        tab.seats_version or 0,
        tab.paused,
    )
