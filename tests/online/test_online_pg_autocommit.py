"""PostgreSQL: what only reads runs in autocommit (app/db.py ``configure_postgresql``), what
writes in a transaction: a seat's page and polls send no BEGIN, and a move reads in
autocommit, then writes its check, UPDATE and INSERT inside one transaction (row lock and
compare-and-swap as before). SQLite keeps its own BEGIN (app/db.py ``configure_sqlite``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from app.extensions import db
from tests.online.online_helpers import online_world, page_token
from tests.online.test_online_tables import _choose

HTMX = {"HX-Request": "true"}


@contextmanager
def sent() -> Iterator[list[tuple[str, bool]]]:
    """Each statement SQLAlchemy sends meanwhile, with whether its connection was in
    autocommit."""
    got: list[tuple[str, bool]] = []

    def note(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        got.append(
            (statement.split(None, 1)[0].upper(), conn.connection.driver_connection.autocommit)
        )

    event.listen(db.engine, "before_cursor_execute", note)
    try:
        yield got
    finally:
        event.remove(db.engine, "before_cursor_execute", note)


@pytest.mark.postgresql_only("PostgreSQL's own: SQLite's transactions are app/db.py's BEGIN")
def test_reads_run_in_autocommit_and_a_move_writes_in_a_transaction(
    app: Flask, client: Any, db_backend: str
) -> None:
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    with sent() as page_sql:
        html = player.get(url).get_data(as_text=True)
        changed = player.get(f"{url}/poll?v=0.0", headers=HTMX)
    assert changed.status_code == 200
    assert page_sql and all(auto for _kind, auto in page_sql), page_sql

    data = _choose(ow, html)
    with sent() as move_sql:
        r = player.post(url, data=data, headers=HTMX)
    assert r.status_code == 200, r.get_data(as_text=True)[:2000]
    assert page_token(r.get_data(as_text=True)) != page_token(html)
    writes = [auto for kind, auto in move_sql if kind in ("INSERT", "UPDATE")]
    assert writes and not any(writes), move_sql  # every write inside a transaction
    assert any(auto for kind, auto in move_sql if kind == "SELECT")  # its reads without one
    first_write = next(i for i, (kind, _a) in enumerate(move_sql) if kind in ("INSERT", "UPDATE"))
    # the check before the write (the row's version, under its lock) is in the same transaction
    assert move_sql[first_write - 1][1] is False, move_sql

    with sent() as director_sql:  # a plain POST (the director pauses the table): a transaction
        r = client.post(ow.table_url + "/pause", data={"paused": "1"})
    assert r.status_code in (200, 303), r.get_data(as_text=True)[:1000]
    assert director_sql and not any(auto for _kind, auto in director_sql), director_sql
