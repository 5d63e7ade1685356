"""A club's ratings, derived from every recorded match of every tournament of the club.

Nothing is stored: the ratings are re-derived from the results. To keep that cheap, each
process keeps, per club, the ratings after each night (in night order) with what they were
derived from — the night's id and ``version`` (every change bumps it) and the club's member
names (a player's line is the linked member's name). A request compares that with the
database (two small queries) and re-rates only from the first night that differs: after a deal
is recorded on the last night, only that night is rated again. The database stays the truth;
the cache is only ever a copy of what these functions would derive anyway.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import select

from ...competition.ratings import Game, PlayerRating, games_of, rate, table
from ...extensions import db
from ...models import Club, Member, Season, Tournament
from ..duplicate.hosts import not_host
from ..seasons.standings import member_names, members_stamp
from ..seasons.standings import standings as season_standings
from ..tournaments.rows import load


def _key_of(day: date | None, created: datetime | None, tid: int) -> str:
    d = day or (created.date() if created else date.min)
    return f"{d.isoformat()}#{tid:09d}"


def night_key(t: Tournament) -> str:
    """Orders the nights: their date (or the day they were created), then creation order."""
    return _key_of(t.date, t.created_at, t.id)


Night = tuple[str, int, int, str]  # night key, id, version, created at (ids are reused)


def _nights(club_id: int) -> list[Night]:
    """Every tournament of the club, in night order, with what its results depend on."""
    rows = db.session.execute(
        select(Tournament.id, Tournament.version, Tournament.date, Tournament.created_at).where(
            Tournament.club_id == club_id,
            not_host(Tournament.id),  # a duplicate event's online tables rate nobody
            Tournament.deleted_at.is_(None),
        )
    )
    return sorted((_key_of(d, c, tid), tid, v, str(c)) for tid, v, d, c in rows)


def club_games(club: Club) -> list[Game]:
    games: list[Game] = []
    for key, tid, _v, _c in _nights(club.id):
        t = db.session.get(Tournament, tid)
        assert t is not None
        games += games_of(load(t).tournament, key, member_names(t))
    return games


@dataclass
class _Rated:
    stamp: str
    nights: list[Night] = field(default_factory=list)
    after: list[dict[str, PlayerRating]] = field(default_factory=list)  # after each night


_CACHE: dict[tuple[str, int], _Rated] = {}
_MAX_CLUBS = 32


def rated(club: Club) -> dict[str, PlayerRating]:
    """Every player's rating after every night of the club (shared with the cache: read only)."""
    nights = _nights(club.id)
    stamp = members_stamp(club.id)
    key = (str(db.engine.url), club.id)
    hit = _CACHE.get(key)
    same = 0
    if hit is not None and hit.stamp == stamp:
        while same < min(len(hit.nights), len(nights)) and hit.nights[same] == nights[same]:
            same += 1
    done = _Rated(stamp, nights[:same], hit.after[:same] if hit is not None else [])
    state: dict[str, PlayerRating] = done.after[-1] if done.after else {}
    for night in nights[same:]:
        t = db.session.get(Tournament, night[1])
        assert t is not None
        state = rate(games_of(load(t).tournament, night[0], member_names(t)), state)
        done.nights.append(night)
        done.after.append(state)
    if len(_CACHE) >= _MAX_CLUBS and key not in _CACHE:
        _CACHE.clear()
    _CACHE[key] = done
    return state


def club_ratings(club: Club) -> list[PlayerRating]:
    """Best first."""
    return table(rated(club))


def member_display_names(club: Club) -> set[str]:
    return set(
        db.session.scalars(
            select(Member.display_name).where(
                Member.club_id == club.id, Member.deleted_at.is_(None)
            )
        )
    )


def ratings_json(club: Club) -> list[dict[str, Any]]:
    """What ``flask season ratings CLUB --json`` prints: every player of the club's recorded
    matches (by the member's name where the player is a linked member, else as written), best
    first, with their rating, matches, games, award and season places."""
    seasons = list(
        db.session.scalars(
            select(Season).where(Season.club_id == club.id, Season.deleted_at.is_(None))
        )
    )
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
