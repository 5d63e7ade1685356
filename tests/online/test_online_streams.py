"""The seat page's live stream (server-sent events): a move made at one seat reaches another
seat's open stream the moment it is committed — announced by the bus (PostgreSQL's NOTIFY, or
in-process on SQLite), not found by the stream's periodic check, which these tests push out of
reach; a replaced link's stream says so and ends; with streams off the page polls and the
stream's address is a 404."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.services.live import bus, streams
from tests.online.online_helpers import online_world, page_token
from tests.online.test_online_spectate import _to_seat_zero
from tests.online.test_online_tables import _choose


class Reader:
    """Opens a stream and reads its chunks in a thread of its own: the request and the
    iteration of its streamed body in one thread, as a server does (the body's generator
    carries the request's context only in the thread that began it)."""

    def __init__(self, app: Flask, url: str, logged_in: FlaskClient | None = None) -> None:
        self.got: queue.Queue[str] = queue.Queue()
        self.opened: queue.Queue[tuple[int, str, str]] = queue.Queue()
        self._app, self._url = app, url
        self._cookies = [] if logged_in is None else list(logged_in._cookies.values())
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            # a plain client: the suite's IsolatedClient runs each request in a context of its
            # own, which a body read after the request returned would no longer be in
            reader = FlaskClient(self._app)
            for c in self._cookies:  # the same login as the test's client
                reader.set_cookie(c.key, c.value, domain=c.domain)
            response = reader.get(self._url, buffered=False)
            self.opened.put(
                (response.status_code, response.mimetype, response.headers.get("Cache-Control", ""))
            )
            for chunk in response.response:
                self.got.put(chunk.decode() if isinstance(chunk, bytes) else chunk)
        finally:
            self.got.put("<end>")

    def next_event(self, timeout: float) -> str:
        """The next chunk that is an event (heartbeats skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no event in time")
            chunk = self.got.get(timeout=left)
            if chunk.startswith("event:") or chunk == "<end>":
                return chunk


READERS: list[Reader] = []


@pytest.fixture(autouse=True)
def short_streams(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Streams end by themselves within seconds, and each test waits for its own to end before
    its database goes."""
    monkeypatch.setattr(streams, "LIFETIME_S", 4.0)
    yield
    while READERS:
        READERS.pop().thread.join(timeout=15)


@pytest.fixture
def no_recheck(monkeypatch: pytest.MonkeyPatch) -> None:
    """The streams' own periodic check out of reach: only the bus can wake them in time."""
    monkeypatch.setattr(streams, "RECHECK_LOCAL_S", 60.0)
    monkeypatch.setattr(streams, "RECHECK_LISTENING_S", 60.0)


def _open(app: Flask, url: str) -> Reader:
    reader = Reader(app, url)
    READERS.append(reader)
    assert reader.opened.get(timeout=10) == (200, "text/event-stream", "no-store")
    first = reader.got.get(timeout=10)
    assert first.startswith("retry:")  # the stream has subscribed before it said anything
    return reader


def _listening(db_backend: str) -> None:
    if db_backend == "postgresql":
        assert bus.HUB.listening.wait(10), "the process never LISTENed"


def test_a_move_reaches_another_seats_stream_at_once(
    app: Flask, client: FlaskClient, db_backend: str, no_recheck: None
) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    player = app.test_client()
    url = f"/play/{ow.seats()[0].token}"
    html = _to_seat_zero(ow, player, url)
    other = ow.seats()[2].token  # a bot's seat: its page shows the table as that seat sees it
    shown = page_token(app.test_client().get(f"/play/{other}").get_data(as_text=True))
    reader = _open(app, f"/play/{other}/stream?v={shown}")
    _listening(db_backend)
    started = time.monotonic()
    assert player.post(url, data=_choose(ow, html)).status_code == 303
    got = reader.next_event(timeout=5)
    took = time.monotonic() - started
    assert got.startswith("event: seat\n"), got[:200]
    assert took < 2.0, took  # the move, the bots' answers and the push: far below the check
    lines = got.splitlines()
    assert all(line.startswith("data: ") for line in lines[1:] if line)
    data = "\n".join(line.removeprefix("data: ") for line in lines[1:])
    assert 'id="seat"' in data and page_token(data) != shown
    assert 'id="hand"' in data  # the seat's own view, rendered for that seat alone


def test_a_replaced_links_stream_says_so_and_ends(
    app: Flask, client: FlaskClient, db_backend: str, no_recheck: None
) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    token = ow.seats()[0].token
    shown = page_token(app.test_client().get(f"/play/{token}").get_data(as_text=True))
    reader = _open(app, f"/play/{token}/stream?v={shown}")
    _listening(db_backend)
    assert client.post(ow.table_url + "/rotate", data={"seat": 0}).status_code in (302, 303)
    got = reader.next_event(timeout=5)
    assert got.startswith("event: seat\n") and "new link" in got  # swapped in place of the seat
    assert 'id="hand"' not in got
    assert reader.next_event(timeout=5).startswith("event: gone\n")  # the page closes it
    assert reader.next_event(timeout=5) == "<end>"


def test_with_streams_off_the_page_polls(app: Flask, client: FlaskClient) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    token = ow.seats()[0].token
    on = app.test_client().get(f"/play/{token}").get_data(as_text=True)
    assert f'sse-connect="/play/{token}/stream?v=' in on and "htmx-ext-sse.js" in on
    assert 'hx-trigger="every 2s"' in on  # the fallback, used while no stream is open
    app.config["LIVE_STREAMS"] = False
    off = app.test_client().get(f"/play/{token}").get_data(as_text=True)
    assert "sse-connect" not in off and "htmx-ext-sse.js" not in off
    assert 'hx-trigger="every 2s"' in off
    assert app.test_client().get(f"/play/{token}/stream").status_code == 404


def test_the_spectators_and_the_directors_live_views_are_pushed_too(
    app: Flask, client: FlaskClient, db_backend: str, no_recheck: None
) -> None:
    from app.extensions import db
    from app.models import Table
    from app.services.online import tokens

    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    player = app.test_client()
    url = f"/play/{ow.seats()[0].token}"
    html = _to_seat_zero(ow, player, url)
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None
    shown = tokens.watch_token(tab)
    watch = ow.table_url.removesuffix("/online") + "/watch"
    page = client.get(watch).get_data(as_text=True)
    assert f'sse-connect="{watch}/stream?v=' in page and 'sse-swap="watch"' in page
    director_page = client.get(ow.table_url).get_data(as_text=True)
    assert f'sse-connect="{ow.table_url}/live/stream?v=' in director_page
    readers = [
        Reader(app, f"{watch}/stream?v={shown}", client),
        Reader(app, f"{ow.table_url}/live/stream?v={shown}", client),
    ]
    for r in readers:
        READERS.append(r)
        assert r.opened.get(timeout=10)[:2] == (200, "text/event-stream")
        assert r.got.get(timeout=10).startswith("retry:")
    _listening(db_backend)
    assert player.post(url, data=_choose(ow, html)).status_code == 303
    watched, directed = (r.next_event(timeout=3) for r in readers)
    assert watched.startswith("event: watch\n") and 'id="watch"' in watched
    assert directed.startswith("event: live\n") and 'id="director-live"' in directed
    assert 'id="hand"' not in watched + directed  # never a hand


def test_a_stream_ends_quietly_when_the_database_goes_away(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, no_recheck: None
) -> None:
    """A stream whose next read fails ends (no traceback, no half event): the page polls and
    reopens it, and the reopened stream answers the 503 page until the database is back."""
    from sqlalchemy.exc import OperationalError

    from app.services.online import tokens

    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    token = ow.seats()[0].token
    shown = page_token(app.test_client().get(f"/play/{token}").get_data(as_text=True))
    reader = _open(app, f"/play/{token}/stream?v={shown}")

    def away(*_a: object) -> str:
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    monkeypatch.setattr(tokens, "seat_state_token", away)
    bus.HUB.deliver([bus.topic(ow.tab.id)])  # the stream wakes and reads
    assert reader.next_event(timeout=5) == "<end>"
    reopened = app.test_client()
    monkeypatch.setattr(
        "app.services.online.seats.seat_by_token", lambda _t: away()
    )  # the page's own read fails too now
    r = reopened.get(f"/play/{token}/stream?v={shown}", headers={"Accept-Language": "en"})
    assert r.status_code == 503 and "cannot reach its database" in r.get_data(as_text=True)


def test_the_projector_standings_are_pushed_when_a_result_is_recorded(
    app: Flask, client: FlaskClient, db_backend: str, no_recheck: None
) -> None:
    """A public night's projector opens the standings' stream; a deal typed on a paper sheet
    bumps the night's version and the new standings arrive at once."""
    from app.extensions import db
    from app.models import Tournament
    from tests.tournaments.tournament_helpers import (
        add_entrants,
        create,
        login,
        seat,
        world,
    )

    w = world()
    login(client, w.director)
    t = create(client, w.club, rounds=1, pairing="round-robin")
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    r = client.post(
        f"/clubs/{w.club.slug}/tournaments/{t.id}/visibility", data={"visibility": "public"}
    )
    assert r.status_code in (302, 303)
    db.session.expire_all()
    t = db.session.get(Tournament, t.id)
    assert t is not None and t.public_token
    page = app.test_client().get(f"/p/{t.public_token}?projector=1").get_data(as_text=True)
    assert f'sse-connect="/p/{t.public_token}/stream?v={t.version}"' in page
    reader = _open(app, f"/p/{t.public_token}/stream?v={t.version}")
    _listening(db_backend)
    sheet = f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/{rnd.number}/tables/1"
    form = client.get(sheet).get_data(as_text=True)
    import re as _re

    seen = _re.search(r'name="seen" value="([^"]*)"', form)
    version = _re.search(r'name="seen_version" value="([^"]*)"', form)
    data = {"declarer": 0, "trump": "S", "points": 60, "kitty": 0}
    if seen:
        data["seen"] = seen.group(1)
    if version:
        data["seen_version"] = version.group(1)
    r = client.post(sheet, data=data)
    assert r.status_code in (200, 303), r.get_data(as_text=True)[:1000]
    got = reader.next_event(timeout=3)
    assert got.startswith("event: standings\n") and 'id="standings-live"' in got


def test_a_move_from_a_page_with_its_stream_open_is_answered_by_the_stream(
    app: Flask, client: FlaskClient, db_backend: str, no_recheck: None
) -> None:
    """The page says its stream is open (static/live.js): the move's answer is empty and names
    the state it made, and the seat's own stream brings that state — drawn once, not twice.
    Without the header, or with streams off, the answer is the seat's partial as before."""
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    player = app.test_client()
    url = f"/play/{ow.seats()[0].token}"
    html = _to_seat_zero(ow, player, url)
    reader = _open(app, f"{url}/stream?v={page_token(html)}")
    _listening(db_backend)
    live = {"HX-Request": "true", streams.OPEN_HEADER: "open"}
    answer = player.post(url, data=_choose(ow, html), headers=live)
    assert answer.status_code == 204 and answer.get_data() == b""
    made = answer.headers["X-Live-State"]
    assert made and made != page_token(html)
    seen: list[str] = []
    while made not in seen:  # the stream brings the state the move made
        got = reader.next_event(timeout=5)
        assert got.startswith("event: seat\n"), got[:200]
        pushed = "\n".join(line.removeprefix("data: ") for line in got.splitlines()[1:])
        seen.append(page_token(pushed))
    assert 'id="hand"' in pushed
    # a page without its stream open (polling, or the header absent) gets the partial
    html = _to_seat_zero(ow, player, url)
    plain = player.post(url, data=_choose(ow, html), headers={"HX-Request": "true"})
    assert plain.status_code == 200 and 'id="seat"' in plain.get_data(as_text=True)
    # streams off: the header is not believed (no stream could bring the state)
    app.config["LIVE_STREAMS"] = False
    html = _to_seat_zero(ow, player, url)
    off = player.post(url, data=_choose(ow, html), headers=live)
    assert off.status_code == 200 and 'id="seat"' in off.get_data(as_text=True)


def test_a_members_bound_seat_stream_is_pushed_too(
    app: Flask, client: FlaskClient, db_backend: str, no_recheck: None
) -> None:
    """The member's own stream, woken by the bus, reads the seat once and draws it as that
    member's page (its addresses, never a link); once a bot plays another seat it draws the
    new state (the state token says who plays the seats)."""
    from tests.online.test_online_binding import _bound, _client_of

    b = _bound(client)
    pete = _client_of(app, b.w.player)
    shown = page_token(pete.get(b.my_url()).get_data(as_text=True))
    reader = Reader(app, f"{b.my_url()}/stream?v={shown}", logged_in=pete)
    READERS.append(reader)
    assert reader.opened.get(timeout=10) == (200, "text/event-stream", "no-store")
    assert reader.got.get(timeout=10).startswith("retry:")
    _listening(db_backend)
    other = next(i for i in range(4) if i != b.pete_seat)
    b.ow.bots(other)  # who plays a seat changed: the token's ".s<n>"
    got = reader.next_event(timeout=5)
    assert got.startswith("event: seat\n"), got[:200]
    data = "\n".join(line.removeprefix("data: ") for line in got.splitlines()[1:])
    assert 'id="seat"' in data and page_token(data) != shown and ".s" in page_token(data)
    assert f'hx-post="{b.my_url()}"' in data and "/play/" not in data
