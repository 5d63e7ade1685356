"""What the public standings pages show: the table of standings and one entrant's matches.

The standings and each entrant's history are computed by ``app.competition.standings``; this
module only adds what the pages link and draw (row ids, each table's derived deals)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...competition import model as cm
from ...competition.hundred import is_hundred
from ...competition.standings import (
    FixedStanding,
    RedFiveStanding,
    SheetTable,
    derive_tournament_table,
    entrant_history,
)
from ...models import Tournament
from .rows import Loaded, load


def standings_page(t: Tournament) -> dict[str, Any]:
    """The context of the public standings page and of its live partial."""
    loaded = load(t)
    return {
        "t": t,
        "club_name": loaded.tournament.club,
        "loaded": loaded,
        "rows": loaded.standings,
        "fixed": loaded.tournament.fixed_sides,
        "climbing": loaded.tournament.climbing,
        "hundred": is_hundred(t.variant),
        "rounds_status": sorted(loaded.round_status.items()),
        **current_clock(t),
    }


def current_clock(t: Tournament) -> dict[str, Any]:
    """The clock of the round in play (a match by time), for the standings and the projector."""
    from . import clock

    open_rounds = [r for r in t.rounds_played if r.status != "closed"]
    if not open_rounds or clock.minutes_of(t) is None:
        return {"clock": None, "clock_round": None}
    rnd = open_rounds[-1]
    return {"clock": clock.state(t, rnd), "clock_round": rnd.number}


@dataclass(frozen=True)
class HistoryMatch:
    """One round of an entrant: a bye, or the table with its derived deals and the result."""

    round: int
    table: cm.Table
    bye: bool = False
    derived: SheetTable | None = None
    deals: tuple[cm.Deal, ...] = ()
    # fixed sides (``outcome`` None while the match does not count yet)
    side: int | None = None
    opponent: str | None = None
    outcome: str | None = None
    level_diff: int = 0
    # red five
    seat: int | None = None
    score: int = 0


def entrant_matches(loaded: Loaded, name: str) -> list[HistoryMatch]:
    comp = loaded.tournament
    tables = {(rnd.round, tab.table): tab for rnd in comp.played for tab in rnd.tables}
    out = []
    for entry in entrant_history(comp, name):
        tab = tables[(entry.round, entry.table)]
        if entry.bye:
            out.append(HistoryMatch(entry.round, tab, bye=True))
            continue
        out.append(
            HistoryMatch(
                entry.round,
                tab,
                derived=derive_tournament_table(comp, tab),
                deals=tab.deals,
                side=entry.side,
                opponent=entry.opponent,
                outcome=entry.outcome,
                level_diff=entry.level_diff,
                seat=entry.seat,
                score=entry.score,
            )
        )
    return out


def history_page(t: Tournament, name: str) -> dict[str, Any]:
    """The context of an entrant's history page (the entrant row itself is the caller's)."""
    loaded = load(t)
    row: FixedStanding | RedFiveStanding | None = next(
        (r for r in loaded.standings if r.entrant == name), None
    )
    return {
        "t": t,
        "row": row,
        "matches": entrant_matches(loaded, name),
        "fixed": loaded.tournament.fixed_sides,
        "climbing": loaded.tournament.climbing,
        "hundred": is_hundred(t.variant),
        "club_name": loaded.tournament.club,
    }


def ranks_over_rounds(loaded: Loaded) -> tuple[list[str], dict[str, list[int]], list[str]]:
    """Each entrant's place after every round played so far (for the chart), and the final order.
    Derived once per version (kept on ``loaded``, the tournament cached per version): every
    standings page asks for it, and it derives the standings once per round. A copy each time,
    so that a caller's change never reaches the next page."""
    if loaded._ranks is None:
        loaded._ranks = _ranks_over_rounds(loaded)
    labels, ranks, final = loaded._ranks
    return list(labels), {name: list(places) for name, places in ranks.items()}, list(final)


def _ranks_over_rounds(loaded: Loaded) -> tuple[list[str], dict[str, list[int]], list[str]]:
    from ...competition.standings import standings as derive

    comp = loaded.tournament
    rounds = [r.round for r in comp.played]
    ranks: dict[str, list[int]] = {}
    for n in rounds:
        for row in derive(comp, through_round=n):
            ranks.setdefault(row.entrant, []).append(row.rank)
    final = [r.entrant for r in loaded.standings]
    return [f"R{n}" for n in rounds], ranks, final
