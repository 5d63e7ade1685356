"""Substitutes: from a round on, another player (a club member or a guest typed by name) takes
one seat of an entrant. The entrant's results stand; ratings, player pages and season lines
credit each deal to whoever played it (``app.competition.model.Entrant.players_in``)."""

from __future__ import annotations

from flask_babel import gettext as _

from ...competition.names import name_match_key
from ...extensions import db
from ...models import Club, Entrant, Substitution, Tournament
from .. import ServiceError
from ..text import clean_name
from .audit import Actor, audit
from .rows import comp_entrant
from .setup import _member_of, check_entrant_seen, clean_reason, member_ids


def record_substitute(
    club: Club,
    t: Tournament,
    e: Entrant,
    seat: int | None,
    from_round: int | None,
    name: str | None,
    actor: Actor,
    seen: str | None = None,
    reason: str | None = None,
) -> Substitution:
    """From round ``from_round`` on, ``name`` plays seat ``seat`` of ``e`` instead of whoever
    played it before. Refused (nothing saved): a seat that is not one of the entrant's players,
    a round outside the tournament, an empty name, a substitute who already plays in the
    tournament in one of those rounds."""
    check_entrant_seen(e, seen)
    why = clean_reason(reason)
    if seat is None or not 0 <= seat < len(e.players):
        raise ServiceError(_("Please choose one of the entrant's players."), "seat")
    if from_round is None or not 1 <= from_round <= t.rounds:
        raise ServiceError(_("Please choose a round from 1 to %(n)d.", n=t.rounds), "from_round")
    sub_name = clean_name(name, "name")
    if any(s.seat == seat and s.from_round == from_round for s in e.substitutions):
        raise ServiceError(
            _(
                "A substitute already takes this seat from round %(n)d: remove it first.",
                n=from_round,
            ),
            "from_round",
        )
    key = name_match_key(sub_name)
    for r in range(from_round, t.rounds + 1):
        for other in t.entrants:
            if other.withdrawn_after is not None and other.withdrawn_after < r:
                continue
            players = comp_entrant(other, r).players
            if other is e:  # the seat given up is free; the entrant's other seats are not
                players = tuple(p for i, p in enumerate(players) if i != seat)
            if any(name_match_key(p) == key for p in players):
                raise ServiceError(
                    _(
                        "%(player)s already plays for %(entrant)s in round %(n)d.",
                        player=sub_name,
                        entrant=other.name,
                        n=r,
                    ),
                    "name",
                )
    replaced = comp_entrant(e, from_round).players[seat]
    if name_match_key(replaced) == key:
        raise ServiceError(
            _("%(player)s already plays this seat in round %(n)d.", player=replaced, n=from_round),
            "name",
        )
    row = Substitution(
        entrant=e,
        seat=seat,
        from_round=from_round,
        name=sub_name,
        member_id=_member_of(member_ids(club), sub_name),
        reason=why,
        created_by_id=actor.user.id if actor.user is not None else None,
    )
    db.session.add(row)
    t.bump()
    db.session.flush()
    audit(
        t,
        actor,
        "substitute",
        e.name,
        {"player": replaced},
        {"substitute": sub_name, "from_round": from_round},
        reason=why,
    )
    return row


def substitute_of(e: Entrant, sid: int) -> Substitution:
    found = next((s for s in e.substitutions if s.id == sid), None)
    if found is None:
        raise ServiceError(_("This substitute was already removed."))
    return found


def remove_substitute(
    t: Tournament,
    e: Entrant,
    sid: int,
    actor: Actor,
    seen: str | None = None,
    reason: str | None = None,
) -> Substitution:
    """Undo a substitution: its rounds are credited to the seat's player again."""
    check_entrant_seen(e, seen)
    why = clean_reason(reason)
    sub = substitute_of(e, sid)
    replaced = comp_entrant(e, sub.from_round - 1).players[sub.seat]
    audit(
        t,
        actor,
        "remove_substitute",
        e.name,
        {"substitute": sub.name, "from_round": sub.from_round},
        {"player": replaced},
        reason=why,
    )
    e.substitutions.remove(sub)
    db.session.delete(sub)
    t.bump()
    db.session.flush()
    return sub


def substitute_lines(e: Entrant) -> list[tuple[Substitution, str]]:
    """Each substitute of the entrant with the player whose seat they took."""
    return [(s, comp_entrant(e, s.from_round - 1).players[s.seat]) for s in e.substitutions]
