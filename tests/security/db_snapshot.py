"""Proof that a refused request changed nothing: every row of every table, before and after.

    before = snapshot()
    ... the attack ...
    assert snapshot() == before

or ``with unchanged(): ...`` for the same. The login attempts and the server-side sessions are
left out (logging in, and a refused login, add rows there by design); ``skip`` leaves out more.
Works on both databases (rows are read through SQLAlchemy and sorted by their ``repr``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import select

from app.extensions import db

NOT_COMPARED = frozenset({"login_attempts", "user_sessions"})


def snapshot(skip: frozenset[str] = frozenset()) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table except the login attempts and sessions (and ``skip``)."""
    db.session.expire_all()
    rows: dict[str, list[tuple[Any, ...]]] = {}
    for table in db.metadata.sorted_tables:
        if table.name in NOT_COMPARED or table.name in skip:
            continue
        rows[table.name] = sorted(
            (tuple(row) for row in db.session.execute(select(table)).all()), key=repr
        )
    db.session.rollback()  # no read transaction left open for the requests that follow
    return rows


@contextmanager
def unchanged(skip: frozenset[str] = frozenset()) -> Iterator[None]:
    """Assert that the block changes no row (the failure names the tables that changed)."""
    before = snapshot(skip)
    yield
    after = snapshot(skip)
    assert after == before, [name for name in before if before[name] != after[name]]


def changes(
    before: dict[str, list[tuple[Any, ...]]], skip: frozenset[str] = frozenset()
) -> dict[str, tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]]:
    """What changed since ``before``: per changed table, (rows removed, rows added); a row
    updated in place is one of each."""
    after = snapshot(skip)
    out = {}
    for name, rows in after.items():
        old = before.get(name, [])
        if rows != old:
            out[name] = ([r for r in old if r not in rows], [r for r in rows if r not in old])
    return out
