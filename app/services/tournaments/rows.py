"""Database rows ↔ ``app.competition`` data: the one place that maps a tournament's tables to
the frozen dataclasses that matches, standings and pairing work on, and back.

``load`` reads a whole tournament in a handful of column queries (cached per tournament version,
so a change is never served stale); the ``*_row``/``*_json`` helpers write the other way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import String, cast, insert, select

from engine.hundred_rules import HundredVariant
from engine.variants import Variant, make_variant

from ...competition import model as cm
from ...competition.hundred import HundredDeal, derive_hundred, hundred_variant, is_hundred
from ...competition.standings import (
    FixedStanding,
    RedFiveStanding,
    SheetTable,
    derive_table,
    standings,
)
from ...competition.tfile import SIDE_SIZE
from ...db import reads_only
from ...extensions import db
from ...models import (
    Club,
    Deal,
    Division,
    Entrant,
    EntrantPlayer,
    Round,
    Season,
    Substitution,
    Table,
    TableSeat,
    Tournament,
)

# --- settings stored as JSON on the tournament ----------------------------------------------------


def match_spec(match: dict[str, Any]) -> cm.MatchSpec:
    tie = str(match.get("tie_break", "draw"))
    if "deals" in match:
        return cm.MatchSpec(deals=int(match["deals"]), tie_break=tie)
    if "minutes" in match:
        return cm.MatchSpec(minutes=int(match["minutes"]), tie_break=tie)
    return cm.MatchSpec(to_a=True, tie_break=tie, target=str(match.get("target", "A")))


def points_spec(points: dict[str, Any]) -> cm.PointsSpec:
    return cm.PointsSpec(
        win=points.get("win", 2),
        draw=points.get("draw", 1),
        loss=points.get("loss", 0),
        bye=points.get("bye"),
        forfeit_level_diff=points.get("forfeit_level_diff", 3),
    )


def points_json(spec: cm.PointsSpec) -> dict[str, Any]:
    """What ``Tournament.points`` stores: win, draw and loss, then only what is not the default."""
    out: dict[str, Any] = {"win": spec.win, "draw": spec.draw, "loss": spec.loss}
    if spec.bye is not None:
        out["bye"] = spec.bye
    if spec.forfeit_level_diff != cm.PointsSpec.forfeit_level_diff:
        out["forfeit_level_diff"] = spec.forfeit_level_diff
    return out


def variant_of(t: Tournament) -> Variant:
    """The engine variant of a trick game or 争上游 (打百分's: ``hundred_rules_of``)."""
    return make_variant(t.variant, dict(t.options or {}))


def hundred_rules_of(t: Tournament) -> HundredVariant | None:
    """打百分's engine variant with the tournament's options; None for the other games."""
    if not is_hundred(t.variant):
        return None
    return hundred_variant(t.variant, dict(t.options or {}))


def side_size(t: Tournament) -> int:
    """Players per entrant: 打百分's pair events 2, its individual events 1."""
    rules = hundred_rules_of(t)
    if rules is not None:
        return 2 if rules.fixed_pairs else 1
    return SIDE_SIZE[t.variant]


# --- deals ----------------------------------------------------------------------------------------


def _ft_from_json(ft_raw: Any) -> cm.FailedThrows | tuple[int, ...] | None:
    if isinstance(ft_raw, dict):
        dec, att = ft_raw.get("declarer", 0), ft_raw.get("attackers", 0)
        if isinstance(dec, list) or isinstance(att, list):  # ten_per_card: cards per throw
            return cm.FailedThrows.per_card(
                tuple(dec) if isinstance(dec, list) else (1,) * dec,
                tuple(att) if isinstance(att, list) else (1,) * att,
            )
        return cm.FailedThrows(dec, att)
    if isinstance(ft_raw, list):
        return tuple(ft_raw)
    return None


def _ft_json(ft: cm.FailedThrows | tuple[int, ...] | None) -> Any:
    if isinstance(ft, cm.FailedThrows):
        return ft.as_json() if ft else None
    return list(ft) if ft else None


Penalties = tuple[tuple[str, str | int], ...]
Warnings = tuple[tuple[int, str], ...]


def _penalties_from_json(raw: Any) -> tuple[Penalties, Warnings]:
    """A deal's stored penalties ([{"kind", "side"}] or [{"kind", "seat"}]) as model tuples, and
    the conduct warnings kept in the same list ({"kind": "warning", "seat", "reason"})."""
    if not isinstance(raw, list):
        return (), ()
    out: list[tuple[str, str | int]] = []
    warnings: list[tuple[int, str]] = []
    for p in raw:
        if not isinstance(p, dict):
            continue
        if p.get("kind") == cm.WARNING:
            seat = p.get("seat")
            if type(seat) is int:
                warnings.append((seat, str(p.get("reason") or "")))
            continue
        who = p["seat"] if "seat" in p else p.get("side")
        out.append((str(p.get("kind")), who if isinstance(who, int | str) else str(who)))
    return tuple(out), tuple(warnings)


def _penalties_json(d: cm.Deal) -> list[dict[str, Any]] | None:
    return [*d.engine_penalties(), *d.warnings_json()] or None


def deal_from_row(row: Deal) -> cm.Deal:
    pens, warnings = _penalties_from_json(row.penalties)
    if row.hundred is not None:  # 打百分's sheet row
        return _hundred_deal(
            row.hundred, row.points, row.trump, row.declarer, row.friend, pens, warnings
        )
    return cm.Deal(
        points=row.points,
        kitty=row.kitty,
        trump=row.trump,
        declarer=row.declarer,
        dealer=row.dealer,
        friend=row.friend,
        multiplier=row.multiplier or 0,
        failed_throws=_ft_from_json(row.failed_throws),
        friend_grabbed=bool(row.friend_grabbed),
        misplays=tuple(row.misplays or ()),
        level=row.level,
        penalties=pens,
        warnings=warnings,
        places=tuple(row.places) if row.places is not None else None,
        tribute=_tribute_from_json(row.tribute),
    )


def _tribute_from_json(raw: Any) -> cm.Tribute | None:
    if not isinstance(raw, dict):
        return None
    return cm.Tribute(raw.get("from"), raw.get("to"), raw.get("card"))  # type: ignore[arg-type]


def _hundred_deal(
    raw: Any,
    points: int,
    trump: str | None,
    declarer: int | None,
    friend: int | None,
    pens: Penalties,
    warnings: Warnings,
) -> HundredDeal:
    """打百分's row from its columns and its ``hundred`` JSON (bid or turned card, friend card,
    抠底, the buried cards' points when written)."""
    extra = raw if isinstance(raw, dict) else {}
    return HundredDeal(
        points=points,
        kitty=0,
        trump=trump,
        declarer=declarer,
        friend=friend,
        penalties=pens,
        warnings=warnings,
        bid=extra.get("bid"),
        turned=extra.get("turned"),
        friend_card=extra.get("friend_card"),
        kou_di=extra.get("kou_di", False),
        kitty_points=extra.get("kitty"),
    )


def _hundred_json(d: cm.Deal) -> dict[str, Any] | None:
    if not isinstance(d, HundredDeal):
        return None
    out: dict[str, Any] = {"kou_di": d.kou_di}
    for key, value in (
        ("bid", d.bid),
        ("turned", d.turned),
        ("friend_card", d.friend_card),
        ("kitty", d.kitty_points),
    ):
        if value is not None:
            out[key] = value
    return out


def deal_columns(d: cm.Deal) -> dict[str, Any]:
    """A deal's values by ``Deal`` column: for a new row and for a correction alike."""
    return {
        "declarer": d.declarer,
        "dealer": d.dealer,
        "friend": d.friend,
        "trump": d.trump,
        "points": d.points,
        "kitty": d.kitty,
        "multiplier": d.multiplier,
        "failed_throws": _ft_json(d.failed_throws),
        "friend_grabbed": d.friend_grabbed,
        "misplays": list(d.misplays) or None,
        "level": d.level,
        "penalties": _penalties_json(d),
        "places": list(d.places) if d.places is not None else None,
        "tribute": d.tribute.as_json() if d.tribute is not None else None,
        "hundred": _hundred_json(d),
    }


def deal_row(index: int, d: cm.Deal, source: str) -> Deal:
    return Deal(index=index, source=source, **deal_columns(d))


# --- bulk writes (imports) ------------------------------------------------------------------------

BULK_CHUNK = 1000  # rows per executemany


def insert_rows(model: type[Any], rows: list[dict[str, Any]]) -> None:
    """Insert many rows of ``model`` as Core ``executemany`` calls (every row with the same keys;
    column defaults apply; the ORM's identity map is not filled). Read new ids back by the
    rows' natural keys: one query, where RETURNING would cost one statement per row on SQLite."""
    table = model.__table__
    for i in range(0, len(rows), BULK_CHUNK):
        db.session.execute(insert(table), rows[i : i + BULK_CHUNK])


# --- tables ---------------------------------------------------------------------------------------


def table_entrants(tab: Table) -> list[Entrant]:
    return [s.entrant for s in tab.seats]


def seat_names(tab: Table) -> tuple[list[str], list[str]]:
    """The side names (fixed sides; empty otherwise) and the player at each seat of a table
    (in the table's round: a substitute in the seat they took)."""
    entrants = table_entrants(tab)
    if tab.kind == "sides":
        a, b = (comp_entrant(e, tab.round.number) for e in entrants)
        return [a.name, b.name], cm.seat_players((a, b))
    # a single player's entrant is named at its seat; a substitute by the substitute's name
    return [], [
        comp_entrant(e, tab.round.number).players[0] if e.substitutions and e.players else e.name
        for e in entrants
    ]


def comp_entrant(e: Entrant, round_no: int | None = None) -> cm.Entrant:
    """An entrant row as competition data; with ``round_no``, its players are those who played
    that round (a substitute in the seat from the substitution's round on)."""
    whole = cm.Entrant(
        e.name,
        tuple(p.name for p in e.players),
        e.withdrawn_after,
        tuple(cm.Substitute(s.seat, s.from_round, s.name, s.reason) for s in e.substitutions),
    )
    if round_no is None:
        return whole
    return cm.Entrant(e.name, whole.players_in(round_no), e.withdrawn_after)


def comp_table(tab: Table, deals: list[cm.Deal] | None = None) -> cm.Table:
    names = [e.name for e in table_entrants(tab)]
    rows = deals if deals is not None else [deal_from_row(d) for d in tab.deals]
    if tab.kind == "sides":
        return cm.Table(
            tab.number,
            sides=(names[0], names[1]),
            forfeit=tab.forfeit,
            mode=tab.mode,
            finished=tab.finished,
            deals=tuple(rows),
            last_deal=tab.last_deal,
            end_reason=tab.end_reason,
        )
    return cm.Table(
        tab.number,
        players=tuple(names),
        mode=tab.mode,
        finished=tab.finished,
        deals=tuple(rows),
        last_deal=tab.last_deal,
        end_reason=tab.end_reason,
    )


def derive_row_table(t: Tournament, tab: Table, deals: list[cm.Deal] | None = None) -> SheetTable:
    """A table's match (or red five / 争上游 / 打百分 table) derived from its rows, or from
    ``deals`` instead."""
    rules = hundred_rules_of(t)
    if rules is not None:
        return derive_hundred(rules, match_spec(t.match), comp_table(tab, deals))
    return derive_table(variant_of(t), match_spec(t.match), comp_table(tab, deals))


def rounds_of(t: Tournament) -> list[Round]:
    return list(
        db.session.scalars(select(Round).where(Round.tournament_id == t.id).order_by(Round.number))
    )


# --- the whole tournament -------------------------------------------------------------------------


@dataclass
class Loaded:
    """A tournament as ``app.competition`` data, with the row ids the pages link to."""

    tournament: cm.Tournament
    version: int
    entrant_ids: dict[str, int]
    round_status: dict[int, str]
    table_ids: dict[tuple[int, int], int]  # (round, table number) → Table.id
    _standings: list[FixedStanding] | list[RedFiveStanding] | None = field(default=None)
    # ``standings.ranks_over_rounds``, derived once per version as the standings are
    _ranks: Any = field(default=None)

    @property
    def standings(self) -> list[FixedStanding] | list[RedFiveStanding]:
        if self._standings is None:
            self._standings = standings(self.tournament)
        return self._standings


_LOAD_CACHE: dict[tuple[str, int], tuple[int, str, Loaded]] = {}


def load(t: Tournament) -> Loaded:
    """The whole tournament as competition data (a handful of queries; cached per version).
    Kept only when read in a request that writes nothing more (``reads_only``): a version a
    write transaction derived may never be committed (a rollback), and the next committed
    change would bring the same version number with other data."""
    key = (str(db.engine.url), t.id)
    stamp = t.created_at.isoformat() if t.created_at else ""
    hit = _LOAD_CACHE.get(key)
    if hit is not None and hit[0] == t.version and hit[1] == stamp:
        return hit[2]
    loaded = load_uncached(t)
    if not reads_only():
        return loaded
    if len(_LOAD_CACHE) > 64:
        _LOAD_CACHE.clear()
    _LOAD_CACHE[key] = (t.version, stamp, loaded)
    return loaded


def load_uncached(t: Tournament) -> Loaded:
    """Read the tournament in seven column queries.

    The queries run on the session's connection as plain Core statements (no ORM row
    processing), after a flush so that they see this transaction's pending changes as the
    session's own queries would. The few distinct JSON texts are parsed once per call (the
    parsed values are immutable, so deals share them).
    """
    db.session.flush()
    s = db.session.connection()
    ents = s.execute(
        select(Entrant.id, Entrant.name, Entrant.withdrawn_after)
        .where(Entrant.tournament_id == t.id)
        .order_by(Entrant.position, Entrant.id)
    ).all()
    players: dict[int, list[str]] = {}
    for eid, name in s.execute(
        select(EntrantPlayer.entrant_id, EntrantPlayer.name)
        .join(Entrant, Entrant.id == EntrantPlayer.entrant_id)
        .where(Entrant.tournament_id == t.id)
        .order_by(EntrantPlayer.entrant_id, EntrantPlayer.seat)
    ).all():
        players.setdefault(eid, []).append(name)
    entrant_ids = {name: eid for eid, name, _w in ents}
    name_of = {eid: name for eid, name, _w in ents}
    subs: dict[int, list[cm.Substitute]] = {}
    for eid, seat, from_round, sub_name, why in s.execute(
        select(
            Substitution.entrant_id,
            Substitution.seat,
            Substitution.from_round,
            Substitution.name,
            Substitution.reason,
        )
        .join(Entrant, Entrant.id == Substitution.entrant_id)
        .where(Entrant.tournament_id == t.id)
        .order_by(Substitution.entrant_id, Substitution.from_round, Substitution.seat)
    ).all():
        subs.setdefault(eid, []).append(cm.Substitute(seat, from_round, sub_name, why))
    entrants = tuple(
        cm.Entrant(name, tuple(players.get(eid, ())), w, tuple(subs.get(eid, ())))
        for eid, name, w in ents
    )
    rounds = s.execute(
        select(Round.id, Round.number, Round.status)
        .where(Round.tournament_id == t.id)
        .order_by(Round.number)
    ).all()
    tables = s.execute(
        select(
            Table.id,
            Table.round_id,
            Table.number,
            Table.kind,
            Table.mode,
            Table.forfeit,
            Table.finished,
            Table.last_deal,
            Table.end_reason,
        )
        .join(Round, Round.id == Table.round_id)
        .where(Round.tournament_id == t.id)
        .order_by(Table.round_id, Table.number)
    ).all()
    seats: dict[int, list[str]] = {}
    # seats and deals by table id: walks their (table, position) and (table, index) unique
    # indexes in order, so the database sorts nothing
    table_ids_of = (
        select(Table.id)
        .join(Round, Round.id == Table.round_id)
        .where(Round.tournament_id == t.id)
        .scalar_subquery()
    )
    for tid, eid in s.execute(
        select(TableSeat.table_id, TableSeat.entrant_id)
        .where(TableSeat.table_id.in_(table_ids_of))
        .order_by(TableSeat.table_id, TableSeat.position)
    ).all():
        seats.setdefault(tid, []).append(name_of[eid])
    deals: dict[int, list[cm.Deal]] = {}
    # JSON columns read as text: only a few distinct texts occur, each parsed once. A real
    # CAST, not type_coerce: PostgreSQL's driver would hand back a json column already parsed.
    ft_text = cast(Deal.failed_throws, String)
    mis_text = cast(Deal.misplays, String)
    pen_text = cast(Deal.penalties, String)
    places_text = cast(Deal.places, String)
    tribute_text = cast(Deal.tribute, String)
    hundred_text = cast(Deal.hundred, String)
    # 争上游's places and tribute (null in the trick games' deals)
    places_of: dict[str | None, tuple[int, ...] | None] = {None: None, "": None, "null": None}
    tributes: dict[str | None, cm.Tribute | None] = {None: None, "": None, "null": None}
    pens: dict[str | None, tuple[Penalties, Warnings]] = {
        None: ((), ()),
        "": ((), ()),
        "null": ((), ()),
    }
    fts: dict[str | None, cm.FailedThrows | tuple[int, ...] | None] = {
        None: None,
        "": None,
        "null": None,
    }
    miss: dict[str | None, tuple[int, ...]] = {None: (), "": (), "null": ()}
    make = cm.Deal
    for (
        table_id,
        points,
        kitty,
        trump,
        declarer,
        dealer,
        friend,
        mult,
        ft_raw,
        grabbed,
        mis_raw,
        level,
        pen_raw,
        places_raw,
        tribute_raw,
        hundred_raw,
    ) in s.execute(
        select(
            Deal.table_id,
            Deal.points,
            Deal.kitty,
            Deal.trump,
            Deal.declarer,
            Deal.dealer,
            Deal.friend,
            Deal.multiplier,
            ft_text,
            Deal.friend_grabbed,
            mis_text,
            Deal.level,
            pen_text,
            places_text,
            tribute_text,
            hundred_text,
        )
        .where(Deal.table_id.in_(table_ids_of))
        .order_by(Deal.table_id, Deal.index)
    ).all():
        if ft_raw not in fts:
            fts[ft_raw] = _ft_from_json(json.loads(ft_raw))
        if mis_raw not in miss:
            miss[mis_raw] = tuple(json.loads(mis_raw))
        if pen_raw not in pens:
            pens[pen_raw] = _penalties_from_json(json.loads(pen_raw))
        if places_raw not in places_of:
            places_of[places_raw] = tuple(json.loads(places_raw))
        if tribute_raw not in tributes:
            tributes[tribute_raw] = _tribute_from_json(json.loads(tribute_raw))
        if hundred_raw not in (None, "", "null"):  # 打百分's sheet row
            deals.setdefault(table_id, []).append(
                _hundred_deal(
                    json.loads(hundred_raw), points, trump, declarer, friend, *pens[pen_raw]
                )
            )
            continue
        deal = make(
            points,
            kitty,
            trump,
            declarer,
            dealer,
            friend,
            mult or 0,
            fts[ft_raw],
            bool(grabbed),
            miss[mis_raw],
            level,
            *pens[pen_raw],
            places_of[places_raw],
            tributes[tribute_raw],
        )
        lst = deals.get(table_id)
        if lst is None:
            deals[table_id] = [deal]
        else:
            lst.append(deal)
    by_round: dict[int, list[cm.Table]] = {}
    table_ids: dict[tuple[int, int], int] = {}
    number_of = {rid: n for rid, n, _s in rounds}
    for tid, rid, number, kind, mode, forfeit, finished, last_deal, end_reason in tables:
        names = seats.get(tid, [])
        if kind == "bye":
            tab = cm.Table(number, bye=names[0] if names else "")
        elif kind == "sides":
            tab = cm.Table(
                number,
                sides=(names[0], names[1]),
                forfeit=forfeit,
                mode=mode,
                finished=finished,
                deals=tuple(deals.get(tid, ())),
                last_deal=last_deal,
                end_reason=end_reason,
            )
        else:
            tab = cm.Table(
                number,
                players=tuple(names),
                mode=mode,
                finished=finished,
                deals=tuple(deals.get(tid, ())),
                last_deal=last_deal,
                end_reason=end_reason,
            )
        by_round.setdefault(rid, []).append(tab)
        table_ids[(number_of[rid], number)] = tid
    played = tuple(cm.Round(n, tuple(by_round.get(rid, ()))) for rid, n, _s in rounds)
    comp = cm.Tournament(
        club=club_name(t),
        name=t.name,
        variant=t.variant,
        pairing=t.pairing,
        rounds=t.rounds,
        match=match_spec(t.match),
        points=points_spec(t.points),
        options=dict(t.options or {}),
        entrants=entrants,
        played=played,
        date=t.date.isoformat() if t.date else None,
        venue=t.venue or None,
        season=(season := season_name(t)),
        division=division_name(t) if season is not None else None,
        draw_seed=t.draw_seed,
        preset=t.preset,
    )
    return Loaded(comp, t.version, entrant_ids, {n: st for _rid, n, st in rounds}, table_ids)


def season_name(t: Tournament) -> str | None:
    if t.season_id is None:
        return None
    return db.session.connection().scalar(  # none while the season is deleted
        select(Season.name).where(Season.id == t.season_id, Season.deleted_at.is_(None))
    )


def division_name(t: Tournament) -> str | None:
    if t.division_id is None:
        return None
    return db.session.connection().scalar(  # none while the division is deleted
        select(Division.name).where(Division.id == t.division_id, Division.deleted_at.is_(None))
    )


def club_name(t: Tournament) -> str:
    return db.session.connection().scalar(select(Club.name).where(Club.id == t.club_id)) or ""
