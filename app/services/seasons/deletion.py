"""Deleting a season or a division, reversibly (the mechanism: ``app.services.trash``; only the
club's owner, as for all season management).

A deleted **season** is hidden everywhere: the club's lists, its pages and exports, its public
link and projector, the players' pages and the ratings' season places. Its nights are not
deleted and keep their ``season_id``: while the season is deleted they count in no season (they
may be put in another one, and then stay there), and a restore takes back those still pointing
at it. Its name stays taken until it is purged (a new season or an imported night naming it is
refused with a sentence saying to restore it).

A deleted **division** leaves ``Season.divisions``: its nights (which keep their
``division_id``) count in no division, and its players are free to join another division of the
season. It keeps its ``position``, which no later division takes (``manage.next_position``), so a
restore puts it back in its place in the season's order, with its players; the restore is
refused if one of them has meanwhile joined another division of the season, if its name is
taken, or if the season already has the most divisions.

Both are recorded in the season's audit trail with the owner's reason."""

from __future__ import annotations

from datetime import datetime

from flask_babel import gettext as _
from sqlalchemy import select

from ...competition.names import name_match_key
from ...extensions import db
from ...models import Club, Division, Season
from .. import ServiceError, trash
from ..tournaments.audit import Actor, audit
from .manage import MAX_DIVISIONS, bump_nights, check_division_seen


def delete_season(season: Season, actor: Actor, reason: str | None = None) -> None:
    why = trash.hide(season, season.name, actor.label, reason)
    bump_nights(season)
    audit(season, actor, "delete_season", season.name, None, None, reason=why)
    db.session.flush()


def restore_season(season: Season, actor: Actor) -> None:
    before = trash.unhide(season, season.name)
    bump_nights(season)
    audit(season, actor, "restore_season", season.name, before, None)
    db.session.flush()


def delete_division(
    season: Season, div: Division, actor: Actor, reason: str | None = None, seen: str | None = None
) -> None:
    """Take the division out of the season (``seen``: the division's version the form showed)."""
    check_division_seen(div, seen)
    why = trash.hide(div, div.name, actor.label, reason)
    bump_nights(season)
    audit(season, actor, "delete_division", div.name, None, None, reason=why)
    db.session.flush()
    db.session.expire(season, ["divisions"])


def restore_division(season: Season, div: Division, actor: Actor) -> None:
    """Put the division back in its place with its players (refused, nothing changed, if a
    player or its name is now another division's)."""
    if div.deleted_at is not None:
        for other in season.divisions:
            if name_match_key(other.name) == name_match_key(div.name):
                raise ServiceError(
                    _(
                        "The season has another division named %(name)s now: rename that one "
                        "before restoring this one.",
                        name=div.name,
                    )
                )
            taken = {name_match_key(p) for p in other.players}
            for player in div.players:
                if name_match_key(player) in taken:
                    raise ServiceError(
                        _(
                            "%(name)s cannot be restored: %(player)s has joined the division "
                            "%(other)s of this season since. Take them out of one of the two "
                            "first.",
                            name=div.name,
                            player=player,
                            other=other.name,
                        )
                    )
        if len(season.divisions) >= MAX_DIVISIONS:
            raise ServiceError(_("A season has at most %(n)d divisions.", n=MAX_DIVISIONS))
    before = trash.unhide(div, div.name)
    bump_nights(season)
    audit(season, actor, "restore_division", div.name, before, None)
    db.session.flush()
    db.session.expire(season, ["divisions"])


def deleted_season(club: Club, sid: int) -> Season | None:
    s = db.session.get(Season, sid)
    if s is None or s.club_id != club.id or s.deleted_at is None:
        return None
    return s


def deleted_division(club: Club, division_id: int) -> tuple[Season, Division] | None:
    """A deleted division of one of the club's seasons in play."""
    div = db.session.get(Division, division_id)
    if div is None or div.deleted_at is None:
        return None
    s = db.session.get(Season, div.season_id)
    if s is None or s.club_id != club.id or s.deleted_at is not None:
        return None
    return s, div


def _seasons_since(club: Club, start: datetime) -> list[trash.Deleted]:
    rows = db.session.scalars(
        select(Season).where(
            Season.club_id == club.id, Season.deleted_at.is_not(None), Season.deleted_at >= start
        )
    )
    return [trash.deleted("season", s, s.name) for s in rows]


def _divisions_since(club: Club, start: datetime) -> list[trash.Deleted]:
    """The deleted divisions of seasons in play (a deleted season's come back with it)."""
    rows = db.session.execute(
        select(Division, Season.name)
        .join(Season, Season.id == Division.season_id)
        .where(
            Season.club_id == club.id,
            trash.live(Season),
            Division.deleted_at.is_not(None),
            Division.deleted_at >= start,
        )
    )
    return [trash.deleted("division", d, d.name, within=season) for d, season in rows]


def _purge_seasons(cutoff: datetime) -> list[str]:
    old = list(
        db.session.scalars(
            select(Season).where(Season.deleted_at.is_not(None), Season.deleted_at < cutoff)
        )
    )
    names = [s.name for s in old]
    for s in old:
        db.session.delete(s)  # its nights stay, in no season (season_id SET NULL)
    db.session.flush()
    return names


def _purge_divisions(cutoff: datetime) -> list[str]:
    old = list(
        db.session.scalars(
            select(Division).where(Division.deleted_at.is_not(None), Division.deleted_at < cutoff)
        )
    )
    names = [d.name for d in old]
    for d in old:
        db.session.delete(d)  # its nights stay in the season, in no division
    db.session.flush()
    return names


SEASON = trash.Kind(_seasons_since, _purge_seasons)
DIVISION = trash.Kind(_divisions_since, _purge_divisions)
