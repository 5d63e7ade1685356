"""Creating a season, putting nights in it, its rule and divisions, and the end-of-season
promotion and relegation that seeds the next season. Services never commit (see
``app.services``); they raise ``ServiceError`` with a translated sentence."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import ColumnElement, func, or_, select

from engine.variants import CLIMBING, ONE_TWENTY, RED_FIVE, TRACTOR

from ...competition.names import name_match_key
from ...competition.seasons import (
    SeasonRuleError,
    carry_over,
    parse_rule,
    promote_relegate,
)
from ...competition.seasons import season_variant as variant_key
from ...db import lock_for_update
from ...extensions import db
from ...models import Club, Division, Member, Season, Tournament
from .. import ServiceError, trash, versions
from ..text import clean_name
from ..tournaments.audit import Actor, audit
from ..tournaments.setup import clean_reason

MAX_DIVISIONS = 8
# a variant's name in the sentences of this module (the game's own Chinese name first)
VARIANT_WORDS = {
    TRACTOR: _l("升级 (tractor, 4 players)"),
    RED_FIVE: _l("红五 (red five, 5 players)"),
    ONE_TWENTY: _l("120分 (6 players)"),
    CLIMBING: _l("争上游 (climbing, 3 to 6 players)"),
    # 打百分 (competition.seasons.season_variant: hundred-4p by its friend mode)
    "hundred-4p/fixed": _l("打百分 with fixed partners (pairs)"),
    "hundred-4p/shown": _l("打百分 with a shown friend (明朋友)"),
    "hundred-4p/hidden": _l("打百分 with a hidden friend (暗朋友)"),
    "hundred-4p/blind": _l("打百分 with a blind call (盲叫)"),
    "forty-4p": _l("40分下台 (pairs)"),
    "hundred-3p": _l("3人百分 (3 players)"),
}


def season_variant(season: Season, besides: Tournament | None = None) -> str | None:
    """The variant of the season's nights (all of one variant), or None while it has none;
    ``besides``: a night not to count (the one being put in). It is the competition layer's
    ``season_variant``: the variant id, with 打百分's friend mode for ``hundred-4p``
    (``"hundred-4p/fixed"``), whose pair and 积分 nights cannot share a season."""
    q = select(Tournament.variant, Tournament.options).where(
        Tournament.season_id == season.id, Tournament.deleted_at.is_(None)
    )
    if besides is not None and besides.id is not None:
        q = q.where(Tournament.id != besides.id)
    row = db.session.execute(q.limit(1)).first()
    return None if row is None else variant_key(row.variant, row.options)


def check_variant(season: Season, t: Tournament) -> None:
    """A season holds nights of one variant (``season_variant``): a night of another is
    refused, naming both."""
    held = season_variant(season, besides=t)
    got = variant_key(t.variant, t.options)
    if held is not None and held != got:
        raise ServiceError(
            _(
                "%(season)s is a season of %(held)s nights; %(night)s is a %(other)s night and "
                "cannot count in it. Nothing was saved.",
                season=season.name,
                held=VARIANT_WORDS.get(held, held),
                night=t.name,
                other=VARIANT_WORDS.get(got, got),
            ),
            "tournament",
        )


def seasons_of(club: Club) -> list[Season]:
    """The club's seasons (not the deleted ones), the latest first."""
    rows = db.session.scalars(select(Season).where(Season.club_id == club.id, trash.live(Season)))
    return sorted(rows, key=lambda s: (s.starts_on or date.max, s.id), reverse=True)


def season_by_name(club: Club, name: str, deleted: bool = False) -> Season | None:
    """The club's season of that name; a deleted one only with ``deleted``."""
    q = select(Season).where(Season.club_id == club.id, Season.name == name)
    if not deleted:
        q = q.where(trash.live(Season))
    return db.session.scalar(q)


def _name_free(club: Club, name: str) -> None:
    """A season's name is the club's (a deleted season keeps its name until it is purged)."""
    found = season_by_name(club, name, deleted=True)
    if found is None:
        return
    if found.deleted_at is not None:
        raise ServiceError(
            _(
                "The season %(name)s was deleted: restore it from the club's page, or choose "
                "another name.",
                name=name,
            ),
            "name",
        )
    raise ServiceError(_("The club already has a season named %(name)s.", name=name), "name")


def season_of(t: Tournament) -> Season | None:
    """The season the night counts in: none while its season is deleted (the night keeps its
    ``season_id``, so a restore of the season takes it back)."""
    if t.season_id is None:
        return None
    s = db.session.get(Season, t.season_id)
    return s if s is not None and s.deleted_at is None else None


def outside_seasons() -> ColumnElement[bool]:
    """The condition on tournaments that count in no season (none, or a deleted one)."""
    return or_(
        Tournament.season_id.is_(None),
        Tournament.season_id.in_(select(Season.id).where(Season.deleted_at.is_not(None))),
    )


def rule_error(e: SeasonRuleError) -> ServiceError:
    """Why a season rule cannot be used, in the reader's language."""
    text = str(e)
    if "needs a table" in text:
        return ServiceError(
            _(
                "Places cannot be used yet: the season has no league points per place. The "
                "owner sets them in the season's settings (10, 7, 5 …)."
            ),
            "places",
        )
    if "best:N" in text:
        return ServiceError(_("Best N nights needs a whole number of nights from 1."), "best")
    if "minimum" in text:
        return ServiceError(
            _("The minimum number of nights is a whole number from 1."), "min_nights"
        )
    if "places" in text or "place" in text:
        return ServiceError(
            _("League points per place: whole numbers from 0, separated by commas (10, 7, 5 …)."),
            "places",
        )
    return ServiceError(_("Choose one of the rules offered."), "rule")


def check_rule(rule: str, min_nights: int, places: Sequence[int]) -> None:
    try:
        parse_rule(rule, min_nights, list(places))
    except SeasonRuleError as e:
        raise rule_error(e) from None


def create_season(
    club: Club,
    name: str,
    starts_on: date | None = None,
    ends_on: date | None = None,
    rule: str = "total",
    min_nights: int = 1,
    places: Sequence[int] = (),
    previous: Season | None = None,
) -> Season:
    name = clean_name(name, "name", 120)
    _name_free(club, name)
    if starts_on and ends_on and ends_on < starts_on:
        raise ServiceError(_("The season cannot end before it starts."), "ends_on")
    check_rule(rule, min_nights, places)
    if previous is not None and previous.club_id != club.id:
        raise ServiceError(_("The previous season must be one of this club's."), "previous")
    season = Season(
        club_id=club.id,
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        rule=rule,
        min_nights=min_nights,
        places=list(places),
        previous_id=previous.id if previous else None,
    )
    db.session.add(season)
    db.session.flush()
    return season


def ensure_season(club: Club, name: str) -> Season:
    """The club's season of that name, created (rule ``total``) when new: the tournament file's
    ``season`` key (a deleted season of that name is refused: restore it first)."""
    return season_by_name(club, name) or create_season(club, name)


# the season's settings a form shows, and their words when a stale form is refused
_SETTING_WORDS = {
    "rule": _l("how it is counted"),
    "min_nights": _l("the nights needed to be ranked"),
    "places": _l("the league points per place"),
}


def _settings(season: Season) -> dict[str, Any]:
    return {
        "rule": season.rule,
        "min_nights": season.min_nights,
        "places": list(season.places or []),
    }


def settings_version(season: Season) -> str:
    """What the season's settings form showed (sent back as ``seen``; a stale one is refused)."""
    return versions.version(_settings(season))


def set_rule(
    season: Season,
    rule: str,
    min_nights: int,
    places: Sequence[int],
    seen: str | None = None,
) -> None:
    """The owner changes how the season is counted; the standings are re-derived at once. A form
    shown before another change of these settings (``seen``) is refused, nothing saved."""
    lock_for_update(season)
    versions.check_seen(
        _settings(season),
        seen,
        lambda c: _(
            "The season's settings were changed by someone else since you opened this page "
            "(%(what)s): look again. Nothing was saved.",
            what=versions.named(c.keys, _SETTING_WORDS),
        ),
    )
    check_rule(rule, min_nights, places)
    season.rule = rule
    season.min_nights = min_nights
    season.places = list(places)
    db.session.flush()


def set_night(t: Tournament, season: Season | None, division: Division | None = None) -> None:
    """Put a tournament night in a season (or take it out with ``season=None``)."""
    if season is not None and season.club_id != t.club_id:
        raise ServiceError(_("A night can only count in a season of its own club."), "season")
    if division is not None and (season is None or division.season_id != season.id):
        raise ServiceError(_("That division is not part of the season."), "division")
    if season is not None:
        check_variant(season, t)
    t.season_id = season.id if season else None
    t.division_id = division.id if division else None
    t.bump()
    db.session.flush()


def _division_players(
    season: Season, names: Sequence[str], editing: Division | None, members_only: bool
) -> list[str]:
    """A division's players as typed, checked: each at most once, in no other division of the
    season, and (``members_only``, a director's typing) a club member, written as the member's
    name (names compared as ``name_match_key``: "王 伟" is 王伟)."""
    typed = [clean_name(p, "players") for p in names if p and p.strip()]
    members = {
        name_match_key(m.display_name): m.display_name
        for m in db.session.scalars(
            select(Member).where(Member.club_id == season.club_id, Member.deleted_at.is_(None))
        )
    }
    out: list[str] = []
    seen: set[str] = set()
    elsewhere = {
        name_match_key(p): d.name for d in season.divisions if d is not editing for p in d.players
    }
    for name in typed:
        key = name_match_key(name)
        if key in seen:
            continue
        if members_only and key not in members:
            raise ServiceError(
                _("%(name)s is not a member of the club: add them as a member first.", name=name),
                "players",
            )
        if key in elsewhere:
            raise ServiceError(
                _(
                    "%(name)s is already in the division %(division)s of this season: a player "
                    "plays in one division.",
                    name=name,
                    division=elsewhere[key],
                ),
                "players",
            )
        seen.add(key)
        out.append(members.get(key, name))
    return out


def check_division_name(season: Season, name: str, editing: Division | None = None) -> str:
    name = clean_name(name, "name", 40)
    if any(
        name_match_key(d.name) == name_match_key(name) for d in season.divisions if d is not editing
    ):
        raise ServiceError(
            _("The season already has a division named %(name)s.", name=name), "name"
        )
    return name


def _check_carry(carry_factor: float | None) -> None:
    if carry_factor is not None and not 0 < carry_factor <= 10:
        raise ServiceError(
            _("A carry-over factor is a number above 0, such as 1.15 or 0.9."), "carry_factor"
        )


def add_division(
    season: Season,
    name: str,
    players: Sequence[str] = (),
    carry_factor: float | None = None,
    members_only: bool = False,
) -> Division:
    """A division at the bottom of the season's order. ``members_only``: the players must be
    club members (a director's typing; promotion and relegation carries whoever played)."""
    name = check_division_name(season, name)
    if len(season.divisions) >= MAX_DIVISIONS:
        raise ServiceError(_("A season has at most %(n)d divisions.", n=MAX_DIVISIONS), "name")
    _check_carry(carry_factor)
    div = Division(
        season_id=season.id,
        name=name,
        position=next_position(season),
        carry_factor=carry_factor,
        players=_division_players(season, players, None, members_only),
    )
    db.session.add(div)
    db.session.flush()
    db.session.refresh(season)
    return div


def ensure_division(season: Season, name: str) -> Division:
    """The season's division of that name (names compared as ``name_match_key``), added after
    the existing ones when new: the tournament file's ``division`` key."""
    for d in season.divisions:
        if d.deleted_at is None and name_match_key(d.name) == name_match_key(name):
            return d
    return add_division(season, name)


def next_position(season: Season) -> int:
    """Below every division of the season, the deleted ones too (each keeps its place)."""
    top = db.session.scalar(
        select(func.max(Division.position)).where(Division.season_id == season.id)
    )
    return (top if top is not None else -1) + 1


_DIVISION_WORDS = {
    "name": _l("name"),
    "carry": _l("carry-over factor"),
    "players": _l("players"),
    "position": _l("place in the order"),
}


def _division_fields(div: Division) -> dict[str, object]:
    return {
        "name": div.name,
        "carry": div.carry_factor,
        "players": list(div.players or []),
        "position": div.position,
    }


def division_version(div: Division) -> str:
    """What a form on the division showed (sent back as ``seen``; a stale one is refused)."""
    return versions.version(_division_fields(div))


def check_division_seen(div: Division, seen: str | None) -> None:
    """Refuse a form on ``div`` shown before it changed, saying what changed."""
    versions.check_seen(
        _division_fields(div),
        seen,
        lambda c: _(
            "The division %(name)s was changed by someone else since you opened this page "
            "(%(what)s): look again. Nothing was saved.",
            name=div.name,
            what=versions.named(c.keys, _DIVISION_WORDS),
        ),
    )


def edit_division(
    season: Season,
    div: Division,
    name: str,
    players: Sequence[str],
    carry_factor: float | None,
    actor: Actor,
    seen: str | None = None,
    reason: str | None = None,
) -> bool:
    """Rename a division, change its players (club members, in no other division) or its
    carry-over factor; the season's audit trail keeps what changed, with ``reason`` (optional).
    Returns False when nothing changed."""
    check_division_seen(div, seen)
    why = clean_reason(reason)
    was = _division_fields(div)
    div.name = check_division_name(season, name, editing=div)
    _check_carry(carry_factor)
    div.carry_factor = carry_factor
    div.players = _division_players(season, players, div, members_only=True)
    now = _division_fields(div)
    changed = [k for k in ("name", "carry", "players") if was[k] != now[k]]
    if not changed:
        return False
    bump_nights(season)
    db.session.flush()
    audit(
        season,
        actor,
        "edit_division",
        div.name,
        {_AUDIT_KEYS[k]: was[k] for k in changed},
        {_AUDIT_KEYS[k]: now[k] for k in changed},
        reason=why,
    )
    return True


# a division's fields as the audit trail names them (its words: ``tournaments.audit.KEY_LABELS``)
_AUDIT_KEYS = {"name": "name", "carry": "carry_factor", "players": "players"}


def move_division(season: Season, div: Division, step: int, seen: str | None = None) -> bool:
    """Move a division one place up (``step`` -1) or down (+1) the season's order; False at
    the end of the order."""
    check_division_seen(div, seen)
    order = list(season.divisions)
    i = order.index(div)
    j = i + (1 if step > 0 else -1)
    if not 0 <= j < len(order):
        return False
    other = order[j]
    a, b = div.position, other.position
    div.position = -1 - a  # (season, position) is unique: one row at a time
    db.session.flush()
    other.position = a
    db.session.flush()
    div.position = b
    bump_nights(season)
    db.session.flush()
    db.session.refresh(season)
    return True


def set_night_division(season: Season, t: Tournament, division: Division | None) -> None:
    """Move a night of the season to another division (or to none)."""
    if t.season_id != season.id:
        raise ServiceError(_("That night does not count in this season."), "tournament")
    if division is not None and division.season_id != season.id:
        raise ServiceError(_("That division is not part of the season."), "division")
    t.division_id = division.id if division else None
    t.bump()
    db.session.flush()


def bump_nights(season: Season) -> None:
    """The season's pages are cached on their nights' versions: a change of its divisions is a
    change of what they show."""
    for t in db.session.scalars(select(Tournament).where(Tournament.season_id == season.id)):
        t.bump()


def apply_movement(season: Season, k: int, next_season: Season) -> list[Division]:
    """End of season: the top ``k`` of each lower division go up, the bottom ``k`` of each upper
    division go down, by the final standings of each division; the result seeds the divisions
    of ``next_season`` (same names and carry-over factors), which must have none yet."""
    from .standings import standings

    if next_season.id == season.id or next_season.club_id != season.club_id:
        raise ServiceError(_("Choose another season of this club to seed."), "next_season")
    if not season.divisions:
        raise ServiceError(_("This season has no divisions."))
    if next_season.divisions:
        raise ServiceError(_("The next season already has its divisions."), "next_season")
    if isinstance(k, bool) or not isinstance(k, int) or k < 0 or k > 100:
        raise ServiceError(_("Choose how many players go up and down (0 to 100)."), "k")
    final: list[list[str]] = []
    for div in season.divisions:
        rows = standings(season, division_id=div.id)
        ranked = [r.player for r in rows if r.ranked]
        listed = [p for p in div.players if p not in ranked]
        final.append(ranked + listed)  # players seeded but absent all season stay at the bottom
    moved = promote_relegate(final, k)
    next_season.previous_id = season.id
    created = []
    for div, players in zip(season.divisions, moved.divisions, strict=True):
        created.append(add_division(next_season, div.name, players, div.carry_factor))
    db.session.flush()
    return created


def carried_points(season: Season, division_id: int | None = None) -> dict[str, float]:
    """What each player brings from the previous season: its score there × the factor of the
    division the player is seeded into now. Nothing without a previous season or factors."""
    from .standings import standings

    if season.previous_id is None or not season.divisions:
        return {}
    previous = db.session.get(Season, season.previous_id)
    if previous is None or previous.id == season.id or previous.deleted_at is not None:
        return {}  # a deleted season carries nothing while it is deleted
    seeded = {p: d.position for d in season.divisions for p in d.players}
    factors = [d.carry_factor or 0.0 for d in season.divisions]
    carried = carry_over(standings(previous), seeded, factors)
    if division_id is not None:
        mine = next((d for d in season.divisions if d.id == division_id), None)
        keep = set(mine.players) if mine else set()
        carried = {p: v for p, v in carried.items() if p in keep}
    return carried
