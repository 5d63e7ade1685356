"""Standings derived from the recorded deals (TOURNAMENT.md "Standings"), never from counters.

Fixed sides: match points (a bye scores ``points.bye`` with 级差 0; a forfeit wins the present
side ``forfeit_level_diff`` and loses the absent one as much; a match lost by strikes,
``strikes_lose_match``, counts as a forfeit loss), total 级差, opponents' points
(Buchholz over counted matches, forfeits included), then the name by code point.
Red five: total 积分, deals won on the dealer's side, then the name. 争上游 (climbing): the
same rows, points by place, deals won (上游), then the name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from engine.variants import CLIMBING, Variant

from .climbing import ClimbingTable, derive_climbing
from .hundred import HundredTable, derive_hundred, hundred_variant
from .matches import (
    FixedMatch,
    RedFiveTable,
    _fixed_final,
    _red_five_final,
    derive_fixed,
    derive_red_five,
    fixed_tables,
    needs_full_derivation,
    red_five_tables,
)
from .model import MatchSpec, PointsSpec, Round, Table, Tournament

# 打百分 (competition.hundred_event, imported inside the hooks below: it imports this module)
HUNDRED_IDS = ("hundred-4p", "forty-4p", "hundred-3p")


@dataclass
class FixedStanding:
    entrant: str
    played: int = 0  # counted matches at a table (byes not included)
    match_points: int = 0
    level_diff: int = 0
    opponents_points: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    forfeits: int = 0  # matches lost by not playing
    in_progress: int = 0  # tables not finished yet
    opponents: list[str] = field(default_factory=list)  # met in counted matches, in order
    rank: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "played": self.played,
            "match_points": self.match_points,
            "level_diff": self.level_diff,
            "opponents_points": self.opponents_points,
        }


@dataclass
class RedFiveStanding:
    entrant: str
    deals: int = 0
    score: int = 0
    dealer_wins: int = 0
    tables: int = 0  # counted tables
    byes: int = 0
    in_progress: int = 0
    tablemates: list[str] = field(default_factory=list)
    rank: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "deals": self.deals,
            "score": self.score,
            "dealer_wins": self.dealer_wins,
        }


SheetTable = FixedMatch | RedFiveTable | ClimbingTable | HundredTable


def derive_table(variant: Variant, spec: MatchSpec, table: Table) -> SheetTable:
    if variant.fixed_sides:
        return derive_fixed(variant, spec, table)
    if variant.id == CLIMBING:
        return derive_climbing(variant, spec, table)
    return derive_red_five(variant, spec, table)


def derive_tournament_table(t: Tournament, table: Table) -> SheetTable:
    """A table of ``t`` derived by its game's rules: 打百分's by ``hundred.derive_hundred``
    (its variants are not ``engine.variants``'), the others' by ``derive_table``."""
    if t.variant in HUNDRED_IDS:
        return derive_hundred(hundred_variant(t.variant, t.options), t.match, table)
    return derive_table(t.rules, t.match, table)


def _rounds(t: Tournament, through_round: int | None) -> list[Round]:
    if through_round is None:
        return list(t.played)
    return [r for r in t.played if r.round <= through_round]


def fixed_standings(t: Tournament, through_round: int | None = None) -> list[FixedStanding]:
    if t.variant in HUNDRED_IDS:  # 打百分's pair events (competition.hundred_event)
        from .hundred_event import (
            pair_standings,
        )

        return pair_standings(t, through_round)
    variant = t.rules
    tables = fixed_tables(variant)
    spec = t.match
    pts = t.points
    win_pts, draw_pts, loss_pts = pts.win, pts.draw, pts.loss
    rows: dict[str, FixedStanding] = {e.name: FixedStanding(e.name) for e in t.entrants}

    def row(name: str) -> FixedStanding:
        r = rows.get(name)
        if r is None:  # an entrant missing from the list: still shown, never dropped
            r = rows[name] = FixedStanding(name)
        return r

    for rnd in _rounds(t, through_round):
        for table in rnd.tables:
            if table.bye is not None:
                r = row(table.bye)
                r.byes += 1
                r.match_points += pts.bye_points
                continue
            sides = table.sides
            if sides is None:
                continue
            if table.forfeit is not None:
                _add_outcome(derive_fixed(variant, spec, table), sides, row, pts)
                continue
            if needs_full_derivation(spec, table):
                m = derive_fixed(variant, spec, table)
                if m.counts and (m.struck is not None or m.tie_winner is not None):
                    # lost by strikes (a forfeit loss), or equal levels decided by the tie-break
                    _add_outcome(m, sides, row, pts)
                    continue
                final = m.values if m.counts else None
            else:
                final = _fixed_final(tables, spec, table)
            if final is None:
                row(sides[0]).in_progress += 1
                row(sides[1]).in_progress += 1
                continue
            diff = final[0] - final[1]
            r0, r1 = row(sides[0]), row(sides[1])
            r0.played += 1
            r1.played += 1
            r0.level_diff += diff
            r1.level_diff -= diff
            if diff > 0:
                r0.match_points += win_pts
                r0.wins += 1
                r1.match_points += loss_pts
                r1.losses += 1
            elif diff < 0:
                r0.match_points += loss_pts
                r0.losses += 1
                r1.match_points += win_pts
                r1.wins += 1
            else:
                r0.match_points += draw_pts
                r0.draws += 1
                r1.match_points += draw_pts
                r1.draws += 1
            r0.opponents.append(sides[1])
            r1.opponents.append(sides[0])
    for r in rows.values():
        r.opponents_points = sum(rows[o].match_points for o in r.opponents)
    ordered = sorted(
        rows.values(),
        key=lambda r: (-r.match_points, -r.level_diff, -r.opponents_points, r.entrant),
    )
    for i, r in enumerate(ordered, 1):
        r.rank = i
    return ordered


def _add_outcome(
    m: FixedMatch,
    sides: tuple[str, str],
    row: Callable[[str], FixedStanding],
    pts: PointsSpec,
) -> None:
    for side in (0, 1):
        r = row(sides[side])
        r.played += 1
        outcome = m.outcome(side)
        r.match_points += getattr(pts, outcome)
        r.level_diff += m.level_diff(side, pts.forfeit_level_diff)
        if outcome == "win":
            r.wins += 1
        elif outcome == "draw":
            r.draws += 1
        else:
            r.losses += 1
            if m.forfeit_loser == side:
                r.forfeits += 1
        r.opponents.append(sides[1 - side])


def red_five_standings(t: Tournament, through_round: int | None = None) -> list[RedFiveStanding]:
    """Red five's by 积分, then deals won on the dealer's side; 争上游's (the same rows) by points
    by place, then deals won (上游), then the name (CLIMBING.md §4); 打百分's individual events
    by their own rules (competition.hundred_event)."""
    if t.variant in HUNDRED_IDS:  # 打百分's individual events (competition.hundred_event)
        from .hundred_event import (
            individual_standings,
        )

        return individual_standings(t, through_round)
    variant = t.rules
    tables = red_five_tables(variant) if variant.id != CLIMBING else None
    spec = t.match
    rows: dict[str, RedFiveStanding] = {e.name: RedFiveStanding(e.name) for e in t.entrants}

    def row(name: str) -> RedFiveStanding:
        if name not in rows:
            rows[name] = RedFiveStanding(name)
        return rows[name]

    for rnd in _rounds(t, through_round):
        for table in rnd.tables:
            if table.bye is not None:
                row(table.bye).byes += 1
                continue
            if table.players is None:
                continue
            if tables is None:
                tab = derive_climbing(variant, spec, table)
                final = (tab.totals, tab.wins, tab.deals) if tab.counts else None
            else:
                final = _red_five_final(tables, spec, table)
            if final is None:
                for name in table.players:
                    row(name).in_progress += 1
                continue
            totals, dealer_wins, deals = final
            for seat, name in enumerate(table.players):
                r = row(name)
                r.tables += 1
                r.deals += deals
                r.score += totals[seat]
                r.dealer_wins += dealer_wins[seat]
                r.tablemates += [p for p in table.players if p != name]
    ordered = sorted(rows.values(), key=lambda r: (-r.score, -r.dealer_wins, r.entrant))
    for i, r in enumerate(ordered, 1):
        r.rank = i
    return ordered


def standings(
    t: Tournament, through_round: int | None = None
) -> list[FixedStanding] | list[RedFiveStanding]:
    if t.fixed_sides:
        return fixed_standings(t, through_round)
    return red_five_standings(t, through_round)


def standings_json(t: Tournament, through_round: int | None = None) -> list[dict[str, Any]]:
    """What ``flask tournament standings NAME --json`` prints: a list, best first. 争上游's
    rows name their tie-break ``wins`` (deals won, 上游), not red five's ``dealer_wins``."""
    rows = [r.as_json() for r in standings(t, through_round)]
    if t.climbing:
        rows = [{("wins" if k == "dealer_wins" else k): v for k, v in r.items()} for r in rows]
    return rows


@dataclass(frozen=True)
class HistoryEntry:
    """One round of one entrant, for the per-entrant history page."""

    round: int
    table: int
    bye: bool = False
    counted: bool = False  # the match or table counts (False: in progress)
    # fixed sides
    side: int | None = None
    opponent: str | None = None
    outcome: str | None = None  # "win", "draw", "loss" (a bye: "win" when it scores as one)
    match_points: int = 0
    level_diff: int = 0
    levels: tuple[str, str] | None = None  # own final level, the opponent's
    passed_a: bool = False
    forfeit: bool = False  # the match was decided by a forfeit
    # red five
    seat: int | None = None
    tablemates: tuple[str, ...] = ()
    score: int = 0
    dealer_wins: int = 0
    deals: int = 0


def entrant_history(t: Tournament, name: str) -> list[HistoryEntry]:
    """Every round in which ``name`` had a table or a bye, in order."""
    if t.variant in HUNDRED_IDS:  # 打百分 (competition.hundred_event)
        from .hundred_event import (
            hundred_history,
        )

        return hundred_history(t, name)
    variant = t.rules
    out: list[HistoryEntry] = []
    for rnd in t.played:
        for table in rnd.tables:
            if table.bye == name:
                out.append(
                    HistoryEntry(
                        rnd.round,
                        table.table,
                        bye=True,
                        counted=True,
                        outcome="win" if t.fixed_sides else None,
                        match_points=t.points.bye_points if t.fixed_sides else 0,
                    )
                )
            elif table.sides and name in table.sides:
                side = table.sides.index(name)
                m = derive_fixed(variant, t.match, table)
                entry = HistoryEntry(
                    rnd.round,
                    table.table,
                    counted=m.counts,
                    side=side,
                    opponent=table.sides[1 - side],
                    levels=(m.levels[side], m.levels[1 - side]),
                    passed_a=m.passed_side == side,
                    forfeit=m.forfeit_loser is not None,
                    deals=len(m.rows),
                )
                if m.counts:
                    outcome = m.outcome(side)
                    entry = replace(
                        entry,
                        outcome=outcome,
                        match_points=getattr(t.points, outcome),
                        level_diff=m.level_diff(side, t.points.forfeit_level_diff),
                    )
                out.append(entry)
            elif table.players and name in table.players:
                seat = table.players.index(name)
                tab = derive_table(variant, t.match, table)
                assert not isinstance(tab, FixedMatch | HundredTable)  # 打百分: hundred_history
                out.append(
                    HistoryEntry(
                        rnd.round,
                        table.table,
                        counted=tab.counts,
                        seat=seat,
                        tablemates=tuple(p for p in table.players if p != name),
                        score=tab.totals[seat],
                        dealer_wins=tab.dealer_wins[seat],
                        deals=tab.deals,
                    )
                )
    return out
