"""The live pages' unchanged polls, answered in front of Flask.

A seat's page polls every two seconds and a projector's standings every three, and nearly
every poll finds nothing new: most of a night's requests, each answered ``204`` from one
indexed row (``app.db.OneRow``). Flask's own path around that row (the request context, the URL
map, the session, the hooks, the response object) cost ten times the row, so this WSGI
middleware answers exactly that case itself, with the headers Flask's view sends
(``app.web.security_headers``, ``Cache-Control: no-store``, the same content type and ``Vary``):

* ``GET /play/<seat link>/poll?v=<state>``: a guest seat's poll (``tokens.seat_state_token``);
* ``GET /p/<public link>/live?v=<version>``: the public standings' live poll
  (``visibility.public_version``).

Everything else goes on to Flask unchanged: any other path or method, a query with anything but
``v``, a link or state that is not plain URL-safe text, a state that changed (the fresh partial
is a page render), an unknown link (Flask's 404 page) and a database error (Flask's 503 page). A
seat's changed poll hands the state it read to the view (``SEAT_STATE``), so it is not read
twice. A shortcut reads no session and writes none: a login's lifetime counts from the login,
not from its last request (``app/services/sessions.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError

from .services import visibility
from .services.online import tokens
from .web import security_headers

# where a seat's state read here waits for the poll view (no client can set a WSGI key like it)
SEAT_STATE = "shengji.seat_poll_state"

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def _public_state(token: str) -> str | None:
    version = visibility.public_version(token)
    return None if version is None else str(version)


@dataclass(frozen=True)
class Poll:
    """One poll the shortcut answers: its path (the link in group 1), its ``v``, how its state
    is read (None: no such link), and the WSGI key that hands the state read to the view."""

    path: re.Pattern[str]
    shown: re.Pattern[str]
    state: Callable[[str], str | None]
    hand_on: str | None = None


POLLS = (
    Poll(
        re.compile(r"/play/([A-Za-z0-9_-]{1,40})/poll"),
        re.compile(r"v=([A-Za-z0-9._-]{1,40})"),
        tokens.seat_state_token,
        SEAT_STATE,
    ),
    Poll(
        re.compile(r"/p/([A-Za-z0-9_-]{1,40})/live"), re.compile(r"v=([0-9]{1,18})"), _public_state
    ),
)


class PollShortcut:
    """Answers an unchanged poll with ``204``; hands every other request on."""

    def __init__(self, app: Flask, wsgi_app: WSGIApp) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self._headers: list[tuple[str, str]] | None = None

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET":
            path = environ.get("PATH_INFO", "")
            for poll in POLLS:
                link = poll.path.fullmatch(path)
                if link is None:
                    continue
                shown = poll.shown.fullmatch(environ.get("QUERY_STRING", ""))
                if shown is None:
                    break
                with self.app.app_context():
                    try:
                        now = poll.state(link[1])
                    except SQLAlchemyError:
                        break  # Flask's path meets the same error and answers its 503 page
                if now == shown[1]:
                    start_response("204 NO CONTENT", list(self._answer_headers()))
                    return []
                if poll.hand_on is not None:
                    environ[poll.hand_on] = now
                break
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
    app.wsgi_app = PollShortcut(app, app.wsgi_app)  # type: ignore[method-assign]
