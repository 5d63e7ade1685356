"""The guest seat poll's shortcut: ``GET /play/<token>/poll?v=<state>`` answered beside Flask.

A seat's page polls every few seconds and nearly every poll finds nothing new: a night's
most frequent request, answered ``204`` from one indexed row (``bridge.seat_state_token``).
Flask's own path around that row (the request context, the URL map, the session, the hooks,
the response object) cost more than the row itself, so this WSGI middleware answers exactly
that case itself, with the headers Flask would have sent (``app.web.security_headers``,
``Cache-Control: no-store``, the same content type and ``Vary``). Everything else goes on to
Flask unchanged: any other path or method, a query with anything but ``v``, a token or state
that is not plain URL-safe text, a state that changed (the seat's fresh partial is a page
render), an unknown link (Flask's 404 page) and a database error (Flask's 503 page). A poll
reads no session and writes none: a login's lifetime counts from the login, not from its
last request (``app/services/sessions.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError

from ..services.online import bridge
from ..web import security_headers

_PATH = re.compile(r"/play/([A-Za-z0-9_-]{1,40})/poll")
_QUERY = re.compile(r"v=([A-Za-z0-9._-]{1,40})")

# where the state read here waits for the poll view (no client can set a WSGI key of this form)
STATE_KEY = "shengji.seat_poll_state"
READ_FAILED = object()

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class SeatPollShortcut:
    """Answers a guest seat's unchanged poll with ``204``; hands every other request on."""

    def __init__(self, app: Flask, wsgi_app: WSGIApp) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self._headers: list[tuple[str, str]] | None = None

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET":
            path = _PATH.fullmatch(environ.get("PATH_INFO", ""))
            query = _QUERY.fullmatch(environ.get("QUERY_STRING", ""))
            if path is not None and query is not None:
                now: object
                with self.app.app_context():
                    try:
                        now = bridge.seat_state_token(path[1])
                    except SQLAlchemyError:
                        now = READ_FAILED  # Flask's path meets the same error: its 503 page
                if now == query[1]:
                    start_response("204 NO CONTENT", list(self._answer_headers()))
                    return []
                if now is not READ_FAILED:  # the poll view answers from it (not read twice)
                    environ[STATE_KEY] = now
        return self.wsgi_app(environ, start_response)

    def _answer_headers(self) -> list[tuple[str, str]]:
        if self._headers is None:
            self._headers = [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Cache-Control", "no-store"),
                ("Vary", "Cookie"),
                *security_headers(self.app.config),
            ]
        return self._headers


def install(app: Flask) -> None:
    """Put the shortcut in front of the app's WSGI callable."""
    app.wsgi_app = SeatPollShortcut(app, app.wsgi_app)  # type: ignore[method-assign]
