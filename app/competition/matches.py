"""A table's match derived from its deals: the running score sheet and the result.

Fixed sides (tractor-4p, one-twenty-6p): both sides start at level 2; each deal is played at the
declaring side's level; ``engine.scoring`` gives the attackers' total, the winner and its gain;
in 120分 each misplay gives the other side one more level; winning as declarer at A passes A and
ends the match. Red five: each deal gives the five seats their 积分.

Deal checks return errors keyed by field name (``{"points": "87 is not a multiple of 5"}``); an
error about the deal as a whole has the key ``""``. Nothing here raises for bad deal data.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TypeGuard

from engine.scoring import (
    ATTACKERS,
    DECLARER,
    PENALTY_KINDS,
    RED_FIVE_MAX_PENALISED,
    RED_FIVE_OTHERS,
    RED_FIVE_THROWER,
    WRONG_KITTY,
    DealResult,
    allowed_multiplier_set,
    deal_result,
    fixed_result_prechecked,
    level_value,
    max_kitty_points,
    next_levels,
    one_twenty_table,
    red_five_units,
    tractor_table,
)
from engine.variants import CLIMBING, ONE_TWENTY, RED_FIVE, TRACTOR, Variant

from .model import TRUMPS, Deal, FailedThrows, MatchSpec, PointsSpec, Table

START_LEVEL = "2"
RESULT_WIN, RESULT_DRAW, RESULT_LOSS = "win", "draw", "loss"


# English wording of every issue code: the CLI, the import and ``check_deal`` show these. The web
# layer renders the same codes (with the same params) in the user's language.
MESSAGES: dict[str, str] = {
    "not_whole": "{value!r} is not a whole number",
    "below_zero": "{value} is below 0",
    "points_over_total": "{value} is more than the {total} points in {decks} decks",
    "not_multiple_of_5": "{value} is not a multiple of 5",
    "no_kitty": "{value} is not possible: with {decks} decks there is no kitty",
    "kitty_over_max": "{value} is more than a kitty of {cards} cards can hold ({max})",
    "points_kitty_over_total": (
        "points {points} + kitty {kitty} = {sum} is more than the {total} points in the decks "
        "(the buried cards were not won in tricks)"
    ),
    "multiplier_not_allowed": (
        "{value} is not a multiplier that kitty_multiplier {mode} allows ({allowed})"
    ),
    "trump_not_suit": "{value!r} is not a suit: write S, H, D, C or null (no trump)",
    "declarer_missing": "is missing: the dealer's side, 0 or 1",
    "declarer_not_side": "{value!r} is not a side: write 0 or 1",
    "red_five_only_seat": "belongs to red five deals only (fixed sides use declarer)",
    "red_five_only": "belongs to red five deals only",
    "failed_throws_shape_sides": 'is written {{"declarer": n, "attackers": m}} in tractor-4p',
    "failed_throws_count": "{side}: {value!r} is not a count 0 or more",
    "failed_throws_cards": "lists the cards each failed throw took back: whole numbers 1 or more",
    "failed_throws_per_card": (
        "with throw_penalty ten_per_card, list the cards each failed throw took back per side"
    ),
    "misplays_one_twenty_only_tractor": (
        "are recorded in 120分 only (tractor-4p failed throws go in failed_throws)"
    ),
    "failed_throws_one_twenty": (
        "are not used in 120分: a failed throw is a misplay (list it in misplays)"
    ),
    "misplay_not_side": "{value!r} is not a side: list 0 or 1 per misplay",
    "level_unknown": "{value!r} is not a level (2 … 10, J, Q, K, A)",
    "declarer_red_five": "is for fixed sides: a red five deal has a dealer and a friend",
    "dealer_missing": "is missing: the dealer's seat, 0 … {last}",
    "seat_out_of_range": "{value!r} is not a seat 0 … {last}",
    "friend_out_of_range": "{value!r} is not a seat 0 … {last} (or null: alone)",
    "friend_is_dealer": "is the dealer: write null when the dealer played alone (独打)",
    "trump_missing": "is missing: red five always has a trump suit",
    "friend_grabbed_alone": "needs a friend: the dealer played alone",
    "failed_throws_shape_seats": "is a list of the throwers' seats in red five",
    "misplays_one_twenty_only": "are recorded in 120分 only",
    "level_red_five": "{value!r}: red five is always played at level 2",
    "penalties_shape": "is a list of penalties, each a kind and the side (or seat) at fault",
    "penalty_kind": "{value!r} is not a penalty: revoke, miscount, wrong_kitty or takeback",
    "penalty_side": "{value!r} is not the side at fault: write declarer or attackers",
    "penalty_seat": "{value!r} is not the seat at fault 0 … {last}",
    "penalty_kitty_side": "a wrong kitty (扣底张数错) is the declarer side's: only it buries",
    "penalty_kitty_seat": "a wrong kitty is the dealer's: seat {value} did not bury",
    "penalty_no_kitty": "there is no kitty with {decks} decks, so no wrong kitty",
    "warning_seat": "{value!r} is not the seat warned 0 … {last}",
    "warning_reason": "a warning needs its reason, at most {most} characters",
    "struck_out": "side {side} lost the match by strikes in deal {deal}: the match was over",
    "forfeit_has_deals": "a forfeited table has no deals",
    "passed_a": "side {side} passed A in deal {deal}: the match was over",
    "match_complete": "the match is {deals} deals; this is deal {number}",
    "after_last_deal": (
        "the director called the last deal: this table plays {deals} deals; this is deal {number}"
    ),
    "table_complete": "the table plays {deals} deals; this is deal {number}",
    "level_mismatch": "the sheet says {written} but side {side} is at {level}",
    "no_such_deal": "there is no deal {number} at this table",
    "forfeited": "this table was forfeited: it has no deals",
    # 争上游 (climbing)
    "not_climbing": "is not used in 争上游: a row has each seat's place and the tribute",
    "climbing_only": "belongs to 争上游 rows only",
    "places_missing": "are missing: each of the {players} seats' place 1 … {players}",
    "places_count": "list {got} places: the table has {players} seats",
    "place_missing": "seat {seat} has no place",
    "place_out_of_range": "{value!r} is not a place 1 … {players}",
    "place_twice": "seat {seat} has place {place}, as seat {other} has: each place once",
    "tribute_off": "these rules pay no tribute (tribute: false)",
    "tribute_same_seat": "the tribute goes from the last to the first: two seats",
    "tribute_not_card": "{value!r} is not a card (write e.g. 2S, 10H, AD, HJ)",
    "tribute_first_deal": "a first deal has no tribute",
    "tribute_not_loser": "seat {value} did not come last in the deal before (seat {seat} did)",
    "tribute_not_winner": ("seat {value} did not come first in the deal before (seat {seat} did)"),
    "climbing_penalty": "{value!r}: in 争上游 only a take-back (悔牌) is recorded",
}

Params = tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class Issue:
    """One problem of a deal: the field (``""`` for the deal as a whole), a code from
    ``MESSAGES`` and the values its wording needs."""

    field: str
    code: str
    params: Params = ()

    @property
    def args(self) -> dict[str, object]:
        return dict(self.params)

    @property
    def message(self) -> str:
        return english(self.code, self.args)


def english(code: str, args: dict[str, object]) -> str:
    return MESSAGES[code].format(**args)


@dataclass(frozen=True)
class DealIssue:
    index: int  # 0-based position of the deal at its table
    field: str  # "" for the deal as a whole
    message: str  # in English
    code: str = ""  # a key of MESSAGES
    params: Params = ()

    @classmethod
    def of(cls, index: int, issue: Issue) -> DealIssue:
        return cls(index, issue.field, issue.message, issue.code, issue.params)

    @classmethod
    def make(cls, index: int, field: str, code: str, **params: object) -> DealIssue:
        return cls.of(index, Issue(field, code, tuple(params.items())))

    @property
    def issue(self) -> Issue:
        return Issue(self.field, self.code, self.params)


@lru_cache(maxsize=64)
def _max_kitty(variant: Variant) -> int:
    return max_kitty_points(variant)


# --- one deal ---------------------------------------------------------------------------------


def _is_int(v: object) -> TypeGuard[int]:
    return type(v) is int  # bool is not a number here


class _Issues:
    """At most one issue per field, in the order found."""

    def __init__(self) -> None:
        self.by_field: dict[str, Issue] = {}

    def __contains__(self, field: str) -> bool:
        return field in self.by_field

    def add(self, field: str, code: str, **params: object) -> None:
        self.by_field[field] = Issue(field, code, tuple(params.items()))

    def default(self, field: str, code: str, **params: object) -> None:
        if field not in self.by_field:
            self.add(field, code, **params)


def check_deal(variant: Variant, deal: Deal) -> dict[str, str]:
    """Every error of one deal that does not depend on the deals before it, keyed by field
    (English messages; ``deal_issues`` gives the same as codes and params)."""
    return {i.field: i.message for i in deal_issues(variant, deal)}


def deal_issues(variant: Variant, deal: Deal) -> list[Issue]:
    """Every problem of one deal that does not depend on the deals before it."""
    errors = _Issues()
    total = variant.total_points
    p = deal.points
    if not _is_int(p):
        errors.add("points", "not_whole", value=p)
    elif p < 0:
        errors.add("points", "below_zero", value=p)
    elif p > total:
        errors.add("points", "points_over_total", value=p, total=total, decks=variant.decks)
    elif p % 5:
        errors.add("points", "not_multiple_of_5", value=p)
    k = deal.kitty
    if not _is_int(k):
        errors.add("kitty", "not_whole", value=k)
    elif k < 0:
        errors.add("kitty", "below_zero", value=k)
    elif variant.kitty == 0 and k:
        errors.add("kitty", "no_kitty", value=k, decks=variant.decks)
    elif k % 5:
        errors.add("kitty", "not_multiple_of_5", value=k)
    elif k > _max_kitty(variant):
        errors.add("kitty", "kitty_over_max", value=k, cards=variant.kitty, max=_max_kitty(variant))
    elif "points" not in errors and p + k > total:
        errors.add("kitty", "points_kitty_over_total", points=p, kitty=k, sum=p + k, total=total)
    m = deal.multiplier
    if not _is_int(m):
        errors.add("multiplier", "not_whole", value=m)
    elif m:
        allowed = allowed_multiplier_set(variant)
        if not allowed:
            errors.add("multiplier", "no_kitty", value=m, decks=variant.decks)
        elif m not in allowed:
            mode = variant.options.get("kitty_multiplier")
            shown = ", ".join(str(x) for x in sorted(allowed)[:6])
            more = ", …" if len(allowed) > 6 else ""
            errors.add(
                "multiplier", "multiplier_not_allowed", value=m, mode=mode, allowed=shown + more
            )
    if deal.trump is not None and deal.trump not in ("S", "H", "D", "C"):
        errors.add("trump", "trump_not_suit", value=deal.trump)
    if variant.id == CLIMBING:
        from .climbing import place_issues  # climbing builds on this module

        for field, code, params in place_issues(variant, deal):
            errors.default(field, code, **params)
        if deal.warnings:
            _check_warnings(variant, deal, errors)
        return list(errors.by_field.values())
    if deal.places is not None:
        errors.add("places", "climbing_only")
    if deal.tribute is not None:
        errors.add("tribute_from", "climbing_only")
    if variant.id == RED_FIVE:
        _check_red_five_deal(variant, deal, errors)
    else:
        _check_fixed_deal(variant, deal, errors)
    if deal.penalties:
        _check_penalties(variant, deal, errors)
    if deal.warnings:
        _check_warnings(variant, deal, errors)
    return list(errors.by_field.values())


WARNING_REASON_MAX = 200


def _check_warnings(variant: Variant, deal: Deal, errors: _Issues) -> None:
    n = variant.players
    for seat, reason in deal.warnings:
        if not _is_int(seat) or not 0 <= seat < n:
            errors.add("warnings", "warning_seat", value=seat, last=n - 1)
            return
        if not isinstance(reason, str) or not reason.strip() or len(reason) > WARNING_REASON_MAX:
            errors.add("warnings", "warning_reason", most=WARNING_REASON_MAX)
            return


def _check_penalties(variant: Variant, deal: Deal, errors: _Issues) -> None:
    pens = deal.penalties
    if not isinstance(pens, tuple) or not all(isinstance(p, tuple) and len(p) == 2 for p in pens):
        errors.add("penalties", "penalties_shape")
        return
    n = variant.players
    for kind, who in pens:
        if kind not in PENALTY_KINDS:
            errors.add("penalties", "penalty_kind", value=kind)
            return
        if variant.fixed_sides:
            if who not in (DECLARER, ATTACKERS):
                errors.add("penalties", "penalty_side", value=who)
                return
            if kind == WRONG_KITTY and who != DECLARER:
                errors.add("penalties", "penalty_kitty_side")
                return
        else:
            if not _is_int(who) or not 0 <= who < n:
                errors.add("penalties", "penalty_seat", value=who, last=n - 1)
                return
            if kind == WRONG_KITTY and _is_int(deal.dealer) and who != deal.dealer:
                errors.add("penalties", "penalty_kitty_seat", value=who)
                return
        if kind == WRONG_KITTY and variant.kitty == 0:
            errors.add("penalties", "penalty_no_kitty", decks=variant.decks)
            return


def _check_fixed_deal(variant: Variant, deal: Deal, errors: _Issues) -> None:
    if deal.declarer is None:
        errors.add("declarer", "declarer_missing")
    elif not _is_int(deal.declarer) or deal.declarer not in (0, 1):
        errors.add("declarer", "declarer_not_side", value=deal.declarer)
    for name in ("dealer", "friend"):
        if getattr(deal, name) is not None:
            errors.add(name, "red_five_only_seat")
    if deal.friend_grabbed:
        errors.add("friend_grabbed", "red_five_only")
    ft = deal.failed_throws
    if variant.id == TRACTOR:
        if ft is not None and not isinstance(ft, FailedThrows):
            errors.add("failed_throws", "failed_throws_shape_sides")
        elif isinstance(ft, FailedThrows):
            for side in ("declarer", "attackers"):
                n = getattr(ft, side)
                if not _is_int(n) or n < 0:
                    errors.add("failed_throws", "failed_throws_count", side=side, value=n)
                    break
            cards = ft.cards
            if cards is not None and (
                not isinstance(cards, tuple)
                or len(cards) != 2
                or (len(cards[0]), len(cards[1])) != (ft.declarer, ft.attackers)
                or not all(_is_int(k) and k >= 1 for c in cards for k in c)
            ):
                errors.default("failed_throws", "failed_throws_cards")
            elif cards is None and ft and variant.options.get("throw_penalty") == "ten_per_card":
                errors.default("failed_throws", "failed_throws_per_card")
        if deal.misplays:
            errors.add("misplays", "misplays_one_twenty_only_tractor")
    else:  # one-twenty-6p
        if ft:
            errors.add("failed_throws", "failed_throws_one_twenty")
        for mis in deal.misplays:
            if not _is_int(mis) or mis not in (0, 1):
                errors.add("misplays", "misplay_not_side", value=mis)
                break
    if deal.level is not None and deal.level not in _LEVELS:
        errors.add("level", "level_unknown", value=deal.level)


_LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_LEVEL_INDEX = {lv: i for i, lv in enumerate(_LEVELS)}


def _check_red_five_deal(variant: Variant, deal: Deal, errors: _Issues) -> None:
    n = variant.players
    if deal.declarer is not None:
        errors.add("declarer", "declarer_red_five")
    if deal.dealer is None:
        errors.add("dealer", "dealer_missing", last=n - 1)
    elif not _is_int(deal.dealer) or not 0 <= deal.dealer < n:
        errors.add("dealer", "seat_out_of_range", value=deal.dealer, last=n - 1)
    if deal.friend is not None:
        if not _is_int(deal.friend) or not 0 <= deal.friend < n:
            errors.add("friend", "friend_out_of_range", value=deal.friend, last=n - 1)
        elif deal.friend == deal.dealer:
            errors.add("friend", "friend_is_dealer")
    if deal.trump is None:
        errors.default("trump", "trump_missing")
    if deal.friend_grabbed and deal.friend is None:
        errors.add("friend_grabbed", "friend_grabbed_alone")
    ft = deal.failed_throws
    if ft is not None and not isinstance(ft, tuple):
        errors.add("failed_throws", "failed_throws_shape_seats")
    elif ft:
        for s in ft:
            if not _is_int(s) or not 0 <= s < n:
                errors.add("failed_throws", "seat_out_of_range", value=s, last=n - 1)
                break
    if deal.misplays:
        errors.add("misplays", "misplays_one_twenty_only")
    if deal.level is not None and deal.level != "2":
        errors.add("level", "level_red_five", value=deal.level)


# --- fixed sides ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FixedRow:
    """One score sheet row of a fixed-side match."""

    number: int  # 1-based
    declarer: int
    level: str  # the level played: the declaring side's level before the deal
    levels_before: tuple[str, str]
    total: int | None  # the attackers' total after kitty and penalties; None: ended by one
    winner: str  # "declarer" or "attackers"
    winner_side: int
    gain: int  # levels the deal gave its winner (0: the attackers only take over)
    levels_after: tuple[str, str]  # after the gain and the 120分 misplays
    passed: bool  # the declaring side won at A: the match is over
    next_declarer: int  # the side the sheet offers for the next deal (the winner)
    result: DealResult


@dataclass(frozen=True)
class FixedMatch:
    rows: tuple[FixedRow, ...]
    levels: tuple[str, str]
    passed_side: int | None
    counts: bool  # complete (or forfeited): the result enters the standings
    forfeit: int | None
    errors: tuple[DealIssue, ...]
    struck: int | None = None  # the side that lost the match by strikes (a forfeit loss)
    # equal final levels decided by the tie-break (the side on stage, or the extra deal's winner)
    tie_winner: int | None = None
    extra_deal: bool = False  # the last row is the tie-break's extra deal
    extra_due: bool = False  # levels are equal at the end: the tie-break's extra deal is to play

    @property
    def forfeit_loser(self) -> int | None:
        """The side that lost as a forfeit: absent, or struck out (``strikes_lose_match``)."""
        return self.forfeit if self.forfeit is not None else self.struck

    @property
    def values(self) -> tuple[int, int]:
        """Final levels as numbers (2 … 14, a passed A 15; a passed target level one more)."""
        return (
            _value(self.levels[0], self.passed_side == 0),
            _value(self.levels[1], self.passed_side == 1),
        )

    def level_diff(self, side: int, forfeit_level_diff: int = 3) -> int:
        loser = self.forfeit_loser
        if loser is not None:
            return -forfeit_level_diff if side == loser else forfeit_level_diff
        v = self.values
        return v[side] - v[1 - side]

    def outcome(self, side: int) -> str:
        loser = self.forfeit_loser
        if loser is not None:
            return RESULT_LOSS if side == loser else RESULT_WIN
        d = self.level_diff(side)
        if d == 0 and self.tie_winner is not None:
            return RESULT_WIN if side == self.tie_winner else RESULT_LOSS
        return RESULT_WIN if d > 0 else RESULT_LOSS if d < 0 else RESULT_DRAW

    def match_points(self, side: int, points: PointsSpec) -> int:
        return getattr(points, self.outcome(side))

    @property
    def next_declarer(self) -> int | None:
        return self.rows[-1].next_declarer if self.rows else None


def _value(level: str, passed: bool) -> int:
    return level_value(level) + 1 if passed else level_value(level)


def derive_fixed(variant: Variant, spec: MatchSpec, table: Table) -> FixedMatch:
    """The running sheet of a fixed-side table, its final levels and whether it counts."""
    errors: list[DealIssue] = []
    rows: list[FixedRow] = []
    levels = [START_LEVEL, START_LEVEL]
    passed_side: int | None = None
    stops = _stops(_must_play(variant, spec))
    broken = False
    extra = spec.tie_break == "extra_deal"
    extra_played = False
    if table.forfeit is not None:
        if table.deals:
            errors.append(DealIssue.make(0, "", "forfeit_has_deals"))
        return FixedMatch((), (START_LEVEL, START_LEVEL), None, True, table.forfeit, tuple(errors))
    limit = variant.options.get("strikes_lose_match")
    strikes = [0, 0]
    struck: int | None = None
    for i, deal in enumerate(table.deals):
        field_errors = deal_issues(variant, deal)
        if field_errors:
            errors += [DealIssue.of(i, issue) for issue in field_errors]
            broken = True
            continue
        if broken:
            continue  # levels after a bad deal are unknown
        if passed_side is not None:
            errors.append(DealIssue.make(i, "", "passed_a", side=passed_side, deal=len(rows)))
            broken = True
            continue
        if struck is not None:
            errors.append(DealIssue.make(i, "", "struck_out", side=struck, deal=len(rows)))
            broken = True
            continue
        length = spec.deals if spec.deals is not None else table.last_deal
        if length is not None and i >= length:
            tied = levels[0] == levels[1]
            if not (extra and i == length and tied):
                code = "match_complete" if spec.deals is not None else "after_last_deal"
                allowed = length + 1 if extra and extra_played else length
                errors.append(DealIssue.make(i, "", code, deals=allowed, number=i + 1))
                broken = True
                continue
            extra_played = True
        row = _fixed_row(variant, deal, i, (levels[0], levels[1]), stops, spec.target)
        if deal.level is not None and deal.level != row.level:
            errors.append(
                DealIssue.make(
                    i,
                    "level",
                    "level_mismatch",
                    written=deal.level,
                    side=row.declarer,
                    level=row.level,
                )
            )
            broken = True
            continue
        rows.append(row)
        levels = list(row.levels_after)
        if row.passed:
            passed_side = row.declarer
        if limit is not None and struck is None:
            struck = strike_out(deal, limit, strikes)
    counts = False
    length = spec.deals if spec.deals is not None else table.last_deal
    tied = levels[0] == levels[1] and passed_side is None
    extra_due = (
        not broken
        and extra
        and not extra_played
        and struck is None
        and length is not None
        and len(rows) == length
        and tied
    )
    if not broken:
        if struck is not None:
            counts = True  # lost by strikes: the match ended there
        elif extra_due:
            counts = table.finished and spec.deals is None  # ended without the extra deal
        elif extra_played:
            counts = True
        elif spec.deals is not None:
            # ended early by the director (``finished``): scored on the deals played
            counts = (
                len(rows) == spec.deals
                or passed_side is not None
                or (table.finished and bool(rows))
            )
        elif spec.to_a:
            counts = table.finished or passed_side is not None
        else:
            counts = table.finished or (length is not None and len(rows) >= length)
    tie_winner: int | None = None
    if counts and tied and struck is None and rows:
        if spec.tie_break == "on_stage":
            tie_winner = rows[-1].declarer
        elif extra_played:
            tie_winner = rows[-1].winner_side
    return FixedMatch(
        tuple(rows),
        (levels[0], levels[1]),
        passed_side,
        counts,
        None,
        tuple(errors),
        struck,
        tie_winner,
        extra_played,
        extra_due,
    )


def _must_play(variant: Variant, spec: MatchSpec) -> tuple[str, ...]:
    """The variant's must-play levels, with a match's target level (a level no gain skips)."""
    levels = variant.must_play_levels
    if spec.target != "A" and spec.target not in levels:
        levels = tuple(sorted((*levels, spec.target), key=_LEVEL_INDEX.__getitem__))
    return levels


def needs_full_derivation(spec: MatchSpec, table: Table) -> bool:
    """A table ``fixed_final`` cannot score alone: a tie-break, a target below A, a last-deal call
    or competition penalties (``derive_fixed`` decides them; they are rare)."""
    return (
        spec.tie_break != "draw"
        or spec.target != "A"
        or table.last_deal is not None
        or has_penalties(table)
    )


def strike_out(deal: Deal, limit: int, strikes: list[int]) -> int | None:
    """Count a checked deal's penalties against its sides (``strikes`` by side index, updated)
    and return the first side whose count reaches ``limit`` (RULES §7 strikes), else None."""
    assert deal.declarer is not None
    for _kind, role in deal.penalties:
        side = deal.declarer if role == DECLARER else 1 - deal.declarer
        strikes[side] += 1
        if strikes[side] >= limit:
            return side
    return None


@lru_cache(maxsize=64)
def _stops(must_play: tuple[str, ...]) -> frozenset[int]:
    return frozenset(_LEVELS.index(lv) for lv in must_play) | {len(_LEVELS) - 1}


def _advance(level: str, gain: int, stops: frozenset[int]) -> tuple[str, bool]:
    """``engine.scoring.advance`` with the must-play levels prepared once per table."""
    start = _LEVEL_INDEX[level]
    top = len(_LEVELS) - 1
    if start == top:
        return "A", True
    target = min(start + gain, top)
    for i in range(start + 1, target + 1):
        if i in stops:
            return _LEVELS[i], False
    return _LEVELS[target], False


def _fixed_row(
    variant: Variant,
    deal: Deal,
    index: int,
    before: tuple[str, str],
    stops: frozenset[int],
    target: str = "A",
) -> FixedRow:
    assert deal.declarer is not None
    d = deal.declarer
    if deal.penalties:
        row = _penalised_row(variant, deal, index, before, target)
    else:
        row = _plain_row(variant, deal, index, before, stops)
    if target != "A" and not row.passed and before[d] == target and row.winner == DECLARER:
        # the declaring side won at the match's target level: it has passed it, the match ends
        # (its level stays the target, as a passed A stays A)
        after = list(row.levels_after)
        after[d] = target
        row = replace(row, passed=True, levels_after=(after[0], after[1]))
    return row


def _plain_row(
    variant: Variant, deal: Deal, index: int, before: tuple[str, str], stops: frozenset[int]
) -> FixedRow:
    assert deal.declarer is not None
    d = deal.declarer
    # check_deal has already checked every number: score without checking again
    ft = deal.failed_throws
    result = fixed_result_prechecked(
        variant,
        deal.points,
        deal.kitty,
        deal.multiplier,
        ft.as_engine() if isinstance(ft, FailedThrows) and ft else None,
    )
    assert result.levels is not None
    winner_side = d if result.winner == DECLARER else 1 - d
    gains = [0, 0]
    gains[winner_side] = result.levels
    if variant.id == ONE_TWENTY:
        for side in deal.misplays:
            gains[1 - side] += 1
    after = []
    passed = False
    for side in (0, 1):
        lv, p = _advance(before[side], gains[side], stops) if gains[side] else (before[side], False)
        if p and side == d and result.winner == DECLARER:
            passed = True
        after.append(lv)
    return FixedRow(
        number=index + 1,
        declarer=d,
        level=before[d],
        levels_before=before,
        total=result.total,
        winner=result.winner,
        winner_side=winner_side,
        gain=result.levels,
        levels_after=(after[0], after[1]),
        passed=passed,
        next_declarer=winner_side,
        result=result,
    )


def _penalised_row(
    variant: Variant, deal: Deal, index: int, before: tuple[str, str], target: str = "A"
) -> FixedRow:
    """A deal with competition penalties, scored by the engine exactly as an online table's
    (``engine.scoring.deal_result`` and ``next_levels``, RULES §7)."""
    assert deal.declarer is not None
    d = deal.declarer
    result = deal_result(
        variant,
        deal.points,
        deal.kitty,
        deal.multiplier,
        deal.engine_failed_throws() if variant.id == TRACTOR else None,
        penalties=deal.engine_penalties(),
    )
    assert result.levels is not None
    misplays = deal.misplays if variant.id == ONE_TWENTY else ()
    must_play = variant.must_play_levels
    if target != "A" and target not in must_play:
        must_play = (*must_play, target)
    change = next_levels(before, d, result, misplays, must_play)
    winner_side = d if result.winner == DECLARER else 1 - d
    return FixedRow(
        number=index + 1,
        declarer=d,
        level=before[d],
        levels_before=before,
        total=result.total,
        winner=result.winner,
        winner_side=winner_side,
        gain=result.levels,
        levels_after=change.levels,
        passed=change.passed,
        next_declarer=winner_side,
        result=result,
    )


# --- fixed sides: the final result only, fast -------------------------------------------------


@dataclass(frozen=True)
class FixedTables:
    """Per-variant tables for ``fixed_final``: every deal check and score as set lookups."""

    tractor: bool
    total: int  # card points in the decks
    points: frozenset[int]  # valid attackers' card points
    kitty: frozenset[int]  # valid kitty points
    multipliers: frozenset[int]  # valid multipliers, 0 included
    penalty: bool  # tractor-4p: failed throws move points
    per_card: bool  # throw_penalty ten_per_card: 10 × the cards each failed throw took back
    decks: int
    outcomes: tuple[tuple[bool, int], ...]  # by the attackers' total: (declarer won, gain)
    advance: tuple[tuple[int, ...], ...]  # [level index][min(gain, 12)] -> new level index
    variant: Variant | None = None  # for tables with competition penalties (the full derivation)


@lru_cache(maxsize=64)
def fixed_tables(variant: Variant) -> FixedTables:
    """The lookup tables of ``fixed_final`` for one variant (cached)."""
    if variant.id not in (TRACTOR, ONE_TWENTY):
        raise ValueError(f"{variant.id} has no fixed sides")
    total = variant.total_points
    max_k = _max_kitty(variant) if variant.kitty else 0
    mults = frozenset(allowed_multiplier_set(variant)) | {0}
    tractor = variant.id == TRACTOR
    # totals a sheet usually reaches get a precomputed entry; larger ones are computed
    top_total = total + max_k * min(max(mults), 16) + 40
    outcomes = tuple(
        (w == DECLARER, g)
        for w, g in (
            tractor_table(x, variant.decks) if tractor else one_twenty_table(x)
            for x in range(top_total + 1)
        )
    )
    stops = _stops(variant.must_play_levels)
    top = len(_LEVELS) - 1
    adv = []
    for start in range(top + 1):
        row = []
        for gain in range(top + 1):
            if gain == 0 or start == top:
                row.append(start)
            else:
                row.append(_LEVEL_INDEX[_advance(_LEVELS[start], gain, stops)[0]])
        adv.append(tuple(row))
    return FixedTables(
        tractor=tractor,
        total=total,
        points=frozenset(range(0, total + 1, 5)),
        kitty=frozenset(range(0, max_k + 1, 5)),
        multipliers=mults,
        penalty=tractor and variant.options.get("throw_penalty") != "none",
        per_card=tractor and variant.options.get("throw_penalty") == "ten_per_card",
        decks=variant.decks,
        outcomes=outcomes,
        advance=tuple(adv),
        variant=variant,
    )


def fixed_final(variant: Variant, spec: MatchSpec, table: Table) -> tuple[int, int] | None:
    """The final level values (2 … 14, a passed A 15) of side 0 and side 1 when the table's
    match counts, else None (unfinished, or any deal with an error).

    Exactly ``derive_fixed``'s ``counts`` and ``values`` (the property tests compare them), at a
    fraction of the cost: no rows, no messages. A forfeited table, or one lost by strikes, raises
    ``ValueError``: its result is not a pair of levels (see ``FixedMatch.level_diff``). A table
    with competition penalties is derived in full (``derive_fixed``): they are rare.
    """
    return _fixed_final(fixed_tables(variant), spec, table)


def has_penalties(table: Table) -> bool:
    return any(d.penalties for d in table.deals)


def _fixed_final(ft: FixedTables, spec: MatchSpec, table: Table) -> tuple[int, int] | None:
    if table.forfeit is not None:
        raise ValueError("a forfeited table has no final levels")
    if ft.variant is not None and needs_full_derivation(spec, table):
        match = derive_fixed(ft.variant, spec, table)
        if match.struck is not None:
            raise ValueError("a match lost by strikes has no final levels")
        return match.values if match.counts else None
    deals = table.deals
    n_max = spec.deals
    if n_max is not None and len(deals) > n_max:
        return None  # a deal past the match length
    okp, okk, okm = ft.points, ft.kitty, ft.multipliers
    total_points = ft.total
    outcomes = ft.outcomes
    n_out = len(outcomes)
    adv = ft.advance
    tractor, penalty = ft.tractor, ft.penalty
    per_card = ft.per_card
    levels = _LEVELS
    lv = [0, 0]
    passed = -1
    for d in deals:
        if passed >= 0:
            return None  # a deal after A was passed
        p = d.points
        k = d.kitty
        m = d.multiplier
        dec = d.declarer
        if (
            type(p) is not int
            or p not in okp
            or type(k) is not int
            or k not in okk
            or p + k > total_points
            or type(m) is not int
            or m not in okm
            or type(dec) is not int
            or (dec != 0 and dec != 1)
            or d.dealer is not None
            or d.friend is not None
            or d.friend_grabbed
        ):
            return None
        tr = d.trump
        if tr is not None and tr not in TRUMPS:
            return None
        lvl = d.level
        if lvl is not None and lvl != levels[lv[dec]]:
            return None
        fth = d.failed_throws
        total = p + k * m
        if tractor:
            if d.misplays:
                return None
            if fth is not None:
                if not isinstance(fth, FailedThrows):
                    return None
                fd, fa = fth.declarer, fth.attackers
                if type(fd) is not int or fd < 0 or type(fa) is not int or fa < 0:
                    return None
                cards = fth.cards
                if cards is not None:
                    dc, ac = cards
                    if (len(dc), len(ac)) != (fd, fa) or not all(
                        type(x) is int and x >= 1 for x in (*dc, *ac)
                    ):
                        return None
                elif per_card and fth:
                    return None  # ten_per_card needs the cards of each failed throw
                if per_card and cards is not None:
                    total += 10 * (sum(cards[0][:3]) - sum(cards[1][:3]))
                    if total < 0:
                        total = 0
                elif penalty:
                    total += 10 * (min(fd, 3) - min(fa, 3))
                    if total < 0:
                        total = 0
            dw, gain = outcomes[total] if total < n_out else _outcome(True, ft.decks, total)
            if gain:
                ws = dec if dw else 1 - dec
                start = lv[ws]
                if start == 12:
                    if dw:
                        passed = dec
                else:
                    lv[ws] = adv[start][gain if gain < 12 else 12]
        else:
            if fth:
                return None
            mis = d.misplays
            gains = [0, 0]
            for x in mis:
                if type(x) is not int or (x != 0 and x != 1):
                    return None
                gains[1 - x] += 1
            dw, gain = outcomes[total] if total < n_out else _outcome(False, ft.decks, total)
            gains[dec if dw else 1 - dec] += gain
            for side in (0, 1):
                g = gains[side]
                if g:
                    start = lv[side]
                    if start == 12:
                        if dw and side == dec:
                            passed = dec
                    else:
                        lv[side] = adv[start][g if g < 12 else 12]
    if n_max is not None:
        counts = len(deals) == n_max or passed >= 0 or (table.finished and bool(deals))
    elif spec.to_a:
        counts = table.finished or passed >= 0
    else:
        counts = table.finished
    if not counts:
        return None
    return (
        15 if passed == 0 else lv[0] + 2,
        15 if passed == 1 else lv[1] + 2,
    )


def _outcome(tractor: bool, decks: int, total: int) -> tuple[bool, int]:
    w, g = tractor_table(total, decks) if tractor else one_twenty_table(total)
    return w == DECLARER, g


# --- red five ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RedFiveRow:
    number: int
    dealer: int
    friend: int | None
    total: int
    winner: str
    units: int
    scores: tuple[int, ...]  # this deal's 积分 per seat
    totals: tuple[int, ...]  # running 积分 per seat after this deal
    next_dealer: int  # the sheet's default: the same dealer unless someone shows a 2 first


@dataclass(frozen=True)
class RedFiveTable:
    rows: tuple[RedFiveRow, ...]
    totals: tuple[int, ...]
    dealer_wins: tuple[int, ...]
    counts: bool
    errors: tuple[DealIssue, ...]

    @property
    def deals(self) -> int:
        return len(self.rows)


@dataclass(frozen=True)
class RedFiveTables:
    """Per-variant tables for ``red_five_final``."""

    players: int
    total: int
    points: frozenset[int]
    kitty: frozenset[int]
    multipliers: frozenset[int]
    units: tuple[tuple[bool, int], ...]  # by the attackers' total: (dealer's side won, units)
    variant: Variant | None = None  # for tables with competition penalties (the full derivation)


@lru_cache(maxsize=16)
def red_five_tables(variant: Variant) -> RedFiveTables:
    if variant.id != RED_FIVE:
        raise ValueError(f"{variant.id} is not red five")
    total = variant.total_points
    max_k = _max_kitty(variant)
    mults = frozenset(allowed_multiplier_set(variant)) | {0}
    top_total = total + max_k * min(max(mults), 16)
    return RedFiveTables(
        players=variant.players,
        total=total,
        points=frozenset(range(0, total + 1, 5)),
        kitty=frozenset(range(0, max_k + 1, 5)),
        multipliers=mults,
        units=tuple(
            (w == DECLARER, u) for w, u in (red_five_units(x) for x in range(top_total + 1))
        ),
        variant=variant,
    )


def red_five_final(
    variant: Variant, spec: MatchSpec, table: Table
) -> tuple[tuple[int, ...], tuple[int, ...], int] | None:
    """The seats' 积分, their deals won on the dealer's side and the number of deals, when the
    red five table counts; else None (unfinished, or any deal with an error).

    Exactly ``derive_red_five``'s ``totals``, ``dealer_wins``, ``deals`` and ``counts`` (the
    property tests compare them), without rows or messages.
    """
    return _red_five_final(red_five_tables(variant), spec, table)


def _red_five_final(
    rt: RedFiveTables, spec: MatchSpec, table: Table
) -> tuple[tuple[int, ...], tuple[int, ...], int] | None:
    deals = table.deals
    n_max = spec.deals
    if n_max is not None and len(deals) > n_max:
        return None
    called = table.last_deal is not None and len(deals) >= table.last_deal
    if not (table.finished or called or (n_max is not None and len(deals) == n_max)):
        return None
    if rt.variant is not None and (has_penalties(table) or table.last_deal is not None):
        tab = derive_red_five(rt.variant, spec, table)
        return (tab.totals, tab.dealer_wins, tab.deals) if tab.counts else None
    n = rt.players
    okp, okk, okm, total_points, units = rt.points, rt.kitty, rt.multipliers, rt.total, rt.units
    totals = [0] * n
    wins = [0] * n
    for d in deals:
        p = d.points
        k = d.kitty
        m = d.multiplier
        dl = d.dealer
        f = d.friend
        if (
            type(p) is not int
            or p not in okp
            or type(k) is not int
            or k not in okk
            or p + k > total_points
            or type(m) is not int
            or m not in okm
            or type(dl) is not int
            or not 0 <= dl < n
            or d.declarer is not None
            or d.misplays
        ):
            return None
        if f is not None and (type(f) is not int or not 0 <= f < n or f == dl):
            return None
        grabbed = d.friend_grabbed
        if grabbed and f is None:
            return None
        tr = d.trump
        if tr is None or tr not in TRUMPS:
            return None
        lvl = d.level
        if lvl is not None and lvl != "2":
            return None
        ft = d.failed_throws
        if ft is not None:
            if not isinstance(ft, tuple):
                return None
            for s in ft:
                if type(s) is not int or not 0 <= s < n:
                    return None
        total = p + k * m
        won, u = units[total] if total < len(units) else _red_five_units(total)
        sign = u if won else -u
        sc = [-sign] * n
        if f is None:
            sc[dl] = sign * (n - 1)
        else:
            sc[dl] = 2 * sign
            sc[f] = sign
        if ft:
            for s, times in Counter(ft).items():
                hit = min(times, RED_FIVE_MAX_PENALISED)
                for o in range(n):
                    sc[o] += hit * (RED_FIVE_THROWER if o == s else RED_FIVE_OTHERS)
        if grabbed and f is not None and not won:  # 直搭: dealer and friend trade this deal's
            sc[dl], sc[f] = sc[f], sc[dl]
        for o in range(n):
            totals[o] += sc[o]
        if won:
            wins[dl] += 1
            if f is not None:
                wins[f] += 1
    return tuple(totals), tuple(wins), len(deals)


def _red_five_units(total: int) -> tuple[bool, int]:
    w, u = red_five_units(total)
    return w == DECLARER, u


def beyond_the_table(spec: MatchSpec, table: Table, i: int) -> DealIssue | None:
    """The issue of a table's deal ``i`` (0-based) when it lies beyond the table's deals: past
    the match's number of deals, or past the last deal the director called; else None."""
    if spec.deals is not None and i >= spec.deals:
        return DealIssue.make(i, "", "table_complete", deals=spec.deals, number=i + 1)
    if table.last_deal is not None and i >= table.last_deal:
        return DealIssue.make(i, "", "after_last_deal", deals=table.last_deal, number=i + 1)
    return None


def derive_red_five(variant: Variant, spec: MatchSpec, table: Table) -> RedFiveTable:
    n = variant.players
    totals = [0] * n
    wins = [0] * n
    rows: list[RedFiveRow] = []
    errors: list[DealIssue] = []
    broken = False
    for i, deal in enumerate(table.deals):
        field_errors = deal_issues(variant, deal)
        if field_errors:
            errors += [DealIssue.of(i, issue) for issue in field_errors]
            broken = True
            continue
        if broken:
            continue
        beyond = beyond_the_table(spec, table, i)
        if beyond is not None:
            errors.append(beyond)
            broken = True
            continue
        assert deal.dealer is not None
        r = deal_result(
            variant,
            deal.points,
            deal.kitty,
            deal.multiplier,
            deal.engine_failed_throws(),
            dealer=deal.dealer,
            friend=deal.friend,
            friend_grabbed=deal.friend_grabbed,
            penalties=deal.engine_penalties() or None,
        )
        assert r.scores is not None and r.units is not None and r.total is not None
        for s in range(n):
            totals[s] += r.scores[s]
        if r.winner == DECLARER:
            wins[deal.dealer] += 1
            if deal.friend is not None:
                wins[deal.friend] += 1
        rows.append(
            RedFiveRow(
                i + 1,
                deal.dealer,
                deal.friend,
                r.total,
                r.winner,
                r.units,
                tuple(r.scores),
                tuple(totals),
                deal.dealer,
            )
        )
    length = spec.deals if spec.deals is not None else table.last_deal
    counts = not broken and (table.finished or (length is not None and len(rows) >= length))
    return RedFiveTable(tuple(rows), tuple(totals), tuple(wins), counts, tuple(errors))


__all__ = [
    "ATTACKERS",
    "DECLARER",
    "MESSAGES",
    "DealIssue",
    "Issue",
    "FixedMatch",
    "FixedRow",
    "RedFiveRow",
    "RedFiveTable",
    "check_deal",
    "check_entry",
    "deal_issues",
    "english",
    "derive_fixed",
    "derive_red_five",
    "fixed_final",
    "fixed_tables",
    "has_penalties",
    "needs_full_derivation",
    "red_five_final",
    "strike_out",
    "red_five_tables",
]


def check_entry(
    variant: Variant, spec: MatchSpec, table: Table, deal: Deal, index: int | None = None
) -> dict[str, str]:
    """Errors of one deal typed on a table's sheet, keyed by field ("" for the deal as a whole).

    ``index`` None appends the deal; an index replaces that deal (a correction). The whole table
    is re-derived, so the level written on the sheet, a deal after A was passed and a deal past
    the match length are caught too. Errors that a correction causes in *later* deals (their
    written level no longer agrees) are reported under ``"later"``.
    """
    deals = list(table.deals)
    if index is None:
        index = len(deals)
        deals.append(deal)
    elif not 0 <= index < len(deals):
        return {"": english("no_such_deal", {"number": index + 1})}
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
    if table.forfeit is not None:
        return {"": MESSAGES["forfeited"]}
    if variant.id == CLIMBING:
        from .climbing import derive_climbing

        issues: tuple[DealIssue, ...] = derive_climbing(variant, spec, probe).errors
    elif variant.id == RED_FIVE:
        issues = derive_red_five(variant, spec, probe).errors
    else:
        issues = derive_fixed(variant, spec, probe).errors
    out: dict[str, str] = {}
    for issue in issues:
        if issue.index == index:
            out.setdefault(issue.field, issue.message)
        elif issue.index > index:
            where = f"deal {issue.index + 1}" + (f" ({issue.field})" if issue.field else "")
            out.setdefault("later", f"{where}: {issue.message}")
    return out
