"""Two requests racing for the same write, on real concurrent connections (one thread each, its
own app context, session and database connection), on SQLite and on PostgreSQL.

Each racer is held at its first writing statement until the other has got there too, or for a
few seconds. On PostgreSQL both read the same state before either writes, so the
race is real and the app's own serialization must decide it: the online log's compare and swap
(an update of a version someone else took writes nothing), the score sheet's row lock (the second
entry waits, then sees the first). On SQLite, BEGIN IMMEDIATE already serializes every POST: the
second racer cannot even read until the first has committed.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from sqlalchemy import event, func, select
from sqlalchemy.engine import Engine

from app.extensions import db
from app.models import AuditEntry, OnlineAction, OnlineDeal, User
from app.models import Deal as DealRow
from engine.bots import HeuristicBot
from engine.cards import cards_str
from tests.online.online_helpers import form, moves, online_world, page_token, replay_row
from tests.tournaments.tournament_helpers import (
    add_entrants,
    create,
    fixed_deal,
    login,
    seat,
    sheet_url,
    world,
)

MEET_S = 60.0  # generous: where both racers must meet, a slow machine must not break it
SERIAL_S = 4.0  # where the database serializes, the first racer waits this long in vain


# a statement that writes: INSERT, UPDATE, DELETE, or a WITH that does (an online move's compare
# and swap with the INSERT of its entries, on PostgreSQL)
WRITES = re.compile(r"\s*(INSERT|UPDATE|DELETE|WITH\b.*\b(INSERT|UPDATE|DELETE)\b)", re.I | re.S)


class Race:
    """Runs one request per thread; each is held before its first write until all are there."""

    def __init__(self, app: Flask, n: int, timeout: float) -> None:
        self.app = app
        self.barrier = threading.Barrier(n, timeout=timeout)
        self.racers: set[int] = set()
        self.held: set[int] = set()
        self.met: list[bool] = []
        self.errors: list[BaseException] = []

    def _hold(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        me = threading.get_ident()
        if me not in self.racers or me in self.held or not WRITES.match(statement):
            return
        self.held.add(me)
        try:
            self.barrier.wait()
            self.met.append(True)
        except threading.BrokenBarrierError:
            self.met.append(False)

    @contextmanager
    def _listening(self) -> Iterator[None]:
        event.listen(Engine, "before_cursor_execute", self._hold)
        try:
            yield
        finally:
            event.remove(Engine, "before_cursor_execute", self._hold)

    def run(self, *requests: Callable[[], Any]) -> list[Any]:
        results: list[Any] = [None] * len(requests)

        def racer(i: int) -> None:
            self.racers.add(threading.get_ident())
            try:
                with self.app.app_context():
                    results[i] = requests[i]()
            except BaseException as error:  # reported by the test thread
                self.errors.append(error)

        with self._listening():
            threads = [threading.Thread(target=racer, args=(i,)) for i in range(len(requests))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=MEET_S * 2)
        assert not any(thread.is_alive() for thread in threads), "a racer never finished"
        assert not self.errors, self.errors
        return results


def _my_turn(client: Any, url: str) -> str:
    """Let the deal go on (continue / pass) until seat 0 must bury or play; its page."""
    for _ in range(60):
        html = client.get(url).get_data(as_text=True)
        offered = moves(html)
        if "play" in offered or "bury" in offered:
            return html
        kind = "continue" if "continue" in offered else "pass"
        assert kind in offered, offered
        assert client.post(url, data=form(page_token(html), kind)).status_code == 303
    raise AssertionError("seat 0 never had to play")


def _move(ow: Any, html: str) -> dict[str, Any]:
    """Seat 0's bury or play, as a bot would choose it, in the form its page sends."""
    kind, _seat, cards = HeuristicBot(7).act(replay_row(ow.deals()[-1]), 0)
    assert kind in moves(html), (kind, moves(html))
    return form(page_token(html), kind, cards_str(cards))


def _log(deal_id: int) -> tuple[int, list[int], list[str]]:
    db.session.rollback()  # a new transaction: SQLite would keep showing its old snapshot
    row = db.session.get(OnlineDeal, deal_id)
    assert row is not None
    rows = db.session.execute(
        select(OnlineAction.seq, OnlineAction.actor)
        .where(OnlineAction.deal_id == deal_id)
        .order_by(OnlineAction.seq)
    ).all()
    return row.version, [seq for seq, _a in rows], [actor for _s, actor in rows]


def test_two_racing_moves_on_one_version_one_wins(app: Flask, client: Any, db_backend: str):
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    first, second = app.test_client(), app.test_client()  # two devices on the same seat link
    html = _my_turn(first, url)
    move = _move(ow, html)
    assert second.get(url).get_data(as_text=True).count(move["v"]) >= 1  # both saw this state
    deal_id = ow.deals()[-1].id
    version, seqs, _actors = _log(deal_id)
    assert seqs == list(range(1, version + 1))

    race = Race(app, 2, MEET_S if db_backend == "postgresql" else SERIAL_S)
    answers = race.run(lambda: first.post(url, data=move), lambda: second.post(url, data=move))

    # PostgreSQL: both read the same version and wrote at once. SQLite: the second could not
    # begin its write until the first had committed, so each got to its write alone (the first
    # waited for the second in vain), and the second's compare and swap wrote nothing.
    assert race.met == ([True, True] if db_backend == "postgresql" else [False, False])
    codes = sorted(r.status_code for r in answers)
    assert codes == [303, 409], codes
    loser = next(r for r in answers if r.status_code == 409)
    assert "The game moved on meanwhile" in loser.get_data(as_text=True)
    now, seqs, actors = _log(deal_id)
    assert now > version
    assert seqs == list(range(1, now + 1))  # no gap, no duplicate
    assert actors[version:].count("seat 0") == 1  # the move was recorded once
    total = db.session.scalar(
        select(func.count(OnlineAction.id)).where(OnlineAction.deal_id == deal_id)
    )
    assert total == now


def test_two_score_entries_on_one_sheet_version_record_once(
    app: Flask, client: Any, db_backend: str
):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind == "sides")
    url = sheet_url(w.club, t, rnd, tab)
    first, second = app.test_client(), app.test_client()  # the director and a second phone
    login(first, w.director)
    login(second, w.director)
    for c in (first, second):
        assert 'name="seen" type="hidden" value="0"' in c.get(url).get_data(as_text=True)

    race = Race(app, 2, SERIAL_S)
    answers = race.run(
        lambda: first.post(url, data=fixed_deal(0, 60, seen="0")),
        lambda: second.post(url, data=fixed_deal(1, 85, seen="0")),
    )

    # both databases make the second entry wait for the first (PostgreSQL: the table's row
    # lock; SQLite: BEGIN IMMEDIATE): only the first got to a write, the second never did
    assert race.met == [False]
    codes = sorted(r.status_code for r in answers)
    assert codes == [303, 422], codes
    loser = next(r for r in answers if r.status_code == 422)
    assert "The sheet changed since you opened it: 1 deal was added (now 1 deal)" in loser.get_data(
        as_text=True
    )
    db.session.rollback()  # a new transaction: SQLite would keep showing its old snapshot
    deals = db.session.scalars(select(DealRow).where(DealRow.table_id == tab.id)).all()
    assert len(deals) == 1
    audits = db.session.scalars(
        select(AuditEntry.action).where(AuditEntry.tournament_id == t.id)
    ).all()
    assert list(audits).count("deal") == 1
    page = client.get(url).get_data(as_text=True)
    assert 'name="seen" type="hidden" value="1"' in page


def test_two_registrations_of_one_name_create_one_account(app: Flask, db_backend: str):
    """Check-then-insert: both check the name is free. On PostgreSQL both checks pass and the
    unique index refuses the second insert; that is a clear 409 (nothing saved, try again),
    never a server error. On SQLite the second waits and finds the name taken."""
    data = {
        "username": "same",
        "display_name": "Same Name",
        "password": "long enough pw",
        "confirm": "long enough pw",
    }
    first, second = app.test_client(), app.test_client()
    race = Race(app, 2, MEET_S if db_backend == "postgresql" else SERIAL_S)
    answers = race.run(
        lambda: first.post("/account/register", data=data),
        lambda: second.post("/account/register", data=data, headers={"Accept-Language": "zh"}),
    )
    assert race.met == ([True, True] if db_backend == "postgresql" else [False])
    codes = sorted(r.status_code for r in answers)
    loser = next(r for r in answers if r.status_code != 302).get_data(as_text=True)
    if db_backend == "postgresql":
        assert codes == [302, 409], codes
        assert "Nothing of yours was saved" in loser or "你的修改没有保存" in loser
    else:
        assert codes == [302, 422], codes
    db.session.rollback()
    assert db.session.scalars(select(User.username)).all() == ["same"]
