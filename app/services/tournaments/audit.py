"""Who acts on a tournament, and the audit trail every change leaves (who, when, what, from what
to what). A duplicate event's trail is written and worded by the same functions
(``app.services.duplicate.audit``: its entries have a ``duplicate_event_id``, no tournament)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from sqlalchemy import select

from ...extensions import db
from ...models import AuditEntry, DuplicateEvent, Round, Season, Table, Tournament, User, utcnow


@dataclass(frozen=True)
class Actor:
    """Who is acting: a signed-in user (with their club role) or a table code holder."""

    label: str
    user: User | None = None
    owner: bool = False
    director: bool = False


def audit(
    t: Tournament | DuplicateEvent | Season,
    actor: Actor,
    action: str,
    target: str,
    before: Any,
    after: Any,
    reason: str | None = None,
) -> AuditEntry:
    """An entry in the trail of a tournament, of a duplicate event or of a season; ``reason``:
    the one a director gave for a correction, shown in the trail."""
    entry = AuditEntry(
        tournament_id=t.id if isinstance(t, Tournament) else None,
        duplicate_event_id=t.id if isinstance(t, DuplicateEvent) else None,
        season_id=t.id if isinstance(t, Season) else None,
        user_id=actor.user.id if actor.user is not None else None,
        actor=actor.label[:120],
        action=action,
        target=target[:200],
        before=before,
        after=after,
        reason=reason[:200] if reason else None,
        at=utcnow(),
    )
    db.session.add(entry)
    return entry


def audit_trail(t: Tournament | DuplicateEvent | Season) -> list[AuditEntry]:
    owner = (
        AuditEntry.tournament_id
        if isinstance(t, Tournament)
        else AuditEntry.season_id
        if isinstance(t, Season)
        else AuditEntry.duplicate_event_id
    )
    return list(
        db.session.scalars(
            select(AuditEntry)
            .where(owner == t.id)
            .order_by(AuditEntry.at.desc(), AuditEntry.id.desc())
        )
    )


# --- where a change happened, and its values, in the reader's language ------------------------

_PLACE_KEYS = ("round", "table", "deal", "seat", "board")


def place(
    rnd: int,
    table: int | None = None,
    deal: int | None = None,
    seat: int | None = None,
    board: int | None = None,
) -> str:
    """A structured audit target (stored as JSON; worded when shown, in the reader's language).
    ``deal`` and ``seat`` are 1-based, as people count them; ``board``: a duplicate board."""
    data = {"round": rnd}
    if board is not None:
        data["board"] = board
    if table is not None:
        data["table"] = table
    if deal is not None:
        data["deal"] = deal
    if seat is not None:
        data["seat"] = seat
    return json.dumps(data, separators=(",", ":"))


def parse_place(target: str) -> dict[str, int] | None:
    """The structured target of an entry, or None for a plain-text one (a name, or an older
    entry's words)."""
    if not target.startswith("{"):
        return None
    try:
        data = json.loads(target)
    except ValueError:
        return None
    if (
        not isinstance(data, dict)
        or "round" not in data
        or not set(data) <= set(_PLACE_KEYS)
        or not all(type(v) is int for v in data.values())
    ):
        return None
    return data


def place_text(target: str) -> str:
    """An entry's target in the current language; older entries keep the words they were
    written with."""
    p = parse_place(target)
    if p is None:
        return target
    r = p["round"]
    if "board" in p and "table" in p:
        return _("board %(b)d, round %(r)d, table %(t)d", b=p["board"], r=r, t=p["table"])
    if "table" not in p:
        return _("round %(n)d", n=r)
    if "deal" in p:
        return _("round %(r)d, table %(t)d, deal %(d)d", r=r, t=p["table"], d=p["deal"])
    if "seat" in p:
        return _("round %(r)d, table %(t)d, seat %(s)d", r=r, t=p["table"], s=p["seat"])
    return _("round %(r)d, table %(t)d", r=r, t=p["table"])


KEY_LABELS: dict[str, Any] = {
    "declarer": _l("Declarer"),
    "dealer": _l("Dealer"),
    "friend": _l("Friend"),
    "friend_grabbed": _l("The friend grabbed (抢伴)"),
    "trump": _l("Trump"),
    "points": _l("Points"),
    "kitty": _l("Kitty"),
    "multiplier": _l("Kitty multiplier (抠底)"),
    "level": _l("Level"),
    "failed_throws": _l("failed throws (甩牌)"),
    "misplays": _l("misplays (吃苍蝇)"),
    "penalties": _l("penalties"),
    "warnings": _l("warnings (警告)"),
    "players": _l("players"),
    "player": _l("player"),
    "substitute": _l("substitute"),
    "from_round": _l("from round"),
    "name": _l("Name"),
    "sides": _l("sides"),
    "table": _l("Table"),
    "variant": _l("Game"),
    "pairing": _l("Pairing"),
    "rounds": _l("Rounds"),
    "forfeit": _l("Side that did not play"),
    "finished": _l("finished"),
    "sheet_deals": _l("Recorded deals"),
    "tables": _l("Tables"),
    "mode": _l("Mode of play"),
    "online_log": _l("Online game"),
    "member": _l("played by"),
    "clock_started_at": _l("clock started at"),
    "clock_paused_at": _l("clock paused at"),
    "clock_paused_seconds": _l("seconds paused"),
    "last_deal_at": _l("last deal called at"),
    "visibility": _l("Standings seen by"),
    "carry_factor": _l("Carry-over factor"),
    # a duplicate event's entries
    "total": _l("Attackers' points"),
    "scores": _l("积分 changes"),
    "format": _l("Format"),
    "team_pairing": _l("Team matches"),
    "entrants": _l("Entrants"),
    "boards_per_round": _l("Boards per round"),
    "seed": _l("Seed"),
    "matches": _l("Matches"),
    "bye": _l("Sitting out"),
    "outcome": _l("How the board ended"),
    "paired_rounds": _l("Rounds paired"),
    "results": _l("Results"),
}
# the words of a few values, by their key (the same words as the forms that choose them)
VALUE_WORDS: dict[str, dict[str, Any]] = {
    "format": {
        "pairs": _l("Pairs or trios across the field (matchpoints)"),
        "teams": _l("Teams of two pairs or trios (IMPs and VPs)"),
        "individuals": _l("Red five individuals (matchpoints)"),
    },
    "team_pairing": {"round-robin": _l("Round robin"), "swiss": _l("Swiss")},
    "outcome": {
        "redeal": _l("nobody called: no result"),
        "refused": _l("the deal was refused: no result"),
    },
}


def value_words(key: str, words: dict[str, Any]) -> None:
    """Another package names some values of ``key`` in the trail: the online tables name a
    bot's strength under "level" (``online.botchoice``), so this module imports none of them.
    A value with no words here is shown as it is (a deal's level: "5")."""
    VALUE_WORDS.setdefault(key, {}).update(words)


# The audit data key under which a discarded online game's whole log is kept (each deal's seed,
# setup and action records: ``online.guards.replay`` reads it back).
ONLINE_LOG = "online_log"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@dataclass(frozen=True)
class AuditLine:
    """One audit entry as shown: who, what, where and the values before and after, in words."""

    entry: AuditEntry
    target: str
    before: str | None
    after: str | None


def _side_label(side: int) -> str:
    return _("side %(s)s", s="AB"[side]) if side in (0, 1) else str(side)


class _Names:
    """Entrant and player names of the tables the trail mentions (looked up once each)."""

    def __init__(self, t: Tournament) -> None:
        self.t = t
        self.cache: dict[tuple[int, int], tuple[list[str], list[str]] | None] = {}

    def of(self, p: dict[str, int] | None) -> tuple[list[str], list[str]] | None:
        if p is None or "table" not in p:
            return None
        key = (p["round"], p["table"])
        if key not in self.cache:
            self.cache[key] = self._load(*key)
        return self.cache[key]

    def _load(self, rnd: int, number: int) -> tuple[list[str], list[str]] | None:
        from .rows import seat_names

        tab = db.session.scalar(
            select(Table)
            .join(Round, Table.round_id == Round.id)
            .where(Round.tournament_id == self.t.id, Round.number == rnd, Table.number == number)
        )
        return seat_names(tab) if tab is not None and tab.kind != "bye" else None


def _words(key: str | None, v: Any, names: tuple[list[str], list[str]] | None) -> str:
    sides, seats = names if names is not None else ([], [])

    def side(x: Any) -> str:
        if type(x) is int and 0 <= x < len(sides):
            return sides[x]
        return _side_label(x) if type(x) is int else _words(None, x, None)

    def seat(x: Any) -> str:
        if type(x) is int and 0 <= x < len(seats):
            return seats[x]
        return _("seat %(n)d", n=x + 1) if type(x) is int else _words(None, x, None)

    if key in VALUE_WORDS and isinstance(v, str) and v in VALUE_WORDS[key]:
        return str(VALUE_WORDS[key][v])
    if key in ("declarer", "forfeit") and v is not None:
        return side(v)
    if key == "scores" and isinstance(v, list):  # red five: each seat's 积分 change
        return ", ".join(
            f"{seat(i)} {x:+d}" if type(x) is int else seat(i) for i, x in enumerate(v)
        )
    if key == "matches" and isinstance(v, list):  # a paired round: "A – B" per match
        return ", ".join(
            " – ".join(str(x) for x in m) if isinstance(m, list) else str(m) for m in v
        )
    if key == "misplays" and isinstance(v, list):
        return ", ".join(side(x) for x in v)
    if key == "mode" and v in ("online", "paper"):
        return _("online") if v == "online" else _("on paper")
    if key == ONLINE_LOG and isinstance(v, list):
        return "; ".join(_log_words(x) for x in v)
    if key == "dealer" and v is not None:
        return seat(v)
    if key == "friend":
        return _("alone (独打)") if v is None else seat(v)
    if key == "member":  # an online seat's member, or none: a guest's link
        return _("guest (link)") if v is None else str(v)
    if key == "visibility" and v in ("club", "public"):  # who sees the standings
        return _("club only") if v == "club" else _("public link")
    if key == "trump":
        return SUIT_SYMBOLS.get(v, str(v)) if v is not None else _("No trump (无主)")
    if key == "penalties" and isinstance(v, list):
        return ", ".join(_penalty_words(p, side, seat) for p in v) or "—"
    if key == "warnings" and isinstance(v, list):
        return ", ".join(_penalty_words({"kind": "warning", **p}, side, seat) for p in v) or "—"
    if key == "failed_throws":
        if isinstance(v, dict):
            return _(
                "declarers %(d)s, attackers %(a)s", d=v.get("declarer", 0), a=v.get("attackers", 0)
            )
        if isinstance(v, list):
            return ", ".join(seat(x) for x in v)
    if isinstance(v, bool):
        return _("yes") if v else _("no")
    if isinstance(v, dict):
        return "; ".join(f"{_key_label(k)}: {_words(k, x, names)}" for k, x in v.items())
    if isinstance(v, list):
        return "[" + ", ".join(_words(None, x, names) for x in v) + "]"
    if v is None:
        return "—"
    return str(v)


PENALTY_WORDS: dict[str, Any] = {
    "revoke": _l("revoke (出错牌)"),
    "miscount": _l("miscount (多牌/少牌)"),
    "wrong_kitty": _l("wrong kitty (扣底张数错)"),
    "takeback": _l("take-back (悔牌)"),
}
ROLE_WORDS: dict[str, Any] = {"declarer": _l("the declarer side"), "attackers": _l("the attackers")}


def _penalty_words(p: Any, side: Any, seat: Any) -> str:
    """One recorded penalty: its kind and who was at fault (a role, or a red five seat)."""
    if not isinstance(p, dict):
        return _words(None, p, None)
    if p.get("kind") == "warning":
        return _(
            "warning (警告) to %(who)s: %(reason)s",
            who=seat(p.get("seat")),
            reason=p.get("reason") or "—",
        )
    kind = PENALTY_WORDS.get(str(p.get("kind")), p.get("kind"))
    role = ROLE_WORDS.get(str(p.get("side")), p.get("side"))
    who = seat(p["seat"]) if "seat" in p else role
    return _("%(kind)s by %(who)s", kind=kind, who=who)


def _log_words(kept: Any) -> str:
    """A kept online log in a few words (the log itself is data, not for reading)."""
    if not isinstance(kept, dict) or not isinstance(kept.get("deals"), list):
        return _words(None, kept, None)
    deals = kept["deals"]
    return ngettext(
        "table %(t)s: the log of %(num)d online deal is kept",
        "table %(t)s: the log of %(num)d online deals is kept",
        len(deals),
        t=kept.get("table", "?"),
    )


def _key_label(k: str) -> str:
    label = KEY_LABELS.get(k)
    return str(label) if label is not None else k


# the names at a place of the trail: (sides, seats), or None when unknown
NamesOf = Callable[[dict[str, int] | None], tuple[list[str], list[str]] | None]


def audit_lines(t: Tournament, entries: list[AuditEntry] | None = None) -> list[AuditLine]:
    """The trail worded for the reader: places in their language, sides as the entrants'
    names (side A/B when the table is unknown), seats as the players, suits as ♠♥♦♣ / 无主."""
    return worded(audit_trail(t) if entries is None else entries, _Names(t).of)


def worded(entries: list[AuditEntry], names_of: NamesOf) -> list[AuditLine]:
    """Entries worded for the reader, the names at each entry's place from ``names_of``."""
    out = []
    for e in entries:
        p = parse_place(e.target)
        n = names_of(p)
        out.append(
            AuditLine(
                e,
                place_text(e.target),
                None if e.before is None else _words(None, e.before, n),
                None if e.after is None else _words(None, e.after, n),
            )
        )
    return out
