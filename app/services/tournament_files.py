"""A tournament's files: PDFs (mapped into ``app.printing``), CSV and the tournament file.

PDF layout is ``app.printing``'s; this module only maps rows and derived matches into its
dataclasses. CSV cells that a spreadsheet would read as a formula (starting with ``=``, ``+``,
``-``, ``@``, tab or carriage return) get a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from .. import printing as pr
from ..competition import model as cm
from ..competition.matches import FixedMatch, RedFiveTable
from ..competition.standings import FixedStanding, RedFiveStanding
from ..competition.tfile import dump
from ..models import Round, Table, Tournament
from . import tournaments as svc

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _seats(t: Tournament, tab: Table) -> tuple[tuple[str, ...], tuple[str, ...]]:
    entrants = svc.table_entrants(tab)
    if tab.kind == "sides":
        a, b = entrants
        sides = (a.name, b.name)
        seats = tuple(
            cm.seat_players(
                (
                    cm.Entrant(a.name, tuple(p.name for p in a.players)),
                    cm.Entrant(b.name, tuple(p.name for p in b.players)),
                )
            )
        )
        return seats, sides
    return tuple(e.name for e in entrants), ()


def _fixed_deals(m: FixedMatch, deals: list[cm.Deal]) -> tuple[pr.FixedDeal, ...]:
    out = []
    for row, d in zip(m.rows, deals, strict=False):
        ft = d.failed_throws
        out.append(
            pr.FixedDeal(
                declarer=row.declarer,
                trump=d.trump,
                points=d.points,
                kitty=d.kitty,
                multiplier=d.multiplier,
                failed_throws=(ft.declarer, ft.attackers)
                if isinstance(ft, cm.FailedThrows)
                else (0, 0),
                misplays=tuple(d.misplays),
                level=row.level,
                total=row.total,
                winner=row.winner_side,
                gain=row.gain,
                levels=row.levels_after,
                passed_a=row.passed,
            )
        )
    return tuple(out)


def _red_five_deals(m: RedFiveTable, deals: list[cm.Deal]) -> tuple[pr.RedFiveDeal, ...]:
    out = []
    for row, d in zip(m.rows, deals, strict=False):
        ft = d.failed_throws
        out.append(
            pr.RedFiveDeal(
                dealer=row.dealer,
                friend=row.friend,
                trump=d.trump or "S",
                points=d.points,
                kitty=d.kitty,
                multiplier=d.multiplier,
                failed_throws=tuple(ft) if isinstance(ft, tuple) else (),
                friend_grabbed=d.friend_grabbed,
                total=row.total,
                dealer_side_won=row.winner == "declarer",
                units=row.units,
                scores=row.scores,
            )
        )
    return tuple(out)


def score_sheet(t: Tournament, tab: Table, club_name: str, with_code: bool = True) -> pr.ScoreSheet:
    seats, sides = _seats(t, tab)
    deals = [svc.deal_from_row(d, t.variant) for d in tab.deals]
    derived = svc.sheet(t, tab)
    rows: tuple[pr.FixedDeal, ...] | tuple[pr.RedFiveDeal, ...]
    if isinstance(derived, FixedMatch):
        rows = _fixed_deals(derived, deals)
    else:
        rows = _red_five_deals(derived, deals)
    return pr.ScoreSheet(
        tournament=t.name,
        club=club_name,
        round=tab.round.number,
        table=tab.number,
        variant=t.variant,
        seats=seats,
        sides=sides,
        options=dict(t.options or {}),
        match=dict(t.match),
        deals=rows,
        entry_code=(tab.code or "") if with_code else "",
        finished=tab.finished,
    )


def round_pack(t: Tournament, rnd: Round, club_name: str) -> pr.RoundPack:
    sheets = tuple(score_sheet(t, tab, club_name) for tab in rnd.tables if tab.kind != "bye")
    byes = tuple(tab.seats[0].entrant.name for tab in rnd.tables if tab.kind == "bye")
    return pr.RoundPack(t.name, club_name, rnd.number, t.variant, sheets, byes)


def standings_doc(t: Tournament, club_name: str) -> pr.Standings:
    loaded = svc.load(t)
    rows = []
    for r in loaded.standings:
        row: dict[str, Any] = r.as_json()
        if r.in_progress:
            row["note"] = "进行中 in progress"
        rows.append(row)
    closed = [n for n, st in loaded.round_status.items() if st == "closed"]
    return pr.Standings(
        t.name, club_name, t.variant, tuple(rows), after_round=max(closed) if closed else None
    )


# --- CSV ----------------------------------------------------------------------------------------


def safe_cell(value: object) -> str:
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
    loaded = svc.load(t)
    rows: list[list[object]] = []
    if loaded.tournament.fixed_sides:
        rows.append(
            [
                "rank",
                "entrant",
                "players",
                "played",
                "match_points",
                "level_diff",
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
    loaded = svc.load(t)
    comp = loaded.tournament
    variant = comp.rules
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
        ]
    ]
    for rnd in comp.played:
        for tab in rnd.tables:
            if tab.bye is not None:
                continue
            derived = svc.derive(variant, comp.match, tab)
            for i, d in enumerate(tab.deals):
                ft = d.failed_throws
                ft_text = (
                    f"{ft.declarer}/{ft.attackers}"
                    if isinstance(ft, cm.FailedThrows) and ft
                    else " ".join(str(s) for s in ft)
                    if isinstance(ft, tuple)
                    else ""
                )
                total = winner = after = ""
                if i < len(derived.rows):
                    row = derived.rows[i]
                    total = str(row.total)
                    winner = row.winner
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
                    ]
                )
    return _csv(rows)


def export_json(t: Tournament) -> str:
    return json.dumps(dump(svc.load(t).tournament), ensure_ascii=False, indent=2) + "\n"
