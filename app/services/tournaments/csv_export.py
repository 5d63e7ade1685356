"""A tournament's CSV files (standings, every deal), safe to open in a spreadsheet: a cell that
a spreadsheet would read as a formula (starting with ``=``, ``+``, ``-``, ``@``, tab or carriage
return) gets a leading apostrophe. Numbers the app computes (a negative 级差 or 积分) stay numbers,
so a spreadsheet can sum and sort them; typed text such as a name ``-2`` is still neutralized."""

from __future__ import annotations

import csv
import io

from ...competition import model as cm
from ...competition.climbing import ClimbingRow, derive_climbing
from ...competition.hundred import HundredDeal, derive_hundred, hundred_variant, is_hundred
from ...competition.matches import FixedMatch, FixedRow
from ...competition.standings import FixedStanding, RedFiveStanding, derive_table
from ...models import Tournament
from .rows import load

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def _csv(rows: list[list[object]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    for row in rows:
        w.writerow([safe_cell(v) for v in row])
    return buf.getvalue()


def standings_csv(t: Tournament) -> str:
    loaded = load(t)
    rows: list[list[object]] = []
    if loaded.tournament.fixed_sides:
        rows.append(
            [
                "rank",
                "entrant",
                "players",
                "played",
                "match_points",
                "unit_diff" if is_hundred(t.variant) else "level_diff",  # 打百分: 分差
                "opponents_points",
                "wins",
                "draws",
                "losses",
                "byes",
            ]
        )
        players = {e.name: " / ".join(e.players) for e in loaded.tournament.entrants}
        for r in loaded.standings:
            assert isinstance(r, FixedStanding)
            rows.append(
                [
                    r.rank,
                    r.entrant,
                    players.get(r.entrant, ""),
                    r.played,
                    r.match_points,
                    r.level_diff,
                    r.opponents_points,
                    r.wins,
                    r.draws,
                    r.losses,
                    r.byes,
                ]
            )
    else:
        rows.append(["rank", "entrant", "deals", "score", "dealer_wins", "byes"])
        for r in loaded.standings:
            assert isinstance(r, RedFiveStanding)
            rows.append([r.rank, r.entrant, r.deals, r.score, r.dealer_wins, r.byes])
    return _csv(rows)


def deals_csv(t: Tournament) -> str:
    loaded = load(t)
    comp = loaded.tournament
    if is_hundred(comp.variant):
        return _hundred_deals_csv(comp)
    variant = comp.rules
    if comp.climbing:
        return _climbing_deals_csv(comp)
    rows: list[list[object]] = [
        [
            "round",
            "table",
            "deal",
            "side_0",
            "side_1",
            "players",
            "declarer",
            "dealer",
            "friend",
            "trump",
            "points",
            "kitty",
            "multiplier",
            "failed_throws",
            "misplays",
            "level",
            "total",
            "winner",
            "levels_after",
            "penalties",
            "warnings",
            "ended_by",
        ]
    ]
    for rnd in comp.played:
        for tab in rnd.tables:
            if tab.bye is not None:
                continue
            derived = derive_table(variant, comp.match, tab)
            for i, d in enumerate(tab.deals):
                ft = d.failed_throws
                ft_text = (
                    f"{ft.declarer}/{ft.attackers}"
                    if isinstance(ft, cm.FailedThrows) and ft
                    else " ".join(str(s) for s in ft)
                    if isinstance(ft, tuple)
                    else ""
                )
                total = winner = after = ended = ""
                if i < len(derived.rows):
                    row = derived.rows[i]
                    if isinstance(row, ClimbingRow):  # 争上游 has its own file (above)
                        continue
                    total = "" if row.total is None else str(row.total)
                    winner = row.winner
                    if isinstance(row, FixedRow):
                        ended = row.result.ended_by or ""
                    if isinstance(derived, FixedMatch):
                        after = "/".join(derived.rows[i].levels_after)
                    else:
                        after = " ".join(str(x) for x in derived.rows[i].totals)
                sides = tab.sides or ("", "")
                rows.append(
                    [
                        rnd.round,
                        tab.table,
                        i + 1,
                        sides[0],
                        sides[1],
                        " / ".join(tab.players or ()),
                        d.declarer,
                        d.dealer,
                        d.friend,
                        d.trump or "NT",
                        d.points,
                        d.kitty,
                        d.multiplier or "",
                        ft_text,
                        " ".join(str(m) for m in d.misplays),
                        d.level or "",
                        total,
                        winner,
                        after,
                        "; ".join(f"{kind} {who}" for kind, who in d.penalties),
                        "; ".join(f"{seat}: {reason}" for seat, reason in d.warnings),
                        ended,
                    ]
                )
    return _csv(rows)


def _climbing_deals_csv(comp: cm.Tournament) -> str:
    """争上游's rows: each seat's place and the tribute as typed, then each seat's points for
    the deal and the running totals (seats 0 … n − 1, in the order of ``players``)."""
    rows: list[list[object]] = [
        [
            "round",
            "table",
            "deal",
            "players",
            "places",
            "tribute",
            "scores",
            "totals_after",
            "penalties",
            "warnings",
        ]
    ]
    for rnd in comp.played:
        for tab in rnd.tables:
            if tab.bye is not None:
                continue
            derived = derive_climbing(comp.rules, comp.match, tab)
            for i, d in enumerate(tab.deals):
                scores = after = ""
                if i < len(derived.rows):
                    scores = " ".join(str(x) for x in derived.rows[i].scores)
                    after = " ".join(str(x) for x in derived.rows[i].totals)
                tr = d.tribute
                rows.append(
                    [
                        rnd.round,
                        tab.table,
                        i + 1,
                        " / ".join(tab.players or ()),
                        " ".join(str(p) for p in d.places or ()),
                        f"{tr.giver}>{tr.receiver} {tr.card}" if tr is not None else "",
                        scores,
                        after,
                        "; ".join(f"{kind} {who}" for kind, who in d.penalties),
                        "; ".join(f"{seat}: {reason}" for seat, reason in d.warnings),
                    ]
                )
    return _csv(rows)


def _hundred_deals_csv(comp: cm.Tournament) -> str:
    """打百分's rows as typed (HUNDRED.md §8), then the result, the units and each seat's units
    for the deal and running (seats 0 … n − 1 in the order of ``players``; in a pair event
    side A holds seats 0 and 2)."""
    variant = hundred_variant(comp.variant, comp.options)
    rows: list[list[object]] = [
        [
            "round",
            "table",
            "deal",
            "players",
            "declarer",
            "bid",
            "turned",
            "trump",
            "friend_card",
            "friend",
            "points",
            "kou_di",
            "kitty",
            "winner",
            "units",
            "scores",
            "totals_after",
            "penalties",
            "warnings",
        ]
    ]
    for rnd in comp.played:
        for tab in rnd.tables:
            if tab.bye is not None or tab.forfeit is not None:
                continue
            derived = derive_hundred(variant, comp.match, tab)
            players = tab.players or (seat_players_of(comp, tab) if tab.sides else ())
            for i, d in enumerate(tab.deals):
                if not isinstance(d, HundredDeal):
                    continue
                winner = units = scores = after = ""
                if i < len(derived.rows):
                    row = derived.rows[i]
                    winner, units = row.winner, str(row.units)
                    scores = " ".join(str(x) for x in row.scores)
                    after = " ".join(str(x) for x in row.totals)
                rows.append(
                    [
                        rnd.round,
                        tab.table,
                        i + 1,
                        " / ".join(players),
                        d.declarer,
                        "" if d.bid is None else d.bid,
                        d.turned or "",
                        d.trump or "",
                        d.friend_card or "",
                        "" if d.friend is None else d.friend,
                        d.points,
                        "yes" if d.kou_di else "no",
                        "" if d.kitty_points is None else d.kitty_points,
                        winner,
                        units,
                        scores,
                        after,
                        "; ".join(f"{kind} {who}" for kind, who in d.penalties),
                        "; ".join(f"{seat}: {reason}" for seat, reason in d.warnings),
                    ]
                )
    return _csv(rows)


def seat_players_of(comp: cm.Tournament, tab: cm.Table) -> list[str]:
    """A pair table's players by seat: side A's first player, side B's, then their seconds."""
    assert tab.sides is not None
    by = comp.entrant_map
    a, b = by.get(tab.sides[0]), by.get(tab.sides[1])
    if a is None or b is None:
        return []
    return cm.seat_players((a, b))
