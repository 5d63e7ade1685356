"""A table's move clock: a tournament's seconds per move (``Tournament.move_seconds``).

The server's time is the truth and no thread watches it: a human seat the deal waits for has
``move_seconds`` from the deal's last change (``tokens.last_moved_at``). Once they have run out,
the next request that touches the seat — the page's own countdown reaching 0 (a POST to the
seat's ``clock`` address, sent by every seat of the table), or that seat's late move — makes the
move for it with the seat's bot (``expire``); a late move is not played, the player is told why.
The move is an ordinary engine record in the log with ``"timeout": true`` added (the engine's
``Record.from_json`` ignores the key, so replay is unchanged) and the actor ``clock, seat N``; the
seat's page says so until the seat moves again, and the replay marks the play. During the draw a
seat that may call and lets its time run out continues the draw (``{"kind": "continue"}``).
A paused table, a finished match or a closed round has no clock running.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from flask_babel import gettext as _

from ...models import OnlineDeal, Table, Tournament
from . import advance, bridge, cache, tokens
from .bridge import DRAW, parse_card
from .cards import faces_of

TIMEOUT = "timeout"  # the key marking a log entry the clock made


def _running(t: Tournament, tab: Table, live: bridge.Live | None) -> int | None:
    """The human seat whose clock runs now, or None."""
    if not t.move_seconds or live is None:
        return None
    if tab.mode != "online" or tab.paused or tab.finished or tab.round.status == "closed":
        return None
    seat = live.waiting_for()
    return seat if seat is not None and seat in live.humans else None


def deadline(t: Tournament, tab: Table, live: bridge.Live | None) -> datetime | None:
    """When the waited seat's time runs out (None: no clock runs)."""
    if _running(t, tab, live) is None:
        return None
    since = tokens.last_moved_at(tab)
    if since is None or t.move_seconds is None:  # pragma: no cover - a deal has its time
        return None
    return since + timedelta(seconds=t.move_seconds)


def seconds_left(t: Tournament, tab: Table, live: bridge.Live | None) -> int | None:
    """Whole seconds the waited human seat has left (0: run out); None: no clock runs."""
    end = deadline(t, tab, live)
    if end is None:
        return None
    return max(0, math.ceil((end - tokens.now()).total_seconds()))


def expired_seat(tab: Table) -> int | None:
    """The seat whose time has run out, read only (None: nobody's)."""
    t = bridge.tournament_of(tab)
    if not t.move_seconds:
        return None
    live = bridge.load(tab)
    left = seconds_left(t, tab, live)
    return None if left is None or left > 0 or live is None else live.waiting_for()


def expire(tab: Table) -> int | None:
    """If the waited human seat's time has run out by the server's clock, its bot makes that one
    move (marked ``timeout`` in the log) and the bots answer; returns the seat, else None (a
    request sent early, or twice, changes nothing)."""
    t = bridge.tournament_of(tab)
    if not t.move_seconds:
        return None
    live = bridge.load(tab)
    left = seconds_left(t, tab, live)
    if live is None or left is None or left > 0:
        return None
    seat = live.waiting_for()
    assert seat is not None
    deal = live.deal
    entry: dict[str, Any]
    if deal.phase == DRAW:
        entry = {"kind": bridge.CONTINUE, "seat": seat}
    else:
        entry = bridge.lent_bot_move(live, seat)
    entry[TIMEOUT] = True
    live.add(entry, f"clock, seat {seat}")
    advance.advance(t, tab, live)
    return seat


def late_message() -> str:
    return _("Your time ran out: a bot made this move for you.")


def timed_out_note(live: bridge.Live, seat: int) -> dict[str, Any] | None:
    """What the seat is told while its last move in this deal is one the clock made: the kind
    of move and the cards played (None: its last move was its own)."""
    for entry in reversed(live.entries):
        if entry.get("seat") != seat or entry["kind"] == "draw":
            continue
        if not entry.get(TIMEOUT):
            return None
        cards: list[dict[str, Any]] = []
        if entry["kind"] in ("play", "bury", "call"):
            cards = faces_of(live.deal, [parse_card(c) for c in entry.get("cards", [])])
        return {"kind": entry["kind"], "cards": cards}
    return None


def timed_out_plays(row: OnlineDeal, n: int) -> set[tuple[int, int]]:
    """The plays of a deal the clock made, as (trick number, seat): every trick has one play
    by each of the ``n`` seats, so the k-th play replay applies (0-based; a play taken back is
    not one) is in trick k // n + 1."""
    out: set[tuple[int, int]] = set()
    k = 0
    for rec in cache.engine_records([a.record for a in row.actions]):  # as replay plays them
        if rec.get("kind") != "play":
            continue
        if rec.get(TIMEOUT):
            out.add((k // n + 1, int(rec["seat"])))
        k += 1
    return out
