"""Database engine tuning and transaction helpers.

SQLite (the embedded default) runs in WAL mode with a busy timeout. Python's sqlite3 driver
would otherwise open transactions lazily and in DEFERRED mode, so two workers that both read and
then write fail with "database is locked"; measured here: plain BEGIN failed 75% of such
transactions across 4 processes, BEGIN IMMEDIATE none. So we emit BEGIN ourselves:

* ``BEGIN IMMEDIATE`` for every request with a writing method (POST, PUT, PATCH, DELETE) and
  inside ``with write_transaction():`` (CLI commands, background jobs);
* plain ``BEGIN`` for GET/HEAD requests, which must not write — readers never wait in WAL mode.

A view marked ``@read_first`` (an online move: rebuild the deal, verify, the bots' replies)
reads and computes in a plain ``BEGIN`` transaction, and takes the write lock only to append: it
calls ``begin_write(session)``, which ends the read transaction (nothing was written in it) so
that the next statement begins ``BEGIN IMMEDIATE``; the caller then checks that what it computed
on still holds (a version column: compare and swap). Once the write is committed, the rest of
the request (rendering the answer) reads in plain ``BEGIN`` again instead of taking the lock a
second time (``reads_only()`` says so). A read transaction cannot be upgraded safely on SQLite
(another writer's commit in between makes the upgrade fail), hence the fresh transaction;
writing before ``begin_write`` raises at once. On PostgreSQL such a view, whose reads ran in
autocommit, may instead write one statement committed on its own (``write_alone``): the online
move within its deal, whose compare and swap and INSERT are one statement.

PostgreSQL needs none of this: it locks rows. Its transactions (READ COMMITTED) do not wait for
each other when they read, so read-then-write code that two requests may run at once on the same
thing takes that thing's row lock first, with ``lock_for_update(row)``: the second request waits
at that point until the first ends, then reads what it committed. On SQLite the same call only
reloads (the request already holds the write lock from BEGIN IMMEDIATE).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar, cast

from flask import has_request_context, request
from sqlalchemy import event, inspect, select
from sqlalchemy.engine import Connection, Dialect, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import ORMExecuteState, Session, object_session
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
READ_METHODS = frozenset({"GET", "HEAD"})
READING, WRITING, DONE = "reading", "writing", "done"
_force_immediate: ContextVar[bool] = ContextVar("force_immediate", default=False)
# a @read_first view: READING (plain BEGIN) until begin_write(), then WRITING (BEGIN IMMEDIATE)
# until its commit, then DONE (plain BEGIN: the answer is rendered from what was written)
_phase: ContextVar[str | None] = ContextVar("read_first_phase", default=None)

F = TypeVar("F", bound=Callable[..., Any])


def _wants_immediate() -> bool:
    if _force_immediate.get():
        return True
    phase = _phase.get()
    if phase is not None:
        return phase == WRITING
    return has_request_context() and request.method in WRITE_METHODS


def read_first(view: F) -> F:
    """Mark a writing view that reads and computes first and writes only after
    ``begin_write`` (see the module doc)."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        token = _phase.set(READING)
        try:
            return view(*args, **kwargs)
        finally:
            _phase.reset(token)

    return wrapper  # type: ignore[return-value]


def reads_only() -> bool:
    """True while nothing more is written in this request: a GET/HEAD request, or a
    ``@read_first`` view whose write is committed (it renders its answer). Never inside
    ``write_transaction()`` (a command may borrow a GET request context for translations)."""
    if _force_immediate.get():
        return False
    if has_request_context() and request.method in READ_METHODS:
        return True
    return _phase.get() == DONE


def begin_write(session: Session) -> bool:
    """In a ``@read_first`` view not writing yet: end the read transaction, so that the next
    statement takes the write lock (``BEGIN IMMEDIATE`` on SQLite). Returns True then: every
    object of the session is expired, and the caller must check that what it computed on still
    holds before writing. False when this transaction may write already (any other request,
    or the write lock is taken)."""
    if _phase.get() not in (READING, DONE):
        return False
    if session.new or session.dirty or session.deleted:
        raise RuntimeError("a @read_first view changed objects before begin_write()")
    session.rollback()
    _phase.set(WRITING)
    return True


def write_alone(session: Session) -> bool:
    """In a ``@read_first`` view not writing yet, on PostgreSQL, whose reads ran in autocommit:
    True when the caller's next statement, its only write, may commit on its own (no ``BEGIN``,
    no ``COMMIT``: one database round trip instead of three). The caller checks in that
    statement that what it computed on still holds, and once it has written, calls
    ``wrote_alone``. False anywhere else: the caller takes the usual way, ``begin_write`` and
    a transaction."""
    if _phase.get() != READING or session.new or session.dirty or session.deleted:
        return False
    conn = session.connection()
    return conn.dialect.name == "postgresql" and conn.connection.info.get(_AUTOCOMMIT, False)


def wrote_alone(session: Session) -> None:
    """``write_alone``'s statement wrote (and is committed): the view is done writing
    (``reads_only``; a later flush raises) and forgets what it read (``READ_MEMOS``), as after
    any write. Until then it still reads: a statement that wrote nothing leaves it free to
    compute again and retry."""
    _forget_memos(session)
    _phase.set(DONE)


@event.listens_for(Session, "before_flush")
def _no_write_while_reading(session: Session, _context: Any, _instances: Any) -> None:
    if _phase.get() in (READING, DONE) and (session.new or session.dirty or session.deleted):
        raise RuntimeError("a @read_first view must call begin_write() before it writes")


@event.listens_for(Session, "after_commit")
def _done_after_commit(_session: Session) -> None:
    if _phase.get() == WRITING:
        _phase.set(DONE)


@event.listens_for(Session, "after_rollback")
def _read_again_after_rollback(_session: Session) -> None:
    if _phase.get() == WRITING:
        _phase.set(READING)


def configure_sqlite(engine: Engine, busy_timeout_ms: int) -> None:
    """Install WAL, busy timeout, foreign keys and our own BEGIN on a SQLite engine."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves (see module doc)
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if _wants_immediate() else "BEGIN")


_AUTOCOMMIT = "shengji_autocommit"  # on a pooled connection's info: we switched it to autocommit


def reads_here() -> bool:
    """True while the work in hand only reads: a GET/HEAD request, a ``@read_first`` view
    before ``begin_write`` (it computes; its write checks the version) or after its commit."""
    return reads_only() or _phase.get() == READING


def configure_postgresql(engine: Engine) -> None:
    """Read-only work in autocommit on a PostgreSQL engine.

    PostgreSQL's READ COMMITTED (its default, ours) takes a fresh snapshot for every statement,
    so a transaction around reads makes them no more consistent than each is alone; it only
    costs a ``BEGIN`` and a ``ROLLBACK``. Measured in-process on a seat's requests, it was
    three quarters of the server's CPU time per request (a changed poll 1.8 ms against 0.4 in
    autocommit). So each transaction that only reads (``reads_here``) runs with the driver
    in autocommit, and every other transaction as before (its ``BEGIN`` sent by psycopg before
    its first statement, row locks held to its end). The switch is the driver's own flag, set
    when SQLAlchemy begins, while the connection is idle; SQLAlchemy's commit and rollback of
    an autocommit connection are then no-ops in psycopg."""

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        autocommit(conn.connection, reads_here())


def autocommit(fairy: Any, on: bool) -> None:
    """Switch a pooled PostgreSQL connection (idle) to autocommit or back; a no-op when it is so
    already. A connection we did not switch keeps what SQLAlchemy set (an ``isolation_level``
    execution option)."""
    if fairy.info.get(_AUTOCOMMIT, False) != on:
        fairy.driver_connection.autocommit = on
        fairy.info[_AUTOCOMMIT] = on


@contextmanager
def write_transaction() -> Iterator[None]:
    """Outside a request (CLI, jobs): transactions started inside take the write lock at once.

    Use it around read-then-write code that is not a POST request. The caller still commits.
    """
    token = _force_immediate.set(True)
    try:
        yield
    finally:
        _force_immediate.reset(token)


# session.info keys of what a transaction keeps of what it read or wrote (the latest deal read
# with a seat, app/services/online/seats.py; the state a move made, app/services/online/
# bridge.py): all of them are forgotten when it writes anything more (a flush, a DML statement
# through the session), takes a row lock (so that what is read after the lock is the committed
# state it promises) or ends; ``memo`` reads one.
READ_MEMOS: set[str] = set()


def memo(session: Session, key: str) -> Any:
    """The memo ``key`` of this transaction (one of ``READ_MEMOS``), or None: none kept, or the
    session holds changes not flushed yet (a query would flush them first, and read them)."""
    got = session.info.get(key)
    if got is None or session.new or session.dirty or session.deleted:
        return None
    return got


def _forget_memos(session: Session) -> None:
    for key in READ_MEMOS:
        session.info.pop(key, None)


@event.listens_for(Session, "after_flush")
def _forget_memos_after_flush(session: Session, _context: Any) -> None:
    _forget_memos(session)


@event.listens_for(Session, "after_transaction_end")
def _forget_memos_at_end(session: Session, _transaction: Any) -> None:
    _forget_memos(session)


@event.listens_for(Session, "do_orm_execute")
def _forget_memos_at_write(state: ORMExecuteState) -> None:
    if state.is_insert or state.is_update or state.is_delete:  # DML through the session
        _forget_memos(state.session)


def lock_for_update(row: Any, *reload: str) -> None:
    """Lock ``row``'s database row for the rest of the transaction (``SELECT … FOR UPDATE``;
    SQLite has no row locks and needs none, see above), then forget the attributes named in
    ``reload`` (e.g. a relationship read before the lock) so they are read again, fresh."""
    session = object_session(row)
    assert session is not None, "lock_for_update needs a row of a session"
    mapper = inspect(row).mapper
    keys = mapper.primary_key_from_instance(row)
    where = [column == key for column, key in zip(mapper.primary_key, keys, strict=True)]
    session.execute(select(*mapper.primary_key).where(*where).with_for_update())
    _forget_memos(session)
    if reload:
        session.expire(row, list(reload))


class OneRow:
    """A read of one row on a pooled DBAPI connection of its own, its statement compiled once
    per dialect: for the requests answered from one indexed row that are most of a night's
    requests (a seat's poll, a projector's live standings poll; ``app/poll_shortcut.py``).

    It skips the ORM session (its BEGIN, its teardown) and SQLAlchemy's per-call execution
    machinery. One SELECT is one consistent snapshot in either database (each runs it in
    autocommit: SQLite as every connection here, PostgreSQL switched for it). A database error is raised as SQLAlchemy's, so the 503 page answers it like
    any other. ``build`` makes the statement when it is first needed; ``given`` names its
    ``bindparam``s that each call gives.
    """

    def __init__(self, build: Callable[[], ClauseElement], given: tuple[str, ...]) -> None:
        self._build = build
        self._given = given
        self._compiled: dict[Dialect, tuple[str, tuple[str, ...] | None, dict[str, Any]]] = {}

    def sql(self, dialect: Dialect) -> tuple[str, tuple[str, ...] | None, dict[str, Any]]:
        """The SQL for ``dialect``, for a positional paramstyle its parameters' names in order
        (None: named parameters), and the values of the statement's own parameters (a
        LIMIT's)."""
        got = self._compiled.get(dialect)
        if got is None:
            compiled = cast(SQLCompiler, self._build().compile(dialect=dialect))
            names = tuple(compiled.positiontup or ()) if dialect.positional else None
            blank = dict.fromkeys(self._given, "")
            fixed = {
                k: v for k, v in compiled.construct_params(blank).items() if k not in self._given
            }
            got = self._compiled[dialect] = (compiled.string, names, fixed)
        return got

    def __call__(self, **params: Any) -> Any:
        """The row (a DBAPI tuple) or None."""
        from .extensions import db

        engine = db.engine
        sql, names, fixed = self.sql(engine.dialect)
        values = {**fixed, **params}
        args: Any = tuple(values[n] for n in names) if names is not None else values
        raw = None
        try:
            raw = engine.raw_connection()  # the server away: the driver's error, raised below
            if engine.dialect.name == "postgresql":
                autocommit(raw, True)  # one statement: no BEGIN, no ROLLBACK
            cursor = raw.cursor()
            try:
                cursor.execute(sql, args)
                return cursor.fetchone()
            finally:
                cursor.close()
        except engine.dialect.loaded_dbapi.Error as err:
            raise DBAPIError.instance(sql, args, err, engine.dialect.loaded_dbapi.Error) from err
        finally:
            if raw is not None:
                raw.close()
