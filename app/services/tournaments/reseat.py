"""Going back to a round's previous seating after "Pair again" (issue 22: nothing a director can
click deletes data that cannot be restored).

Pairing the last round again is allowed only while it has no result, so what it replaces is a
seating: which entrants sit at which table (and the tables' entry codes, and the online set-up
of tables without a move). The seating it replaced is kept whole in its audit entry
(``repair_round``'s ``before``); the round page offers to go back to it while the round still
has no result. Going back is itself a seating change, audited as ``restore_seating`` with the
seating it replaces, so it can be undone the same way. The restored tables get new entry codes
(the old ones are not kept in the trail, which directors read: print the slips again) and are
played on paper.

Refused, nothing changed, if an entrant of that seating has withdrawn or is gone since, or if an
entrant entered since would have no seat in it (pair the round again instead)."""

from __future__ import annotations

import json
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from ...extensions import db
from ...models import AuditEntry, Entrant, Round, Table, TableSeat, Tournament
from .. import ServiceError
from .audit import ONLINE_LOG, Actor, audit, place
from .rounds import (
    _check_seating_seen,
    _seats_json,
    new_code,
    online_games,
    paper_results,
)
from .rows import rounds_of
from .sheets import online_tables

# the audit actions that set a round's seating anew (a swap changes it in place)
_SEATINGS = ("seat_round", "repair_round", "restore_seating")


def _tables_of(before: Any) -> list[dict[str, Any]] | None:
    """The seating an entry's ``before`` keeps (a list of ``_seats_json`` tables)."""
    if isinstance(before, dict):
        before = before.get("tables")
    if not isinstance(before, list) or not before:
        return None
    if not all(isinstance(x, dict) and isinstance(x.get("table"), int) for x in before):
        return None
    return before


def previous_seating(t: Tournament, rnd: Round) -> AuditEntry | None:
    """The entry of the round's latest seating when it replaced another (a pairing again, or a
    going back): the seating the round page offers to go back to."""
    rows = db.session.scalars(
        select(AuditEntry)
        .where(AuditEntry.tournament_id == t.id, AuditEntry.action.in_(_SEATINGS))
        .order_by(AuditEntry.id.desc())
    )
    for e in rows:
        try:
            where = json.loads(e.target)
        except ValueError:
            continue
        if not isinstance(where, dict) or where.get("round") != rnd.number or "table" in where:
            continue
        if e.action == "seat_round":
            return None
        return e if _tables_of(e.before) is not None else None
    return None


def may_go_back(t: Tournament, rnd: Round) -> AuditEntry | None:
    """``previous_seating`` while the round may still be seated anew (the last one, open, no
    result, no online game with moves)."""
    if (
        rnd.status == "closed"
        or rnd.number != len(rounds_of(t))
        or paper_results(rnd)
        or online_games(rnd)
    ):
        return None
    return previous_seating(t, rnd)


def go_back(
    t: Tournament, rnd: Round, actor: Actor, entry_id: int, seen: str | None = None
) -> Round:
    """Seat round ``rnd`` as it was before its latest pairing (``entry_id``: the entry the page
    showed; ``seen``: its seating version). Returns the new round row."""
    _check_seating_seen(rnd, seen)
    if rnd.number != len(rounds_of(t)) or rnd.status == "closed":
        raise ServiceError(_("Only the last open round can go back to its previous seating."))
    if paper_results(rnd) or online_games(rnd):
        raise ServiceError(
            _("A result is already entered: the round cannot go back to its previous seating.")
        )
    entry = previous_seating(t, rnd)
    if entry is None or entry.id != entry_id:
        raise ServiceError(_("The round's seating changed since you opened this page: look again."))
    tables = _tables_of(entry.before)
    assert tables is not None
    entrants = {
        e.name: e for e in db.session.scalars(select(Entrant).where(Entrant.tournament_id == t.id))
    }
    seated: list[tuple[dict[str, Any], str, list[Entrant]]] = []
    for tab in tables:
        kind = next((k for k in ("bye", "sides", "players") if k in tab), None)
        if kind is None:
            raise ServiceError(_("The previous seating cannot be read."))
        names = [tab[kind]] if kind == "bye" else list(tab[kind])
        rows = []
        for name in names:
            e = entrants.get(name)
            if e is None or (e.withdrawn_after is not None and e.withdrawn_after < rnd.number):
                raise ServiceError(
                    _(
                        "%(name)s has withdrawn or left the tournament since: the previous "
                        "seating cannot be restored. Pair the round again instead.",
                        name=name,
                    )
                )
            rows.append(e)
        seated.append((tab, kind, rows))
    in_seating = {e.id for _tab, _kind, rows in seated for e in rows}
    left_out = sorted(
        e.name
        for e in entrants.values()
        if e.id not in in_seating and (e.withdrawn_after is None or e.withdrawn_after >= rnd.number)
    )
    if left_out:
        raise ServiceError(
            _(
                "%(names)s entered since and would have no seat in the previous seating: pair "
                "the round again instead.",
                names=", ".join(left_out),
            )
        )
    before: Any = [_seats_json(tab) for tab in rnd.tables]
    online = online_tables()  # the online package answers (sheets.listen): no import of it
    logs = [online.discard(tab) for tab in rnd.tables if online.game_of(tab) is not None]
    if logs:
        before = {"tables": before, ONLINE_LOG: logs}
    number = rnd.number
    db.session.delete(rnd)
    db.session.flush()
    new = Round(tournament_id=t.id, number=number, status="seated")
    db.session.add(new)
    for tab, tab_kind, rows in seated:
        row = Table(
            number=tab["table"],
            kind=tab_kind,
            mode="paper",
            code=None if tab_kind == "bye" else new_code(),
        )
        new.tables.append(row)
        for pos, e in enumerate(rows):
            row.seats.append(TableSeat(position=pos, entrant_id=e.id))
    t.bump()
    db.session.flush()
    audit(t, actor, "restore_seating", place(number), before, [_seats_json(x) for x in new.tables])
    return new
