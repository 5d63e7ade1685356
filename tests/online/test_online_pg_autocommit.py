"""PostgreSQL: what only reads runs in autocommit (app/db.py ``configure_postgresql``), what
writes in a transaction: a seat's page and polls send no BEGIN; a move reads in autocommit and
writes within its deal as one statement committed on its own (``app.db.write_alone``), and a
move that ends its deal writes inside one transaction. SQLite keeps its own BEGIN (app/db.py
``configure_sqlite``)."""

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
def test_reads_run_in_autocommit_and_a_move_writes_one_statement_or_a_transaction(
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
    # a move within its deal: its reads in autocommit, and its write one statement committed on
    # its own (the deal row's compare and swap, which checks the table and its seats, and the
    # INSERT of its entries: no BEGIN, no COMMIT); then its answer, read
    assert [kind for kind, _auto in move_sql] == ["SELECT", "WITH", "SELECT"], move_sql
    assert all(auto for _kind, auto in move_sql), move_sql

    # the move that ends the deal writes more (the score sheet, the next deal): a transaction
    while True:
        html = player.get(url).get_data(as_text=True)
        assert "Your turn." in html, html[:2000]
        data = _choose(ow, html)
        with sent() as move_sql:
            r = player.post(url, data=data, headers=HTMX)
        assert r.status_code == 200, r.get_data(as_text=True)[:2000]
        if ow.deals()[-1].outcome is not None:
            break
        assert [kind for kind, _auto in move_sql] == ["SELECT", "WITH", "SELECT"], move_sql
    writes = [auto for kind, auto in move_sql if kind in ("INSERT", "UPDATE", "WITH")]
    assert writes and not any(writes), move_sql  # every write inside one transaction
    assert move_sql[0] == ("SELECT", True), move_sql  # its reads before it without one

    with sent() as director_sql:  # a plain POST (the director pauses the table): a transaction
        r = client.post(ow.table_url + "/pause", data={"paused": "1"})
    assert r.status_code in (200, 303), r.get_data(as_text=True)[:1000]
    assert director_sql and not any(auto for _kind, auto in director_sql), director_sql
