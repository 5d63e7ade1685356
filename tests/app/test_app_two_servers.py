"""Beyond one machine, shown: two app servers (separate gunicorn masters with the gevent
worker, on two ports) behind a real load balancer (Debian's HAProxy), one PostgreSQL. A move
made through server A reaches a seat whose stream is on server B at once (NOTIFY); then server A
is killed mid-night and its streams reconnect through the balancer to B, and the next move
reaches every one of them, with nothing lost or doubled in the table's log."""

from __future__ import annotations

import os
import time

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.extensions import db
from app.models import OnlineAction
from tests.app.balancer import Balancer, haproxy
from tests.app.served import Browser, Served
from tests.app.sse_client import Stream
from tests.online.online_helpers import OnlineWorld, moves, online_world, page_token
from tests.online.test_online_tables import _choose

pytestmark = pytest.mark.postgresql_only("two servers share one PostgreSQL database")

GEVENT = {"WEB_WORKER_CLASS": "gevent"}


@pytest.fixture
def need_haproxy() -> None:
    if haproxy() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("HAProxy is not installed: make test installs it (Debian's haproxy)")
        pytest.skip("HAProxy is not installed here: `make test` installs it (Debian's haproxy)")


def _to_play(ow: OnlineWorld, player: Browser, url: str) -> str:
    """Seat 0's moves through ``player``'s server until it must play cards; that page."""
    for _ in range(80):
        page = player.get(url).body
        if "play" in moves(page):
            return page
        r = player.post(url, _choose(ow, page))
        assert r.status == 303, (r.status, r.body[:300])
    raise AssertionError("seat 0 never had to play")


def _log_is_whole(ow: OnlineWorld) -> list[OnlineAction]:
    """Every deal's entries numbered 1…n, none missing, none twice."""
    out = []
    for row in ow.deals():
        seqs = [a.seq for a in sorted(row.actions, key=lambda a: a.seq)]
        assert seqs == list(range(1, len(seqs) + 1)), seqs
        out.extend(row.actions)
    return out


def test_two_servers_behind_a_balancer(
    app: Flask, client: FlaskClient, db_backend: str, need_haproxy: None
) -> None:
    ow = online_world(client, "tractor-4p", deals=4)
    ow.bots(1, 2, 3)
    url = str(app.config["SQLALCHEMY_DATABASE_URI"])
    a = Served(url, workers=1, env=GEVENT)
    b = Served(url, workers=1, env=GEVENT)
    a.start()
    b.start()
    lb = Balancer([a.port, b.port])
    lb.start()
    streams: list[Stream] = []
    seat0 = f"/play/{ow.seats()[0].token}"
    watched = f"/play/{ow.seats()[2].token}"
    try:
        # a move made through A reaches a stream on B
        via_a = Browser(a.base)
        page = _to_play(ow, via_a, seat0)
        shown = page_token(Browser(b.base).get(watched).body)
        on_b = Stream(b.base, watched + "/stream", shown).start()
        streams.append(on_b)
        assert on_b.ready.wait(10)
        time.sleep(0.5)  # B's LISTEN connection is in force (opened with its first stream)
        started = time.monotonic()
        assert via_a.post(seat0, _choose(ow, page)).status == 303
        now = page_token(Browser(a.base).get(watched).body)
        assert now != shown
        arrived = on_b.wait_for(now, timeout=5)
        assert arrived is not None, on_b.events
        assert arrived - started < 1.0, arrived - started

        # six streams through the balancer (three on each server), then A is killed
        through = [Stream(lb.base, watched + "/stream", now).start() for _ in range(6)]
        streams.extend(through)
        assert all(s.ready.wait(10) for s in through)
        player = Browser(lb.base)
        page = _to_play(ow, player, seat0)
        before = len(_log_is_whole(ow))
        a.kill()  # SIGKILL: its streams break, HAProxy takes it out at its next check
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(s.opened >= 1 for s in through):
            time.sleep(0.05)
        time.sleep(1.5)  # the broken streams have reconnected, through the balancer, to B
        assert sum(s.opened for s in through) >= 6 + 2, [s.opened for s in through]
        r = player.post(seat0, _choose(ow, page))  # through the balancer: B answers
        assert r.status == 303, (r.status, r.body[:300])
        final = page_token(player.get(watched).body)
        for s in through:
            assert s.wait_for(final, timeout=5) is not None, (s.opened, s.errors, s.events)
        after = _log_is_whole(ow)
        mine = [x for x in after[before:] if x.actor == "seat 0"]
        assert len(mine) == 1  # the move made once is in the log once
    finally:
        for s in streams:
            s.stop()
        lb.stop()
        a.stop()
        b.stop()
        db.session.rollback()
