"""The online side of a duplicate board, as the online tables ask for it (``online.bridge``
deals, ``online.advance`` records and ends; no import of them here: they import this).

* ``board_of(tab)``: the duplicate board an online table deals (None for a tournament's own
  table): the bridge deals that board's setup (``Board.setup()``: the board's seed, first drawer
  and level) instead of a fresh shuffle, so every table of board k draws the same cards, seat by
  seat; and deals nothing after it (one board, one deal).
* ``record(tab, deal)``: a played deal's result (told by ``advance``) as the table's traveller line for the board,
  through the duplicate service's save path (the event page's comparison follows; no peeking
  is that page's rule).
* A board whose deal ends without a result (120分: nobody called in it, RULES.md §4; the
  weak-hand redeal and refusal are off on every board, ``competition.boards.board_options``)
  is not dealt again: ``online.advance`` ends the table with no traveller line, and
  ``ended_without_result`` tells its pages (seat, spectators, the director's event page),
  which send the director to the board's traveller to type the table's result by hand;
  ``ended(tab, outcome)``, told by ``advance``, puts it in the event's audit trail.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from engine.deal import Deal
from engine.variants import RED_FIVE

from ...competition.boards import Board, event_boards
from ...extensions import db
from ...models import DuplicateEvent, DuplicateOnlineTable, OnlineDeal, Table
from . import audit as trail
from . import events


@dataclass(frozen=True)
class OnlineBoard:
    link: DuplicateOnlineTable
    event: DuplicateEvent
    board: Board


def link_of(tab: Table) -> DuplicateOnlineTable | None:
    return db.session.scalar(
        select(DuplicateOnlineTable).where(DuplicateOnlineTable.table_id == tab.id)
    )


def board_of(tab: Table) -> OnlineBoard | None:
    link = link_of(tab)
    if link is None:
        return None
    ev = link.event
    # a board's seed depends on the event's seed and its number only (not on the board count)
    board = event_boards(ev.variant, ev.options, ev.seed, link.board)[link.board - 1]
    return OnlineBoard(link, ev, board)


def board_number(tab: Table) -> int | None:
    """The board a table deals, for its pages' header (None: no duplicate board)."""
    link = link_of(tab)
    return None if link is None else link.board


def record(tab: Table, deal: Deal) -> bool:
    """Write a played deal of a duplicate board's online table as its traveller line; False
    when the table plays no duplicate board or the deal has no result."""
    link = link_of(tab)
    r = deal.result
    if link is None or deal.outcome != "played" or r is None or deal.dealer is None:
        return False
    ev = link.event
    if ev.variant == RED_FIVE:
        if r.scores is None:
            return False
        events.save_table_result(
            ev,
            link.board,
            link.round,
            link.table_no,
            scores=list(r.scores),
            actor=trail.ONLINE_GAME,
        )
    else:
        if r.total is None:
            return False
        events.save_table_result(
            ev,
            link.board,
            link.round,
            link.table_no,
            declarer=deal.dealer % 2,
            total=r.total,
            actor=trail.ONLINE_GAME,
        )
    return True


NO_RESULT = ("redeal", "refused")  # deal outcomes that leave a board without a result


def ended(tab: Table, outcome: str) -> None:
    """A duplicate board's online table ended without a result: the event's audit entry."""
    link = link_of(tab)
    if link is not None:
        trail.no_result(link.event, link.board, link.round, link.table_no, outcome)


def ended_without_result(ev: DuplicateEvent) -> set[tuple[int, int, int]]:
    """The (board, round, table) of the event's online tables whose board ended without a
    result and that still have no traveller line (none typed in by the director since)."""
    rows = db.session.execute(
        select(DuplicateOnlineTable)
        .join(OnlineDeal, OnlineDeal.table_id == DuplicateOnlineTable.table_id)
        .where(DuplicateOnlineTable.event_id == ev.id, OnlineDeal.outcome.in_(NO_RESULT))
    ).scalars()
    typed = {(r.board, r.round, r.table_no) for r in ev.results}
    return {(x.board, x.round, x.table_no) for x in rows} - typed
