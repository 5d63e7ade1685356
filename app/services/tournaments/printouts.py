"""What the printed sheets show: rows and derived matches mapped into ``app.printing``'s
dataclasses (score sheets, a round's pack, the standings). The layout itself is ``app.printing``'s.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, has_request_context, url_for

from engine.variants import CLIMBING

from ... import printing as pr
from ...competition import model as cm
from ...competition import presets
from ...competition.climbing import ClimbingTable
from ...competition.hundred import HundredDeal, HundredTable, is_hundred
from ...competition.matches import FixedMatch, RedFiveTable
from ...extensions import db
from ...models import Club, Round, Table, Tournament
from .rows import deal_from_row, load, seat_names
from .sheets import online_tables, sheet


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
                penalties=tuple((k, str(w)) for k, w in d.penalties),
                warnings=tuple(seat for seat, _reason in d.warnings),
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
                penalties=tuple((k, int(w)) for k, w in d.penalties),
                warnings=tuple(seat for seat, _reason in d.warnings),
            )
        )
    return tuple(out)


def _climbing_deals(m: ClimbingTable, deals: list[cm.Deal]) -> tuple[pr.ClimbingDeal, ...]:
    out = []
    for row, d in zip(m.rows, deals, strict=False):
        tr = row.tribute
        out.append(
            pr.ClimbingDeal(
                places=row.places,
                tribute=(tr.giver, tr.receiver, tr.card) if tr is not None else None,
                scores=row.scores,
                penalties=tuple((k, int(w)) for k, w in d.penalties),
                warnings=tuple(seat for seat, _reason in d.warnings),
            )
        )
    return tuple(out)


def _hundred_deals(m: HundredTable, deals: list[cm.Deal]) -> tuple[pr.HundredDeal, ...]:
    """打百分's rows as typed, with the engine's result and units (``competition.hundred``)."""
    out = []
    for row, d in zip(m.rows, deals, strict=False):
        assert isinstance(d, HundredDeal)
        out.append(
            pr.HundredDeal(
                declarer=row.declarer,
                trump=d.trump or "S",
                points=None if row.ended_by else d.points,
                bid=d.bid,
                turned=d.turned or "",
                friend_card=d.friend_card or "",
                friend=row.friend,
                kou_di=row.kou_di,
                kitty=d.kitty_points,
                winner=row.winner,
                units=row.units,
                scores=row.scores,
                penalties=tuple((k, str(w)) for k, w in d.penalties),
                warnings=tuple(seat for seat, _reason in d.warnings),
            )
        )
    return tuple(out)


def seat_links(t: Tournament, tab: Table) -> tuple[pr.SeatLink, ...]:
    """An online table's seat addresses for its card's QR codes (none for a paper table, or
    where no address can be built: a command run without ``SERVER_NAME``)."""
    if tab.mode != "online" or not (has_request_context() or current_app.config["SERVER_NAME"]):
        return ()
    club = db.session.get(Club, t.club_id)
    assert club is not None
    return tuple(pr.SeatLink(url, name) for url, name in online_tables().seat_links(tab, club))


def entry_url(tab: Table) -> str:
    """A paper table's score-entry page (its table-code page), for the QR code on its card; ""
    for an online table, a table without a code, or where no address can be built."""
    if tab.mode == "online" or not tab.code:
        return ""
    if not (has_request_context() or current_app.config["SERVER_NAME"]):
        return ""
    return url_for("tournaments.code_sheet", code=tab.code, _external=True)


def score_sheet(t: Tournament, tab: Table, club_name: str, with_code: bool = True) -> pr.ScoreSheet:
    sides, seats = seat_names(tab)
    deals = [deal_from_row(d) for d in tab.deals]
    derived = sheet(t, tab)
    rows: (
        tuple[pr.FixedDeal, ...]
        | tuple[pr.RedFiveDeal, ...]
        | tuple[pr.ClimbingDeal, ...]
        | tuple[pr.HundredDeal, ...]
    )
    if isinstance(derived, HundredTable):
        rows = _hundred_deals(derived, deals)
    elif isinstance(derived, FixedMatch):
        rows = _fixed_deals(derived, deals)
    elif isinstance(derived, ClimbingTable):
        rows = _climbing_deals(derived, deals)
    else:
        assert isinstance(derived, RedFiveTable)
        rows = _red_five_deals(derived, deals)
    return pr.ScoreSheet(
        tournament=t.name,
        club=club_name,
        round=tab.round.number,
        table=tab.number,
        variant=t.variant,
        seats=tuple(seats),
        sides=tuple(sides),
        options=dict(t.options or {}),
        match=dict(t.match),
        deals=rows,
        entry_code=(tab.code or "") if with_code else "",
        finished=tab.finished,
        links=seat_links(t, tab),
        preset=preset_name(t),
        entry_url=entry_url(tab) if with_code else "",
    )


def preset_name(t: Tournament) -> str:
    """The bilingual name of the rule preset the tournament started from ("" for none)."""
    chosen = presets.preset(t.preset)
    return chosen.printed if chosen is not None else ""


def round_pack(t: Tournament, rnd: Round, club_name: str) -> pr.RoundPack:
    sheets = tuple(score_sheet(t, tab, club_name) for tab in rnd.tables if tab.kind != "bye")
    byes = tuple(tab.seats[0].entrant.name for tab in rnd.tables if tab.kind == "bye")
    return pr.RoundPack(t.name, club_name, rnd.number, t.variant, sheets, byes)


def standings_doc(t: Tournament, club_name: str) -> pr.Standings:
    loaded = load(t)
    rows = []
    for r in loaded.standings:
        row: dict[str, Any] = r.as_json()
        if t.variant == CLIMBING:  # 争上游's tie-break: deals won (上游)
            row["wins"] = row.pop("dealer_wins")
        elif is_hundred(t.variant) and "level_diff" in row:  # 打百分's pairs: 分差
            row["unit_diff"] = row.pop("level_diff")
        elif is_hundred(t.variant):  # 打百分's individuals: deals won as declarer's side
            row["declarer_wins"] = row.pop("dealer_wins")
        if r.in_progress:
            row["note"] = "进行中 in progress"
        rows.append(row)
    closed = [n for n, st in loaded.round_status.items() if st == "closed"]
    return pr.Standings(
        t.name, club_name, t.variant, tuple(rows), after_round=max(closed) if closed else None
    )
