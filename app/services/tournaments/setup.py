"""Setting a tournament up: creating it, its entrants (pairs, trios or players), late entries and
withdrawals between rounds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from engine.hundred_rules import is_family as is_hundred
from engine.hundred_rules import make_hundred_variant
from engine.variants import CLIMBING, RED_FIVE, make_variant

from ...competition.model import TIE_BREAKS
from ...competition.names import name_match_key
from ...competition.presets import PRESETS
from ...competition.tfile import SIDE_SIZE, TARGET_LEVELS
from ...extensions import db
from ...models import Club, Entrant, EntrantPlayer, Member, TableSeat, Tournament, User
from .. import ServiceError, versions
from ..duplicate.hosts import not_host
from ..text import clean_name
from .audit import Actor, audit
from .rows import rounds_of, side_size


def find_by_name(name: str) -> Tournament | None:
    return db.session.scalar(select(Tournament).where(Tournament.name == name))


def club_tournaments(club: Club) -> list[Tournament]:
    return list(
        db.session.scalars(
            select(Tournament)
            .where(
                Tournament.club_id == club.id,
                not_host(Tournament.id),  # duplicate hosts hidden
                Tournament.deleted_at.is_(None),  # deleted: on the club's page, to restore
            )
            .order_by(Tournament.created_at.desc(), Tournament.id.desc())
        )
    )


def member_ids(club: Club) -> dict[str, int]:
    """Club members by display name: a player typed with a member's name links to them."""
    return {
        m.display_name: m.id
        for m in db.session.scalars(
            select(Member).where(Member.club_id == club.id, Member.deleted_at.is_(None))
        )
    }


def _member_of(members: dict[str, int], name: str) -> int | None:
    """The member a typed player's name is (compared as ``name_match_key``: "王 伟" is 王伟)."""
    if name in members:
        return members[name]
    key = name_match_key(name)
    found = [mid for n, mid in members.items() if name_match_key(n) == key]
    return found[0] if len(found) == 1 else None


def new_tournament_row(club: Club, user: User | None, **columns: Any) -> Tournament:
    """A ``Tournament`` row (version 1) with these columns, added and flushed; no checks."""
    t = Tournament(club_id=club.id, version=1, created_by_id=user.id if user else None, **columns)
    db.session.add(t)
    db.session.flush()
    return t


def create_tournament(
    club: Club,
    user: User | None,
    name: str,
    variant: str,
    options: dict[str, Any],
    pairing: str,
    rounds: int,
    match: dict[str, Any],
    points: dict[str, Any],
    preset: str | None = None,
) -> Tournament:
    clean = clean_name(name, "name", 120)
    found = find_by_name(clean)
    if found is not None and found.deleted_at is not None:
        raise ServiceError(
            _(
                "A deleted tournament has this name: restore it from the club's page, or "
                "choose another name."
            ),
            "name",
        )
    if found is not None:
        raise ServiceError(_("A tournament with this name already exists."), "name")
    if variant not in SIDE_SIZE and not is_hundred(variant):
        raise ServiceError(_("Please choose a variant."), "variant")
    if is_hundred(variant):
        _check_hundred(variant, options, pairing, match)
    if variant == RED_FIVE and pairing != "reseat":
        raise ServiceError(_("Red five re-seats individuals: choose re-seating."), "pairing")
    if variant == CLIMBING and pairing != "reseat":
        raise ServiceError(_("争上游 re-seats individuals: choose re-seating."), "pairing")
    if (
        variant not in (RED_FIVE, CLIMBING)
        and not is_hundred(variant)
        and pairing not in ("round-robin", "swiss")
    ):
        raise ServiceError(_("Fixed sides play round robin or Swiss."), "pairing")
    if variant == RED_FIVE and match.get("to_a"):
        raise ServiceError(
            _("Red five stays at level 2: play a number of deals or minutes."), "match_kind"
        )
    if variant == CLIMBING and match.get("to_a"):
        raise ServiceError(
            _("争上游 has no levels: play a number of deals or minutes."), "match_kind"
        )
    tie = match.get("tie_break", "draw")
    if tie not in TIE_BREAKS:
        raise ServiceError(_("Please choose one of the listed values."), "tie_break")
    if variant == RED_FIVE and tie != "draw":
        raise ServiceError(
            _("Red five has no tie-break: each seat scores its own 积分. Choose a draw."),
            "tie_break",
        )
    if variant == CLIMBING and tie != "draw":
        raise ServiceError(
            _("争上游 has no tie-break: each player scores points by place. Choose a draw."),
            "tie_break",
        )
    if "target" in match and not match.get("to_a"):
        raise ServiceError(_("Please choose one of the listed values."), "target")
    if match.get("target", "A") not in TARGET_LEVELS:
        raise ServiceError(_("Please choose one of the listed values."), "target")
    if preset is not None and (preset not in PRESETS or not PRESETS[preset].fits(variant)):
        raise ServiceError(_("This rule preset does not exist for this game."), "preset")
    if not 1 <= rounds <= 50:
        raise ServiceError(_("Between 1 and 50 rounds, please."), "rounds")
    try:
        if not is_hundred(variant):
            make_variant(variant, options)
    except ValueError as error:
        raise ServiceError(str(error), "variant") from error
    t = new_tournament_row(
        club,
        user,
        name=clean,
        variant=variant,
        options=dict(options),
        pairing=pairing,
        rounds=rounds,
        match=dict(match),
        points=dict(points),
        preset=preset,
    )
    audit(
        t,
        Actor(user.display_name if user else "import", user),
        "create",
        t.name,
        None,
        {"variant": variant, "pairing": pairing, "rounds": rounds},
    )
    return t


def _check_hundred(
    variant: str, options: dict[str, Any], pairing: str, match: dict[str, Any]
) -> None:
    """打百分 (HUNDRED.md §8): its friend modes and 3人百分 are individual events, re-seated each
    round; fixed partners and 40分下台 are pair events, paired by round robin or Swiss. It has
    no levels: a match is a number of deals or minutes, and 分差 (not a tie-break at equal
    levels) separates equal match points."""
    try:
        rules = make_hundred_variant(variant, options)
    except ValueError as error:
        raise ServiceError(str(error), "variant") from error
    if rules.fixed_pairs and pairing not in ("round-robin", "swiss"):
        raise ServiceError(
            _("打百分 with fixed partners and 40分下台 pair sides: choose round robin or Swiss."),
            "pairing",
        )
    if not rules.fixed_pairs and pairing != "reseat":
        raise ServiceError(
            _("打百分 with a friend and 3人百分 re-seat individuals: choose re-seating."),
            "pairing",
        )
    if match.get("to_a"):
        raise ServiceError(
            _("打百分 has no levels: play a number of deals or minutes."), "match_kind"
        )
    if match.get("tie_break", "draw") != "draw":
        raise ServiceError(
            _(
                "打百分 has no tie-break at equal levels: 分差 orders equal match points. Choose a draw."
            ),
            "tie_break",
        )


def _players_and_name(
    t: Tournament,
    name: str | None,
    players: Sequence[str],
    editing: Entrant | None = None,
) -> tuple[str, list[str]]:
    """The entrant's name and players as typed, checked: no player twice, no player who
    already plays for another entrant still in the tournament (a withdrawn entrant's players
    are free again), no second entrant of the same name (names compared as
    ``name_match_key``)."""
    size = side_size(t)
    clean_players: list[str] = []
    for i in range(size):
        field_name = f"player_{i}"
        raw = players[i] if i < len(players) else ""
        clean_players.append(clean_name(raw, field_name))
    if len({name_match_key(p) for p in clean_players}) != len(clean_players):
        raise ServiceError(_("The same player is listed twice."), f"player_{size - 1}")
    entrant_name = clean_name(name or " & ".join(clean_players), "name", 120)
    others = [e for e in t.entrants if e is not editing]
    if any(name_match_key(e.name) == name_match_key(entrant_name) for e in others):
        raise ServiceError(_("An entrant with this name is already in the tournament."), "name")
    taken = {
        name_match_key(p): (p, e.name)
        for e in others
        if e.withdrawn_after is None
        # a substitute plays for the entrant too
        for p in [*(x.name for x in e.players), *(x.name for x in e.substitutions)]
    }
    for i, p in enumerate(clean_players):
        if name_match_key(p) in taken:
            who, entrant = taken[name_match_key(p)]
            raise ServiceError(
                _("%(player)s already plays for %(entrant)s.", player=who, entrant=entrant),
                f"player_{i}",
            )
    return entrant_name, clean_players


def add_entrant(
    club: Club, t: Tournament, name: str | None, players: Sequence[str], actor: Actor
) -> Entrant:
    """Add a pair, trio or player; a player's name that is a club member's links to them. A
    Swiss or a re-seating takes a late entrant from the next round on; a round robin's
    schedule is fixed once its first round is seated."""
    entrant_name, clean_players = _players_and_name(t, name, players)
    if t.pairing == "round-robin" and rounds_of(t):
        raise ServiceError(
            _(
                "A round robin's schedule is fixed once the first round is seated: a late "
                "entrant cannot be fitted in. (A Swiss takes late entrants from the next round.)"
            ),
            "name",
        )
    position = (max((e.position for e in t.entrants), default=0)) + 1
    entrant = entrant_row(t, entrant_name, position, clean_players, member_ids(club))
    db.session.add(entrant)
    t.bump()
    db.session.flush()
    audit(t, actor, "add_entrant", entrant_name, None, {"players": clean_players})
    return entrant


_ENTRANT_WORDS = {
    "name": _l("name"),
    "players": _l("players"),
    "withdrawn": _l("withdrawal"),
    "substitutes": _l("substitutes"),
}


def _entrant_fields(e: Entrant) -> dict[str, object]:
    fields: dict[str, object] = {
        "name": e.name,
        "players": [p.name for p in e.players],
        "withdrawn": e.withdrawn_after,
    }
    if e.substitutions:  # a substitute recorded or removed changes the entrant too
        fields["substitutes"] = [[s.seat, s.from_round, s.name] for s in e.substitutions]
    return fields


def entrant_version(e: Entrant) -> str:
    """What a form on the entrant showed (its name, players, withdrawal and substitutes): sent back by the
    edit, withdraw and remove forms, so one made before another director's change is refused."""
    return versions.version(_entrant_fields(e))


def check_entrant_seen(e: Entrant, seen: str | None) -> None:
    """Refuse a form made before the entrant last changed (``seen``: its ``entrant_version``
    then; None: a form that did not say, such as a script's), saying what changed."""
    versions.check_seen(
        _entrant_fields(e),
        seen,
        lambda c: _(
            "%(name)s was changed by someone else since you opened this page (%(what)s): look "
            "again. Nothing was saved.",
            name=e.name,
            what=versions.named(c.keys, _ENTRANT_WORDS),
        ),
    )


def clean_reason(reason: str | None) -> str | None:
    text = " ".join((reason or "").split())
    if len(text) > 200:
        raise ServiceError(_("At most %(n)d characters, please.", n=200), "reason")
    return text or None


def edit_entrant(
    club: Club,
    t: Tournament,
    e: Entrant,
    name: str | None,
    players: Sequence[str],
    actor: Actor,
    seen: str | None = None,
    reason: str | None = None,
) -> bool:
    """Correct an entrant's name or players (a typo, the wrong member): its results stand and
    are theirs. Returns False when nothing changed."""
    check_entrant_seen(e, seen)
    why = clean_reason(reason)
    entrant_name, clean_players = _players_and_name(t, name, players, editing=e)
    before = {"name": e.name, "players": [p.name for p in e.players]}
    after = {"name": entrant_name, "players": clean_players}
    if before == after:
        return False
    members = member_ids(club)
    e.name = entrant_name
    for p, typed in zip(e.players, clean_players, strict=True):
        if p.name != typed:
            p.name = typed
            p.member_id = _member_of(members, typed)
    t.bump()
    db.session.flush()
    audit(t, actor, "edit_entrant", entrant_name, before, after, reason=why)
    return True


def remove_entrant(
    t: Tournament,
    e: Entrant,
    actor: Actor,
    seen: str | None = None,
    reason: str | None = None,
) -> str:
    """Remove an entrant: one never seated at a table is gone (its players free again), one
    seated is withdrawn instead (its tables and results stand). Returns "removed" or
    "withdrawn"."""
    check_entrant_seen(e, seen)
    why = clean_reason(reason)
    seated = db.session.scalar(select(TableSeat.id).where(TableSeat.entrant_id == e.id).limit(1))
    if seated is not None:
        if e.withdrawn_after is None:
            withdraw_entrant(t, e, actor, reason=why)
        return "withdrawn"
    before = {"players": [p.name for p in e.players]}
    audit(t, actor, "remove_entrant", e.name, before, None, reason=why)
    t.entrants.remove(e)
    db.session.delete(e)
    t.bump()
    db.session.flush()
    return "removed"


def entrant_row(
    t: Tournament,
    name: str,
    position: int,
    players: Sequence[str],
    members: dict[str, int],
    withdrawn_after: int | None = None,
) -> Entrant:
    """An ``Entrant`` row with its players (linked to club members by name)."""
    row = Entrant(tournament=t, name=name, position=position, withdrawn_after=withdrawn_after)
    for seat, p in enumerate(players):
        row.players.append(EntrantPlayer(seat=seat, name=p, member_id=_member_of(members, p)))
    return row


def withdraw_entrant(
    t: Tournament, entrant: Entrant, actor: Actor, reason: str | None = None
) -> None:
    """Withdraw after the rounds seated so far (they are not seated again; their players may
    enter again in another entrant)."""
    if entrant.withdrawn_after is not None:
        raise ServiceError(_("%(name)s has already withdrawn.", name=entrant.name))
    after = len(rounds_of(t))
    entrant.withdrawn_after = after
    t.bump()
    audit(t, actor, "withdraw", entrant.name, None, {"withdrawn_after": after}, reason=reason)


def reinstate_entrant(t: Tournament, entrant: Entrant, actor: Actor) -> None:
    if entrant.withdrawn_after is None:
        return
    others = [e for e in t.entrants if e is not entrant and e.withdrawn_after is None]
    playing = {name_match_key(p.name): o.name for o in others for p in o.players}
    for p in entrant.players:
        if name_match_key(p.name) in playing:
            raise ServiceError(
                _(
                    "%(player)s now plays for %(entrant)s: %(name)s cannot come back as it was.",
                    player=p.name,
                    entrant=playing[name_match_key(p.name)],
                    name=entrant.name,
                )
            )
    if entrant.withdrawn_after < len(rounds_of(t)):
        raise ServiceError(
            _("A round was seated without %(name)s: too late to come back.", name=entrant.name)
        )
    before = entrant.withdrawn_after
    entrant.withdrawn_after = None
    t.bump()
    audit(t, actor, "reinstate", entrant.name, {"withdrawn_after": before}, None)
