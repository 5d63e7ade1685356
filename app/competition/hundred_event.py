"""打百分 events (``shared/rules/HUNDRED.md`` §8): standings and the next round's seating.

- Individual events (``hundred-4p`` friend shown / hidden / blind, ``hundred-3p``): each seat
  scores its 积分 (the units of ``hundred.derive_hundred``); the rows are red five's
  (``RedFiveStanding``): ``score``, then ``dealer_wins`` — the deals won on the declarer's side,
  as declarer or friend —, then the name. Each round re-seats them as red five does
  (``pairing.reseat_round``) at tables of 4 (3 in 3人百分).
- Pair events (``hundred-4p`` fixed, ``forty-4p``): a match is a number of deals (or a time
  limit); each side scores its deals' units, the side with more wins (``points``: win, draw,
  loss); the rows are fixed sides' (``FixedStanding``) with ``level_diff`` holding 分差, the sum
  of the units' differences, in its place as the tie-break; then 对手分 and the name. A bye
  scores ``points.bye`` with 分差 0; a forfeit wins the present side with 分差
  ``points.forfeit_level_diff`` and loses the absent one as much. Round robin and Swiss seat them
  as for the other fixed-side games (``pairing.pair_next_round``).
"""

from __future__ import annotations

from collections.abc import Callable

from .hundred import HundredTable, derive_hundred, hundred_variant, table_size
from .model import Round, Table, Tournament
from .standings import FixedStanding, HistoryEntry, RedFiveStanding


def _rounds(t: Tournament, through_round: int | None) -> list[Round]:
    return [r for r in t.played if through_round is None or r.round <= through_round]


def individual_standings(t: Tournament, through_round: int | None = None) -> list[RedFiveStanding]:
    variant = hundred_variant(t.variant, t.options)
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
            tab = derive_hundred(variant, t.match, table)
            if not tab.counts:
                for name in table.players:
                    row(name).in_progress += 1
                continue
            for seat, name in enumerate(table.players):
                r = row(name)
                r.tables += 1
                r.deals += tab.deals
                r.score += tab.totals[seat]
                r.dealer_wins += tab.declarer_wins[seat]
                r.tablemates += [p for p in table.players if p != name]
    ordered = sorted(rows.values(), key=lambda r: (-r.score, -r.dealer_wins, r.entrant))
    for i, r in enumerate(ordered, 1):
        r.rank = i
    return ordered


def pair_standings(t: Tournament, through_round: int | None = None) -> list[FixedStanding]:
    variant = hundred_variant(t.variant, t.options)
    pts = t.points
    rows: dict[str, FixedStanding] = {e.name: FixedStanding(e.name) for e in t.entrants}

    def row(name: str) -> FixedStanding:
        if name not in rows:
            rows[name] = FixedStanding(name)
        return rows[name]

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
                for side in (0, 1):
                    r = row(sides[side])
                    r.played += 1
                    absent = side == table.forfeit
                    r.match_points += pts.loss if absent else pts.win
                    r.level_diff += -pts.forfeit_level_diff if absent else pts.forfeit_level_diff
                    r.losses += absent
                    r.wins += not absent
                    r.forfeits += absent
                    r.opponents.append(sides[1 - side])
                continue
            tab = derive_hundred(variant, t.match, table)
            if not tab.counts:
                row(sides[0]).in_progress += 1
                row(sides[1]).in_progress += 1
                continue
            _add_match(tab, sides, row, pts.win, pts.draw, pts.loss)
    for r in rows.values():
        r.opponents_points = sum(rows[o].match_points for o in r.opponents)
    ordered = sorted(
        rows.values(),
        key=lambda r: (-r.match_points, -r.level_diff, -r.opponents_points, r.entrant),
    )
    for i, r in enumerate(ordered, 1):
        r.rank = i
    return ordered


def _add_match(
    tab: HundredTable,
    sides: tuple[str, str],
    row: Callable[[str], FixedStanding],
    win: int,
    draw: int,
    loss: int,
) -> None:
    for side in (0, 1):
        r = row(sides[side])
        r.played += 1
        outcome = tab.outcome(side)
        r.match_points += {"win": win, "draw": draw, "loss": loss}[outcome]
        r.level_diff += tab.margin(side)
        r.wins += outcome == "win"
        r.draws += outcome == "draw"
        r.losses += outcome == "loss"
        r.opponents.append(sides[1 - side])


def hundred_standings(
    t: Tournament, through_round: int | None = None
) -> list[FixedStanding] | list[RedFiveStanding]:
    if t.fixed_sides:
        return pair_standings(t, through_round)
    return individual_standings(t, through_round)


def hundred_history(t: Tournament, name: str) -> list[HistoryEntry]:
    """Every round in which ``name`` had a table or a bye, in order (``entrant_history``)."""
    variant = hundred_variant(t.variant, t.options)
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
                if table.forfeit is not None:
                    absent = side == table.forfeit
                    diff = t.points.forfeit_level_diff
                    out.append(
                        HistoryEntry(
                            rnd.round,
                            table.table,
                            counted=True,
                            side=side,
                            opponent=table.sides[1 - side],
                            outcome="loss" if absent else "win",
                            match_points=t.points.loss if absent else t.points.win,
                            level_diff=-diff if absent else diff,
                            forfeit=True,
                        )
                    )
                    continue
                tab = derive_hundred(variant, t.match, table)
                outcome = tab.outcome(side) if tab.counts else None
                out.append(
                    HistoryEntry(
                        rnd.round,
                        table.table,
                        counted=tab.counts,
                        side=side,
                        opponent=table.sides[1 - side],
                        outcome=outcome,
                        match_points=0 if outcome is None else getattr(t.points, outcome),
                        level_diff=tab.margin(side) if tab.counts else 0,
                        deals=tab.deals,
                    )
                )
            elif table.players and name in table.players:
                seat = table.players.index(name)
                tab = derive_hundred(variant, t.match, table)
                out.append(
                    HistoryEntry(
                        rnd.round,
                        table.table,
                        counted=tab.counts,
                        seat=seat,
                        tablemates=tuple(p for p in table.players if p != name),
                        score=tab.totals[seat],
                        dealer_wins=tab.declarer_wins[seat],
                        deals=tab.deals,
                    )
                )
    return out


def reseat_next_round(t: Tournament, round_no: int) -> Round:
    """An individual event's next round: red five's re-seating at tables of 4 (3 in 3人百分),
    by the standing, the leftover players sitting out (``pairing.reseat_round``)."""
    from .pairing import _tablemates, reseat_round

    drawn = t.drawn_entrants
    live = {e.name for e in t.active_entrants(round_no)}
    order = {e.name: i for i, e in enumerate(drawn)}
    rows = individual_standings(t)
    ranked = [
        r.entrant
        for r in sorted(rows, key=lambda r: (-r.score, -r.dealer_wins, order.get(r.entrant, 0)))
        if r.entrant in live
    ]
    history = [[tab.players for tab in rnd.tables if tab.players] for rnd in t.played]
    seat = reseat_round(
        ranked,
        _tablemates(t),
        {r.entrant: r.byes for r in rows},
        history=history,
        size=table_size(t.variant),
    )
    tables = [Table(i + 1, players=tuple(p)) for i, p in enumerate(seat.tables)]
    tables += [Table(len(tables) + j + 1, bye=b) for j, b in enumerate(seat.byes)]
    return Round(round_no, tuple(tables))
