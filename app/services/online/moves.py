"""A seat's requests: its move on the state it saw (``act``; a take-back is ``takeback.py``),
and between deals its "ready" once it has read the summary or the page's countdown asking for
the next deal (``ready``, ``next_deal``: always a POST, never a GET). Each is refused
(``bridge.Stale``, ``bridge.IllegalMove``) when the table takes nothing from it; bots answer at
once (``advance``).
"""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models import OnlineSeat, Table, Tournament
from .advance import advance
from .between_deals import may_deal_next, ready_seats
from .bridge import (
    READY,
    IllegalMove,
    Live,
    Stale,
    apply_move,
    latest,
    load,
    load_row,
    tournament_of,
)
from .tokens import deal_part, token_of


def paused_message() -> str:
    """What a seat is told while the director has paused its table."""
    return _("The director paused the table: wait until play resumes.")


def seat_turn(seat_row: OnlineSeat, seen: str) -> tuple[Tournament, Table, Live]:
    """The table and its current deal (to act on) for a human seat's request on the state it
    saw; refused (``Stale``, ``IllegalMove``) when the table takes no move from it."""
    tab = db.session.get(Table, seat_row.table_id)
    assert tab is not None
    if tab.mode != "online":
        raise IllegalMove(_("This table is not played online."))
    if tab.paused:
        raise IllegalMove(paused_message())
    got = latest(tab)  # the state token and the deal in one query
    if deal_part(seen) != deal_part(token_of(tab, None if got is None else got[0])):
        raise Stale(_("The game moved on meanwhile: look again and choose again."))
    if seat_row.bot:
        raise IllegalMove(_("A bot plays this seat now."))
    if tab.round.status == "closed":
        raise IllegalMove(_("The round is closed: its tables play no more."))
    if tab.finished:
        raise IllegalMove(_("The match is over."))
    t = tournament_of(tab)
    live = None if got is None else load_row(*got)
    if live is None or live.deal.outcome is not None:
        raise IllegalMove(_("The match is over."))
    return t, tab, live


def act(
    seat_row: OnlineSeat, seen: str, kind: str, cards: Sequence[str] = (), card: str = ""
) -> None:
    """A human seat's move on the state it saw; bots answer at once."""
    t, tab, live = seat_turn(seat_row, seen)
    apply_move(live, seat_row.seat, kind, cards, card)
    advance(t, tab, live)


def _between_deals(seat_row: OnlineSeat) -> tuple[Tournament, Table, Live] | None:
    """The table, if its current deal is played out and the match goes on."""
    tab = db.session.get(Table, seat_row.table_id)
    assert tab is not None
    if tab.mode != "online" or tab.finished or tab.round.status == "closed":
        return None
    live = load(tab)
    if live is None or live.deal.outcome != "played":
        return None
    t = tournament_of(tab)
    return t, tab, live


def ready(seat_row: OnlineSeat, seen: str) -> bool:
    """A seat has seen the summary of deal ``seen`` (its state token) and may go on: a "ready"
    entry in that deal's log; the next deal starts once every human seat is ready. False when
    there is nothing to do (the next deal already started, the match is over, already ready)."""
    if seat_row.bot:
        raise IllegalMove(_("A bot plays this seat now."))
    found = _between_deals(seat_row)
    if found is None:
        return False
    t, tab, live = found
    if seen.split(".", 1)[0] != str(live.row.number):
        return False
    if seat_row.seat not in ready_seats(live):
        live.add({"kind": READY, "seat": seat_row.seat}, f"seat {seat_row.seat}")
    try:
        advance(t, tab, live)
    except IntegrityError:
        raise Stale(_("The game moved on meanwhile: look again and choose again.")) from None
    return True


def next_deal(seat_row: OnlineSeat) -> bool:
    """The page's countdown reached 0: deal on if the pause has really passed (the server's
    clock, from the deal's last move). False when it is not time yet or nothing waits."""
    found = _between_deals(seat_row)
    if found is None:
        return False
    t, tab, live = found
    if not may_deal_next(t, live):
        return False
    try:
        advance(t, tab, live)
    except IntegrityError:
        raise Stale(_("The game moved on meanwhile: look again and choose again.")) from None
    return True
