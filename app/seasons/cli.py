"""``flask season standings CLUB SEASON [--rule …] [--json]`` and ``flask season ratings CLUB
[--json]`` (shared/formats/TOURNAMENT.md "Seasons"). Exit 0 on success, 1 on any error (errors on
standard error); with ``--json`` only the JSON document goes to standard output."""

from __future__ import annotations

import json

import click
from flask import current_app
from sqlalchemy import select

from ..competition.names import name_match_key
from ..competition.seasons import SeasonRuleError
from ..extensions import db
from ..models import Club
from ..services.ratings.club import ratings_json
from ..services.seasons.manage import season_by_name
from ..services.seasons.standings import grouped_json, rule_of, standings
from ..tournaments.cli import _echo, _fail
from . import bp


def _club(name: str) -> Club:
    club = db.session.scalar(select(Club).where(Club.name == name))
    if club is None:
        _fail(f"error: no club named {name!r}")
    return club


@bp.cli.command("standings")
@click.argument("club")
@click.argument("season")
@click.option(
    "--rule", default=None, help="total, best:N, average or places (default: the season's)"
)
@click.option(
    "--places",
    default=None,
    help="with --rule places: league points per place, e.g. 10,7,5 (default: the season's table)",
)
@click.option("--division", default=None, help="that division's table alone (its nights only)")
@click.option("--json", "as_json", is_flag=True, help="print the standings as JSON")
def standings_command(
    club: str,
    season: str,
    rule: str | None,
    places: str | None,
    division: str | None,
    as_json: bool,
) -> None:
    """A season's standings, best first."""
    with current_app.test_request_context():
        c = _club(club)
        s = season_by_name(c, season)
        if s is None:
            _fail(f"error: the club {club!r} has no season named {season!r}")
        table: list[int] | None = None
        if places is not None:
            parts = [p.strip() for p in places.split(",")]
            if not all(p.isdigit() for p in parts):
                _fail(f"error: --places takes whole numbers separated by commas, not {places!r}")
            table = [int(p) for p in parts]
        try:
            chosen = rule_of(s, rule, table)
        except SeasonRuleError as error:
            _fail(f"error: {error}")
        if division is not None:
            key = name_match_key(division)
            div = next((d for d in s.divisions if name_match_key(d.name) == key), None)
            if div is None:
                known = ", ".join(d.name for d in s.divisions) or "none"
                _fail(
                    f"error: the season {season!r} has no division named {division!r} "
                    f"(its divisions: {known})"
                )
            out = [r.as_json() for r in standings(s, chosen, div.id)]
        else:
            out = grouped_json(s, chosen)
    if as_json:
        _echo(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
        return
    lines = [f"{s.name} · {chosen.label}" + (f" · {division}" if division else "")]
    heading = object()
    for r in out:
        if "division" in r and r["division"] != heading:
            heading = r["division"]
            lines.append(f"[{heading if heading is not None else 'no division'}]")
        rank = "-" if r["rank"] is None else str(r["rank"])
        lines.append(
            f"{rank:>3}  {r['player']}  nights {r['nights']}  score {r['score']}  "
            f"级差 {r['level_diff']}"
        )
    _echo("\n".join(lines) + "\n")


@bp.cli.command("ratings")
@click.argument("club")
@click.option("--json", "as_json", is_flag=True, help="print the ratings as JSON")
def ratings_command(club: str, as_json: bool) -> None:
    """Every member's rating across every recorded match of the club, best first."""
    with current_app.test_request_context():
        rows = ratings_json(_club(club))
    if as_json:
        _echo(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
        return
    out = [
        f"{r['rating']:>5}  {r['player']}  matches {r['matches']}  award {r['award']}" for r in rows
    ]
    _echo("\n".join(out) + ("\n" if out else ""))
