"""A duplicate event's audit trail, written and worded by the tournaments' audit service
(``tournaments.audit``: ``audit``, ``audit_trail``, ``worded``; the entries have the event's
``duplicate_event_id`` and no tournament): the event created, each table's line of a board's
traveller typed, corrected or removed (from what to what, by whom), a Swiss round paired, a
round sent online and an online board that ended without a result.

Places are stored as data (``place(round, table, board=…)``) and values as JSON, worded when
shown in the reader's language, the sides and seats as the entrants at that table."""

from __future__ import annotations

from typing import Any

from engine.variants import RED_FIVE

from ...models import AuditEntry, DuplicateEvent, DuplicateResult, DuplicateRound
from ..tournaments.audit import Actor, AuditLine, audit, audit_trail, place, worded

# who writes an online table's result, or ends it without one (as the online bridge's entries)
ONLINE_GAME = Actor(label="online game")


def actor_of(user: Any, label: str) -> Actor:
    return Actor(label=(label or (user.display_name if user is not None else ""))[:120], user=user)


def created(ev: DuplicateEvent, actor: Actor, rounds: int) -> None:
    after: dict[str, Any] = {
        "variant": ev.variant,
        "format": ev.kind,
        "entrants": list(ev.entrants),
        "boards_per_round": ev.boards_per_round,
        "rounds": rounds,
        "seed": ev.seed,
    }
    if ev.kind == "teams":
        after["team_pairing"] = ev.pairing
    audit(ev, actor, "duplicate_create", ev.name, None, after)


def _value(ev: DuplicateEvent, r: DuplicateResult) -> dict[str, Any]:
    if ev.variant == RED_FIVE:
        return {"scores": list(r.scores or ())}
    return {"declarer": r.declarer, "total": r.total}


def snapshot(ev: DuplicateEvent, board: int) -> dict[tuple[int, int], dict[str, Any]]:
    """Each table's line of ``board`` as recorded: (round, table) → its value."""
    return {(r.round, r.table_no): _value(ev, r) for r in ev.results if r.board == board}


def traveller(
    ev: DuplicateEvent,
    board: int,
    before: dict[tuple[int, int], dict[str, Any]],
    actor: Actor | None,
    reason: str | None = None,
) -> None:
    """An entry per table whose line of ``board`` changed since ``before``: typed in (no line
    before), corrected, or removed (left empty); a correction or a removal with ``reason``."""
    now = snapshot(ev, board)
    who = actor or Actor(label="")
    for rnd, table in sorted(set(before) | set(now)):
        old, new = before.get((rnd, table)), now.get((rnd, table))
        if old == new:
            continue
        action = (
            "duplicate_result"
            if old is None
            else "duplicate_remove"
            if new is None
            else "duplicate_correct"
        )
        why = reason if old is not None else None
        audit(ev, who, action, place(rnd, table, board=board), old, new, reason=why)


def online_differs(
    ev: DuplicateEvent,
    board: int,
    rnd: int,
    table: int,
    typed: tuple[int, ...],
    played: tuple[int, ...],
) -> None:
    """An online table finished a board whose line a director had typed meanwhile, with
    another result: the typed line stands (results never overwrite each other), and the trail
    keeps what was played, for the director to decide."""
    if ev.variant == RED_FIVE:
        before: dict[str, Any] = {"scores": list(typed)}
        after: dict[str, Any] = {"scores": list(played)}
    else:
        before = {"declarer": typed[0], "total": typed[1]}
        after = {"declarer": played[0], "total": played[1]}
    audit(
        ev, ONLINE_GAME, "duplicate_online_differs", place(rnd, table, board=board), before, after
    )


def imported(ev: DuplicateEvent, actor: Actor, rounds: int, results: int) -> None:
    """The event came from an event file (its own trail stayed behind: the file has none)."""
    after: dict[str, Any] = {
        "variant": ev.variant,
        "format": ev.kind,
        "entrants": list(ev.entrants),
    }
    after |= {"paired_rounds": rounds, "results": results, "seed": ev.seed}
    audit(ev, actor, "duplicate_import", ev.name, None, after)


def paired(ev: DuplicateEvent, row: DuplicateRound, actor: Actor) -> None:
    after: dict[str, Any] = {"matches": [[ev.entrants[a], ev.entrants[b]] for a, b in row.pairs]}
    if row.bye is not None:
        after["bye"] = ev.entrants[row.bye]
    audit(ev, actor, "duplicate_pair", place(row.round), None, after)


def online(ev: DuplicateEvent, rnd: int, tables: int, actor: Actor) -> None:
    audit(
        ev,
        actor,
        "duplicate_online",
        place(rnd),
        {"mode": "paper"},
        {"mode": "online", "tables": tables},
    )


def no_result(ev: DuplicateEvent, board: int, rnd: int, table: int, outcome: str) -> None:
    """An online board that ended without a result (nobody called): no traveller line."""
    where = place(rnd, table, board=board)
    audit(ev, ONLINE_GAME, "duplicate_no_result", where, None, {"outcome": outcome})


def lines(ev: DuplicateEvent, entries: list[AuditEntry] | None = None) -> list[AuditLine]:
    """The event's trail for the reader: sides and seats as the entrants at each table."""
    from .events import entrant_label, movement_of  # events writes the trail: imported late

    m = movement_of(ev)
    at = {(s.round, s.table): [entrant_label(ev, e) for e in s.seats] for s in m.sittings}

    def names_of(p: dict[str, int] | None) -> tuple[list[str], list[str]] | None:
        if p is None or "table" not in p:
            return None
        labels = at.get((p["round"], p["table"]))
        if labels is None:
            return None
        return ([], labels) if ev.variant == RED_FIVE else (labels, [])

    return worded(audit_trail(ev) if entries is None else entries, names_of)
