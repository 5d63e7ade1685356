"""Every row of the app's database saved once and copied back whole, on SQLite and PostgreSQL:
the security tests' two-club world is built through the routes once per test process, then
each test starts from its own copy of those rows (``security_world.build_world``).

SQLite: the database file through SQLite's backup API (pages, so ``sqlite_sequence`` and every
row come back as they were). PostgreSQL: each table's rows with ``COPY`` and each sequence's
position; the copy goes into the tables the ``app`` fixture has just emptied, with the foreign
keys' triggers off while the rows go in (they were consistent when saved).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from app.extensions import db


def save() -> Any:
    db.session.commit()
    if db.engine.dialect.name == "sqlite":
        return _save_sqlite()
    return _save_postgresql()


def restore(saved: Any) -> None:
    db.session.remove()
    if db.engine.dialect.name == "sqlite":
        _restore_sqlite(saved)
    else:
        _restore_postgresql(saved)
    db.engine.dispose()  # no pooled connection holds a view of the database before the copy


def _save_sqlite() -> sqlite3.Connection:
    copy = sqlite3.connect(":memory:", check_same_thread=False)
    raw = db.engine.raw_connection()
    try:
        raw.driver_connection.backup(copy)  # type: ignore[union-attr]
    finally:
        raw.close()
    return copy


def _restore_sqlite(saved: sqlite3.Connection) -> None:
    db.engine.dispose()
    raw = db.engine.raw_connection()
    try:
        saved.backup(raw.driver_connection)  # type: ignore[arg-type]
    finally:
        raw.close()


def _save_postgresql() -> tuple[list[tuple[str, bytes]], list[tuple[str, int, bool]]]:
    raw = db.engine.raw_connection()
    try:
        cur = raw.driver_connection.cursor()  # type: ignore[union-attr]
        tables: list[tuple[str, bytes]] = []
        for table in db.metadata.sorted_tables:
            with cur.copy(f'COPY "{table.name}" TO STDOUT') as copy:
                tables.append((table.name, b"".join(bytes(chunk) for chunk in copy)))
        names = cur.execute("SELECT quote_ident(relname) FROM pg_class WHERE relkind = 'S'")
        sequences = []
        for (name,) in names.fetchall():
            last, called = cur.execute(f"SELECT last_value, is_called FROM {name}").fetchone()
            sequences.append((name, last, called))
        raw.driver_connection.rollback()  # type: ignore[union-attr]
    finally:
        raw.close()
    return tables, sequences


def _restore_postgresql(saved: tuple[list[tuple[str, bytes]], list[tuple[str, int, bool]]]) -> None:
    tables, sequences = saved
    raw = db.engine.raw_connection()
    try:
        conn = raw.driver_connection
        cur = conn.cursor()  # type: ignore[union-attr]
        cur.execute("SET LOCAL session_replication_role = replica")  # no FK triggers meanwhile
        for name, data in tables:
            if data:
                with cur.copy(f'COPY "{name}" FROM STDIN') as copy:
                    copy.write(data)
        for name, last, called in sequences:
            cur.execute("SELECT setval(%s, %s, %s)", (name, last, called))
        conn.commit()  # type: ignore[union-attr]
    finally:
        raw.close()
