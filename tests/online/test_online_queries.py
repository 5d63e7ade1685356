"""How many SQL statements a seat's requests send (a regression guard, not a timing): a page
during a deal, the unchanged poll (the one query of its state token), a changed poll and a
move (read the seat and the deal, append with a compare and swap that checks the table, render
the answer).
Each figure is the one measured when the seat page's queries were gathered; a change that adds
a query per request makes this fail (bench/online_roundtrip.py measures the time)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from sqlalchemy import event
from sqlalchemy.engine.default import CacheStats

from app.extensions import db
from app.models import Table
from app.services.online import bridge, tokens
from tests.online.online_helpers import online_world, page_token
from tests.online.test_online_tables import _choose

# the seat with its table, round and tournament, the table's latest deal and its seats
PAGE = 1
UNCHANGED_POLL = 1  # the state token (on a DBAPI connection of its own: no BEGIN)
CHANGED_POLL = 2  # the state token, then the page
MOVE = 5  # STREAMED_MOVE, then the page (1)
# a move from a page whose live stream is open: its answer names the state it made, known from
# its write (no query of its own), and draws no page (the stream does). SQLite: the seat with
# the deal; under the write lock the deal row's compare and swap (which checks the table and
# its seats), the INSERT of the entries, the deal row read again for the cache. PostgreSQL: the
# seat with the deal, then the swap and the INSERT as one statement committed on its own
# (tests/online/test_online_pg_autocommit.py)
STREAMED_MOVE = {"sqlite": 4, "postgresql": 2}
# PostgreSQL announces the move to the live streams from its UPDATE (the deal rows' trigger):
# no pg_notify statement of the move's own
HTMX = {"HX-Request": "true"}


@contextmanager
def counting(uncached: list[str] | None = None) -> Iterator[list[str]]:
    """The statements sent meanwhile (transaction control left out: SQLite's BEGIN is a
    statement here, PostgreSQL's driver sends its own). ``uncached`` gathers those SQLAlchemy
    could not keep compiled (no cache key: compiled anew at every call)."""
    sent: list[str] = []

    def count(
        _conn: Any, _cursor: Any, statement: str, _params: Any, context: Any, _m: Any
    ) -> None:
        if statement.split(None, 1)[0].upper() in ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH"):
            sent.append(statement)
            if uncached is not None and context.cache_hit is CacheStats.NO_CACHE_KEY:
                uncached.append(statement)

    engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    poll_row = tokens._poll_row

    def counted_poll_row(token: str) -> Any:  # its one SELECT, on a DBAPI connection of its own
        sent.append(tokens._poll_sql(engine.dialect)[0])
        return poll_row(token)

    tokens._poll_row = counted_poll_row
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", count)
        tokens._poll_row = poll_row


def test_a_seats_requests_send_few_queries(app: Flask, client, db_backend: str) -> None:
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    player.get(url)  # the first page reads the seating and the sheet: kept per version
    moved = 0
    while moved < 12:  # the draw, the call, the kitty and tricks: no move ends the deal
        with counting() as page_sql:
            page = player.get(url)
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert "Your turn." in html, html[:2000]
        assert len(page_sql) <= PAGE, page_sql
        v = page_token(html)
        with counting() as poll_sql:
            poll = player.get(f"{url}/poll?v={v}", headers=HTMX)
        assert poll.status_code == 204
        assert len(poll_sql) <= UNCHANGED_POLL, poll_sql
        with counting() as changed_sql:
            changed = player.get(f"{url}/poll?v=0.0", headers=HTMX)
        assert changed.status_code == 200 and page_token(changed.get_data(as_text=True)) == v
        assert len(changed_sql) <= CHANGED_POLL, changed_sql
        data = _choose(ow, html)
        with counting() as move_sql:
            r = player.post(url, data=data, headers=HTMX)
        assert r.status_code == 200, r.get_data(as_text=True)[:2000]
        assert page_token(r.get_data(as_text=True)) != v  # the answer shows the move made
        assert len(move_sql) <= MOVE, (data["kind"], move_sql)
        assert not any("pg_notify" in sql for sql in move_sql), move_sql
        moved += 1
    assert ow.deals()[-1].outcome is None  # every move counted was one within the deal


def test_a_move_with_its_stream_open_names_its_state_without_a_query(
    app: Flask, client, db_backend: str
) -> None:
    """The move's answer (204) names the state it made, as a poll right after reads it."""
    app.config["LIVE_STREAMS"] = True
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    for _ in range(6):
        html = player.get(url).get_data(as_text=True)
        assert "Your turn." in html, html[:2000]
        data = _choose(ow, html)
        uncached: list[str] = []
        with counting(uncached) as move_sql:
            r = player.post(url, data=data, headers={**HTMX, "X-Live-Stream": "open"})
        assert r.status_code == 204, r.get_data(as_text=True)[:2000]
        made = r.headers["X-Live-State"]
        assert made != page_token(html)
        assert len(move_sql) <= STREAMED_MOVE[db_backend], (data["kind"], move_sql)
        assert uncached == [], uncached  # each compiled once, not at every move
        poll = player.get(f"{url}/poll?v=0.0", headers=HTMX)
        assert page_token(poll.get_data(as_text=True)) == made
    assert ow.deals()[-1].outcome is None


# the user, the club, the member; the tournament, with whether it hosts a duplicate event's
# tables in the same statement (13 when that was a statement of its own); the round, the table;
# the watch token (seats, the deal, the round, the deal again, its last move, the state token)
WATCH_POLL = 12


def test_a_live_views_unchanged_poll_sends_few_queries(app: Flask, client) -> None:
    """A spectator's poll while nothing changed: the route's lookups and the watch token."""
    ow = online_world(client, "tractor-4p", deals=1)
    url = f"/clubs/{ow.club.slug}/tournaments/{ow.t.id}/rounds/1/tables/{ow.tab.number}/watch"
    html = client.get(url).get_data(as_text=True)
    v = re.search(r'id="watch"[^>]*data-token="([^"]+)"', html)
    assert v, html[:2000]
    with counting() as sql:
        poll = client.get(f"{url}/poll?v={v.group(1)}", headers=HTMX)
    assert poll.status_code == 204
    assert len(sql) <= WATCH_POLL, sql


def test_a_moves_state_is_read_again_when_more_waits_to_be_written(app: Flask, client) -> None:
    """The state a move made is named without a query only while nothing else is written in
    its transaction; a change waiting to be written (here a pause) is read as a query would."""
    ow = online_world(client, "tractor-4p", deals=1)
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None
    row = ow.deals()[-1]
    db.session.info[bridge._MADE] = (tab.id, row.number, row.version, tab.seats_version, False)
    assert tokens.table_state_token(tab.id) == f"{row.number}.{row.version}"
    tab.paused = True  # not flushed yet: the query flushes it first and reads it
    assert bridge.state_made(tab.id) is None
    assert tokens.table_state_token(tab.id).endswith("p")
    db.session.rollback()
