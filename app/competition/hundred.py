"""打百分's paper score sheet (记分表, ``shared/rules/HUNDRED.md`` §8): one row per deal, checked
field by field, and a table's running scores.

A row (``HundredDeal``) holds what the sheet has: the bid and the declarer's seat (in 40分下台 the
turned card instead of a bid), trump, the friend card and the friend's seat (or alone), the
attackers' points, 抠底 yes/no (did an attacker win the last trick), optionally the buried cards'
points for the record, and the penalties — not the buried cards themselves, which the sheet does
not hold (§8). The result and each seat's units are never worked out here:
``engine.hundred_rules.deal_outcome(strict=True)`` gives them (the engine's function meant for
score sheets). On 抠底 the attackers win whatever their points (§3), so the result never depends
on the buried cards; the engine is given an empty kitty, and the recorded kitty points are added
to the printed total here (``HundredRow.total``), as the engine would add a kitty's points.

Events (§8): ``hundred-4p`` with friend ``shown``, ``hidden`` or ``blind`` and ``hundred-3p`` are
individual events (积分 per seat, tables of 4 or 3 players re-seated each round as red five's);
``hundred-4p`` ``fixed`` and ``forty-4p`` are pair events (each side scores its deals' units; the
side with more wins the match, 分差 breaks ties). Standings and pairing: ``hundred_event``; the
tournament file: ``hundred_file``.

Like ``matches``, checks return issues keyed by field (``""`` for the deal as a whole) and never
raise for bad sheet data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeGuard

from engine.cards import LJ, SUITS, full_pack, parse_card, points_of
from engine.errors import EngineError
from engine.hundred_rules import (
    ATTACKERS,
    BLIND,
    DECLARER,
    FAMILY_IDS,
    FIXED,
    HUNDRED_3P,
    KITTY,
    MAX_BID,
    MIN_BID,
    PENALTY_KINDS,
    TOTAL_POINTS,
    HundredResult,
    HundredVariant,
    deal_outcome,
    is_family,
    make_hundred_variant,
)

from .matches import DealIssue
from .model import Deal, MatchSpec, Table

HUNDRED_IDS = FAMILY_IDS

__all__ = [
    "HUNDRED_IDS",
    "HUNDRED_MESSAGES",
    "HundredDeal",
    "HundredIssue",
    "HundredRow",
    "HundredTable",
    "derive_hundred",
    "hundred_issues",
    "hundred_variant",
    "individual",
    "is_hundred",
    "table_size",
]


def is_hundred(variant_id: object) -> bool:
    """One of 打百分's variants (``hundred-4p``, ``forty-4p``, ``hundred-3p``)."""
    return is_family(variant_id)


@lru_cache(maxsize=32)
def _variant(variant_id: str, options: tuple[tuple[str, Any], ...]) -> HundredVariant:
    return make_hundred_variant(variant_id, dict(options))


def hundred_variant(variant_id: str, options: Mapping[str, Any] | None = None) -> HundredVariant:
    """The engine's variant with a tournament's options (validated: raises ``OptionError``)."""
    return _variant(variant_id, tuple(sorted((options or {}).items())))


def individual(variant_id: str, options: Mapping[str, Any] | None = None) -> bool:
    """An individual event (积分, re-seated): hundred-4p shown/hidden/blind and hundred-3p."""
    return not hundred_variant(variant_id, options).fixed_pairs


def table_size(variant_id: str) -> int:
    """Players at an individual table: 4, or 3 in 3人百分 (its dummy is no one's seat)."""
    return 3 if variant_id == HUNDRED_3P else 4


@dataclass(frozen=True)
class HundredDeal(Deal):
    """One row of 打百分's score sheet. Of ``Deal``'s fields it uses ``declarer`` — the declarer's
    (庄家's) **seat**, 0 … n − 1 (not a side: in a pair event the side is ``declarer % 2``) —,
    ``friend`` (the friend's seat; None: alone, or no friend in this mode; in pair modes it may
    be the partner opposite), ``trump``, ``points`` (the attackers' points in tricks),
    ``penalties`` (``(kind, "declarer" | "attackers")``) and ``warnings``. Its ``kitty`` is
    always 0: the buried cards' points, which are optional here, are ``kitty_points``.

    ``bid``: the winning bid (hundred-4p, hundred-3p); ``turned``: 40分下台's turned card (its suit
    is trump); ``friend_card``: the card the declarer called (shown, hidden, blind); ``kou_di``:
    an attacker won the last trick (抠底: the attackers win the deal); ``kitty_points``: the
    buried cards' points if written (a multiple of 5, at most what six cards hold, with
    ``points`` at most 100), None if not — added to the attackers' on 抠底 for the record only.
    Its field on the sheet and in the file is ``kitty``, as for the other games."""

    bid: int | None = None
    turned: str | None = None
    friend_card: str | None = None
    kou_di: bool = False
    kitty_points: int | None = None


# English wording of every issue code; params as in ``matches.MESSAGES``.
HUNDRED_MESSAGES: dict[str, str] = {
    "hundred_declarer_missing": "is missing: the declarer's seat, 0 … {last}",
    "hundred_seat": "{value!r} is not a seat 0 … {last}",
    "hundred_bid_missing": "is missing: the winning bid, 60 … 100 in steps of 5",
    "hundred_bid": "{value!r} is not a bid: 60 … 100 in steps of 5",
    "hundred_bid_forty": "40分下台 has no bidding: write the turned card (turned), not a bid",
    "hundred_turned_missing": "is missing: 40分下台's turned card, which names trump",
    "hundred_turned": '{value!r} is not a suited card such as "7H" (a joker is never turned)',
    "hundred_turned_only": "belongs to 40分下台 only: a bid names the declarer here",
    "hundred_trump_missing": "is missing: 打百分 always has a trump suit (S, H, D or C)",
    "hundred_trump": "{value!r} is not a suit: write S, H, D or C (打百分 always has one)",
    "hundred_trump_turned": "{value!r} is not the turned card's suit {suit}",
    "hundred_friend_card_missing": "is missing: the card the declarer called (friend {mode})",
    "hundred_friend_card": '{value!r} is not a card such as "AS", "10H" or "HJ"',
    "hundred_friend_card_none": "is not used: {what} has no friend card",
    "hundred_friend_missing": (
        "is missing: the seat that held the friend card (only friend blind plays alone)"
    ),
    "hundred_friend_is_declarer": "is the declarer: write null when the declarer played alone",
    "hundred_friend_not_partner": (
        "{value!r} is not the declarer's partner opposite (seat {partner}): sides are fixed here"
    ),
    "hundred_friend_3p": "3人百分 has no friend: the declarer plays with the dummy",
    "hundred_points": "{value!r} is not the attackers' points: 0 … 100 in steps of 5",
    "hundred_kou_di": "{value!r} is not true or false (did an attacker win the last trick?)",
    "hundred_kitty": (
        "{value!r} is not the buried cards' points: 0 … {most} in steps of 5 (six cards of one "
        "deck), or leave it out"
    ),
    "hundred_points_kitty": (
        "points {points} + the buried cards' {kitty} = {sum} is more than the 100 in the deck "
        "(the buried cards were not won in tricks)"
    ),
    "hundred_penalties": "is a list of penalties, each a kind and the side at fault",
    "hundred_penalty_kind": "{value!r} is not a penalty here: revoke, miscount or takeback",
    "hundred_penalty_side": "{value!r} is not the side at fault: write declarer or attackers",
    "hundred_warning_seat": "{value!r} is not the seat warned 0 … {last}",
    "hundred_warning_reason": "a warning needs its reason, at most {most} characters",
    "hundred_engine": "{value}",
    "hundred_table_complete": "the table plays {deals} deals; this is deal {number}",
    "hundred_after_last_deal": (
        "the director called the last deal: this table plays {deals} deals; this is deal {number}"
    ),
}

WARNING_REASON_MAX = 200

# The most points the six buried cards can hold: the six best cards of one deck (10s and Ks).
KITTY_MAX = sum(sorted((points_of([c]) for c in full_pack(1)), reverse=True)[:KITTY])

Params = tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class HundredIssue:
    """One problem of a sheet row: the field (``""`` for the row as a whole), a code of
    ``HUNDRED_MESSAGES`` and its values."""

    field: str
    code: str
    params: Params = ()

    @property
    def message(self) -> str:
        return HUNDRED_MESSAGES[self.code].format(**dict(self.params))

    def at(self, index: int) -> DealIssue:
        return DealIssue(index, self.field, self.message, self.code, self.params)


def _is_int(v: object) -> TypeGuard[int]:
    return type(v) is int


def _card(text: object) -> int | None:
    try:
        return parse_card(text)
    except EngineError:
        return None


class _Issues:
    def __init__(self) -> None:
        self.by_field: dict[str, HundredIssue] = {}

    def __contains__(self, field: str) -> bool:
        return field in self.by_field

    def add(self, field: str, code: str, **params: object) -> None:
        if field not in self.by_field:
            self.by_field[field] = HundredIssue(field, code, tuple(params.items()))


def hundred_issues(variant: HundredVariant, deal: HundredDeal) -> list[HundredIssue]:
    """Every problem of one sheet row, at most one per field, in the order found. A row without
    any gives a result (``deal_result``)."""
    errors = _Issues()
    n = variant.players
    mode = variant.friend_mode
    dec = deal.declarer
    if dec is None:
        errors.add("declarer", "hundred_declarer_missing", last=n - 1)
    elif not _is_int(dec) or not 0 <= dec < n:
        errors.add("declarer", "hundred_seat", value=dec, last=n - 1)
    # bid, or 40分下台's turned card
    turned: int | None = None
    if variant.bidding:
        if deal.bid is None:
            errors.add("bid", "hundred_bid_missing")
        elif not _is_int(deal.bid) or not MIN_BID <= deal.bid <= MAX_BID or deal.bid % 5:
            errors.add("bid", "hundred_bid", value=deal.bid)
        if deal.turned is not None:
            errors.add("turned", "hundred_turned_only")
    else:
        if deal.bid is not None:
            errors.add("bid", "hundred_bid_forty")
        if deal.turned is None:
            errors.add("turned", "hundred_turned_missing")
        else:
            turned = _card(deal.turned)
            if turned is None or turned >= LJ:
                errors.add("turned", "hundred_turned", value=deal.turned)
                turned = None
    if deal.trump is None:
        errors.add("trump", "hundred_trump_missing")
    elif deal.trump not in SUITS:
        errors.add("trump", "hundred_trump", value=deal.trump)
    elif turned is not None and SUITS[turned // 13] != deal.trump:
        errors.add("trump", "hundred_trump_turned", value=deal.trump, suit=SUITS[turned // 13])
    # the friend card and the friend (the sheet does not list the buried cards: a blind friend
    # card that lay in the kitty is written as friend null, the declarer alone)
    friend_card: int | None = None
    if mode in (FIXED, "dummy"):
        if deal.friend_card is not None:
            what = (
                "3人百分" if mode == "dummy" else ("40分下台" if not variant.bidding else "fixed")
            )
            errors.add("friend_card", "hundred_friend_card_none", what=what)
    elif deal.friend_card is None:
        errors.add("friend_card", "hundred_friend_card_missing", mode=mode)
    else:
        friend_card = _card(deal.friend_card)
        if friend_card is None:
            errors.add("friend_card", "hundred_friend_card", value=deal.friend_card)
    f = deal.friend
    if mode == "dummy":
        if f is not None:
            errors.add("friend", "hundred_friend_3p")
    elif f is not None and (not _is_int(f) or not 0 <= f < n):
        errors.add("friend", "hundred_seat", value=f, last=n - 1)
    elif f is not None and f == dec:
        errors.add("friend", "hundred_friend_is_declarer")
    elif mode == FIXED:
        if f is not None and _is_int(dec) and 0 <= dec < n and f != (dec + 2) % 4:
            errors.add("friend", "hundred_friend_not_partner", value=f, partner=(dec + 2) % 4)
    elif f is None and mode != BLIND:
        errors.add("friend", "hundred_friend_missing")
    # the attackers' points, 抠底, the buried cards' points (optional, for the record)
    p = deal.points
    if not _is_int(p) or not 0 <= p <= TOTAL_POINTS or p % 5:
        errors.add("points", "hundred_points", value=p)
    if not isinstance(deal.kou_di, bool):
        errors.add("kou_di", "hundred_kou_di", value=deal.kou_di)
    kp = deal.kitty_points
    if kp is not None:
        if not _is_int(kp) or not 0 <= kp <= KITTY_MAX or kp % 5:
            errors.add("kitty", "hundred_kitty", value=kp, most=KITTY_MAX)
        elif "points" not in errors and p + kp > TOTAL_POINTS:
            errors.add("kitty", "hundred_points_kitty", points=p, kitty=kp, sum=p + kp)
    # penalties and warnings
    pens = deal.penalties
    if not isinstance(pens, tuple) or not all(isinstance(x, tuple) and len(x) == 2 for x in pens):
        errors.add("penalties", "hundred_penalties")
    else:
        for kind, side in pens:
            if kind not in PENALTY_KINDS:
                errors.add("penalties", "hundred_penalty_kind", value=kind)
                break
            if side not in (DECLARER, ATTACKERS):
                errors.add("penalties", "hundred_penalty_side", value=side)
                break
    for seat, reason in deal.warnings:
        if not _is_int(seat) or not 0 <= seat < n:
            errors.add("warnings", "hundred_warning_seat", value=seat, last=n - 1)
            break
        if not isinstance(reason, str) or not reason.strip() or len(reason) > WARNING_REASON_MAX:
            errors.add("warnings", "hundred_warning_reason", most=WARNING_REASON_MAX)
            break
    return list(errors.by_field.values())


def deal_result(variant: HundredVariant, deal: HundredDeal) -> HundredResult:
    """The row's result and each seat's units, by the engine's ``deal_outcome(strict=True)``;
    call it on a row without issues (``hundred_issues``), else the engine's refusal is raised.

    The sheet has no buried cards, so the engine gets an empty kitty on 抠底 (it wants one there
    to add its points to the total): the winner, the units and the scores do not depend on the
    kitty (抠底 wins whatever the points, §3), only the engine's ``total`` lacks the kitty's
    points, which ``derive_hundred`` adds from ``kitty_points``."""
    return deal_outcome(
        variant,
        bid=deal.bid if variant.bidding else None,
        points=deal.points,
        kitty=() if deal.kou_di else None,
        last_won_by=ATTACKERS if deal.kou_di else DECLARER,
        declarer=deal.declarer,
        friend=deal.friend,
        penalties=[{"kind": k, "side": s} for k, s in deal.penalties] or None,
        strict=True,
    )


def sheet_issues(variant: HundredVariant, deal: HundredDeal) -> list[HundredIssue]:
    """``hundred_issues``, and if there are none, whatever the engine still refuses (on the
    field it names; it refuses nothing the checks above let through, but a sheet never
    crashes)."""
    issues = hundred_issues(variant, deal)
    if issues:
        return issues
    try:
        deal_result(variant, deal)
    except EngineError as e:
        return [
            HundredIssue(_ENGINE_FIELDS.get(e.code, ""), "hundred_engine", (("value", str(e)),))
        ]
    return []


_ENGINE_FIELDS = {
    "hundred.bid": "bid",
    "hundred.no_bid": "bid",
    "hundred.points": "points",
    "hundred.no_friend": "friend",
    "hundred.friend_is_declarer": "friend",
    "hundred.kitty_points": "kitty",
    "hundred.kitty_needed": "kitty",
    "seat.range": "declarer",
}


# --- a table's sheet --------------------------------------------------------------------------


@dataclass(frozen=True)
class HundredRow:
    """A printed sheet row: the engine's result and the running totals per seat."""

    number: int
    declarer: int
    friend: int | None
    units: int
    winner: str  # "declarer" or "attackers"
    total: int | None  # the attackers' points (+ kitty on 抠底); None: a penalty ended the deal
    kitty: int | None  # the buried cards' points as written; None: not written
    ended_by: str | None  # "revoke" / "miscount" when a penalty ended the deal
    kou_di: bool
    scores: tuple[int, ...]  # this deal's units per seat, seat 0 first
    totals: tuple[int, ...]  # running units per seat after this deal


@dataclass(frozen=True)
class HundredTable:
    """A table's sheet: rows, each seat's total, each seat's deals won on the declarer's side
    (as declarer or friend; fixed pairs: as the declaring side), whether it counts, and the
    issues of its rows."""

    rows: tuple[HundredRow, ...]
    totals: tuple[int, ...]
    declarer_wins: tuple[int, ...]
    counts: bool
    errors: tuple[DealIssue, ...]

    @property
    def deals(self) -> int:
        return len(self.rows)

    def side_units(self) -> tuple[int, int]:
        """Pair events: the units of side 0 (seats 0, 2) and side 1 (seats 1, 3)."""
        return self.totals[0], self.totals[1]

    def outcome(self, side: int) -> str:
        """Pair events: ``win``, ``draw`` or ``loss`` for ``side`` by the units scored."""
        mine = self.side_units()[side]
        return "win" if mine > 0 else "loss" if mine < 0 else "draw"

    def margin(self, side: int) -> int:
        """Pair events: 分差, the units of the deals the side won minus the other side's: its
        running total (each deal gives one side +u and the other −u)."""
        return self.side_units()[side]


def derive_hundred(variant: HundredVariant, spec: MatchSpec, table: Table) -> HundredTable:
    """A table's sheet from its rows in order. A table counts when it holds ``spec.deals``
    deals, or the director called its last deal and it holds that many, or it is ``finished``;
    a row with an issue, or a row past the match's length, keeps it from counting."""
    n = variant.players
    totals = [0] * n
    wins = [0] * n
    rows: list[HundredRow] = []
    errors: list[DealIssue] = []
    broken = False
    for i, deal in enumerate(table.deals):
        if not isinstance(deal, HundredDeal):
            errors.append(
                HundredIssue("", "hundred_engine", (("value", "not a 打百分 row"),)).at(i)
            )
            broken = True
            continue
        issues = sheet_issues(variant, deal)
        if issues:
            errors += [x.at(i) for x in issues]
            broken = True
            continue
        if broken:
            continue
        if spec.deals is not None and i >= spec.deals:
            errors.append(
                HundredIssue(
                    "", "hundred_table_complete", (("deals", spec.deals), ("number", i + 1))
                ).at(i)
            )
            broken = True
            continue
        if table.last_deal is not None and i >= table.last_deal:
            errors.append(
                HundredIssue(
                    "", "hundred_after_last_deal", (("deals", table.last_deal), ("number", i + 1))
                ).at(i)
            )
            broken = True
            continue
        r = deal_result(variant, deal)
        assert r.scores is not None and deal.declarer is not None
        total = r.total
        if total is not None and r.kou_di and deal.kitty_points is not None:
            total += deal.kitty_points  # what the engine adds on 抠底 with the cards (§3)
        for s in range(n):
            totals[s] += r.scores[s]
        if r.winner == DECLARER:
            for s in range(n):
                if variant.fixed_pairs:
                    won = s % 2 == deal.declarer % 2
                else:
                    won = s == deal.declarer or s == deal.friend
                wins[s] += won
        rows.append(
            HundredRow(
                i + 1,
                deal.declarer,
                deal.friend,
                r.units,
                r.winner,
                total,
                deal.kitty_points,
                r.ended_by,
                r.kou_di,
                tuple(r.scores),
                tuple(totals),
            )
        )
    length = spec.deals if spec.deals is not None else table.last_deal
    counts = not broken and (table.finished or (length is not None and len(rows) >= length))
    return HundredTable(tuple(rows), tuple(totals), tuple(wins), counts, tuple(errors))


def check_hundred_entry(
    variant: HundredVariant,
    spec: MatchSpec,
    table: Table,
    deal: HundredDeal,
    index: int | None = None,
) -> dict[str, str]:
    """Errors of one row typed on a table's sheet, keyed by field (English); ``index`` None
    appends it, else it replaces that row (a correction), as ``matches.check_entry``."""
    deals = list(table.deals)
    if index is None:
        index = len(deals)
        deals.append(deal)
    elif not 0 <= index < len(deals):
        return {"": f"there is no deal {index + 1} at this table"}
    else:
        deals[index] = deal
    probe = Table(
        table.table,
        sides=table.sides,
        players=table.players,
        finished=table.finished,
        deals=tuple(deals),
        last_deal=table.last_deal,
    )
    out: dict[str, str] = {}
    for issue in derive_hundred(variant, spec, probe).errors:
        if issue.index == index:
            out.setdefault(issue.field, issue.message)
    return out


def row_json(deal: HundredDeal) -> dict[str, Any]:
    """The row in the tournament file's key order (see ``hundred_file``), defaults omitted."""
    out: dict[str, Any] = {"declarer": deal.declarer}
    if deal.bid is not None:
        out["bid"] = deal.bid
    if deal.turned is not None:
        out["turned"] = deal.turned
    out["trump"] = deal.trump
    if deal.friend_card is not None:
        out["friend_card"] = deal.friend_card
    if deal.friend is not None or deal.friend_card is not None:
        out["friend"] = deal.friend
    out["points"] = deal.points
    if deal.kou_di:
        out["kou_di"] = True
    if deal.kitty_points is not None:
        out["kitty"] = deal.kitty_points
    if deal.penalties:
        out["penalties"] = deal.engine_penalties()
    if deal.warnings:
        out["warnings"] = [{"seat": seat, "reason": reason} for seat, reason in deal.warnings]
    return out
