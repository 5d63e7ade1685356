"""The director's side of an online table: switch it online (a secret link per seat, the first
deal dealt), deal a discarded game again, hand a seat to a bot or back and choose the bot's
strength, pause and resume play, and call time on a match of a time limit. Each change is in the
audit trail; the bots act at once (``advance``).
"""

from __future__ import annotations

from flask_babel import gettext as _

from ...extensions import db
from ...models import OnlineSeat, Table, Tournament
from .. import ServiceError
from ..tournaments.audit import Actor, audit
from ..tournaments.sheets import may_edit
from . import botchoice, bridge
from .advance import advance
from .bridge import start_next, where
from .seats import new_token, seat_to_change, seats_changed, seats_of


def switch_online(t: Tournament, tab: Table, actor: Actor) -> None:
    """Make a table online before its first deal: a secret link per seat, the first deal dealt."""
    if tab.mode == "online":
        raise ServiceError(_("This table is already played online."))
    if not bridge.plays_online(t.variant):  # a game the browser does not play
        raise ServiceError(_("This game is played on paper for now: its score sheets are typed."))
    if tab.kind == "bye":
        raise ServiceError(_("A bye has no deals."))
    if tab.forfeit is not None:
        raise ServiceError(_("This table was forfeited: it has no deals."))
    if tab.deals:
        raise ServiceError(_("Deals are entered at this table: it can only go online before them."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    tab.mode = "online"
    for seat in range(bridge.players_of(t)):
        db.session.add(OnlineSeat(table_id=tab.id, seat=seat, token=new_token()))
    db.session.flush()
    t.bump()
    audit(t, actor, "online", where(tab), {"mode": "paper"}, {"mode": "online"})
    start_next(t, tab, None)
    advance(t, tab)


def start_game(t: Tournament, tab: Table) -> None:
    """Deal an online table's first deal (again, after its game was discarded) and let the
    bots act."""
    start_next(t, tab, None)
    advance(t, tab)


def set_bot(t: Tournament, tab: Table, seat: int, bot: bool, actor: Actor) -> None:
    """Let the server play a seat (or give it back to its player); bots act at once."""
    row = seat_to_change(t, tab, seat, actor)
    if row.bot == bot:
        return
    row.bot = bot
    seats_changed(tab)
    db.session.flush()
    audit(t, actor, "online_bot", where(tab, seat), {"bot": not bot}, {"bot": bot})
    advance(t, tab)


def set_bot_level(t: Tournament, tab: Table, seat: int, level: str, actor: Actor) -> None:
    """Choose how strong a seat's bot plays: easy, normal or strong (botchoice.py)."""
    if tab.mode != "online":
        raise ServiceError(_("This table is not played online."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    if level not in botchoice.LEVELS:
        raise ServiceError(_("Choose easy, normal or strong."), "level")
    row = next((s for s in seats_of(tab) if s.seat == seat), None)
    if row is None:
        raise ServiceError(_("There is no such seat at this table."), "seat")
    if row.bot_level == level:
        return
    before = row.bot_level
    row.bot_level = level
    db.session.flush()
    audit(t, actor, "online_bot_level", where(tab, seat), {"level": before}, {"level": level})


def set_paused(t: Tournament, tab: Table, paused: bool, actor: Actor) -> None:
    """The director stops play at the table (seats' moves are refused, bots wait) or lets it go
    on (bots act at once)."""
    if tab.mode != "online":
        raise ServiceError(_("This table is not played online."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    if tab.paused == paused:
        return
    if paused and tab.finished:
        raise ServiceError(_("The match is over."))
    tab.paused = paused
    db.session.flush()
    audit(t, actor, "online_pause", where(tab), {"paused": not paused}, {"paused": paused})
    if not paused:
        advance(t, tab)


def finish(t: Tournament, tab: Table, actor: Actor) -> None:
    """Time is up (a match of a time limit): the table stops; a deal in progress is not
    counted, the deals recorded so far are the match."""
    if tab.mode != "online":
        raise ServiceError(_("This table is not played online."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    if tab.finished:
        return
    if "deals" in t.match:  # a finished match of n deals counts on the deals played
        raise ServiceError(
            _(
                "This table is played online: its match is not ended early, so that no deal "
                "in play is cut off. Pause the table instead."
            )
        )
    tab.finished = True
    if tab.round.status == "seated":
        tab.round.status = "started"
    t.bump()
    audit(t, actor, "finish", where(tab), {"finished": False}, {"finished": True})
