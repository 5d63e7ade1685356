"""A duplicate round played online: the director's "play this round online" makes one online
table per (table, board) of the round, reusing the online tables of a tournament (seat links,
bots, the director's table page, ``flask tournament run-bots``).

The online machinery belongs to tournament tables (``OnlineSeat``/``OnlineDeal`` hang on
``tables``), so an event played online gets its own tournament (its online tournament: the
event's entrants, one deal a match, one tournament round per duplicate round). A
``DuplicateOnlineTable`` row ties each of its tables to the board it deals and the traveller line
it fills (``tables.board_of``/``tables.record``, asked by the bridge).
"""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy import select

from engine.variants import RED_FIVE, make_variant

from ...competition.boards import board_options
from ...extensions import db
from ...models import (
    Club,
    DuplicateEvent,
    DuplicateOnlineTable,
    Round,
    Table,
    TableSeat,
    Tournament,
    User,
)
from .. import ServiceError
from ..online import director
from ..tournaments.audit import Actor
from ..tournaments.rounds import new_code
from ..tournaments.setup import entrant_row, new_tournament_row
from . import audit as trail
from .events import entrant_label, movement_of


def online_tables(ev: DuplicateEvent) -> list[DuplicateOnlineTable]:
    return list(
        db.session.scalars(
            select(DuplicateOnlineTable)
            .where(DuplicateOnlineTable.event_id == ev.id)
            .order_by(
                DuplicateOnlineTable.round,
                DuplicateOnlineTable.table_no,
                DuplicateOnlineTable.board,
            )
        )
    )


def tournament_of(ev: DuplicateEvent) -> Tournament | None:
    """The event's online tournament (None before a round is played online)."""
    return db.session.scalar(
        select(Tournament)
        .join(Round, Round.tournament_id == Tournament.id)
        .join(Table, Table.round_id == Round.id)
        .join(DuplicateOnlineTable, DuplicateOnlineTable.table_id == Table.id)
        .where(DuplicateOnlineTable.event_id == ev.id)
        .limit(1)
    )


def _new_tournament(ev: DuplicateEvent, user: User | None) -> Tournament:
    m = movement_of(ev)
    name = _("%(name)s · online (duplicate %(id)d)", name=ev.name[:80], id=ev.id)
    club = db.session.get(Club, ev.club_id)
    assert club is not None
    t = new_tournament_row(
        club,
        user,
        name=name,
        variant=ev.variant,
        options=board_options(ev.variant, ev.options),  # as its boards: never dealt again
        pairing="reseat" if ev.variant == RED_FIVE else "swiss",
        rounds=m.rounds,
        match={"deals": 1},
        points={"win": 2, "draw": 1, "loss": 0},
    )
    size = 1 if ev.variant == RED_FIVE else make_variant(ev.variant, ev.options).players // 2
    # (a Swiss: the rounds paired so far; the team with round 1's bye plays later rounds)
    entrants = sorted({e for s in m.sittings for e in s.seats} | {e for b in m.byes for e in b})
    for pos, e in enumerate(entrants, start=1):
        label = entrant_label(ev, e)
        players = [label] if size == 1 else [f"{label} ({i + 1})" for i in range(size)]
        db.session.add(entrant_row(t, label, pos, players, {}))
    db.session.flush()
    return t


def play_round_online(ev: DuplicateEvent, rnd: int, user: User | None, actor: Actor) -> int:
    """Make round ``rnd`` of the event online: a table per (table, board), its seat links made
    and the board dealt (the board's own draw). Returns the number of online tables made."""
    m = movement_of(ev)
    if not 1 <= rnd <= m.rounds:
        raise ServiceError(_("There is no round %(n)d in this event.", n=rnd))
    links = online_tables(ev)
    if any(x.round == rnd for x in links):
        raise ServiceError(_("Round %(n)d is already played online.", n=rnd))
    sittings = m.round_sittings(rnd)
    if not sittings:  # a Swiss round's tables exist once it is paired
        raise ServiceError(_("Round %(n)d is not paired yet: pair it first.", n=rnd))
    done = {(r.board, r.round, r.table_no) for r in ev.results}
    if any((b, rnd, s.table) in done for s in sittings for b in s.boards):
        raise ServiceError(
            _("Results of round %(n)d are typed in already: it is played on paper.", n=rnd)
        )
    t = tournament_of(ev) or _new_tournament(ev, user)
    ids = {e.name: e.id for e in t.entrants}
    round_row = Round(tournament_id=t.id, number=rnd, status="seated")
    db.session.add(round_row)
    made: list[Table] = []
    number = 0
    for s in sittings:
        for b in s.boards:
            number += 1
            tab = Table(number=number, kind="players" if ev.variant == RED_FIVE else "sides")
            tab.code = new_code()
            round_row.tables.append(tab)
            for pos, e in enumerate(s.seats):
                tab.seats.append(TableSeat(position=pos, entrant_id=ids[entrant_label(ev, e)]))
            db.session.flush()
            db.session.add(
                DuplicateOnlineTable(
                    event_id=ev.id, board=b, round=rnd, table_no=s.table, table_id=tab.id
                )
            )
            made.append(tab)
    db.session.flush()
    for tab in made:
        director.switch_online(t, tab, actor)  # the seat links, the board dealt
    trail.online(ev, rnd, len(made), actor)
    return len(made)
