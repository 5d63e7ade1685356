"""What a member's player page shows, derived from the recorded deals (nothing stored)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import or_, select

from engine.hundred_rules import is_family as is_hundred
from engine.variants import CLIMBING

from ...competition.names import name_match_key, name_sort_key
from ...competition.ratings import PlayerRating
from ...extensions import db
from ...models import Club, Entrant, EntrantPlayer, Member, Season, Substitution, Tournament
from ..duplicate.hosts import not_host
from ..ratings.club import night_key, rated
from ..seasons.standings import by_division
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
    climbing: bool = False  # 争上游: points by place and deals won (上游), not red five's 积分
    hundred: bool = False  # 打百分: units (积分 or a side's), no levels


@dataclass
class PlayerPage:
    member: Member
    nights: list[NightPlayed] = field(default_factory=list)
    partners: dict[str, int] = field(default_factory=dict)  # partner → nights together
    # place, of n, and the division (its name) whose table it is
    seasons: list[tuple[Season, int | None, int, str | None]] = field(default_factory=list)
    rating: PlayerRating | None = None


def _entries(club: Club, member: Member) -> list[tuple[Tournament, Entrant, set[str]]]:
    """The member's entrants in the club's tournaments, each with the member's names as written
    in it (``name_match_key``): as a player or as a substitute linked to the member, or written
    with the member's name (compared as ``name_match_key``: "王 伟" is 王伟) and linked to
    nobody."""
    key = name_match_key(member.display_name)
    mine = or_(EntrantPlayer.member_id == member.id, EntrantPlayer.member_id.is_(None))
    sub_mine = or_(Substitution.member_id == member.id, Substitution.member_id.is_(None))
    club_nights = (
        Tournament.club_id == club.id,
        not_host(Tournament.id),  # a duplicate event's online tables: its page, not here
        Tournament.deleted_at.is_(None),
    )
    rows = list(
        db.session.execute(
            select(Tournament, Entrant, EntrantPlayer.member_id, EntrantPlayer.name)
            .join(Entrant, Entrant.tournament_id == Tournament.id)
            .join(EntrantPlayer, EntrantPlayer.entrant_id == Entrant.id)
            .where(*club_nights, mine)
        )
    )
    rows += db.session.execute(
        select(Tournament, Entrant, Substitution.member_id, Substitution.name)
        .join(Entrant, Entrant.tournament_id == Tournament.id)
        .join(Substitution, Substitution.entrant_id == Entrant.id)
        .where(*club_nights, sub_mine)
    ).all()
    found: dict[int, tuple[Tournament, Entrant, set[str]]] = {}
    for t, e, member_id, written in rows:
        if member_id is None and name_match_key(written) != key:
            continue
        found.setdefault(e.id, (t, e, set()))[2].add(name_match_key(written))
    return sorted(found.values(), key=lambda te: night_key(te[0]), reverse=True)


def player_page(club: Club, member: Member) -> PlayerPage:
    page = PlayerPage(member)
    name = member.display_name
    spelling: dict[str, str] = {}  # a partner typed "王 伟" one night is 王伟 another
    for t, e, keys in _entries(club, member):
        loaded = load(t)
        comp = loaded.tournament
        ce = comp.entrant_map.get(e.name)
        matches = entrant_matches(loaded, e.name)
        if ce is not None and ce.substitutes:
            # only the rounds the member played: a substitute's rounds are the substitute's
            matches = [
                m for m in matches if any(name_match_key(p) in keys for p in ce.players_in(m.round))
            ]
            if not matches:
                continue
            together = [p for m in matches for p in ce.players_in(m.round)]
        else:
            together = list(ce.players if ce else ())
        partners = list(dict.fromkeys(p for p in together if name_match_key(p) not in keys))
        for written in partners:
            p = spelling.setdefault(name_match_key(written), written)
            page.partners[p] = page.partners.get(p, 0) + 1
        row = next((r for r in loaded.standings if r.entrant == e.name), None)
        page.nights.append(
            NightPlayed(
                t,
                e.name,
                partners,
                row.rank if row else None,
                len(loaded.standings),
                matches,
                comp.fixed_sides,
                t.variant == CLIMBING,
                is_hundred(t.variant),
            )
        )
    key = name_match_key(name)
    for season in db.session.scalars(
        select(Season).where(Season.club_id == club.id, Season.deleted_at.is_(None))
    ):
        groups = [(d.name if d else None, rows) for d, rows in by_division(season)] or [
            (None, season_standings(season))
        ]
        for division, rows in groups:  # the player's place in each division's own table
            mine = next((r for r in rows if name_match_key(r.player) == key), None)
            if mine is not None:
                page.seasons.append((season, mine.rank, len(rows), division))
    page.rating = rated(club).get(name)
    # most nights together first, then the app's name order
    page.partners = dict(
        sorted(page.partners.items(), key=lambda pn: (-pn[1], name_sort_key(pn[0])))
    )
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
