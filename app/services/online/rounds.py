"""A whole round online at once: the round page's "Play this round online" switches the chosen
tables online in one transaction, as the table's own online page does one table (a secret link
per seat, the seats of members with an account bound to them, the first deal dealt), and carries
the bots of the previous round.

Bots are carried **by player**: a seat is a bot when the player who sits there now (the
entrant's player at that engine seat, ``seats.seat_players``) sat at an online table of the
previous round in a seat a bot played; the bot keeps its strength. In fixed-side formats a side's
players keep their order within the side (side A in seats 1, 3 (, 5), side B in 2, 4 (, 6)), so a
pair that changes tables or sides keeps its bot on the same player; in red five's re-seating the
bot follows the player to their new seat. A player who had a bye, a paper table or no seat in the
previous round starts as a human.

``start_unstarted`` serves ``flask tournament run-bots``: an online table with no game yet (a
round imported from a tournament file with ``"mode": "online"``) gets its seats and its first
deal.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select

from ...extensions import db
from ...models import Club, OnlineDeal, OnlineSeat, Round, Table, Tournament
from .. import ServiceError, StaleError
from ..duplicate.hosts import is_host
from ..tournaments.audit import Actor, audit, place
from ..tournaments.rows import rounds_of
from . import bridge, director, seats


@dataclass(frozen=True)
class Choice:
    """A table of the round as the form offers it: ``reason`` says why it cannot go online."""

    table: Table
    reason: str | None

    @property
    def ready(self) -> bool:
        return self.reason is None


@dataclass
class Sent:
    """What one "play this round online" did."""

    tables: list[Table]
    bound: int  # seats bound to members' accounts
    bots: int  # seats a bot plays, carried from the previous round


def has_game(tab: Table) -> bool:
    return (
        db.session.scalar(select(OnlineDeal.id).where(OnlineDeal.table_id == tab.id).limit(1))
        is not None
    )


def why_not(tab: Table) -> str | None:
    """Why ``tab`` cannot be sent online now (None: it can)."""
    if tab.forfeit is not None:
        return _("This table was forfeited: it has no deals.")
    if tab.deals and tab.mode != "online":
        return _("Results are entered at this table on paper.")
    if tab.mode == "online" and has_game(tab):
        return _("This table is already played online.")
    if tab.mode == "online" and tab.deals:
        return _("Deals are on this table's sheet but it has no online game: it goes on on paper.")
    if tab.finished:
        return _("The match is over.")
    return None


def choices(rnd: Round) -> list[Choice]:
    """Every playing table of the round (byes have no deals), in table order."""
    return [Choice(tab, why_not(tab)) for tab in rnd.tables if tab.kind != "bye"]


def round_version(rnd: Round) -> str:
    """What the round's form showed (sent back as ``seen``): a table going online, a result
    entered or the seats changed since refuse it."""
    data = [
        rnd.status,
        [
            [tab.number, tab.kind, tab.mode, tab.forfeit, len(tab.deals)]
            + [s.entrant_id for s in tab.seats]
            for tab in rnd.tables
        ],
    ]
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:16]


def refusal(t: Tournament, rnd: Round) -> str | None:
    """Why no table of ``rnd`` can be sent online from the round page (None: some may)."""
    if rnd.status == "closed":
        return _("The round is closed: its tables play no more.")
    if db.session.scalar(select(is_host(t.id))):
        return _(
            "This round deals a duplicate event's boards: play it online from the event's page."
        )
    return None


def _carried(t: Tournament, rnd: Round) -> dict[tuple[str, int], str]:
    """The previous round's bots by player: entrant player id → the bot's strength."""
    earlier = [r for r in rounds_of(t) if r.number == rnd.number - 1]
    out: dict[tuple[str, int], str] = {}
    for tab in earlier[0].tables if earlier else []:
        if tab.mode != "online" or tab.kind == "bye":
            continue
        for row, player in zip(seats.seats_of(tab), seats.seat_players(tab), strict=False):
            if row.bot and player is not None:
                out[seats.player_key(player)] = row.bot_level
    return out


def send_round_online(
    t: Tournament,
    rnd: Round,
    club: Club,
    numbers: Sequence[int],
    seen: str | None,
    actor: Actor,
) -> Sent:
    """Switch the tables numbered ``numbers`` of ``rnd`` online, bind their seats to members'
    accounts and carry the previous round's bots, all or nothing."""
    why = refusal(t, rnd)
    if why is not None:
        raise ServiceError(why)
    if seen is not None and seen != round_version(rnd):
        raise StaleError(
            _(
                "Round %(n)d changed since you opened this page (a table went online, a result "
                "was entered or the seats changed): look again. Nothing was sent online.",
                n=rnd.number,
            )
        )
    by_number = {c.table.number: c for c in choices(rnd)}
    chosen = sorted(set(numbers))
    if not chosen:
        raise ServiceError(_("Choose at least one table to play online."), "tables")
    for n in chosen:
        c = by_number.get(n)
        if c is None:
            raise ServiceError(_("There is no table %(n)d in this round.", n=n), "tables")
        if c.reason is not None:
            raise ServiceError(_("Table %(n)d: %(why)s", n=n, why=c.reason), "tables")
    bots = _carried(t, rnd)
    sent = Sent([], 0, 0)
    for n in chosen:
        tab = by_number[n].table
        _open(t, tab, actor)
        seats.bind_defaults(t, tab, club, actor)
        rows = seats.seats_of(tab)
        sent.bound += sum(1 for row in rows if row.member_id is not None)
        for row, player in zip(rows, seats.seat_players(tab), strict=False):
            if player is not None and seats.player_key(player) in bots:
                director.set_bot_level(t, tab, row.seat, bots[seats.player_key(player)], actor)
                director.set_bot(t, tab, row.seat, True, actor)
                sent.bots += 1
        sent.tables.append(tab)
    return sent


def _open(t: Tournament, tab: Table, actor: Actor) -> None:
    """A paper table switched online; an online table without a game (imported from a file)
    given its missing seats and its first deal."""
    if tab.mode != "online":
        director.switch_online(t, tab, actor)
        return
    have = {row.seat for row in seats.seats_of(tab)}
    for seat in range(bridge.players_of(t)):
        if seat not in have:
            db.session.add(OnlineSeat(table_id=tab.id, seat=seat, token=seats.new_token()))
    db.session.flush()
    t.bump()
    where = place(tab.round.number, tab.number)
    audit(t, actor, "online", where, None, {"mode": "online"})
    director.start_game(t, tab)


def start_unstarted(t: Tournament, tables: Sequence[Table], actor: Actor) -> list[Table]:
    """Deal the first deal of each online table of ``tables`` that has no game yet (its seats
    made); refused, naming the table, when its sheet holds deals the game could not go on from.
    Returns the tables started."""
    waiting = [
        tab
        for tab in tables
        if tab.mode == "online" and tab.forfeit is None and not tab.finished and not has_game(tab)
    ]
    for tab in waiting:  # all refused before any is started
        if tab.deals:
            raise ServiceError(
                ngettext(
                    "Table %(t)d has %(num)d deal on its sheet but no online game to go on "
                    "from: enter its next deals on paper.",
                    "Table %(t)d has %(num)d deals on its sheet but no online game to go on "
                    "from: enter its next deals on paper.",
                    len(tab.deals),
                    t=tab.number,
                )
            )
    for tab in waiting:
        _open(t, tab, actor)
    return waiting
