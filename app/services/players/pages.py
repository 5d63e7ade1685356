"""What a member's player page shows, derived from the recorded deals (nothing stored)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import or_, select

from ...competition.ratings import PlayerRating
from ...extensions import db
from ...models import Club, Entrant, EntrantPlayer, Member, Season, Tournament
from ..duplicate.hosts import not_host
from ..ratings.club import night_key, rated
from ..seasons.standings import standings as season_standings
from ..tournaments.rows import load
from ..tournaments.standings import HistoryMatch, entrant_matches


@dataclass
class NightPlayed:
    tournament: Tournament
    entrant: str
    partners: list[str]
    rank: int | None
    entrants: int
    matches: list[HistoryMatch]
    fixed: bool


@dataclass
class PlayerPage:
    member: Member
    nights: list[NightPlayed] = field(default_factory=list)
    partners: dict[str, int] = field(default_factory=dict)  # partner → nights together
    seasons: list[tuple[Season, int | None, int]] = field(default_factory=list)  # place, of n
    rating: PlayerRating | None = None


def _entries(club: Club, member: Member) -> list[tuple[Tournament, Entrant]]:
    """The member's entrants in the club's tournaments: linked to the member, or written with
    the member's exact name and linked to nobody."""
    q = (
        select(Tournament, Entrant)
        .join(Entrant, Entrant.tournament_id == Tournament.id)
        .join(EntrantPlayer, EntrantPlayer.entrant_id == Entrant.id)
        .where(
            Tournament.club_id == club.id,
            not_host(Tournament.id),  # a duplicate event's online tables: its page, not here
            Tournament.deleted_at.is_(None),
            or_(
                EntrantPlayer.member_id == member.id,
                (EntrantPlayer.member_id.is_(None)) & (EntrantPlayer.name == member.display_name),
            ),
        )
    )
    seen: set[int] = set()
    out = []
    for t, e in db.session.execute(q):
        if e.id not in seen:
            seen.add(e.id)
            out.append((t, e))
    return sorted(out, key=lambda te: night_key(te[0]), reverse=True)


def player_page(club: Club, member: Member) -> PlayerPage:
    page = PlayerPage(member)
    name = member.display_name
    for t, e in _entries(club, member):
        loaded = load(t)
        comp = loaded.tournament
        ce = comp.entrant_map.get(e.name)
        partners = [p for p in (ce.players if ce else ()) if p != name] if ce else []
        for p in partners:
            page.partners[p] = page.partners.get(p, 0) + 1
        row = next((r for r in loaded.standings if r.entrant == e.name), None)
        page.nights.append(
            NightPlayed(
                t,
                e.name,
                partners,
                row.rank if row else None,
                len(loaded.standings),
                entrant_matches(loaded, e.name),
                comp.fixed_sides,
            )
        )
    for season in db.session.scalars(
        select(Season).where(Season.club_id == club.id, Season.deleted_at.is_(None))
    ):
        rows = season_standings(season)
        mine = next((r for r in rows if r.player == name), None)
        if mine is not None:
            page.seasons.append((season, mine.rank, len(rows)))
    page.rating = rated(club).get(name)
    return page


def level_words() -> Any:
    from flask_babel import gettext as _

    from ...charts.builders import LevelWords

    return LevelWords(
        _("Levels deal by deal"),
        _("Deal"),
        _("take-over"),
        _("failed throw"),
        _("抠底"),
        _("passed A"),
    )
