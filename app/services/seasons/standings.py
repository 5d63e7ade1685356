"""A season's standings, always re-derived from its nights' recorded deals (nothing stored)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ...competition.seasons import NightLine, Rule, SeasonRow, night_lines, parse_rule
from ...competition.seasons import season_standings as derive
from ...extensions import db
from ...models import Entrant, EntrantPlayer, Member, Season, Tournament
from ..tournament_rows import load


def nights_of(season: Season, division_id: int | None = None) -> list[Tournament]:
    """The season's nights in date order (undated nights last, then in the order created)."""
    q = select(Tournament).where(Tournament.season_id == season.id)
    if division_id is not None:
        q = q.where(Tournament.division_id == division_id)
    rows = list(db.session.scalars(q))
    return sorted(rows, key=lambda t: (t.date is None, t.date or t.created_at.date(), t.id))


def member_names(t: Tournament) -> dict[str, str]:
    """Names as written on a night → the linked member's name (one season line per member)."""
    rows = db.session.execute(
        select(EntrantPlayer.name, Member.display_name)
        .join(Entrant, Entrant.id == EntrantPlayer.entrant_id)
        .join(Member, Member.id == EntrantPlayer.member_id)
        .where(Entrant.tournament_id == t.id)
    )
    return {name: member for name, member in rows}


def lines_of(t: Tournament) -> list[NightLine]:
    return night_lines(load(t).tournament, member_names(t))


def rule_of(season: Season, text: str | None = None, places: list[int] | None = None) -> Rule:
    """The season's own rule, or ``text`` (``total``, ``best:N``, ``average``, ``places``) with the
    season's minimum nights and places table (or ``places``). Raises ``SeasonRuleError``."""
    table = places if places is not None else (season.places or [])
    return parse_rule(text or season.rule, season.min_nights, table)


def standings(
    season: Season, rule: Rule | None = None, division_id: int | None = None
) -> list[SeasonRow]:
    chosen = rule or rule_of(season)
    nights = [lines_of(t) for t in nights_of(season, division_id)]
    return derive(nights, chosen, carried_into(season, division_id))


def carried_into(season: Season, division_id: int | None = None) -> dict[str, float]:
    """Points carried from the previous season (by each division's factor), if any."""
    from .manage import carried_points

    return carried_points(season, division_id)


def standings_json(season: Season, rule: Rule | None = None) -> list[dict[str, Any]]:
    return [r.as_json() for r in standings(season, rule)]
