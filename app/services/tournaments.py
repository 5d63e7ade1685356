"""Tournament operations: set up, entrants, seating rounds, score sheet entry, corrections.

The rules, matches, standings and pairing live in ``app.competition`` (pure Python); this module
maps database rows to and from its frozen dataclasses and keeps the tournament's invariants:

* every change bumps ``Tournament.version`` (pages poll with it; caches are keyed on it);
* a deal is written only if the whole table still derives without an error (the new deal and
  every deal after it), so nothing is half-saved; every deal written or corrected leaves an
  ``AuditEntry`` (who, when, from what, to what);
* the same ``record_deal`` takes typed deals (``source="paper"``) and deals recorded by the
  engine at an online table (``source="online"``).

Services never commit (see ``app.services``); permission checks are the views' job, except that
corrections after a round is closed need an owner (``Actor.owner``).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import String, func, select, type_coerce

from engine.variants import make_variant

from ..competition import model as cm
from ..competition.matches import (
    FixedMatch,
    RedFiveTable,
    check_deal,
    derive_fixed,
    derive_red_five,
)
from ..competition.pairing import PairingError, pair_next_round
from ..competition.standings import FixedStanding, RedFiveStanding, standings
from ..competition.tfile import SIDE_SIZE, dump_deal
from ..extensions import db
from ..models import (
    AuditEntry,
    Club,
    Deal,
    Entrant,
    EntrantPlayer,
    Member,
    Round,
    Table,
    TableSeat,
    Tournament,
    User,
    utcnow,
)
from . import ServiceError
from .text import clean_name

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 10  # ~50 bits: a table's code cannot be guessed


@dataclass(frozen=True)
class Actor:
    """Who is acting: a signed-in user (with their club role) or a table code holder."""

    label: str
    user: User | None = None
    owner: bool = False
    director: bool = False


class DealErrors(ServiceError):
    """A deal refused; ``fields`` maps form field names to messages ("" for the whole deal)."""

    def __init__(self, fields: dict[str, str]) -> None:
        first = next(iter(fields.values()), "")
        super().__init__(first, next(iter(fields), None) or None)
        self.fields = fields


# --- loading: rows → app.competition ------------------------------------------------------------


@dataclass
class Loaded:
    """A tournament as ``app.competition`` data, with the row ids the pages link to."""

    tournament: cm.Tournament
    version: int
    entrant_ids: dict[str, int]
    round_status: dict[int, str]
    table_ids: dict[tuple[int, int], int]  # (round, table number) → Table.id
    _standings: list[FixedStanding] | list[RedFiveStanding] | None = field(default=None)

    @property
    def standings(self) -> list[FixedStanding] | list[RedFiveStanding]:
        if self._standings is None:
            self._standings = standings(self.tournament)
        return self._standings


def match_spec(match: dict[str, Any]) -> cm.MatchSpec:
    if "deals" in match:
        return cm.MatchSpec(deals=int(match["deals"]))
    if "minutes" in match:
        return cm.MatchSpec(minutes=int(match["minutes"]))
    return cm.MatchSpec(to_a=True)


def points_spec(points: dict[str, Any]) -> cm.PointsSpec:
    return cm.PointsSpec(
        win=points.get("win", 2),
        draw=points.get("draw", 1),
        loss=points.get("loss", 0),
        bye=points.get("bye"),
        forfeit_level_diff=points.get("forfeit_level_diff", 3),
    )


def _ft_from_json(ft_raw: Any) -> cm.FailedThrows | tuple[int, ...] | None:
    if isinstance(ft_raw, dict):
        return cm.FailedThrows(ft_raw.get("declarer", 0), ft_raw.get("attackers", 0))
    if isinstance(ft_raw, list):
        return tuple(ft_raw)
    return None


def deal_from_row(row: Any, variant: str) -> cm.Deal:
    ft = _ft_from_json(row.failed_throws)
    return cm.Deal(
        points=row.points,
        kitty=row.kitty,
        trump=row.trump,
        declarer=row.declarer,
        dealer=row.dealer,
        friend=row.friend,
        multiplier=row.multiplier or 0,
        failed_throws=ft,
        friend_grabbed=bool(row.friend_grabbed),
        misplays=tuple(row.misplays or ()),
        level=row.level,
    )


def _ft_json(ft: cm.FailedThrows | tuple[int, ...] | None) -> Any:
    if isinstance(ft, cm.FailedThrows):
        return {"declarer": ft.declarer, "attackers": ft.attackers} if ft else None
    return list(ft) if ft else None


_LOAD_CACHE: dict[tuple[str, int], tuple[int, str, Loaded]] = {}


def load(t: Tournament) -> Loaded:
    """The whole tournament as competition data (a handful of queries; cached per version)."""
    key = (str(db.engine.url), t.id)
    stamp = t.created_at.isoformat() if t.created_at else ""
    hit = _LOAD_CACHE.get(key)
    if hit is not None and hit[0] == t.version and hit[1] == stamp:
        return hit[2]
    loaded = _load(t)
    if len(_LOAD_CACHE) > 64:
        _LOAD_CACHE.clear()
    _LOAD_CACHE[key] = (t.version, stamp, loaded)
    return loaded


def _load(t: Tournament) -> Loaded:
    s = db.session
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
    ):
        players.setdefault(eid, []).append(name)
    entrant_ids = {name: eid for eid, name, _w in ents}
    name_of = {eid: name for eid, name, _w in ents}
    entrants = tuple(cm.Entrant(name, tuple(players.get(eid, ())), w) for eid, name, w in ents)
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
        )
        .join(Round, Round.id == Table.round_id)
        .where(Round.tournament_id == t.id)
        .order_by(Table.round_id, Table.number)
    ).all()
    seats: dict[int, list[str]] = {}
    for tid, eid in s.execute(
        select(TableSeat.table_id, TableSeat.entrant_id)
        .join(Table, Table.id == TableSeat.table_id)
        .join(Round, Round.id == Table.round_id)
        .where(Round.tournament_id == t.id)
        .order_by(TableSeat.table_id, TableSeat.position)
    ):
        seats.setdefault(tid, []).append(name_of[eid])
    deals: dict[int, list[cm.Deal]] = {}
    # JSON columns read as text and parsed only when set: most deals have neither field
    ft_text = type_coerce(Deal.failed_throws, String)
    mis_text = type_coerce(Deal.misplays, String)
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
        )
        .join(Table, Table.id == Deal.table_id)
        .join(Round, Round.id == Table.round_id)
        .where(Round.tournament_id == t.id)
        .order_by(Deal.table_id, Deal.index)
    ):
        ft = _ft_from_json(json.loads(ft_raw)) if ft_raw and ft_raw != "null" else None
        mis = tuple(json.loads(mis_raw)) if mis_raw and mis_raw != "null" else ()
        deal = make(
            points, kitty, trump, declarer, dealer, friend, mult or 0, ft, bool(grabbed), mis, level
        )
        lst = deals.get(table_id)
        if lst is None:
            deals[table_id] = [deal]
        else:
            lst.append(deal)
    by_round: dict[int, list[cm.Table]] = {}
    table_ids: dict[tuple[int, int], int] = {}
    number_of = {rid: n for rid, n, _s in rounds}
    for tid, rid, number, kind, mode, forfeit, finished in tables:
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
            )
        else:
            tab = cm.Table(
                number,
                players=tuple(names),
                mode=mode,
                finished=finished,
                deals=tuple(deals.get(tid, ())),
            )
        by_round.setdefault(rid, []).append(tab)
        table_ids[(number_of[rid], number)] = tid
    played = tuple(cm.Round(n, tuple(by_round.get(rid, ()))) for rid, n, _s in rounds)
    comp = cm.Tournament(
        club=_club_name(t),
        name=t.name,
        variant=t.variant,
        pairing=t.pairing,
        rounds=t.rounds,
        match=match_spec(t.match),
        points=points_spec(t.points),
        options=dict(t.options or {}),
        entrants=entrants,
        played=played,
    )
    return Loaded(comp, t.version, entrant_ids, {n: st for _rid, n, st in rounds}, table_ids)


def _club_name(t: Tournament) -> str:
    return db.session.scalar(select(Club.name).where(Club.id == t.club_id)) or ""


def derive(variant: Any, spec: cm.MatchSpec, table: cm.Table) -> FixedMatch | RedFiveTable:
    if variant.fixed_sides:
        return derive_fixed(variant, spec, table)
    return derive_red_five(variant, spec, table)


# --- set up -------------------------------------------------------------------------------------


def find_by_name(name: str) -> Tournament | None:
    return db.session.scalar(select(Tournament).where(Tournament.name == name))


def in_club(club: Club, tid: int) -> Tournament | None:
    return db.session.scalar(
        select(Tournament).where(Tournament.id == tid, Tournament.club_id == club.id)
    )


def club_tournaments(club: Club) -> list[Tournament]:
    return list(
        db.session.scalars(
            select(Tournament)
            .where(Tournament.club_id == club.id)
            .order_by(Tournament.created_at.desc(), Tournament.id.desc())
        )
    )


def create_tournament(
    club: Club,
    user: User | None,
    name: str,
    variant: str,
    options: dict[str, Any],
    pairing: str,
    rounds: int,
    match: dict[str, Any],
    points: dict[str, Any],
) -> Tournament:
    clean = clean_name(name, "name", 120)
    if find_by_name(clean) is not None:
        raise ServiceError(_("A tournament with this name already exists."), "name")
    if variant not in SIDE_SIZE:
        raise ServiceError(_("Please choose a variant."), "variant")
    if variant == "red-five-5p" and pairing != "reseat":
        raise ServiceError(_("Red five re-seats individuals: choose re-seating."), "pairing")
    if variant != "red-five-5p" and pairing not in ("round-robin", "swiss"):
        raise ServiceError(_("Fixed sides play round robin or Swiss."), "pairing")
    if variant == "red-five-5p" and match.get("to_a"):
        raise ServiceError(
            _("Red five stays at level 2: play a number of deals or minutes."), "match_kind"
        )
    if not 1 <= rounds <= 50:
        raise ServiceError(_("Between 1 and 50 rounds, please."), "rounds")
    try:
        make_variant(variant, options)
    except ValueError as error:
        raise ServiceError(str(error), "variant") from error
    t = Tournament(
        club_id=club.id,
        name=clean,
        variant=variant,
        options=dict(options),
        pairing=pairing,
        rounds=rounds,
        match=dict(match),
        points=dict(points),
        version=1,
        created_by_id=user.id if user else None,
    )
    db.session.add(t)
    db.session.flush()
    audit(
        t,
        Actor(user.display_name if user else "import", user),
        "create",
        t.name,
        None,
        {"variant": variant, "pairing": pairing, "rounds": rounds},
    )
    return t


def audit(
    t: Tournament, actor: Actor, action: str, target: str, before: Any, after: Any
) -> AuditEntry:
    entry = AuditEntry(
        tournament_id=t.id,
        user_id=actor.user.id if actor.user is not None else None,
        actor=actor.label[:120],
        action=action,
        target=target[:200],
        before=before,
        after=after,
        at=utcnow(),
    )
    db.session.add(entry)
    return entry


def audit_trail(t: Tournament) -> list[AuditEntry]:
    return list(
        db.session.scalars(
            select(AuditEntry)
            .where(AuditEntry.tournament_id == t.id)
            .order_by(AuditEntry.at.desc(), AuditEntry.id.desc())
        )
    )


# --- entrants -----------------------------------------------------------------------------------


def side_size(t: Tournament) -> int:
    return SIDE_SIZE[t.variant]


def rounds_of(t: Tournament) -> list[Round]:
    return list(
        db.session.scalars(select(Round).where(Round.tournament_id == t.id).order_by(Round.number))
    )


def add_entrant(
    club: Club, t: Tournament, name: str | None, players: Sequence[str], actor: Actor
) -> Entrant:
    """Add a pair, trio or player; a player's name that is a club member's links to them."""
    size = side_size(t)
    clean_players: list[str] = []
    for i in range(size):
        field_name = f"player_{i}"
        raw = players[i] if i < len(players) else ""
        clean_players.append(clean_name(raw, field_name))
    if len(set(clean_players)) != len(clean_players):
        raise ServiceError(_("The same player is listed twice."), f"player_{size - 1}")
    entrant_name = clean_name(name or " & ".join(clean_players), "name", 120)
    existing = t.entrants
    if any(e.name == entrant_name for e in existing):
        raise ServiceError(_("An entrant with this name is already in the tournament."), "name")
    taken = {p.name: e.name for e in existing for p in e.players}
    for i, p in enumerate(clean_players):
        if p in taken:
            raise ServiceError(
                _("%(player)s already plays for %(entrant)s.", player=p, entrant=taken[p]),
                f"player_{i}",
            )
    rounds = rounds_of(t)
    if rounds and t.pairing == "round-robin":
        raise ServiceError(
            _("A round robin's schedule is fixed once the first round is seated."), "name"
        )
    members = {
        m.display_name: m.id
        for m in db.session.scalars(select(Member).where(Member.club_id == club.id))
    }
    position = (max((e.position for e in existing), default=0)) + 1
    entrant = Entrant(tournament=t, name=entrant_name, position=position)
    for seat, p in enumerate(clean_players):
        entrant.players.append(EntrantPlayer(seat=seat, name=p, member_id=members.get(p)))
    db.session.add(entrant)
    t.bump()
    db.session.flush()
    audit(t, actor, "add_entrant", entrant_name, None, {"players": clean_players})
    return entrant


def withdraw_entrant(t: Tournament, entrant: Entrant, actor: Actor) -> None:
    """Withdraw after the rounds seated so far (they are not seated again)."""
    if entrant.withdrawn_after is not None:
        raise ServiceError(_("%(name)s has already withdrawn.", name=entrant.name))
    after = len(rounds_of(t))
    entrant.withdrawn_after = after
    t.bump()
    audit(t, actor, "withdraw", entrant.name, None, {"withdrawn_after": after})


def reinstate_entrant(t: Tournament, entrant: Entrant, actor: Actor) -> None:
    if entrant.withdrawn_after is None:
        return
    if entrant.withdrawn_after < len(rounds_of(t)):
        raise ServiceError(
            _("A round was seated without %(name)s: too late to come back.", name=entrant.name)
        )
    before = entrant.withdrawn_after
    entrant.withdrawn_after = None
    t.bump()
    audit(t, actor, "reinstate", entrant.name, {"withdrawn_after": before}, None)


# --- rounds -------------------------------------------------------------------------------------


def new_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if db.session.scalar(select(Table.id).where(Table.code == code)) is None:
            return code


def normalize_code(code: str) -> str:
    return "".join(ch for ch in (code or "").upper() if ch.isalnum())[:32]


def table_by_code(code: str) -> Table | None:
    code = normalize_code(code)
    if len(code) != CODE_LENGTH:
        return None
    return db.session.scalar(select(Table).where(Table.code == code))


def seat_next_round(t: Tournament, actor: Actor) -> Round:
    rounds = rounds_of(t)
    open_rounds = [r.number for r in rounds if r.status != "closed"]
    if open_rounds:
        raise ServiceError(_("Close round %(n)d before seating the next one.", n=open_rounds[-1]))
    loaded = load(t)
    try:
        plan = pair_next_round(loaded.tournament)
    except PairingError as error:
        raise ServiceError(_("The round cannot be seated: %(why)s", why=str(error))) from error
    rnd = _store_round(t, loaded.entrant_ids, plan, "seated")
    t.bump()
    db.session.flush()
    audit(
        t,
        actor,
        "seat_round",
        _("round %(n)d", n=plan.round),
        None,
        [_table_json(tab) for tab in plan.tables],
    )
    return rnd


def _table_json(tab: cm.Table) -> dict[str, Any]:
    if tab.bye is not None:
        return {"table": tab.table, "bye": tab.bye}
    if tab.sides is not None:
        return {"table": tab.table, "sides": list(tab.sides)}
    return {"table": tab.table, "players": list(tab.players or ())}


def _store_round(t: Tournament, entrant_ids: dict[str, int], plan: cm.Round, status: str) -> Round:
    rnd = Round(tournament_id=t.id, number=plan.round, status=status)
    db.session.add(rnd)
    for tab in plan.tables:
        if tab.bye is not None:
            kind, names = "bye", [tab.bye]
        elif tab.sides is not None:
            kind, names = "sides", list(tab.sides)
        else:
            kind, names = "players", list(tab.players or ())
        row = Table(
            number=tab.table,
            kind=kind,
            mode=tab.mode,
            forfeit=tab.forfeit,
            finished=tab.finished,
            code=None if kind == "bye" else new_code(),
        )
        rnd.tables.append(row)
        for pos, name in enumerate(names):
            row.seats.append(TableSeat(position=pos, entrant_id=entrant_ids[name]))
        for i, d in enumerate(tab.deals):
            row.deals.append(_deal_row(i, d, "online" if tab.mode == "online" else "paper"))
    return rnd


def _deal_row(index: int, d: cm.Deal, source: str) -> Deal:
    return Deal(
        index=index,
        source=source,
        declarer=d.declarer,
        dealer=d.dealer,
        friend=d.friend,
        trump=d.trump,
        points=d.points,
        kitty=d.kitty,
        multiplier=d.multiplier,
        failed_throws=_ft_json(d.failed_throws),
        friend_grabbed=d.friend_grabbed,
        misplays=list(d.misplays) or None,
        level=d.level,
    )


def round_has_results(rnd: Round) -> bool:
    return any(tab.deals or tab.forfeit is not None or tab.finished for tab in rnd.tables)


def repair_round(t: Tournament, rnd: Round, actor: Actor) -> Round:
    """Seat the last round again (after late entries, withdrawals, corrections)."""
    if rnd.number != len(rounds_of(t)):
        raise ServiceError(_("Only the last round can be paired again."))
    if round_has_results(rnd):
        raise ServiceError(_("A result is already entered: the round cannot be paired again."))
    before = [_seats_json(tab) for tab in rnd.tables]
    db.session.delete(rnd)
    db.session.flush()
    loaded = _load(t)
    try:
        plan = pair_next_round(loaded.tournament)
    except PairingError as error:
        raise ServiceError(_("The round cannot be seated: %(why)s", why=str(error))) from error
    new = _store_round(t, loaded.entrant_ids, plan, "seated")
    t.bump()
    db.session.flush()
    audit(
        t,
        actor,
        "repair_round",
        _("round %(n)d", n=plan.round),
        before,
        [_table_json(tab) for tab in plan.tables],
    )
    return new


def _seats_json(tab: Table) -> dict[str, Any]:
    names = [s.entrant.name for s in tab.seats]
    if tab.kind == "bye":
        return {"table": tab.number, "bye": names[0] if names else ""}
    return {"table": tab.number, tab.kind: names}


def swap_entrants(t: Tournament, rnd: Round, a_id: int, b_id: int, actor: Actor) -> None:
    """Exchange two entrants' places in a round that has no result yet."""
    if rnd.status == "closed" or round_has_results(rnd):
        raise ServiceError(_("The round has started: entrants can no longer be swapped."))
    if a_id == b_id:
        raise ServiceError(_("Choose two different entrants."), "second")
    seat_a = seat_b = None
    for tab in rnd.tables:
        for s in tab.seats:
            if s.entrant_id == a_id:
                seat_a = s
            if s.entrant_id == b_id:
                seat_b = s
    if seat_a is None:
        raise ServiceError(_("This entrant is not seated in this round."), "first")
    if seat_b is None:
        raise ServiceError(_("This entrant is not seated in this round."), "second")
    before = {seat_a.entrant.name: seat_a.table.number, seat_b.entrant.name: seat_b.table.number}
    # two steps: the unique (table, position) pairs stay distinct at every flush
    ea, eb = seat_a.entrant_id, seat_b.entrant_id
    seat_a.entrant_id, seat_b.entrant_id = eb, ea
    db.session.flush()
    db.session.expire(seat_a)
    db.session.expire(seat_b)
    t.bump()
    names = list(before)
    after = {names[0]: before[names[1]], names[1]: before[names[0]]}
    audit(t, actor, "swap", _("round %(n)d", n=rnd.number), before, after)


def close_round(t: Tournament, rnd: Round, actor: Actor) -> None:
    loaded = load(t)
    comp = loaded.tournament
    variant = comp.rules
    unfinished = []
    for tab in comp.played[rnd.number - 1].tables:
        if tab.bye is not None:
            continue
        if not derive(variant, comp.match, tab).counts:
            unfinished.append(str(tab.table))
    if unfinished:
        raise ServiceError(_("Tables not finished yet: %(tables)s.", tables=", ".join(unfinished)))
    rnd.status = "closed"
    t.bump()
    audit(t, actor, "close_round", _("round %(n)d", n=rnd.number), None, None)


def reopen_round(t: Tournament, rnd: Round, actor: Actor) -> None:
    if rnd.number != len(rounds_of(t)):
        raise ServiceError(_("Only the last round can be opened again."))
    rnd.status = "started" if round_has_results(rnd) else "seated"
    t.bump()
    audit(t, actor, "reopen_round", _("round %(n)d", n=rnd.number), None, None)


# --- score sheets -------------------------------------------------------------------------------


def table_entrants(tab: Table) -> list[Entrant]:
    return [s.entrant for s in tab.seats]


def comp_table(t: Tournament, tab: Table, deals: Sequence[cm.Deal] | None = None) -> cm.Table:
    names = [e.name for e in table_entrants(tab)]
    rows = list(deals) if deals is not None else [deal_from_row(d, t.variant) for d in tab.deals]
    if tab.kind == "sides":
        return cm.Table(
            tab.number,
            sides=(names[0], names[1]),
            forfeit=tab.forfeit,
            mode=tab.mode,
            finished=tab.finished,
            deals=tuple(rows),
        )
    return cm.Table(
        tab.number, players=tuple(names), mode=tab.mode, finished=tab.finished, deals=tuple(rows)
    )


def variant_of(t: Tournament) -> Any:
    return make_variant(t.variant, dict(t.options or {}))


def sheet(t: Tournament, tab: Table) -> FixedMatch | RedFiveTable:
    return derive(variant_of(t), match_spec(t.match), comp_table(t, tab))


def may_edit(rnd: Round, actor: Actor) -> bool:
    return rnd.status != "closed" or actor.owner


def _check_editable(t: Tournament, tab: Table, actor: Actor) -> None:
    if tab.kind == "bye":
        raise DealErrors({"": _("A bye has no deals.")})
    if tab.forfeit is not None:
        raise DealErrors({"": _("This table was forfeited: it has no deals.")})
    if tab.mode == "online":
        raise DealErrors(
            {"": _("This table is played online: its deals are recorded by the game.")}
        )
    if not may_edit(tab.round, actor):
        raise DealErrors({"": _("The round is closed: only the club's owner can correct it.")})


def record_deal(
    t: Tournament,
    tab: Table,
    deal: cm.Deal,
    actor: Actor,
    index: int | None = None,
    source: str = "paper",
    expected_count: int | None = None,
) -> Deal:
    """Write a deal (append, or replace deal ``index``) if the whole table stays valid.

    ``expected_count``: the number of deals the writer saw; if the table has changed since (a
    double click, a second device), nothing is written.
    """
    if source == "paper":
        _check_editable(t, tab, actor)
    if expected_count is not None and expected_count != len(tab.deals):
        raise DealErrors(
            {
                "": _(
                    "The sheet changed meanwhile (now %(n)d deals): check it and enter again.",
                    n=len(tab.deals),
                )
            }
        )
    variant = variant_of(t)
    field_errors = check_deal(variant, deal)
    if field_errors:
        raise DealErrors(field_errors)
    current = [deal_from_row(d, t.variant) for d in tab.deals]
    if index is None:
        pos = len(current)
        candidate = [*current, deal]
    else:
        if not 0 <= index < len(current):
            raise DealErrors({"": _("There is no deal %(n)d at this table.", n=index + 1)})
        pos = index
        candidate = list(current)
        candidate[index] = deal
    derived = derive(variant, match_spec(t.match), comp_table(t, tab, candidate))
    if derived.errors:
        raise DealErrors(_deal_issue_fields(derived, pos, variant))
    before = dump_deal(current[pos]) if index is not None else None
    after = dump_deal(deal)
    if index is None:
        row = _deal_row(pos, deal, source)
        tab.deals.append(row)
    else:
        row = tab.deals[index]
        for key, value in (
            ("declarer", deal.declarer),
            ("dealer", deal.dealer),
            ("friend", deal.friend),
            ("trump", deal.trump),
            ("points", deal.points),
            ("kitty", deal.kitty),
            ("multiplier", deal.multiplier),
            ("failed_throws", _ft_json(deal.failed_throws)),
            ("friend_grabbed", deal.friend_grabbed),
            ("misplays", list(deal.misplays) or None),
            ("level", deal.level),
        ):
            setattr(row, key, value)
        row.updated_at = utcnow()
    if tab.round.status == "seated":
        tab.round.status = "started"
    t.bump()
    db.session.flush()
    where = _("round %(r)d, table %(t)d, deal %(d)d", r=tab.round.number, t=tab.number, d=pos + 1)
    if before != after:
        audit(t, actor, "deal" if index is None else "correct_deal", where, before, after)
    return row


def delete_last_deal(t: Tournament, tab: Table, actor: Actor) -> None:
    _check_editable(t, tab, actor)
    if not tab.deals:
        raise DealErrors({"": _("There is no deal to remove.")})
    row = tab.deals[-1]
    before = dump_deal(deal_from_row(row, t.variant))
    tab.deals.remove(row)
    db.session.delete(row)
    t.bump()
    db.session.flush()
    where = _(
        "round %(r)d, table %(t)d, deal %(d)d", r=tab.round.number, t=tab.number, d=row.index + 1
    )
    audit(t, actor, "delete_deal", where, before, None)


def _deal_issue_fields(
    derived: FixedMatch | RedFiveTable, pos: int, variant: Any
) -> dict[str, str]:
    out: dict[str, str] = {}
    for issue in derived.errors:
        if issue.index == pos:
            if issue.field == "level":
                out["level"] = _level_message(derived, pos, issue.message)
            elif "passed A" in issue.message:
                out[""] = _("The match is over: a side passed A.")
            elif "the match is" in issue.message or "the table plays" in issue.message:
                out[""] = _("The match is complete: no more deals.")
            else:
                out[issue.field] = issue.message
        elif issue.index > pos:
            out.setdefault(
                "",
                _(
                    "With this change, deal %(n)d after it would no longer be valid: %(why)s",
                    n=issue.index + 1,
                    why=issue.message,
                ),
            )
    return out or {"": derived.errors[0].message}


def _level_message(derived: FixedMatch | RedFiveTable, pos: int, raw: str) -> str:
    # "the sheet says X but side S is at Y"
    parts = raw.split()
    try:
        written, actual = parts[3], parts[-1]
    except IndexError:  # pragma: no cover
        return raw
    return _(
        "The sheet says %(written)s, but this side is at level %(actual)s.",
        written=written,
        actual=actual,
    )


def set_finished(t: Tournament, tab: Table, finished: bool, actor: Actor) -> None:
    _check_editable(t, tab, actor)
    if tab.finished == finished:
        return
    tab.finished = finished
    if tab.round.status == "seated":
        tab.round.status = "started"
    t.bump()
    audit(
        t,
        actor,
        "finish" if finished else "unfinish",
        _("round %(r)d, table %(t)d", r=tab.round.number, t=tab.number),
        {"finished": not finished},
        {"finished": finished},
    )


def set_forfeit(t: Tournament, tab: Table, side: int | None, actor: Actor) -> None:
    if tab.kind != "sides":
        raise ServiceError(_("Only a table of two sides can be forfeited."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    if side is not None and side not in (0, 1):
        raise ServiceError(_("Choose the side that did not play."), "side")
    if side is not None and tab.deals:
        raise ServiceError(_("Deals are entered at this table: remove them before a forfeit."))
    before = tab.forfeit
    tab.forfeit = side
    if tab.round.status == "seated":
        tab.round.status = "started"
    t.bump()
    audit(
        t,
        actor,
        "forfeit",
        _("round %(r)d, table %(t)d", r=tab.round.number, t=tab.number),
        {"forfeit": before},
        {"forfeit": side},
    )


# --- file import / export -----------------------------------------------------------------------


def import_tournament(
    comp: cm.Tournament, user: User | None = None, club: Club | None = None
) -> Tournament:
    """Create the club if new (by exact name) and the tournament, rounds, tables and deals."""
    if find_by_name(comp.name) is not None:
        raise ServiceError(_("A tournament named %(name)s already exists.", name=comp.name), "name")
    if club is None:
        club = db.session.scalar(select(Club).where(Club.name == comp.club))
        if club is None:
            from .clubs import unique_slug

            club = Club(name=comp.club, slug=unique_slug(comp.club))
            db.session.add(club)
            db.session.flush()
    points: dict[str, Any] = {
        "win": comp.points.win,
        "draw": comp.points.draw,
        "loss": comp.points.loss,
    }
    if comp.points.bye is not None:
        points["bye"] = comp.points.bye
    if comp.points.forfeit_level_diff != 3:
        points["forfeit_level_diff"] = comp.points.forfeit_level_diff
    t = Tournament(
        club_id=club.id,
        name=comp.name,
        variant=comp.variant,
        options=dict(comp.options),
        pairing=comp.pairing,
        rounds=comp.rounds,
        match=comp.match.as_json(),
        points=points,
        version=1,
        created_by_id=user.id if user else None,
    )
    db.session.add(t)
    db.session.flush()
    members = {
        m.display_name: m.id
        for m in db.session.scalars(select(Member).where(Member.club_id == club.id))
    }
    ids: dict[str, int] = {}
    for pos, e in enumerate(comp.entrants, 1):
        row = Entrant(
            tournament_id=t.id, name=e.name, position=pos, withdrawn_after=e.withdrawn_after
        )
        for seat, p in enumerate(e.players):
            row.players.append(EntrantPlayer(seat=seat, name=p, member_id=members.get(p)))
        db.session.add(row)
        db.session.flush()
        ids[e.name] = row.id
    variant = comp.rules
    for rnd in comp.played:
        status = "closed"
        any_result = False
        for tab in rnd.tables:
            if tab.bye is not None:
                continue
            any_result = any_result or bool(tab.deals) or tab.forfeit is not None
            if not derive(variant, comp.match, tab).counts:
                status = "started"
        if status == "started" and not any_result:
            status = "seated"
        _store_round(t, ids, rnd, status)
    db.session.flush()
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


def entrant_count(t: Tournament) -> int:
    return (
        db.session.scalar(select(func.count(Entrant.id)).where(Entrant.tournament_id == t.id)) or 0
    )
