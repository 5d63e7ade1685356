"""The cache of rebuilt deals and the move's two transactions: a cached deal is exactly the deal
its log replays to, a snapshot another worker has moved past is not served, two racing moves
on one version leave one move and no gap in the log, and a move holds SQLite's write lock only
while it appends (not while it replays, computes the bots' replies or renders the answer)."""

from __future__ import annotations

import dataclasses
import random
import re
import sqlite3
import threading
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event, select

from app.extensions import db
from app.models import OnlineAction, Table, utcnow
from app.services.online import bridge, cache, tokens
from engine.bots import HeuristicBot
from engine.cards import cards_str
from engine.deal import Deal
from engine.views import seat_view
from tests.online.online_helpers import (
    OnlineWorld,
    form,
    moves,
    online_world,
    page_token,
    replay_row,
)
from tests.online.test_online_tables import _choose
from tests.sqlite_lock import write_lock_held

PLAYERS = {"tractor-4p": 4, "red-five-5p": 5, "one-twenty-6p": 6}


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.CACHE.clear()


def _dump(x: Any, seen: set[int] | None = None) -> Any:
    """Every attribute of an engine object, recursively, as comparable plain data."""
    seen = set() if seen is None else seen
    if isinstance(x, int | str | float | type(None)):
        return x
    if isinstance(x, list | tuple):
        return [type(x).__name__] + [_dump(e, seen) for e in x]
    if isinstance(x, dict):
        return {k: _dump(v, seen) for k, v in x.items()}
    if isinstance(x, random.Random):
        return x.getstate()
    if id(x) in seen:
        return "<seen>"
    seen.add(id(x))
    if dataclasses.is_dataclass(x):
        fields = {f.name: getattr(x, f.name) for f in dataclasses.fields(x)}
    else:
        fields = dict(vars(x))
    return (type(x).__name__, {k: _dump(v, seen) for k, v in fields.items()})


def _same_deal(a: Deal, b: Deal) -> None:
    assert _dump(a) == _dump(b)
    for s in range(a.n):
        assert seat_view(a, s) == seat_view(b, s)


def _table(ow: OnlineWorld) -> Table:
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None
    return tab


def _page(player: Any, url: str) -> str:
    html = player.get(url).get_data(as_text=True)
    html = re.sub(r'name="csrf_token" value="[^"]+"', "", html)  # signed with the time
    return re.sub(r'"X-CSRFToken": "[^"]+"', "", html)


def _no_gaps(ow: OnlineWorld) -> None:
    for d in ow.deals():
        assert [a.seq for a in d.actions] == list(range(1, d.version + 1))


@pytest.mark.parametrize("variant", ["tractor-4p", "red-five-5p", "one-twenty-6p"])
def test_the_cached_deal_is_the_replayed_deal_after_every_move(
    app: Flask, client, variant: str
) -> None:
    ow = online_world(client, variant, deals=1)
    ow.bots(*range(1, PLAYERS[variant]))
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    made = 0
    while True:
        hits, replays = cache.CACHE.hits, cache.CACHE.replays
        cached = _page(player, url)
        assert cache.CACHE.replays == replays and cache.CACHE.hits == hits + 1  # no replay
        # the same page from a fresh replay of the log
        cache.CACHE.clear()
        assert _page(player, url) == cached
        assert cache.CACHE.replays == 1
        # and the very same engine state, attribute for attribute
        row = ow.deals()[-1]
        live = bridge.load(_table(ow))
        assert live is not None and live.row.id == row.id
        _same_deal(live.deal, replay_row(row))
        assert live.entries == [dict(a.record) for a in row.actions]
        if "The match is over." in cached:
            break
        r = player.post(url, data=_choose(ow, cached), headers={"HX-Request": "true"})
        assert r.status_code == 200, r.get_data(as_text=True)[:2000]
        # the answer to the move is rendered from the move's own result, without a replay
        assert 'id="seat"' in r.get_data(as_text=True)
        made += 1
        assert made < 300
    assert ow.deals()[-1].outcome == "played"
    _no_gaps(ow)


def _to_play(ow: OnlineWorld, player: Any, url: str) -> str:
    for _ in range(80):
        html = player.get(url).get_data(as_text=True)
        if "play" in moves(html):
            return html
        assert player.post(url, data=_choose(ow, html)).status_code == 303
    raise AssertionError("seat 0 never had to play")


def _append_elsewhere(app: Flask, ow: OnlineWorld) -> int:
    """Another worker (its own connection) appends seat 0's play and commits: the version."""
    from sqlalchemy import create_engine

    from app.models import OnlineAction, OnlineDeal

    row = ow.deals()[-1]
    deal = replay_row(row)
    cards = HeuristicBot(3).choose_play(deal, 0)
    rec = deal.play(0, cards).to_json()
    other = create_engine(app.config["SQLALCHEMY_DATABASE_URI"])
    try:
        with other.begin() as con:
            con.execute(
                OnlineAction.__table__.insert().values(
                    deal_id=row.id,
                    seq=row.version + 1,
                    record=rec,
                    actor="seat 0",
                    created_at=utcnow(),
                )
            )
            con.execute(
                OnlineDeal.__table__.update()
                .where(OnlineDeal.__table__.c.id == row.id)
                .values(version=row.version + 1)
            )
    finally:
        other.dispose()
    return row.version + 1


def test_a_snapshot_another_worker_moved_past_is_not_served(app: Flask, client) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    html = _to_play(ow, player, url)
    version = ow.deals()[-1].version
    assert re.search(rf'data-token="1\.{version}\.s3"', html)  # three seats handed to bots
    assert cache.CACHE.get(ow.deals()[-1].id).version == version  # type: ignore[union-attr]
    # another worker appends seat 0's play: this process's snapshot is one entry behind
    now = _append_elsewhere(app, ow)
    forward = cache.CACHE.forward
    page = _page(player, url)
    assert re.search(rf'data-token="1\.{now}\.s3"', page) and "Your turn." not in page
    assert cache.CACHE.forward == forward + 1  # rebuilt from the snapshot and the new entry
    _same_deal(bridge.load(_table(ow)).deal, replay_row(ow.deals()[-1]))  # type: ignore[union-attr]
    cache.CACHE.clear()
    assert _page(player, url) == page


def _twice_at_once(target: Any) -> None:
    """Run ``target`` in two threads at once (two workers, or a worker's two greenlets)."""
    threads = [threading.Thread(target=target) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)


def test_pages_woken_together_rebuild_a_new_version_once(app: Flask, client) -> None:
    """Two pages of one process read the same new version at once (a move made on the other
    server wakes both streams of the table here): the first rebuilds it from the snapshot, the
    second waits for it and finds it rebuilt, instead of reading the entries and rebuilding
    it again."""
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    _to_play(ow, player, url)
    _append_elsewhere(app, ow)
    second_waits = threading.Event()
    original_flight, original_entries = cache._flight, cache._entries
    arrivals: list[int] = []

    def flight(deal_id: int) -> threading.Lock:
        arrivals.append(deal_id)
        if len(arrivals) == 2:
            second_waits.set()  # the second page is about to wait for the first's rebuild
        return original_flight(deal_id)

    def entries(deal_id: int, after: int, upto: int) -> list[tuple[int, dict[str, Any]]]:
        assert second_waits.wait(10), "the second page never came to rebuild the deal"
        return original_entries(deal_id, after, upto)

    pages: list[str] = []

    def look() -> None:
        with app.app_context():  # a thread of its own, as a worker's two stream greenlets
            pages.append(app.test_client().get(url).get_data(as_text=True))

    forward = cache.CACHE.forward
    cache._flight, cache._entries = flight, entries  # type: ignore[assignment]
    try:
        _twice_at_once(look)
    finally:
        cache._flight, cache._entries = original_flight, original_entries  # type: ignore[assignment]
    db.session.rollback()
    assert len(arrivals) == 2
    assert cache.CACHE.forward == forward + 1  # one rebuild for both pages
    version = ow.deals()[-1].version
    assert len(pages) == 2
    for page in pages:
        assert re.search(rf'data-token="1\.{version}\.s3"', page), page[:500]
    _same_deal(bridge.load(_table(ow)).deal, replay_row(ow.deals()[-1]))  # type: ignore[union-attr]


def test_a_snapshot_that_does_not_fit_the_row_falls_back_to_the_replay(app: Flask, client) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    fresh = _page(player, url)
    row = ow.deals()[-1]
    snap = cache.CACHE.get(row.id)
    assert snap is not None and snap.version == row.version
    wrong = replay_row(row)
    wrong.hands[0] = wrong.hands[1][:]  # a state the log does not give
    # a snapshot ahead of the row (a version this row never reached, e.g. rolled back) ...
    cache.CACHE.clear()
    cache.CACHE.put(dataclasses.replace(snap, version=row.version + 5, deal=wrong))
    assert _page(player, url) == fresh and cache.CACHE.replays == 1
    # ... or of another deal under the same id (a row deleted and dealt again)
    cache.CACHE.clear()
    cache.CACHE.put(dataclasses.replace(snap, seed=snap.seed + 1, deal=wrong))
    assert _page(player, url) == fresh and cache.CACHE.replays == 1
    # a log that does not reach the row's version is replayed, not patched over, nor kept
    cache.CACHE.clear()
    cache.CACHE.put(dataclasses.replace(snap, version=row.version - 3, deal=wrong))
    db.session.execute(
        OnlineAction.__table__.delete().where(  # type: ignore[attr-defined]
            OnlineAction.deal_id == row.id, OnlineAction.seq == row.version
        )
    )
    db.session.commit()
    _page(player, url)
    assert cache.CACHE.forward == 0 and cache.CACHE.replays == 1
    assert cache.CACHE.get(row.id) is None


def _race(app: Flask, url: str, data: dict[str, Any], at: str) -> list[int]:
    """Post the same move twice at once; both wait at ``at`` until both have computed it."""
    barrier = threading.Barrier(2, timeout=20)
    original = getattr(bridge, at)

    def wait_then(*args: Any, **kwargs: Any) -> Any:
        barrier.wait()
        return original(*args, **kwargs)

    statuses: list[int] = []

    def post() -> None:
        with app.app_context():  # a thread of its own, as a second worker
            r = app.test_client().post(url, data=data, headers={"HX-Request": "true"})
        statuses.append(r.status_code)

    setattr(bridge, at, wait_then)
    try:
        _twice_at_once(post)
    finally:
        setattr(bridge, at, original)
    db.session.rollback()  # the test's own reads start afresh (SQLite: a new snapshot)
    return sorted(statuses)


@pytest.mark.sqlite_only(
    "SQLite's write lock held by a raw connection (tests/app/test_app_concurrency.py races on both)"
)
def test_two_racing_moves_on_one_version_one_wins_the_other_is_stale(app: Flask, client) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    html = _to_play(ow, player, url)
    move = _choose(ow, html)
    before = ow.deals()[-1].version
    # both requests have read version `before` and computed the move and the bots' replies
    assert _race(app, url, move, "begin_write") == [200, 409]
    _no_gaps(ow)
    row = ow.deals()[-1]
    mine = [a for a in row.actions if a.seq > before and a.actor == "seat 0"]
    assert len(mine) == 1 and mine[0].seq == before + 1
    _same_deal(bridge.load(_table(ow)).deal, replay_row(row))  # type: ignore[union-attr]
    # the loser's page shows where the game is now
    assert (
        tokens.deal_part(page_token(player.get(url).get_data(as_text=True))) == f"1.{row.version}"
    )


def _write_elsewhere(app: Flask) -> None:
    """A write by another worker that must not wait (0.2 s busy timeout)."""
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    con = sqlite3.connect(path, timeout=0.2, isolation_level=None)
    try:
        con.execute("BEGIN IMMEDIATE")
        con.execute("UPDATE clubs SET name = name || '.'")
        con.execute("COMMIT")
    finally:
        con.close()


@pytest.mark.sqlite_only("SQLite's BEGIN IMMEDIATE write lock")
def test_a_move_holds_the_write_lock_only_while_it_appends(app: Flask, client) -> None:
    from app.services.online import pages

    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    html = _to_play(ow, player, url)
    writes: list[str] = []
    real_write, real_page = bridge.begin_write, pages.seat_page

    def computed(session: Any) -> bool:
        _write_elsewhere(app)  # the move has read and computed: no lock is held yet
        writes.append("while computing")
        return real_write(session)

    def rendering(seat: Any) -> dict[str, Any]:
        page = real_page(seat)
        _write_elsewhere(app)  # the move is written: its answer is rendered without the lock
        writes.append("while rendering")
        return page

    bridge.begin_write = computed  # type: ignore[assignment]
    pages.seat_page = rendering  # type: ignore[assignment]
    try:
        r = player.post(url, data=_choose(ow, html), headers={"HX-Request": "true"})
    finally:
        bridge.begin_write = real_write
        pages.seat_page = real_page
    # another worker's unrelated write in between does not make the move stale
    assert r.status_code == 200, r.get_data(as_text=True)[:2000]
    assert writes == ["while computing", "while rendering"]
    _no_gaps(ow)


def test_an_unchanged_poll_is_one_query(app: Flask, client, db_backend: str) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    token = page_token(player.get(url).get_data(as_text=True))
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement if statement.startswith("BEGIN") else statement.split()[0])

    poll_row = tokens._poll_row
    rows: list[Any] = []

    def spied(seat_token: str) -> Any:
        rows.append(poll_row(seat_token))
        return rows[-1]

    event.listen(db.engine, "before_cursor_execute", seen)
    tokens._poll_row = spied  # type: ignore[assignment]
    try:
        assert player.get(f"{url}/poll?v={token}").status_code == 204
    finally:
        event.remove(db.engine, "before_cursor_execute", seen)
        tokens._poll_row = poll_row  # type: ignore[assignment]
    # no ORM session, no BEGIN, no write lock, no deal, no hand: the state token's one row,
    # read on a DBAPI connection of its own
    assert statements == []
    assert len(rows) == 1 and f"{rows[0][0]}.{rows[0][1]}.s{rows[0][3]}" == token
    # a changed state answers the fragment; a link that is no seat is a 404
    assert player.get(f"{url}/poll?v=0.0").status_code == 200
    assert player.get("/play/no-such-seat/poll?v=1.0").status_code == 404


@pytest.mark.sqlite_only("a write failed through SQLite's file lock")
def test_a_failed_write_leaves_nothing_in_the_cache(app: Flask, client) -> None:
    """A move whose write is rolled back (here: the round was closed meanwhile) must not leave
    its result in the cache: the next page is the log's state."""
    from app.models import Round

    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    html = _to_play(ow, player, url)
    version = ow.deals()[-1].version
    real_write = bridge.begin_write

    def close_meanwhile(session: Any) -> bool:
        path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
        con = sqlite3.connect(path, timeout=5, isolation_level=None)
        con.execute("UPDATE rounds SET status = 'closed' WHERE id = ?", (ow.rnd.id,))
        con.close()
        return real_write(session)

    bridge.begin_write = close_meanwhile  # type: ignore[assignment]
    try:
        r = player.post(url, data=_choose(ow, html), headers={"HX-Request": "true"})
    finally:
        bridge.begin_write = real_write
    assert r.status_code == 409 and "moved on" in r.get_data(as_text=True)
    assert ow.deals()[-1].version == version
    snap = cache.CACHE.get(ow.deals()[-1].id)
    assert snap is not None and snap.version == version
    db.session.expire_all()
    assert db.session.get(Round, ow.rnd.id).status == "closed"  # type: ignore[union-attr]
    page = player.get(url).get_data(as_text=True)
    assert tokens.deal_part(page_token(page)) == f"1.{version}"
    cards = cards_str(replay_row(ow.deals()[-1]).hands[0])
    assert all(f'value="{c}"' in page for c in cards)
    r = player.post(url, data=form(page_token(page), "play", cards[:1]))
    assert r.status_code == 422 and "closed" in r.get_data(as_text=True)


@pytest.mark.sqlite_only("SQLite's BEGIN / BEGIN IMMEDIATE statements")
def test_a_read_first_request_reads_then_takes_the_lock_then_reads_again(app: Flask) -> None:
    from app.db import begin_write, read_first, reads_only
    from app.models import Club

    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    db.session.add(Club(name="Lock club", slug="lock-club"))
    db.session.commit()
    db.session.remove()
    seen: list[tuple[str, bool, bool]] = []

    def note(what: str) -> None:
        seen.append((what, write_lock_held(path), reads_only()))

    @read_first
    def view() -> None:
        session = db.session()
        session.scalar(select(Club.id))
        note("computing")
        assert begin_write(session) is True
        assert begin_write(session) is False  # already writing
        club = session.scalar(select(Club).where(Club.slug == "lock-club"))
        assert club is not None
        note("writing")
        club.name = "Locked club"
        session.commit()
        session.scalar(select(Club.id))
        note("answering")
        session.rollback()

    with app.test_request_context("/", method="POST"):
        view()
    assert seen == [
        ("computing", False, False),
        ("writing", True, False),
        ("answering", False, True),
    ]
    assert db.session.scalar(select(Club.name).where(Club.slug == "lock-club")) == "Locked club"
    db.session.remove()

    @read_first
    def careless() -> None:
        session = db.session()
        club = session.scalar(select(Club).where(Club.slug == "lock-club"))
        assert club is not None
        club.name = "Unlocked"
        session.flush()  # a write computed on a read that may be stale: refused

    with app.test_request_context("/", method="POST"), pytest.raises(RuntimeError):
        careless()
    db.session.remove()
    assert db.session.scalar(select(Club.name).where(Club.slug == "lock-club")) == "Locked club"


def test_acting_on_a_deal_loaded_to_be_read_fails_and_forgets_it(app: Flask, client) -> None:
    """A GET never writes (the deal it loads is the cache's own object): should code acting on
    the deal run in one, it fails at once and the cache is emptied, so no page shows what it
    changed."""
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    html = _to_play(ow, player, url)
    row = ow.deals()[-1]
    assert cache.CACHE.get(row.id) is not None
    with app.test_request_context(url):  # a GET
        tab = _table(ow)
        live = bridge.load(tab)
        assert live is not None and live.cached and live.deal is cache.CACHE.get(row.id).deal  # type: ignore[union-attr]
        kind, _seat, cards = HeuristicBot(5).act(live.deal, 0)
        live.deal.play(0, cards)
        with pytest.raises(RuntimeError):
            live.add({"kind": kind, "seat": 0, "cards": cards_str(cards)}, "seat 0")
    assert len(cache.CACHE) == 0
    db.session.rollback()
    # a command borrowing a GET context for its translations acts on a copy of its own
    from app.db import write_transaction

    with app.test_request_context(url), write_transaction():
        mine = bridge.load(_table(ow))
        assert mine is not None and not mine.cached
        assert mine.deal is not cache.CACHE.get(row.id).deal  # type: ignore[union-attr]
        db.session.rollback()
    assert page_token(player.get(url).get_data(as_text=True)) == page_token(html)
    _same_deal(bridge.load(_table(ow)).deal, replay_row(ow.deals()[-1]))  # type: ignore[union-attr]


def test_polls_answer_the_503_page_when_no_connection_can_be_opened(
    app: Flask, client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database down (a PostgreSQL server stopped: no new connection opens): a seat's poll
    and the public live poll, answered in front of Flask from one row, answer the 503 page as
    every other page does, never a bare 500."""
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    token = page_token(player.get(url).get_data(as_text=True))
    engine = db.engine
    db.session.remove()
    engine.dispose()  # no pooled connection left: the next request must open one

    def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise engine.dialect.loaded_dbapi.OperationalError("connection refused")

    monkeypatch.setattr(engine.pool, "connect", refused)
    for path in (f"{url}/poll?v={token}", f"{url}/poll?v=0.0", "/p/" + "x" * 22 + "/live?v=3"):
        r = player.get(path, headers={"Accept-Language": "en"})
        assert r.status_code == 503, (path, r.status_code)
        assert "cannot reach its database" in r.get_data(as_text=True)
        assert r.headers.get("Retry-After") == "5"
    monkeypatch.undo()
    assert player.get(f"{url}/poll?v={token}").status_code == 204  # back by itself


def test_a_rounds_first_seat_page_reads_every_online_tables_names_at_once(
    app: Flask, client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When a round's pages first open (and after each deal recorded anywhere bumps the
    tournament's version) every table misses its names and sheet: the first miss reads them
    for all the round's online tables, so the next table's page reads no seating of its own."""
    from app.services.online import pages
    from app.services.tournaments.rows import seat_names

    ow = online_world(client, "tractor-4p", tables=2)
    other = next(x for x in ow.rnd.tables if x.kind != "bye" and x.id != ow.tab.id)
    second = dataclasses.replace(ow, tab=other)
    assert client.post(second.table_url).status_code == 303
    first_seat, other_seat = ow.seats()[0], second.seats()[2]
    pages._SHEETS.clear()
    player = app.test_client()
    assert player.get(f"/play/{first_seat.token}").status_code == 200
    kept = {key[-1]: hit for key, hit in pages._SHEETS.items()}
    assert set(kept) == {ow.tab.id, other.id}
    want_sides, want_names = seat_names(_table(second))
    assert (kept[other.id][0], kept[other.id][1]) == (want_sides, want_names)

    def no_second_read(_tab: Table) -> Any:
        raise AssertionError("the table's names were read again")

    monkeypatch.setattr(pages, "seat_names", no_second_read)
    html = player.get(f"/play/{other_seat.token}").get_data(as_text=True)
    assert want_names[2] in html and want_names[0] in html
