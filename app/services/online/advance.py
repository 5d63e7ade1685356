"""The game running by itself after every change: draws and bot seats act until a human seat
must decide (no thread: synchronously, in the request that made the change).

A finished deal is written to the score sheet through ``tournaments.sheets.record_deal`` — the
same path as a typed paper deal — from the engine's result (``bridge.sheet_deal``, with a
competition's take-back penalties); the next deal starts with the levels the sheet derives and
the dealer the engine's rules give, until the match is complete, and after a played deal only
once its players have read the summary (``between_deals``). A duplicate board is dealt once: a
deal of it that ends without a result ends the table.
"""

from __future__ import annotations

from flask_babel import gettext as _

from ...extensions import db
from ...models import Table, Tournament
from .. import ServiceError
from ..duplicate import tables as duplicate_tables
from ..tournaments.audit import Actor, audit
from ..tournaments.sheets import record_deal
from . import botchoice, bridge
from .between_deals import may_deal_next
from .bridge import Live, load, load_deal, save, sheet_deal, start_next, step, where

MAX_STEPS = 20_000  # a safety net for the bot loop (a whole 4-deck deal is ~300 steps)
# A table of bots only would play a timed match forever in one request: after this many steps
# no new deal is started until the next change at the table (a director's action).
DEAL_BUDGET = 6_000
GAME_ACTOR = Actor(label="online game")


def _board_without_result(t: Tournament, tab: Table, outcome: str) -> None:
    """A duplicate board's deal ended without a result (120分: nobody called; an older
    board's weak-hand redeal or refusal): its cards are fixed, so it is not dealt again. The
    table is over with no traveller line (its pages say so); the director types the table's
    result on the board's traveller, as for a board a table did not play on paper."""
    tab.finished = True
    if tab.round.status == "seated":
        tab.round.status = "started"
    t.bump()
    audit(t, GAME_ACTOR, "finish", where(tab), {"finished": False}, {"finished": True})
    duplicate_tables.ended(tab, outcome)  # and in the event's own trail
    db.session.flush()


def advance(t: Tournament, tab: Table, live: Live | None = None) -> Live | None:
    """Run draws and bots until a human must act; record finished deals and deal the next.
    A paused table does nothing (its bots wait too)."""
    if tab.mode != "online" or tab.finished or tab.paused:
        return None
    if live is None:
        live = load(tab)
    botchoice.new_request_budget()
    steps = 0
    while live is not None and not tab.finished:
        while step(live):
            steps += 1
            if steps > MAX_STEPS:  # pragma: no cover - a bug, not a game
                raise ServiceError(_("The game does not progress; tell the director."))
        save(live)
        if live.deal.outcome is None:
            return live
        if live.row.sheet_index is None and live.deal.outcome == "played":
            from . import takeback  # (it imports this module) the penalties of its take-backs

            on_sheet = takeback.with_penalties(t, live, sheet_deal(live.deal))
            written = record_deal(t, tab, on_sheet, GAME_ACTOR, source="online")
            live.row.sheet_index = written.index
            if live.family == bridge.TRICKS:  # a duplicate board: its traveller line
                duplicate_tables.record(tab, live.trick)
            db.session.flush()
        if live.deal.outcome != "played" and duplicate_tables.board_number(tab) is not None:
            _board_without_result(t, tab, live.deal.outcome)  # never dealt again
            return live
        if steps > DEAL_BUDGET:
            return live
        if not may_deal_next(t, live):
            return live  # the players are reading the deal's summary
        row = start_next(t, tab, live)
        if row is None:
            return live
        t.bump()
        live = load_deal(row, live.humans, live.levels)
    return None
