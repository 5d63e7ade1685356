"""A club's ratings, derived from every recorded match of every tournament of the club."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ...competition.ratings import Game, PlayerRating, games_of, rate, table
from ...extensions import db
from ...models import Club, Member, Season, Tournament
from ..seasons.standings import member_names
from ..seasons.standings import standings as season_standings
from ..tournaments.rows import load


def night_key(t: Tournament) -> str:
    """Orders the nights: their date (or the day they were created), then creation order."""
    day = t.date or t.created_at.date()
    return f"{day.isoformat()}#{t.id:09d}"


def club_games(club: Club) -> list[Game]:
    nights = db.session.scalars(select(Tournament).where(Tournament.club_id == club.id))
    games: list[Game] = []
    for t in sorted(nights, key=night_key):
        games += games_of(load(t).tournament, night_key(t), member_names(t))
    return games


def club_ratings(club: Club) -> list[PlayerRating]:
    """Best first."""
    return table(rate(club_games(club)))


def member_display_names(club: Club) -> set[str]:
    return set(db.session.scalars(select(Member.display_name).where(Member.club_id == club.id)))


def ratings_json(club: Club) -> list[dict[str, Any]]:
    """What ``flask season ratings CLUB --json`` prints: every player of the club's recorded
    matches (by the member's name where the player is a linked member, else as written), best
    first, with their rating, matches, games, award and season places."""
    seasons = list(db.session.scalars(select(Season).where(Season.club_id == club.id)))
    places: dict[str, list[dict[str, Any]]] = {}
    for season in sorted(seasons, key=lambda s: (s.starts_on is None, s.starts_on, s.id)):
        for row in season_standings(season):
            places.setdefault(row.player, []).append({"season": season.name, "place": row.rank})
    out = []
    for r in club_ratings(club):
        out.append(
            {
                "player": r.player,
                "rating": r.display,
                "matches": r.matches,
                "games": r.games,
                "award": r.award,
                "seasons": places.get(r.player, []),
            }
        )
    return out
