"""Which online tables changed, announced to every process that streams them.

A write that changes what a table shows (a move appended to its deal, a new deal, a pause, a
seat handed to a bot…) touches an ``OnlineDeal`` or ``Table`` row, and one that changes a
night's standings bumps its ``Tournament`` row. After each flush the session notes them; what
is announced is only ``t:<table id>`` or ``r:<tournament id>`` — never a card: each stream
reads its own page's view when told (ARCHITECTURE.md, "never put a hand in a broadcast").

* **PostgreSQL**: the flush itself runs ``pg_notify`` in the writing transaction, so the
  announcement leaves with the commit (and not at all on a rollback), to every process of every
  server that shares the database. A deal row is announced by the database itself, in the
  statement that writes it (a trigger, app/models/online.py): a move, most of a night's writes,
  sends no ``pg_notify`` of its own. Each process keeps one connection that ``LISTEN``s, in a
  background thread (a greenlet under gevent: psycopg ≥ 3.1.14 cooperates), started by the
  first subscriber; it reconnects by itself after the server went away.
* **SQLite** (``make run``: one process): the announcement is made in this process after the
  commit. Several processes on one SQLite file do not hear each other; streams then find the
  change at their next check (``streams.RECHECK_LOCAL_S``), as a poll would.

A subscriber waits on its own event; nothing here holds a database connection while it waits.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from typing import Any

from flask import Flask
from sqlalchemy import event, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ...models.online import LIVE_CHANNEL as CHANNEL  # the deals' trigger announces there too

_NOTED = "live_tables"  # session.info key: tables changed in this transaction (SQLite)
log = logging.getLogger(__name__)


def topic(table_id: int) -> str:
    """An online table's topic: its pages (seats, spectators, the director's live view)."""
    return f"t:{table_id}"


def standings_topic(tournament_id: int) -> str:
    """A tournament's topic: its standings (every change of its results bumps its version)."""
    return f"r:{tournament_id}"


class Subscription:
    """One stream's mailbox: ``wait`` returns True when one of its topics was announced since
    the last wait (or the wait began), False after ``timeout`` seconds without."""

    def __init__(self, hub: Hub, topics: Iterable[str]) -> None:
        self._hub = hub
        self.topics = frozenset(topics)
        self._event = threading.Event()

    def notify(self) -> None:
        self._event.set()

    def wait(self, timeout: float) -> bool:
        got = self._event.wait(timeout)
        self._event.clear()
        return got

    def close(self) -> None:
        self._hub.unsubscribe(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class Hub:
    """This process's subscribers by topic, and (PostgreSQL) the one connection that listens."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[str, set[Subscription]] = {}
        self._listener: threading.Thread | None = None
        self._conninfo: str | None = None
        self.listening = threading.Event()  # PostgreSQL: LISTEN is in force now

    def subscribe(self, topics: Iterable[str]) -> Subscription:
        sub = Subscription(self, topics)
        with self._lock:
            for t in sub.topics:
                self._subs.setdefault(t, set()).add(sub)
            if self._conninfo is not None and self._listener is None:
                self._listener = threading.Thread(
                    target=self._listen, name="live-bus-listener", daemon=True
                )
                self._listener.start()
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            for t in sub.topics:
                subs = self._subs.get(t)
                if subs is not None:
                    subs.discard(sub)
                    if not subs:
                        del self._subs[t]

    def deliver(self, topics: Iterable[str]) -> None:
        """Wake every subscriber of these topics in this process."""
        with self._lock:
            woken = {s for t in topics for s in self._subs.get(t, ())}
        for s in woken:
            s.notify()

    def listen_to(self, conninfo: str) -> None:
        """PostgreSQL: announcements arrive through a connection of their own (started with
        the first subscriber)."""
        self._conninfo = conninfo

    def _listen(self) -> None:
        import psycopg

        while True:
            conninfo = self._conninfo
            assert conninfo is not None
            try:
                with psycopg.connect(conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    # announcements made while nobody listened are lost: everyone looks
                    self.deliver(list(self._subs))
                    while self._conninfo == conninfo:  # another database named: listen there
                        for note in conn.notifies(timeout=1.0):
                            self.deliver([note.payload])
            except Exception as e:  # the server went away: the streams' own checks go on
                log.warning("live bus: listening stopped (%s); again in 1 s", type(e).__name__)
                time.sleep(1)
            finally:
                self.listening.clear()


HUB = Hub()


def _changed_topics(session: Session, deals: bool) -> set[str]:
    """The topics this flush changes (``deals``: its deal rows' tables too; not on PostgreSQL,
    where the deal rows' trigger announces them)."""
    from ...models import OnlineDeal, Table, Tournament

    out: set[str] = set()
    for obj in (*session.new, *session.dirty):
        if isinstance(obj, OnlineDeal):
            if deals and obj.table_id is not None:
                out.add(topic(obj.table_id))
        elif isinstance(obj, Table) and obj.id is not None and obj.mode == "online":
            out.add(topic(obj.id))
        elif isinstance(obj, Tournament) and obj.id is not None:
            out.add(standings_topic(obj.id))
    return out


def _after_flush(session: Session, _context: Any) -> None:
    postgresql = session.get_bind().dialect.name == "postgresql"
    topics = _changed_topics(session, deals=not postgresql)
    if not topics:
        return
    if postgresql:
        conn = session.connection()
        for t in sorted(topics):  # equal payloads in one transaction are sent once
            conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": t})
    else:
        session.info.setdefault(_NOTED, set()).update(topics)


def deal_written(session: Session, table_id: int) -> None:
    """A deal row of table ``table_id`` written by a statement of its own, not by a flush (an
    online move's compare and swap): its table is announced after the commit, as a flushed one
    is. Nothing to do on PostgreSQL, where the deal rows' trigger announces it."""
    if session.get_bind().dialect.name != "postgresql":
        session.info.setdefault(_NOTED, set()).add(topic(table_id))


def _after_commit(session: Session) -> None:
    topics = session.info.pop(_NOTED, None)
    if topics:
        HUB.deliver(topics)


def _after_rollback(session: Session, previous: Any) -> None:
    if previous.parent is None:  # the transaction itself, not a savepoint inside it
        session.info.pop(_NOTED, None)


def init_app(app: Flask, engine: Engine) -> None:
    """Announce the changed tables of every session's commits; on PostgreSQL, listen."""
    if not event.contains(Session, "after_flush", _after_flush):
        event.listen(Session, "after_flush", _after_flush)
        event.listen(Session, "after_commit", _after_commit)
        event.listen(Session, "after_soft_rollback", _after_rollback)
    if engine.dialect.name == "postgresql":
        url = engine.url.set(drivername="postgresql")
        HUB.listen_to(url.render_as_string(hide_password=False))
