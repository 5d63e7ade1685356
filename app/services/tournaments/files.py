"""The tournament file (``shared/formats/TOURNAMENT.md``, JSON): importing one into the database
and exporting a tournament as one. Reading and checking the file is ``app.competition.tfile``'s."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from ...competition import model as cm
from ...competition.tfile import dump
from ...extensions import db
from ...models import (
    Club,
    Deal,
    Entrant,
    EntrantPlayer,
    Round,
    Substitution,
    Table,
    TableSeat,
    Tournament,
    User,
)
from .. import ServiceError
from ..seasons.manage import check_variant, ensure_division, ensure_season
from .audit import Actor, audit
from .rounds import kind_and_names, random_codes, unfinished_tables, unused_codes
from .rows import deal_columns, insert_rows, load, points_json
from .setup import _member_of, find_by_name, member_ids, new_tournament_row


@dataclass
class ImportPlan:
    """A checked tournament file as the rows it becomes, built in memory with no transaction
    open (deriving every match and laying out thousands of rows takes seconds for a large
    file); ``import_tournament`` then only fills in the new ids and writes them."""

    comp: cm.Tournament
    entrants: list[dict[str, Any]]  # name, position, withdrawn_after
    players: list[tuple[str, dict[str, Any]]]  # (entrant name, seat and name)
    substitutes: list[tuple[str, dict[str, Any]]]  # (entrant name, seat, from_round, name, reason)
    rounds: list[dict[str, Any]]  # number, status
    tables: list[tuple[int, dict[str, Any]]]  # (round number, the table's columns)
    seats: list[tuple[int, int, str, int]]  # (round, table, entrant name, position)
    deals: list[tuple[int, int, dict[str, Any]]]  # (round, table, the deal's columns)


def plan_import(comp: cm.Tournament) -> ImportPlan:
    """The rows of ``comp`` (checked by ``tfile.load``), without the database."""
    entrants = [
        {"name": e.name, "position": pos, "withdrawn_after": e.withdrawn_after}
        for pos, e in enumerate(comp.entrants, 1)
    ]
    players = [
        (e.name, {"seat": seat, "name": p})
        for e in comp.entrants
        for seat, p in enumerate(e.players)
    ]
    substitutes = [
        (e.name, {"seat": s.seat, "from_round": s.from_round, "name": s.name, "reason": s.reason})
        for e in comp.entrants
        for s in e.substitutes
    ]
    rounds = [{"number": rnd.round, "status": _imported_status(comp, rnd)} for rnd in comp.played]
    codes = iter(random_codes(sum(1 for r in comp.played for tab in r.tables if tab.bye is None)))
    tables: list[tuple[int, dict[str, Any]]] = []
    seats: list[tuple[int, int, str, int]] = []
    deals: list[tuple[int, int, dict[str, Any]]] = []
    for rnd in comp.played:
        for tab in rnd.tables:
            kind, names = kind_and_names(tab)
            tables.append(
                (
                    rnd.round,
                    {
                        "number": tab.table,
                        "kind": kind,
                        "mode": tab.mode,
                        "forfeit": tab.forfeit,
                        "finished": tab.finished,
                        "last_deal": tab.last_deal,
                        "end_reason": tab.end_reason,
                        "code": None if kind == "bye" else next(codes),
                    },
                )
            )
            seats += [(rnd.round, tab.table, name, pos) for pos, name in enumerate(names)]
            source = "online" if tab.mode == "online" else "paper"
            deals += [
                (rnd.round, tab.table, {"index": i, "source": source, **deal_columns(d)})
                for i, d in enumerate(tab.deals)
            ]
    return ImportPlan(comp, entrants, players, substitutes, rounds, tables, seats, deals)


def import_tournament(
    comp: cm.Tournament | ImportPlan,
    user: User | None = None,
    club: Club | None = None,
) -> Tournament:
    """Create the club if new (by exact name) and the tournament, rounds, tables and deals.

    Give it the ``plan_import`` of the file, made before the write transaction opens: then
    this only writes, in a few bulk inserts, while other tables' score entries wait for the
    database's write lock. New ids are read back by natural keys (one query per kind of row).
    """
    plan = comp if isinstance(comp, ImportPlan) else plan_import(comp)
    comp = plan.comp
    if find_by_name(comp.name) is not None:
        raise ServiceError(_("A tournament named %(name)s already exists.", name=comp.name), "name")
    if club is None:
        club = db.session.scalar(select(Club).where(Club.name == comp.club))
        if club is None:
            from ..clubs import unique_slug

            club = Club(name=comp.club, slug=unique_slug(comp.club))
            db.session.add(club)
            db.session.flush()
    t = new_tournament_row(
        club,
        user,
        name=comp.name,
        variant=comp.variant,
        options=dict(comp.options),
        pairing=comp.pairing,
        rounds=comp.rounds,
        match=comp.match.as_json(),
        points=points_json(comp.points),
        preset=comp.preset,
    )
    _night_of(t, club, comp)
    members = member_ids(club)
    insert_rows(Entrant, [{"tournament_id": t.id, **row} for row in plan.entrants])
    entrant_ids = dict(
        db.session.execute(
            select(Entrant.name, Entrant.id).where(Entrant.tournament_id == t.id)
        ).all()
    )
    insert_rows(
        EntrantPlayer,
        [
            {"entrant_id": entrant_ids[name], "member_id": members.get(row["name"]), **row}
            for name, row in plan.players
        ],
    )
    # substitutes as the entrant page records them (``substitutes.record_substitute``)
    insert_rows(
        Substitution,
        [
            {
                "entrant_id": entrant_ids[name],
                "member_id": _member_of(members, row["name"]),
                "created_by_id": user.id if user else None,
                **row,
            }
            for name, row in plan.substitutes
        ],
    )
    insert_rows(Round, [{"tournament_id": t.id, **row} for row in plan.rounds])
    round_ids = dict(
        db.session.execute(select(Round.number, Round.id).where(Round.tournament_id == t.id)).all()
    )
    codes = unused_codes([row["code"] for _n, row in plan.tables if row["code"] is not None])
    fresh = iter(codes)
    insert_rows(
        Table,
        [
            {**row, "round_id": round_ids[n], "code": next(fresh) if row["code"] else None}
            for n, row in plan.tables
        ],
    )
    table_ids = {
        (rid, number): tid
        for rid, number, tid in db.session.execute(
            select(Table.round_id, Table.number, Table.id).where(
                Table.round_id.in_(list(round_ids.values()))
            )
        )
    }
    insert_rows(
        TableSeat,
        [
            {
                "table_id": table_ids[(round_ids[n], number)],
                "position": pos,
                "entrant_id": entrant_ids[name],
            }
            for n, number, name, pos in plan.seats
        ],
    )
    insert_rows(
        Deal,
        [{"table_id": table_ids[(round_ids[n], number)], **row} for n, number, row in plan.deals],
    )
    actor = Actor(user.display_name if user else "import", user)
    audit(
        t,
        actor,
        "import",
        t.name,
        None,
        {"rounds": len(comp.played), "entrants": len(comp.entrants)},
    )
    return t


def _night_of(t: Tournament, club: Club, comp: cm.Tournament) -> None:
    """The file's optional ``date``, ``venue``, ``season`` (created in the club if new) and
    ``division`` of that season (created after the existing ones if new)."""
    if comp.date:
        t.date = date.fromisoformat(comp.date)
    t.venue = comp.venue
    if comp.season:
        season = ensure_season(club, comp.season)
        check_variant(season, t)
        t.season_id = season.id
        if comp.division:
            t.division_id = ensure_division(season, comp.division).id


def _imported_status(comp: cm.Tournament, rnd: cm.Round) -> str:
    """Closed when every match counts; started when a result is in; seated otherwise."""
    if not unfinished_tables(comp, rnd):
        return "closed"
    if any(tab.deals or tab.forfeit is not None for tab in rnd.playing):
        return "started"
    return "seated"


def export_json(t: Tournament) -> str:
    return json.dumps(dump(load(t).tournament), ensure_ascii=False, indent=2) + "\n"
