"""The guest seat poll's shortcut in front of Flask (app/poll_shortcut.py): an unchanged
poll answers 204 with exactly the headers Flask's own poll sends, without reaching Flask;
every other request (a changed state, an unknown link, an odd query, a database error) is
Flask's to answer, with Flask's page."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from sqlalchemy.exc import OperationalError

from app.poll_shortcut import PollShortcut
from app.services.online import tokens
from tests.online.online_helpers import online_world, page_token

HTMX = {"HX-Request": "true"}


@contextmanager
def reaching_flask(app: Flask) -> Iterator[list[str]]:
    """The paths that went past the shortcut to Flask meanwhile."""
    shortcut = app.wsgi_app
    assert isinstance(shortcut, PollShortcut)
    inner = shortcut.wsgi_app
    reached: list[str] = []

    def counted(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        reached.append(environ["PATH_INFO"] + "?" + environ.get("QUERY_STRING", ""))
        return inner(environ, start_response)

    shortcut.wsgi_app = counted
    try:
        yield reached
    finally:
        shortcut.wsgi_app = inner


def _seat_page(app: Flask, client: Any) -> tuple[str, str, Any]:
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    page = player.get(url)
    assert page.status_code == 200
    return url, page_token(page.get_data(as_text=True)), player


def test_the_unchanged_poll_is_answered_before_flask_with_flasks_headers(
    app: Flask, client: Any
) -> None:
    url, v, player = _seat_page(app, client)
    with reaching_flask(app) as reached:
        fast = player.get(f"{url}/poll?v={v}", headers=HTMX)
    assert fast.status_code == 204 and fast.data == b""
    assert reached == []
    with reaching_flask(app) as reached:  # a query Flask's view reads the same, but not plain
        slow = player.get(f"{url}/poll?v={v}&_=1", headers=HTMX)
    assert slow.status_code == 204
    assert reached == [f"{url}/poll?v={v}&_=1"]
    assert sorted(fast.headers.items()) == sorted(slow.headers.items())
    assert fast.headers["Cache-Control"] == "no-store"
    assert fast.headers["X-Frame-Options"] == "DENY"
    assert "Set-Cookie" not in fast.headers


def test_behind_https_the_shortcut_sends_hsts_like_flask(app: Flask, client: Any) -> None:
    url, v, player = _seat_page(app, client)
    app.config["SESSION_COOKIE_SECURE"] = True
    shortcut = app.wsgi_app
    assert isinstance(shortcut, PollShortcut)
    shortcut._headers = None  # headers are built once per app: as at start-up behind HTTPS
    try:
        fast = player.get(f"{url}/poll?v={v}", headers=HTMX)
        slow = player.get(f"{url}/poll?v={v}&_=1", headers=HTMX)
    finally:
        app.config["SESSION_COOKIE_SECURE"] = False
        shortcut._headers = None
    assert fast.status_code == slow.status_code == 204
    assert fast.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert sorted(fast.headers.items()) == sorted(slow.headers.items())


def test_everything_else_is_flasks_to_answer(app: Flask, client: Any) -> None:
    url, v, player = _seat_page(app, client)
    with reaching_flask(app) as reached:
        changed = player.get(f"{url}/poll?v=0.0", headers=HTMX)
        unknown = player.get("/play/not-a-seat-link/poll?v=1.1", headers=HTMX)
        nul = player.get(f"{url}/poll?v={v}%00", headers=HTMX)
        head = player.head(f"{url}/poll?v={v}", headers=HTMX)
        post = player.post(f"{url}/poll?v={v}", headers=HTMX)
    # the changed poll gets the seat's fresh partial, showing the state it read
    assert changed.status_code == 200 and page_token(changed.get_data(as_text=True)) == v
    assert unknown.status_code == 404 and "<html" in unknown.get_data(as_text=True).lower()
    assert nul.status_code == 400  # the NUL character page, as for any other URL
    assert head.status_code == 204
    assert post.status_code == 405
    assert len(reached) == 5


def test_a_database_error_gets_flasks_503_page(app: Flask, client: Any) -> None:
    url, v, player = _seat_page(app, client)
    poll_row = tokens._poll_row

    def away(_token: str) -> Any:
        raise OperationalError("SELECT", {}, Exception("the database is away"))

    tokens._poll_row = away  # type: ignore[assignment]
    try:
        with reaching_flask(app) as reached:
            r = player.get(f"{url}/poll?v={v}", headers=HTMX)
    finally:
        tokens._poll_row = poll_row
    assert reached == [f"{url}/poll?v={v}"]
    assert r.status_code == 503
    assert "Back in a moment" in r.get_data(as_text=True)
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert player.get(f"{url}/poll?v={v}", headers=HTMX).status_code == 204  # back by itself
