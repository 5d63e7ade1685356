"""Server-sent event streams of live pages (htmx's SSE extension swaps each event in).

A stream knows one page: the topics that may change it, how to read its state token (one row,
as the page's poll reads it) and how to render its partial. It sends the partial whenever the
token differs from what the page last got — woken by the bus the moment a table changes, and
besides every ``recheck`` seconds (a missed announcement, several processes on one SQLite file),
with a comment line as a heartbeat so proxies keep the connection. No database connection is
held between two reads. A stream ends after ``lifetime`` seconds (the browser reconnects by
itself, to whichever server the balancer picks) or when the page's state is gone.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Iterator

from sqlalchemy.exc import SQLAlchemyError

from ...extensions import db
from .bus import HUB

log = logging.getLogger(__name__)
RECHECK_LOCAL_S = 2.0  # SQLite, or no LISTEN in force: read the token as often as a poll
RECHECK_LISTENING_S = 15.0  # PostgreSQL listening: the bus says when; this is a safety net
LIFETIME_S = 300.0
# sent by static/live.js with a request made from inside a live part whose stream is open: the
# stream will bring the change the request makes, so an answer may leave the part as it is
OPEN_HEADER = "X-Live-Stream"


def event(name: str, data: str) -> str:
    """One server-sent event: every line of ``data`` is a ``data:`` line (joined at once: a
    seat's partial is a few hundred lines, sent to every seat at every move)."""
    lines = data.splitlines() or [""]
    return f"event: {name}\ndata: " + "\ndata: ".join(lines) + "\n\n"


# a page's state and how to draw it from what that one read loaded (``stream``'s ``read``)
Read = tuple[str | None, Callable[[], str]]


def stream(
    topics: Iterable[str],
    state: Callable[[], str | None],
    render: Callable[[], str],
    shown: str,
    *,
    name: str,
    gone: Callable[[], str] | None = None,
    lifetime: float | None = None,
    read: Callable[[], Read] | None = None,
) -> Iterator[str]:
    """The events of one page: ``name`` with the fresh partial whenever ``state()`` differs from
    what was last sent (``shown`` at first); when it becomes None, ``gone()``'s page as
    ``name`` then a ``gone`` event (the page closes its stream on it), and the end.

    ``read`` (optional): the state and the partial's drawing from one read of the database,
    used when the bus woke the stream — its table changed, so the partial is almost always
    drawn, and reading the state apart first would cost a query more each time. The cheap
    ``state()`` still answers the first look and the periodic checks, which mostly find no
    change; ``read``'s drawing is called only when its state differs from what was sent."""
    sub = HUB.subscribe(topics)
    ends = time.monotonic() + (LIFETIME_S if lifetime is None else lifetime)
    last = shown
    woken = False
    try:
        yield "retry: 2000\n\n"
        while True:
            try:
                if read is not None and woken:
                    now, draw = read()
                    page = draw() if now is not None and now != last else ""
                else:
                    now = state()
                    page = render() if now is not None and now != last else ""
            except SQLAlchemyError:  # the database went away: end quietly; the page polls
                log.warning("live stream ended: the database is unavailable")
                return  # (and reopens the stream, which answers the 503 page until it is back)
            if now is None:
                if gone is not None:
                    yield event(name, gone())
                yield event("gone", "")
                return
            if now != last:
                last = now
                yield event(name, page)
            db.session.remove()  # nothing held while waiting
            left = ends - time.monotonic()
            if left <= 0:
                return
            recheck = RECHECK_LISTENING_S if HUB.listening.is_set() else RECHECK_LOCAL_S
            woken = sub.wait(min(recheck, left))
            if time.monotonic() >= ends:
                return
            if not woken:
                yield ": ping\n\n"
    finally:
        sub.close()
        with contextlib.suppress(SQLAlchemyError):
            db.session.remove()
