"""Rounds: seating the next round (pairing from ``app.competition``), pairing the last one again,
swapping entrants before it starts, closing and reopening; each table gets its entry code."""

from __future__ import annotations

import secrets
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select

from ...competition import model as cm
from ...competition.pairing import PairingError, pair_next_round
from ...competition.standings import derive_tournament_table
from ...db import lock_for_update
from ...extensions import db
from ...models import Round, Table, TableSeat, Tournament
from .. import ServiceError, versions
from .audit import ONLINE_LOG, Actor, audit, place
from .rows import deal_row, load, load_uncached, rounds_of
from .sheets import OnlineGame, online_tables

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 10  # ~50 bits: a table's code cannot be guessed


# --- a table's entry code -------------------------------------------------------------------------


def _random_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_code() -> str:
    while True:
        code = _random_code()
        if db.session.scalar(select(Table.id).where(Table.code == code)) is None:
            return code


def random_codes(n: int) -> list[str]:
    """``n`` distinct random codes (no database: check them with ``unused_codes``)."""
    codes: set[str] = set()
    while len(codes) < n:
        codes.add(_random_code())
    return list(codes)


def unused_codes(codes: list[str]) -> list[str]:
    """``codes`` with any that a table already has replaced by fresh ones: one query per
    thousand codes, instead of one per code."""
    taken: set[str] = set()
    for i in range(0, len(codes), 1000):
        chunk = codes[i : i + 1000]
        taken |= set(db.session.scalars(select(Table.code).where(Table.code.in_(chunk))))
    if not taken:
        return codes
    fresh = set(codes) - taken
    out = []
    for code in codes:
        if code in taken:
            code = new_code()
            while code in fresh:
                code = new_code()
            fresh.add(code)
        out.append(code)
    return out


def normalize_code(code: str) -> str:
    return "".join(ch for ch in (code or "").upper() if ch.isalnum())[:32]


def table_by_code(code: str) -> Table | None:
    code = normalize_code(code)
    if len(code) != CODE_LENGTH:
        return None
    return db.session.scalar(select(Table).where(Table.code == code))


# --- seating --------------------------------------------------------------------------------------


def round_has_results(rnd: Round) -> bool:
    return any(tab.deals or tab.forfeit is not None or tab.finished for tab in rnd.tables)


def paper_results(rnd: Round) -> bool:
    """A result pairing again may not discard: a forfeit, or any deal or finish of a table
    played on paper (deals recorded online stay results once the table moves to paper). An
    online game's deals and finish may go, with confirmation: see ``repair_round``."""
    return any(
        tab.forfeit is not None
        or (tab.mode != "online" and (bool(tab.deals) or tab.finished))
        or any(d.source != "online" for d in tab.deals)
        for tab in rnd.tables
    )


def online_games(rnd: Round) -> list[OnlineGame]:
    """The round's online games that hold moves (pairing again would discard them)."""
    games = (online_tables().game_of(tab) for tab in rnd.tables)
    return [g for g in games if g is not None and g.moves]


def seat_next_round(t: Tournament, actor: Actor, draw: bool = False) -> Round:
    """Seat the next round. ``draw`` (round 1 only): the entrants' order is drawn at random
    and its seed recorded on the tournament, so the draw can be shown and repeated."""
    rounds = rounds_of(t)
    open_rounds = [r.number for r in rounds if r.status != "closed"]
    if open_rounds:
        raise ServiceError(_("Close round %(n)d before seating the next one.", n=open_rounds[-1]))
    before = None
    if draw and not rounds and t.draw_seed is None:
        t.draw_seed = draw_seed()
        t.bump()
        db.session.flush()
        before = {"draw_seed": t.draw_seed}
    return _seat(t, actor, load(t), "seat_round", before)


def draw_seed() -> int:
    """A fresh seed for the first round's draw (``DRAW_SEED`` in the config makes it fixed)."""
    fixed = current_app.config.get("DRAW_SEED")
    return int(fixed) if fixed is not None else secrets.randbelow(10**6)


def _seating(rnd: Round) -> dict[str, Any]:
    return {f"t{tab.number}": _seats_json(tab) for tab in rnd.tables}


def seating_version(rnd: Round) -> str:
    """What a page's pairing forms (pair again, swap) showed of the round's seating: sent back
    as ``seen``, so a form shown before another director's change is refused."""
    return versions.version(_seating(rnd))


def _check_seating_seen(rnd: Round, seen: str | None) -> None:
    lock_for_update(rnd)

    def say(c: versions.Changes) -> str:
        numbers = [k[1:] for k in (*c.changed, *c.added, *c.removed)]
        return ngettext(
            "The seating of round %(n)d was changed by someone else since you opened this page "
            "(table %(tables)s): look again. Nothing was saved.",
            "The seating of round %(n)d was changed by someone else since you opened this page "
            "(tables %(tables)s): look again. Nothing was saved.",
            len(numbers),
            n=rnd.number,
            tables=", ".join(numbers),
        )

    versions.check_seen(_seating(rnd), seen, say)


def repair_round(
    t: Tournament, rnd: Round, actor: Actor, confirm: bool = False, seen: str | None = None
) -> Round:
    """Seat the last round again (after late entries, withdrawals, corrections). An online game
    with moves is discarded only with ``confirm``; its log is kept in the audit entry. A page
    shown before the seating changed (``seen``: its ``seating_version``) is refused."""
    _check_seating_seen(rnd, seen)
    if rnd.number != len(rounds_of(t)):
        raise ServiceError(_("Only the last round can be paired again."))
    if paper_results(rnd):
        raise ServiceError(_("A result is already entered: the round cannot be paired again."))
    games = online_games(rnd)
    if games and not confirm:
        raise ServiceError(" ".join(online_tables().repair_warning(g) for g in games), "confirm")
    before: Any = [_seats_json(tab) for tab in rnd.tables]
    online = online_tables()
    logs = [online.discard(tab) for tab in rnd.tables if online.game_of(tab) is not None]
    if logs:
        before = {"tables": before, ONLINE_LOG: logs}
    db.session.delete(rnd)
    db.session.flush()
    return _seat(t, actor, load_uncached(t), "repair_round", before)


def _seat(t: Tournament, actor: Actor, loaded: Any, action: str, before: Any) -> Round:
    """Pair the next round of ``loaded``, store it seated, and audit ``action``."""
    try:
        plan = pair_next_round(loaded.tournament)
    except PairingError as error:
        raise ServiceError(_("The round cannot be seated: %(why)s", why=str(error))) from error
    rnd = store_round(t, loaded.entrant_ids, plan, "seated")
    t.bump()
    db.session.flush()
    audit(
        t,
        actor,
        action,
        place(plan.round),
        before,
        [_table_json(tab) for tab in plan.tables],
    )
    return rnd


def _table_json(tab: cm.Table) -> dict[str, Any]:
    if tab.bye is not None:
        return {"table": tab.table, "bye": tab.bye}
    if tab.sides is not None:
        return {"table": tab.table, "sides": list(tab.sides)}
    return {"table": tab.table, "players": list(tab.players or ())}


def _seats_json(tab: Table) -> dict[str, Any]:
    names = [s.entrant.name for s in tab.seats]
    if tab.kind == "bye":
        return {"table": tab.number, "bye": names[0] if names else ""}
    return {"table": tab.number, tab.kind: names}


def store_round(t: Tournament, entrant_ids: dict[str, int], plan: cm.Round, status: str) -> Round:
    """Write a round of ``app.competition`` data (tables, seats, deals) as rows."""
    rnd = Round(tournament_id=t.id, number=plan.round, status=status)
    db.session.add(rnd)
    for tab in plan.tables:
        kind, names = kind_and_names(tab)
        row = Table(
            number=tab.table,
            kind=kind,
            mode=tab.mode,
            forfeit=tab.forfeit,
            finished=tab.finished,
            code=None if kind == "bye" else new_code(),
        )
        rnd.tables.append(row)
        for pos, name in enumerate(names):
            row.seats.append(TableSeat(position=pos, entrant_id=entrant_ids[name]))
        for i, d in enumerate(tab.deals):
            row.deals.append(deal_row(i, d, "online" if tab.mode == "online" else "paper"))
    return rnd


def kind_and_names(tab: cm.Table) -> tuple[str, list[str]]:
    if tab.bye is not None:
        return "bye", [tab.bye]
    if tab.sides is not None:
        return "sides", list(tab.sides)
    return "players", list(tab.players or ())


def swap_entrants(
    t: Tournament, rnd: Round, a_id: int, b_id: int, actor: Actor, seen: str | None = None
) -> None:
    """Exchange two entrants' places in a round that has no result yet (refused when the page
    showed an older seating, ``seen``)."""
    _check_seating_seen(rnd, seen)
    if rnd.status == "closed" or round_has_results(rnd) or online_games(rnd):
        raise ServiceError(_("The round has started: entrants can no longer be swapped."))
    if a_id == b_id:
        raise ServiceError(_("Choose two different entrants."), "second")
    seat_a = seat_b = None
    for tab in rnd.tables:
        for s in tab.seats:
            if s.entrant_id == a_id:
                seat_a = s
            if s.entrant_id == b_id:
                seat_b = s
    if seat_a is None:
        raise ServiceError(_("This entrant is not seated in this round."), "first")
    if seat_b is None:
        raise ServiceError(_("This entrant is not seated in this round."), "second")
    before = {seat_a.entrant.name: seat_a.table.number, seat_b.entrant.name: seat_b.table.number}
    # two steps: the unique (table, position) pairs stay distinct at every flush
    ea, eb = seat_a.entrant_id, seat_b.entrant_id
    seat_a.entrant_id, seat_b.entrant_id = eb, ea
    db.session.flush()
    db.session.expire(seat_a)
    db.session.expire(seat_b)
    t.bump()
    names = list(before)
    after = {names[0]: before[names[1]], names[1]: before[names[0]]}
    audit(t, actor, "swap", place(rnd.number), before, after)


# --- closing --------------------------------------------------------------------------------------


def unfinished_tables(comp: cm.Tournament, rnd: cm.Round) -> list[int]:
    """The numbers of a round's tables whose match does not count yet (byes always count)."""
    return [tab.table for tab in rnd.playing if not derive_tournament_table(comp, tab).counts]


def close_round(t: Tournament, rnd: Round, actor: Actor) -> None:
    comp = load(t).tournament
    unfinished = unfinished_tables(comp, comp.played[rnd.number - 1])
    if unfinished:
        raise ServiceError(
            _("Tables not finished yet: %(tables)s.", tables=", ".join(map(str, unfinished)))
        )
    rnd.status = "closed"
    t.bump()
    audit(t, actor, "close_round", place(rnd.number), None, None)


def reopen_round(t: Tournament, rnd: Round, actor: Actor) -> None:
    if rnd.number != len(rounds_of(t)):
        raise ServiceError(_("Only the last round can be opened again."))
    rnd.status = "started" if round_has_results(rnd) else "seated"
    t.bump()
    audit(t, actor, "reopen_round", place(rnd.number), None, None)
