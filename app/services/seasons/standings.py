"""A season's standings, always re-derived from its nights' recorded deals (nothing stored)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ...competition.seasons import NightLine, Rule, SeasonRow, night_lines, parse_rule
from ...competition.seasons import season_standings as derive
from ...extensions import db
from ...models import Entrant, EntrantPlayer, Member, Season, Tournament
from ..tournaments.rows import load


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


def over_nights(
    season: Season, rule: Rule | None = None
) -> tuple[list[str], dict[str, list[float]], list[str]]:
    """Each player's season score after each night (the rule applied to the first k nights):
    night labels, scores by player, and the final order."""
    chosen = rule or rule_of(season)
    nights = nights_of(season)
    lines = [lines_of(t) for t in nights]
    carried = carried_into(season)
    by_player: dict[str, list[float]] = {}
    final: list[str] = []
    for k in range(1, len(lines) + 1):
        rows = derive(lines[:k], chosen, carried)
        for r in rows:
            by_player.setdefault(r.player, [0.0] * (k - 1)).append(float(r.score))
        for series in by_player.values():
            if len(series) < k:
                series.append(series[-1] if series else 0.0)
        final = [r.player for r in rows]
    labels = [t.date.isoformat()[5:] if t.date else t.name[:8] for t in nights]
    return labels, by_player, final
