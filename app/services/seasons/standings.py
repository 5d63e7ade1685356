"""A season's standings, always re-derived from its nights' recorded deals (nothing stored).

Each process keeps copies of what it derived, checked against the database on every use: a
night's season lines by the night's id, ``version`` (every change bumps it) and the club's member
names; the table after each night (for the chart) by the same of every night before it, the rule
and the points carried in. After a deal is recorded on the last night, only that night's lines
and the table after it are derived again."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from ...competition.names import name_match_key
from ...competition.seasons import NightLine, Rule, SeasonRow, night_lines, parse_rule
from ...competition.seasons import season_standings as derive
from ...extensions import db
from ...models import Division, Entrant, EntrantPlayer, Member, Season, Substitution, Tournament
from ..tournaments.rows import load

NO_DIVISION = 0  # as ``division_id``: the nights in no division (ids start at 1)


def nights_of(season: Season, division_id: int | None = None) -> list[Tournament]:
    """The season's nights in date order (undated nights last, then in the order created): all,
    a division's (``division_id``) or those in no division (``NO_DIVISION``)."""
    q = select(Tournament).where(Tournament.season_id == season.id, Tournament.deleted_at.is_(None))
    if division_id == NO_DIVISION:
        q = q.where(Tournament.division_id.is_(None))
    elif division_id is not None:
        q = q.where(Tournament.division_id == division_id)
    rows = list(db.session.scalars(q))
    return sorted(rows, key=lambda t: (t.date is None, t.date or t.created_at.date(), t.id))


def member_names(t: Tournament) -> dict[str, str]:
    """Names as written on a night → the member's name (one season line, one rating per
    member): the linked member's, else the club member whose name it is as ``name_match_key``
    compares them ("王 伟" written for 王伟)."""
    rows = db.session.execute(
        select(EntrantPlayer.name, Member.display_name)
        .join(Entrant, Entrant.id == EntrantPlayer.entrant_id)
        .outerjoin(Member, Member.id == EntrantPlayer.member_id)
        .where(Entrant.tournament_id == t.id)
    )
    written = list(rows)
    written += db.session.execute(
        select(Substitution.name, Member.display_name)
        .join(Entrant, Entrant.id == Substitution.entrant_id)
        .outerjoin(Member, Member.id == Substitution.member_id)
        .where(Entrant.tournament_id == t.id)
    ).all()
    if any(member is None for _name, member in written):
        club = db.session.scalars(select(Member.display_name).where(Member.club_id == t.club_id))
        by_key = {name_match_key(m): m for m in club}
    else:
        by_key = {}
    out = {}
    for name, member in written:
        found = member if member is not None else by_key.get(name_match_key(name))
        if found is not None and found != name:
            out[name] = found
    return out


def members_stamp(club_id: int) -> str:
    """A digest of the club's member names (one small query): the ratings and season lines
    name linked players by their member's name, so a rename makes them stale."""
    rows = db.session.execute(
        select(Member.id, Member.display_name)
        .where(Member.club_id == club_id, Member.deleted_at.is_(None))
        .order_by(Member.id)
    )
    return hashlib.sha256(repr(list(rows)).encode()).hexdigest()


def _night_id(t: Tournament) -> tuple[int, int, str]:
    return (t.id, t.version, str(t.created_at))  # ids are reused after a delete


_LINES: dict[tuple[str, int], tuple[tuple[int, int, str], str, list[NightLine]]] = {}
_MAX_NIGHTS = 512


def lines_of(t: Tournament, stamp: str | None = None) -> list[NightLine]:
    """The night's season lines (``stamp``: the club's ``members_stamp``, if the caller has it)."""
    stamp = stamp if stamp is not None else members_stamp(t.club_id)
    key = (str(db.engine.url), t.id)
    hit = _LINES.get(key)
    if hit is not None and hit[0] == _night_id(t) and hit[1] == stamp:
        return hit[2]
    lines = night_lines(load(t).tournament, member_names(t))
    if len(_LINES) >= _MAX_NIGHTS:
        _LINES.clear()
    _LINES[key] = (_night_id(t), stamp, lines)
    return lines


def rule_of(season: Season, text: str | None = None, places: list[int] | None = None) -> Rule:
    """The season's own rule, or ``text`` (``total``, ``best:N``, ``average``, ``places``) with the
    season's minimum nights and places table (or ``places``). Raises ``SeasonRuleError``."""
    table = places if places is not None else (season.places or [])
    return parse_rule(text or season.rule, season.min_nights, table)


def standings(
    season: Season, rule: Rule | None = None, division_id: int | None = None
) -> list[SeasonRow]:
    chosen = rule or rule_of(season)
    stamp = members_stamp(season.club_id)
    nights = [lines_of(t, stamp) for t in nights_of(season, division_id)]
    return derive(nights, chosen, carried_into(season, division_id))


def by_division(
    season: Season, rule: Rule | None = None
) -> list[tuple[Division | None, list[SeasonRow]]]:
    """Each division's table in the season's order, then (``None``) the table of the nights in
    no division when there are such nights; empty when the season has no divisions."""
    if not season.divisions:
        return []
    out: list[tuple[Division | None, list[SeasonRow]]] = [
        (d, standings(season, rule, d.id)) for d in season.divisions
    ]
    if nights_of(season, NO_DIVISION):
        out.append((None, standings(season, rule, NO_DIVISION)))
    return out


def grouped_json(season: Season, rule: Rule | None = None) -> list[dict[str, Any]]:
    """The rows as ``flask season standings --json`` prints them: with divisions, every
    division's rows in the season's order (then the nights in no division), each with its
    ``division`` name (``None``: no division) and its rank within the division."""
    if not season.divisions:
        return standings_json(season, rule)
    return [
        {**r.as_json(), "division": d.name if d is not None else None}
        for d, rows in by_division(season, rule)
        for r in rows
    ]


def carried_into(season: Season, division_id: int | None = None) -> dict[str, float]:
    """Points carried from the previous season (by each division's factor), if any."""
    from .manage import carried_points

    return carried_points(season, division_id)


def standings_json(season: Season, rule: Rule | None = None) -> list[dict[str, Any]]:
    return [r.as_json() for r in standings(season, rule)]


@dataclass
class _Prefixes:
    """The season table after each of the first nights, and what it was derived from."""

    basis: tuple[Any, ...]
    nights: list[tuple[int, int, str]] = field(default_factory=list)
    rows: list[list[SeasonRow]] = field(default_factory=list)  # after night 1, 2, …


_PREFIXES: dict[tuple[str, int], _Prefixes] = {}
_MAX_SEASONS = 64


def _tables_after_each_night(
    season: Season, rule: Rule, nights: list[Tournament]
) -> list[list[SeasonRow]]:
    """The rule applied to the first k nights, for each k; reused up to the first night that
    changed since the last call (with the same rule, member names and carried points)."""
    stamp = members_stamp(season.club_id)
    carried = carried_into(season)
    basis = (rule, stamp, tuple(sorted(carried.items())))
    key = (str(db.engine.url), season.id)
    hit = _PREFIXES.get(key)
    ids = [_night_id(t) for t in nights]
    same = 0
    if hit is not None and hit.basis == basis:
        while same < min(len(hit.nights), len(ids)) and hit.nights[same] == ids[same]:
            same += 1
    done = _Prefixes(basis, ids[:same], hit.rows[:same] if hit is not None else [])
    lines = [lines_of(t, stamp) for t in nights]
    for k in range(same + 1, len(nights) + 1):
        done.nights.append(ids[k - 1])
        done.rows.append(derive(lines[:k], rule, carried))
    if len(_PREFIXES) >= _MAX_SEASONS and key not in _PREFIXES:
        _PREFIXES.clear()
    _PREFIXES[key] = done
    return done.rows


def over_nights(
    season: Season, rule: Rule | None = None
) -> tuple[list[str], dict[str, list[float]], list[str]]:
    """Each player's season score after each night (the rule applied to the first k nights):
    night labels, scores by player, and the final order."""
    chosen = rule or rule_of(season)
    nights = nights_of(season)
    by_player: dict[str, list[float]] = {}
    final: list[str] = []
    for k, rows in enumerate(_tables_after_each_night(season, chosen, nights), start=1):
        for r in rows:
            by_player.setdefault(r.player, [0.0] * (k - 1)).append(float(r.score))
        for series in by_player.values():
            if len(series) < k:
                series.append(series[-1] if series else 0.0)
        final = [r.player for r in rows]
    labels = [t.date.isoformat()[5:] if t.date else t.name[:8] for t in nights]
    return labels, by_player, final


def chart_lines(
    season: Season, rule: Rule | None = None
) -> tuple[list[str], dict[str, list[float]], list[str]]:
    """What the season chart draws: without divisions each player's score after each night
    (``over_nights``); with divisions one line per division, in the season's order: the score
    of the division's leader after each night (its own nights only), named by the division and
    its leader at the end."""
    chosen = rule or rule_of(season)
    if not season.divisions:
        return over_nights(season, chosen)
    nights = nights_of(season)
    stamp = members_stamp(season.club_id)
    lines = [lines_of(t, stamp) for t in nights]
    by_line: dict[str, list[float]] = {}
    for d in season.divisions:
        mine = [i for i, t in enumerate(nights) if t.division_id == d.id]
        carried = carried_into(season, d.id)
        series: list[float] = []
        rows: list[SeasonRow] = []
        for k in range(1, len(nights) + 1):
            rows = derive([lines[i] for i in mine if i < k], chosen, carried)
            series.append(float(rows[0].score) if rows else 0.0)
        by_line[f"{d.name} · {rows[0].player}" if rows else d.name] = series
    labels = [t.date.isoformat()[5:] if t.date else t.name[:8] for t in nights]
    return labels, by_line, list(by_line)
