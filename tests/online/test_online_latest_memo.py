"""A seat's query brings its table's latest deal and seats (``seats.seat_by_token``), and
``bridge.latest`` answers from that within the same transaction, with no query of its own.
The memo must never outlive what it read: a write in the transaction (a flush, a DML
statement), its commit or its rollback forget it, and ``latest`` reads the database again."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import delete, select, update

from app.db import lock_for_update
from app.extensions import db
from app.models import OnlineAction, OnlineDeal, OnlineSeat, Table
from app.services.online import bridge, seats
from tests.online.online_helpers import online_world
from tests.online.test_online_queries import counting


def _open(app: Flask, token: str) -> tuple[OnlineSeat, Table]:
    db.session.remove()
    s = seats.seat_by_token(token)
    assert s is not None
    tab = db.session.get(Table, s.table_id)
    assert tab is not None
    return s, tab


def test_latest_comes_with_the_seat_and_matches_a_fresh_read(app: Flask, client) -> None:
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(1, 2, 3)
    token = ow.seats()[0].token
    with app.test_request_context(f"/play/{token}"):
        _s, tab = _open(app, token)
        with counting() as sql:
            got = bridge.latest(tab)
        assert sql == []  # read with the seat
        assert got is not None
        row, humans, levels = got
        assert row.id == ow.deals()[-1].id
        assert humans == frozenset({0})
        assert levels == {0: "normal", 1: "normal", 2: "normal", 3: "normal"}
        db.session.remove()


def test_a_write_or_the_transactions_end_forgets_the_latest_deal(app: Flask, client) -> None:
    ow = online_world(client, "tractor-4p", deals=1)
    token = ow.seats()[0].token
    with app.test_request_context(f"/play/{token}", method="POST"):
        # a flush of a changed object
        _s, tab = _open(app, token)
        row = bridge.latest(tab)[0]  # type: ignore[index]
        before = row.version
        row.version = before + 1
        db.session.flush()
        with counting() as sql:
            again = bridge.latest(tab)
        assert len(sql) == 1 and again is not None and again[0].version == before + 1
        db.session.rollback()

        # a change not flushed yet: the query flushes it first, as without the memo
        _s, tab = _open(app, token)
        row = bridge.latest(tab)[0]  # type: ignore[index]
        row.version = row.version + 1
        with counting() as sql:
            again = bridge.latest(tab)
        assert any(q.startswith("UPDATE online_deals") for q in sql), sql
        assert again is not None and again[0].version == row.version
        db.session.rollback()

        # a DML statement through the session
        _s, tab = _open(app, token)
        bridge.latest(tab)
        db.session.execute(
            update(OnlineSeat).where(OnlineSeat.table_id == tab.id, OnlineSeat.seat == 2),
            {"bot": True},
        )
        with counting() as sql:
            again = bridge.latest(tab)
        assert len(sql) == 1 and again is not None and 2 not in again[1]
        db.session.rollback()

        # a row lock: what is read after it is the committed state
        _s, tab = _open(app, token)
        bridge.latest(tab)
        lock_for_update(tab)
        with counting() as sql:
            bridge.latest(tab)
        assert any("FROM online_deals" in q for q in sql), sql
        db.session.rollback()

        # the end of the transaction
        for end in (db.session.commit, db.session.rollback):
            _s, tab = _open(app, token)
            end()
            with counting() as sql:
                bridge.latest(tab)
            assert any("FROM online_deals" in q for q in sql), (end, sql)
        db.session.remove()


def test_the_seat_query_sees_a_table_without_a_deal_and_a_bot_level(app: Flask, client) -> None:
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(3)
    token = ow.seats()[0].token
    with app.test_request_context(f"/play/{token}", method="POST"):
        _s, tab = _open(app, token)
        db.session.execute(
            update(OnlineSeat).where(OnlineSeat.table_id == tab.id, OnlineSeat.seat == 3),
            {"bot_level": "strong"},
        )
        db.session.commit()
        _s, tab = _open(app, token)
        got = bridge.latest(tab)
        assert got is not None
        assert got[1] == frozenset({0, 1, 2}) and got[2][3] == "strong"
        deals = select(OnlineDeal.id).where(OnlineDeal.table_id == tab.id)
        db.session.execute(delete(OnlineAction).where(OnlineAction.deal_id.in_(deals)))
        db.session.execute(delete(OnlineDeal).where(OnlineDeal.table_id == tab.id))
        db.session.commit()
        _s, tab = _open(app, token)
        with counting() as sql:
            assert bridge.latest(tab) is None  # no deal yet: known from the seat's query
        assert sql == []
        db.session.remove()
