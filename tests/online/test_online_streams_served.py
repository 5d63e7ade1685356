"""Live streams on a real gunicorn with its stock gevent worker (gunicorn.conf.py's default,
chosen explicitly here with WEB_WORKER_CLASS=gevent): many seat pages hold a stream open on two workers, a move made by
another process (this test's own app, on the same database) reaches every one of them — on
PostgreSQL through NOTIFY, across processes as across servers — and the workers go on answering
other requests meanwhile."""

from __future__ import annotations

import http.client
import threading
import time
import urllib.request

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from app.extensions import db
from app.services.live.bus import CHANNEL
from app.services.live.streams import RECHECK_LISTENING_S
from tests.app.served import Served
from tests.online.online_helpers import online_world, page_token
from tests.online.test_online_spectate import _to_seat_zero
from tests.online.test_online_tables import _choose

STREAMS = 60


def _wait_for_listeners(app: Flask, count: int, timeout: float = 30.0) -> None:
    """Until ``count`` connections hold this database's LISTEN (at most one per worker)."""
    query = text(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND query ILIKE :listen"
    )
    deadline = time.monotonic() + timeout
    while True:
        with app.app_context():
            n = db.session.execute(query, {"listen": f"LISTEN {CHANNEL}%"}).scalar_one()
            db.session.rollback()
        if n >= count:
            return
        assert time.monotonic() < deadline, f"{n} of {count} workers listening"
        time.sleep(0.1)


def test_streams_on_gevent_workers_all_get_a_move_made_elsewhere(
    app: Flask, client: FlaskClient, db_backend: str
) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    player = app.test_client()
    url = f"/play/{ow.seats()[0].token}"
    html = _to_seat_zero(ow, player, url)
    other = ow.seats()[2].token
    shown = page_token(app.test_client().get(f"/play/{other}").get_data(as_text=True))
    served = Served(str(app.config["SQLALCHEMY_DATABASE_URI"]), env={"WEB_WORKER_CLASS": "gevent"})
    served.start()
    got: list[float] = []
    ready = threading.Barrier(STREAMS + 1)
    lock = threading.Lock()

    def listen() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
        try:
            conn.request("GET", f"/play/{other}/stream?v={shown}")
            r = conn.getresponse()
            assert r.status == 200 and r.getheader("Content-Type", "").startswith(
                "text/event-stream"
            )
            assert r.readline().startswith(b"retry:")
            ready.wait(timeout=60)
            while True:
                line = r.readline()
                if not line:
                    return
                if line.startswith(b"event: seat"):
                    with lock:
                        got.append(time.monotonic())
                    return
        finally:
            conn.close()

    threads = [threading.Thread(target=listen, daemon=True) for _ in range(STREAMS)]
    try:
        for th in threads:
            th.start()
        ready.wait(timeout=60)  # every stream is open (and subscribed) on the two workers
        if db_backend == "postgresql":
            # a worker starts listening with its first stream: once one is, give the other a
            # moment (60 streams may also all have landed on one worker)
            _wait_for_listeners(app, 1)
            time.sleep(1.0)
        started = time.monotonic()
        with urllib.request.urlopen(served.base + "/account/login", timeout=5) as r:
            assert r.status == 200  # the workers still answer pages while holding the streams
        answered = time.monotonic() - started
        started = time.monotonic()
        assert player.post(url, data=_choose(ow, html)).status_code == 303
        for th in threads:
            th.join(timeout=20)
    finally:
        served.stop()
    assert len(got) == STREAMS
    slowest = max(got) - started
    # PostgreSQL: pushed the moment the move commits (with LISTEN in force a stream's own check
    # comes only every RECHECK_LISTENING_S = 15 s, so anything well under that was the bus; the
    # figure itself is bench/push.py's, on a machine not busy with other tests); SQLite (no
    # cross-process announcement): found by each stream's own check, as often as a poll
    assert slowest < (RECHECK_LISTENING_S / 3 if db_backend == "postgresql" else 4.0), slowest
    assert answered < 1.0, answered
    print(f"{STREAMS} streams on 2 gevent workers, {db_backend}: slowest {slowest * 1000:.0f} ms")
