"""Scoring of a finished deal, level progression and the next dealer (RULES.md §1–§5).

Everything here works on numbers a score sheet holds (card points, kitty points, the kitty
multiplier, failed throws), so the same functions score an online deal and a typed paper row:

- ``advance(level, gain, must_play)`` — a side's new level after a gain;
- ``kitty_multiplier(mode, n)`` / ``allowed_multipliers(variant)`` — the kitty bonus factor;
- ``attackers_total(...)`` — trick points + kitty bonus + throw penalties, never below 0;
- ``deal_result(...)`` — who won the deal and what it is worth (levels, or red five units/积分);
- ``next_levels(...)`` — both fixed sides' levels after a deal (120分 misplays included);
- ``next_dealer(...)`` — the seat that deals next.

Bad input raises ``EngineError`` with a message in plain words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .cards import POINTS_PER_DECK, RANKS
from .errors import EngineError
from .variants import ONE_TWENTY, RED_FIVE, TRACTOR, Variant

LEVELS: Final[tuple[str, ...]] = RANKS  # "2" … "A"
_LEVEL_INDEX: Final = {lv: i for i, lv in enumerate(LEVELS)}
MAX_PENALTIES_PER_SIDE: Final = 3  # tractor-4p: at most 3 failed-throw penalties per side and deal
THROW_PENALTY_POINTS: Final = 10
RED_FIVE_THROWER: Final = -4  # 积分 for a failed throw in red five
RED_FIVE_OTHERS: Final = 1
RED_FIVE_MAX_PENALISED: Final = 2  # a seat's third and later failures in one deal change nothing

DECLARER: Final = "declarer"
ATTACKERS: Final = "attackers"


# --- levels -----------------------------------------------------------------------------------


def level_index(level: object) -> int:
    """``"2"`` → 0 … ``"A"`` → 12; raise ``EngineError`` for anything else."""
    if not isinstance(level, str) or level not in _LEVEL_INDEX:
        raise EngineError("level.unknown", got=repr(level), levels=" ".join(LEVELS))
    return _LEVEL_INDEX[level]


def level_value(level: str, passed: bool = False) -> int:
    """The level as a number for 级差: 2 … 10, J 11, Q 12, K 13, A 14, a passed A 15."""
    value = level_index(level) + 2
    if passed:
        if level != "A":
            raise EngineError("level.passed_a", level=level)
        return 15
    return value


def _check_must_play(must_play: Iterable[str]) -> set[int]:
    if isinstance(must_play, str | bytes | Mapping) or not isinstance(must_play, Iterable):
        raise EngineError("must_play.type", got=repr(must_play))
    stops = {level_index(lv) for lv in must_play}
    stops.add(len(LEVELS) - 1)  # A always stops a gain
    return stops


def advance(level: str, gain: int, must_play: Sequence[str] = ("A",)) -> tuple[str, bool]:
    """A side's new level after gaining ``gain`` levels, and whether it passed A.

    A gain never skips a must-play level (it stops there) and stops at A. ``passed`` is true when
    the side was at A and gained at least one level: as the declaring side it has won the game.
    """
    start = level_index(level)
    if isinstance(gain, bool) or not isinstance(gain, int) or gain < 0:
        raise EngineError("gain.type", got=repr(gain))
    stops = _check_must_play(must_play)
    if gain == 0:
        return level, False
    if start == len(LEVELS) - 1:
        return "A", True
    target = min(start + gain, len(LEVELS) - 1)
    for i in range(start + 1, target + 1):
        if i in stops:
            target = i
            break
    return LEVELS[target], False


# --- kitty ------------------------------------------------------------------------------------

KITTY_MODES: Final = ("by_shape", "power", "double")
MAX_HAND: Final = 54 * 4 // 4  # the largest hand of any variant (4 decks, 4 players, no kitty)


def kitty_multiplier(mode: str, largest_component_cards: int) -> int:
    """The kitty factor for a last lead whose largest component holds that many cards."""
    n = largest_component_cards
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_HAND:
        raise EngineError("kitty.component", most=MAX_HAND, got=repr(n))
    if mode == "by_shape":
        return 2 * n
    if mode == "power":
        return 2**n
    if mode == "double":
        return 2
    raise EngineError("kitty.mode", got=repr(mode), modes=", ".join(KITTY_MODES))


def _check_variant(variant: object) -> Variant:
    if not isinstance(variant, Variant):
        raise EngineError("variant.type", got=repr(variant))
    return variant


def _check_total(total: object) -> int:
    if isinstance(total, bool) or not isinstance(total, int) or total < 0:
        raise EngineError("total.type", got=repr(total))
    return total


def component_sizes(variant: Variant) -> set[int]:
    """Card counts a single component of a lead can have in this variant.

    Singles, pairs, triples (3+ decks), quads (4 decks), tractors of pairs (4, 6, 8 …), of
    triples (6, 9 … with ``triple_tractors``), of quads (4 decks), and red five's handled
    tractors (at least one pair and one triple: 5, 7, 8 …) — never more cards than a hand holds.
    """
    hand = _check_variant(variant).hand
    sizes = {1, 2}
    widths = [2]
    if variant.triples:
        sizes.add(3)
        if variant.options.get("triple_tractors", True):
            widths.append(3)
    if variant.quads:
        sizes.add(4)
        widths.append(4)
    for w in widths:
        sizes.update(range(2 * w, hand + 1, w))
    if variant.id == RED_FIVE and variant.options.get("triple_tractors", True):
        for pairs in range(1, hand // 2 + 1):
            for triples in range(1, hand // 3 + 1):
                if 2 * pairs + 3 * triples <= hand:
                    sizes.add(2 * pairs + 3 * triples)
    return {s for s in sizes if s <= hand}


def allowed_multipliers(variant: Variant) -> set[int]:
    """Every kitty multiplier the variant can produce (empty when there is no kitty)."""
    return set(allowed_multiplier_set(variant))


def allowed_multiplier_set(variant: Variant) -> frozenset[int]:
    """``allowed_multipliers`` as a cached frozenset (no copy: for checks in a loop)."""
    _check_variant(variant)
    mode = variant.options.get("kitty_multiplier", "by_shape")
    key = (
        variant.id,
        variant.decks,
        variant.kitty,
        variant.hand,
        mode,
        bool(variant.options.get("triple_tractors", True)),
    )
    found = _MULTIPLIER_CACHE.get(key)
    if found is None:
        if variant.kitty == 0:
            found = frozenset()
        elif mode == "double":
            found = frozenset({2})
        else:
            found = frozenset(kitty_multiplier(mode, n) for n in component_sizes(variant))
        _MULTIPLIER_CACHE[key] = found
    return found


_MULTIPLIER_CACHE: dict[tuple[Any, ...], frozenset[int]] = {}


def max_kitty_points(variant: Variant) -> int:
    """The most card points a kitty of the variant's size can hold (10s and Ks first, then 5s)."""
    _check_variant(variant)
    tens = 8 * variant.decks  # 10 and K of four suits, per deck
    fives = 4 * variant.decks
    k = variant.kitty
    return 10 * min(k, tens) + 5 * min(max(k - tens, 0), fives)


# --- validation helpers -----------------------------------------------------------------------


def _check_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineError("number.type", what=name, got=repr(value))
    return value


def check_points(variant: Variant, points: object) -> int:
    p = _check_int("points", points)
    total = _check_variant(variant).total_points
    if p < 0 or p > total:
        raise EngineError("points.range", points=p, total=total)
    if p % 5:
        raise EngineError("points.multiple", points=p)
    return p


def check_kitty_points(variant: Variant, kitty_points: object, points: int = 0) -> int:
    _check_variant(variant)
    points = _check_int("points", points)
    k = _check_int("kitty points", kitty_points)
    if k < 0:
        raise EngineError("kitty_points.negative", points=k)
    if k % 5:
        raise EngineError("kitty_points.multiple", points=k)
    if variant.kitty == 0 and k:
        raise EngineError("kitty_points.no_kitty", points=k)
    most = max_kitty_points(variant)
    if k > most:
        raise EngineError("kitty_points.most", points=k, kitty=variant.kitty, most=most)
    if points + k > variant.total_points:
        raise EngineError(
            "kitty_points.total", points=points, kitty_points=k, total=variant.total_points
        )
    return k


def check_multiplier(variant: Variant, multiplier: object) -> int:
    """0 or None: the attackers did not win the last trick."""
    if multiplier is None:
        return 0
    m = _check_int("the kitty multiplier", multiplier)
    if m == 0:
        return 0
    allowed = allowed_multiplier_set(variant)
    if not allowed:
        raise EngineError("multiplier.no_kitty")
    if m not in allowed:
        mode = variant.options.get("kitty_multiplier", "by_shape")
        more = " …" if len(allowed) > 8 else ""
        raise EngineError(
            "multiplier.impossible",
            multiplier=m,
            mode=mode,
            possible=sorted(allowed)[:8],
            more=more,
        )
    return m


def _tractor_throws(failed_throws: object) -> tuple[int, int]:
    """The number of failed throws per side (counts, or the lengths of ten_per_card lists)."""
    declarer, attackers = tractor_throw_lists(failed_throws)
    return len(declarer), len(attackers)


def tractor_throw_lists(
    failed_throws: object, per_card: bool = False
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Fixed sides' failed throws per side as one entry per failure.

    ``{"declarer": n, "attackers": m}`` (counts: each entry 1) or, as ``throw_penalty:
    ten_per_card`` writes them, ``{"declarer": [n, …], "attackers": [m, …]}`` with the cards
    taken back by each failed throw (1 or more). ``per_card``: lists are required.
    """
    if failed_throws is None:
        return (), ()
    if not isinstance(failed_throws, Mapping):
        raise EngineError("throws.tractor_type", got=repr(failed_throws))
    unknown = set(failed_throws) - {DECLARER, ATTACKERS}
    if unknown:
        raise EngineError("throws.sides", got=str(sorted(unknown)))
    out: list[tuple[int, ...]] = []
    for side in (DECLARER, ATTACKERS):
        n = failed_throws.get(side, 0)
        if isinstance(n, list | tuple):
            for k in n:
                if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_HAND:
                    raise EngineError("throws.cards", side=side, most=MAX_HAND, got=repr(k))
            out.append(tuple(n))
            continue
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise EngineError("throws.count", side=side, got=repr(n))
        if per_card and n:
            raise EngineError("throws.per_card", side=side, got=repr(n))
        out.append((1,) * n)
    return out[0], out[1]


def _red_five_throws(failed_throws: object, players: int) -> list[int]:
    if failed_throws is None:
        return []
    if isinstance(failed_throws, (str, Mapping)) or not isinstance(failed_throws, Sequence):
        raise EngineError("throws.red_five_type", got=repr(failed_throws))
    seats = []
    for s in failed_throws:
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players:
            raise EngineError("throws.seat", got=repr(s), last=players - 1)
        seats.append(s)
    return seats


def throw_penalty_points(variant: Variant, failed_throws: object) -> int:
    """tractor-4p: the failed throws' card points, + for the declarer side's, − for the
    attackers'; at most 3 failed throws per side count. ``ten_per_attempt``: 10 each;
    ``ten_per_card``: 10 × the cards taken back (``failed_throws`` as lists); ``none``: 0."""
    if _check_variant(variant).id != TRACTOR:
        return 0
    mode = variant.options.get("throw_penalty", "ten_per_attempt")
    declarer, attackers = tractor_throw_lists(failed_throws, per_card=mode == "ten_per_card")
    if mode == "none":
        return 0
    return _throw_points(mode, declarer, attackers)


def _throw_points(mode: str, declarer: Sequence[int], attackers: Sequence[int]) -> int:
    cap = MAX_PENALTIES_PER_SIDE
    if mode == "ten_per_card":
        return THROW_PENALTY_POINTS * (sum(declarer[:cap]) - sum(attackers[:cap]))
    return THROW_PENALTY_POINTS * (min(len(declarer), cap) - min(len(attackers), cap))


def attackers_total(
    variant: Variant,
    points: int | None,
    kitty_points: int | None,
    multiplier: int | None,
    failed_throws: Any = None,
) -> int:
    """Trick points + kitty points × multiplier + throw penalty points, never below 0."""
    p = check_points(variant, points)
    k = check_kitty_points(variant, kitty_points, p)
    m = check_multiplier(variant, multiplier)
    if variant.id == ONE_TWENTY and failed_throws:
        raise EngineError("throws.one_twenty")
    if variant.id == RED_FIVE:
        _red_five_throws(failed_throws, variant.players)  # 积分 only, no card points
    return max(0, p + k * m + throw_penalty_points(variant, failed_throws))


# --- deal result ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealResult:
    """The outcome of one deal.

    ``levels``: fixed sides only — the levels the winner gains (0 when the attackers only take
    over), by the table or by the penalty that ended the deal (``ended_by``, RULES §7; ``total``
    is then None: the card points do not count). ``units`` and ``scores`` (the five seats' 积分
    changes, seat 0 first): red five only, competition penalties included.

    Competition penalties' level effects, by role (declarer side, attackers), applied by
    ``next_levels`` after the deal's own gain: ``extra`` — levels each role gains from the
    other role's ``extra_level`` revokes; ``lost`` — levels each role loses to its take-backs.
    """

    total: int | None
    winner: str  # "declarer" or "attackers"
    levels: int | None = None
    units: int | None = None
    scores: list[int] | None = None
    ended_by: str | None = None
    extra: tuple[int, int] = (0, 0)
    lost: tuple[int, int] = (0, 0)

    @property
    def declarer_won(self) -> bool:
        return self.winner == DECLARER


# --- competition penalties (RULES §7) ---------------------------------------------------------

REVOKE: Final = "revoke"
MISCOUNT: Final = "miscount"
WRONG_KITTY: Final = "wrong_kitty"
TAKEBACK: Final = "takeback"
PENALTY_KINDS: Final[tuple[str, ...]] = (REVOKE, MISCOUNT, WRONG_KITTY, TAKEBACK)
RED_FIVE_PENALTY_SEAT: Final = -4  # 积分 a red five seat pays for a penalty; each other seat gets 1
RED_FIVE_PENALTY_OTHERS: Final = 1


@dataclass(frozen=True)
class Penalty:
    """One competition penalty recorded on a deal: its kind and who was at fault — ``side``
    (``"declarer"`` or ``"attackers"``) for fixed sides, ``seat`` in red five."""

    kind: str
    side: str | None = None
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        if self.seat is not None:
            return {"kind": self.kind, "seat": self.seat}
        return {"kind": self.kind, "side": self.side}


def check_penalties(
    variant: Variant, penalties: object, dealer: int | None = None
) -> tuple[Penalty, ...]:
    """Read a deal's penalties, in the order they happened: ``Penalty`` objects or the JSON
    form ``{"kind", "side"}`` (red five ``{"kind", "seat"}``). A wrong kitty is the declarer
    side's (red five: the dealer's, checked when ``dealer`` is given); with no kitty there is
    none. Raise ``EngineError`` for anything else."""
    _check_variant(variant)
    if penalties is None:
        return ()
    if isinstance(penalties, str | bytes | Mapping) or not isinstance(penalties, Sequence):
        raise EngineError("penalties.type", got=repr(penalties))
    out: list[Penalty] = []
    for i, item in enumerate(penalties, 1):
        kind: Any
        side: Any
        seat: Any
        if isinstance(item, Penalty):
            kind, side, seat = item.kind, item.side, item.seat
        elif isinstance(item, Mapping):
            extra = set(item) - {"kind", "side", "seat"}
            if extra:
                raise EngineError("penalty.fields", index=i, got=str(sorted(map(str, extra))))
            kind, side, seat = item.get("kind"), item.get("side"), item.get("seat")
        else:
            raise EngineError("penalty.item", index=i, got=repr(item))
        if not isinstance(kind, str) or kind not in PENALTY_KINDS:
            raise EngineError(
                "penalty.kind", index=i, got=repr(kind), kinds=", ".join(PENALTY_KINDS)
            )
        if kind == WRONG_KITTY and variant.kitty == 0:
            raise EngineError("penalty.no_kitty", index=i)
        if variant.fixed_sides:
            if seat is not None or side not in (DECLARER, ATTACKERS):
                raise EngineError("penalty.side", index=i, got=repr(side if seat is None else seat))
            if kind == WRONG_KITTY and side != DECLARER:
                raise EngineError("penalty.kitty_side", index=i)
            out.append(Penalty(kind, side))
        else:
            if side is not None:
                raise EngineError("penalty.seat", index=i, got=repr(side), last=variant.players - 1)
            if (
                isinstance(seat, bool)
                or not isinstance(seat, int)
                or not 0 <= seat < variant.players
            ):
                raise EngineError("penalty.seat", index=i, got=repr(seat), last=variant.players - 1)
            if kind == WRONG_KITTY and dealer is not None and seat != dealer:
                raise EngineError("penalty.kitty_seat", index=i, seat=seat, dealer=dealer)
            out.append(Penalty(kind, seat=seat))
    return tuple(out)


def ends_the_deal(variant: Variant, penalty: Any) -> bool:
    """Fixed sides: a miscount, a wrong kitty and (``revoke_effect: ends_deal``) a revoke end
    the deal. Red five deals are always played out."""
    (penalty,) = check_penalties(variant, [penalty])
    return _ends(variant, penalty)


def _ends(variant: Variant, penalty: Penalty) -> bool:
    if not variant.fixed_sides:
        return False
    if penalty.kind in (MISCOUNT, WRONG_KITTY):
        return True
    return penalty.kind == REVOKE and variant.options.get("revoke_effect") == "ends_deal"


def ending_penalty(variant: Variant, penalties: Any) -> Penalty | None:
    """The first deal-ending penalty of the list, which decides the deal (or None)."""
    for p in check_penalties(variant, penalties):
        if _ends(variant, p):
            return p
    return None


def penalty_outcome(penalty: Penalty) -> tuple[str, int]:
    """(winner, levels) of a deal ended by ``penalty``: the declarer side at fault → the
    attackers take over with no gain; the attackers at fault → the declarer side gains 1."""
    if not isinstance(penalty, Penalty) or penalty.side not in (DECLARER, ATTACKERS):
        raise EngineError("penalty.type", got=repr(penalty))
    if penalty.side == DECLARER:
        return ATTACKERS, 0
    return DECLARER, 1


def penalty_levels(variant: Variant, penalties: Any) -> tuple[tuple[int, int], tuple[int, int]]:
    """Fixed sides, by role (declarer side, attackers): (levels gained from the other role's
    ``extra_level`` revokes, levels lost to the role's own take-backs with
    ``takeback_effect: level``). Red five: none."""
    penalties = check_penalties(variant, penalties)
    extra = [0, 0]
    lost = [0, 0]
    revoke_extra = variant.options.get("revoke_effect") == "extra_level"
    takeback_level = variant.options.get("takeback_effect", "level") == "level"
    for p in penalties:
        if p.side is None:
            continue
        role = 0 if p.side == DECLARER else 1
        if p.kind == REVOKE and revoke_extra:
            extra[1 - role] += 1
        elif p.kind == TAKEBACK and takeback_level:
            lost[role] += 1
    return (extra[0], extra[1]), (lost[0], lost[1])


def red_five_penalty_seats(variant: Variant, penalties: Any) -> list[int]:
    """Red five: the seats that pay for a penalty, one entry each (a take-back under
    ``takeback_effect: warning`` costs nothing)."""
    penalties = check_penalties(variant, penalties)
    warning = variant.options.get("takeback_effect", "level") == "warning"
    return [
        p.seat for p in penalties if p.seat is not None and not (p.kind == TAKEBACK and warning)
    ]


def strikes(variant: Variant, penalties: Any) -> list[Penalty]:
    """The penalties that count as strikes toward ``strikes_lose_match``: every kind does
    (a take-back recorded as a warning too: it is still a take-back)."""
    return [p for p in check_penalties(variant, penalties) if p.kind in PENALTY_KINDS]


def tractor_table(total: int, decks: int = 2) -> tuple[str, int]:
    """RULES §2: (winner, levels) by the attackers' total; 4 decks doubles every step."""
    total = _check_total(total)
    if decks not in (2, 4) or isinstance(decks, bool):
        raise EngineError("decks.tractor", got=repr(decks))
    step = 40 * (decks // 2)
    if total == 0:
        return DECLARER, 3
    if total < step:
        return DECLARER, 2
    if total < 2 * step:
        return DECLARER, 1
    if total < 3 * step:
        return ATTACKERS, 0
    if total < 4 * step:
        return ATTACKERS, 1
    if total < 5 * step:
        return ATTACKERS, 2
    return ATTACKERS, 3 + (total - 5 * step) // step


def one_twenty_table(total: int) -> tuple[str, int]:
    """RULES §4: (winner, levels) by the opponents' total."""
    total = _check_total(total)
    if total < 60:
        return DECLARER, 2
    if total < 120:
        return DECLARER, 1
    if total < 180:
        return ATTACKERS, 0
    if total < 240:
        return ATTACKERS, 1
    return ATTACKERS, 2


def red_five_units(total: int) -> tuple[str, int]:
    """RULES §3 (``units60``): (winner, units) by the attackers' total."""
    total = _check_total(total)
    if total == 0:
        return DECLARER, 3
    if total < 60:
        return DECLARER, 2
    if total < 120:
        return DECLARER, 1
    if total < 300:
        return ATTACKERS, 1 + (total - 120) // 60
    return ATTACKERS, 4


def red_five_scores(
    players: int,
    winner: str,
    units: int,
    dealer: int,
    friend: int | None,
    failed_throws: Sequence[int] = (),
    friend_grabbed: bool = False,
    penalty_seats: Sequence[int] = (),
) -> list[int]:
    """Each seat's 积分 change for one red five deal (zero-sum).

    ``penalty_seats``: one entry per competition penalty (RULES §7) — like a failed throw, but
    never capped and never swapped under 直搭."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
        raise EngineError("players.range", got=repr(players))
    if winner not in (DECLARER, ATTACKERS):
        raise EngineError("winner.type", got=repr(winner))
    if isinstance(units, bool) or not isinstance(units, int) or not 0 <= units <= 4:
        raise EngineError("units.type", got=repr(units))
    dealer = _check_seat("the dealer", dealer, players)
    if friend is not None:
        friend = _check_seat("the friend", friend, players)
    failed_throws = _red_five_throws(failed_throws, players)
    sign = 1 if winner == DECLARER else -1
    scores = [-sign * units] * players
    if friend is None:
        scores[dealer] = sign * units * (players - 1)
    else:
        scores[dealer] = sign * 2 * units
        scores[friend] = sign * units
    for seat, n in Counter(failed_throws).items():
        for _ in range(min(n, RED_FIVE_MAX_PENALISED)):
            for s in range(players):
                scores[s] += RED_FIVE_THROWER if s == seat else RED_FIVE_OTHERS
    if friend_grabbed and friend is not None and winner == ATTACKERS:
        scores[dealer], scores[friend] = scores[friend], scores[dealer]  # 直搭
    for seat in _red_five_throws(penalty_seats, players):
        for s in range(players):
            scores[s] += RED_FIVE_PENALTY_SEAT if s == seat else RED_FIVE_PENALTY_OTHERS
    return scores


def _check_seat(name: str, seat: object, players: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise EngineError("scoring.seat", what=name, last=players - 1, got=repr(seat))
    return seat


def deal_result(
    variant: Variant,
    points: int | None,
    kitty_points: int | None,
    multiplier: int | None,
    failed_throws: Any = None,
    dealer: int | None = None,
    friend: int | None = None,
    friend_grabbed: bool = False,
    penalties: Any = None,
) -> DealResult:
    """Score a finished deal from the numbers on its score sheet row.

    ``multiplier`` is the kitty factor when the attackers won the last trick, else 0 or None.
    ``failed_throws``: tractor-4p ``{"declarer": n, "attackers": m}`` (lists of the cards taken
    back with ``throw_penalty: ten_per_card``); red five a list of the throwers' seats; not used
    in 120分 (misplays are handled by ``next_levels``).
    Red five needs ``dealer`` and ``friend`` (None when the dealer played alone).
    ``penalties``: the deal's competition penalties in order (``check_penalties``). For fixed
    sides the first deal-ending one decides the deal: the card numbers are then not needed
    (None) and ``total`` is None.
    """
    _check_variant(variant)
    if variant.id == RED_FIVE:
        if dealer is None:
            raise EngineError("result.dealer_needed")
        d = _check_seat("the dealer", dealer, variant.players)
        pens = check_penalties(variant, penalties, d)
        total = attackers_total(variant, points, kitty_points, multiplier, failed_throws)
        f = None if friend is None else _check_seat("the friend", friend, variant.players)
        if f == d:
            raise EngineError("result.friend_is_dealer")
        if friend_grabbed and f is None:
            raise EngineError("result.grabbed_alone")
        winner, units = red_five_units(total)
        throws = _red_five_throws(failed_throws, variant.players)
        scores = red_five_scores(
            variant.players,
            winner,
            units,
            d,
            f,
            throws,
            friend_grabbed,
            red_five_penalty_seats(variant, pens),
        )
        return DealResult(total, winner, units=units, scores=scores)
    if dealer is not None or friend is not None or friend_grabbed:
        raise EngineError("result.red_five_only")
    pens = check_penalties(variant, penalties)
    extra, lost = penalty_levels(variant, pens)
    ending = ending_penalty(variant, pens)
    if ending is not None:
        if variant.id == TRACTOR:
            tractor_throw_lists(failed_throws)  # checked, though the deal's points do not count
        elif failed_throws:
            raise EngineError("throws.one_twenty")
        if points is not None:  # a sheet may still carry numbers: they must make sense
            attackers_total(variant, points, kitty_points or 0, multiplier, failed_throws)
        winner, levels = penalty_outcome(ending)
        return DealResult(None, winner, levels=levels, ended_by=ending.kind, extra=extra, lost=lost)
    total = attackers_total(variant, points, kitty_points, multiplier, failed_throws)
    if variant.id == TRACTOR:
        winner, levels = tractor_table(total, variant.decks)
    else:
        winner, levels = one_twenty_table(total)
    return DealResult(total, winner, levels=levels, extra=extra, lost=lost)


def fixed_result_prechecked(
    variant: Variant, points: int, kitty_points: int, multiplier: int, failed_throws: Any = None
) -> DealResult:
    """``deal_result`` for fixed sides whose numbers were already checked (a hot loop that
    validated every field first, such as a whole tournament's standings). Garbage in, garbage
    out: call ``deal_result`` for anything not yet checked."""
    total = points + kitty_points * multiplier
    if variant.id == TRACTOR:
        mode = str(variant.options.get("throw_penalty"))
        if failed_throws and mode != "none":
            dec = failed_throws.get(DECLARER, 0)
            att = failed_throws.get(ATTACKERS, 0)
            total += _throw_points(
                mode,
                dec if isinstance(dec, list | tuple) else (1,) * dec,
                att if isinstance(att, list | tuple) else (1,) * att,
            )
        if total < 0:
            total = 0
        winner, levels = tractor_table(total, variant.decks)
    else:
        winner, levels = one_twenty_table(total)
    return DealResult(total, winner, levels=levels)


# --- levels of both sides after a deal ---------------------------------------------------------


@dataclass(frozen=True)
class LevelChange:
    levels: tuple[str, str]  # side 0, side 1 after the deal
    gains: tuple[int, int]  # levels each side was due (deal result + the other side's misplays)
    passed: bool  # the declaring side won at A: the game is over


def next_levels(
    levels: Sequence[str],
    declarer: int,
    result: DealResult,
    misplays: Iterable[int] = (),
    must_play: Sequence[str] = ("A",),
) -> LevelChange:
    """Both fixed sides' levels after a deal declared by side ``declarer`` (RULES §5, §7).

    Per side, the deal's own gain (the winner's), one level per ``extra_level`` revoke of the
    other side (``result.extra``) and, in 120分, one per misplay of the other side are added up
    and applied in one move (so a must-play level or A still stops the sum); then each
    take-back (``result.lost``) lowers its side one level, never below 2. A declaring side at A
    that wins the deal has passed A.
    """
    if isinstance(levels, str) or not isinstance(levels, Sequence) or len(levels) != 2:
        raise EngineError("levels.pair", got=repr(levels))
    if not isinstance(result, DealResult):
        raise EngineError("result.type", got=repr(result))
    if isinstance(misplays, str) or not isinstance(misplays, Iterable):
        raise EngineError("misplays.type", got=repr(misplays))
    if declarer not in (0, 1) or isinstance(declarer, bool):
        raise EngineError("declarer.side", got=repr(declarer))
    if result.levels is None:
        raise EngineError("result.no_levels")
    for lv in levels:
        level_index(lv)
    winner_side = declarer if result.winner == DECLARER else 1 - declarer
    gains = [0, 0]
    gains[winner_side] += result.levels
    gains[declarer] += result.extra[0]
    gains[1 - declarer] += result.extra[1]
    for side in misplays:
        if side not in (0, 1) or isinstance(side, bool):
            raise EngineError("misplay.side", got=repr(side))
        gains[1 - side] += 1
    passed = levels[declarer] == "A" and result.winner == DECLARER
    lost = [0, 0]
    lost[declarer] = result.lost[0]
    lost[1 - declarer] = result.lost[1]
    new = []
    for side in (0, 1):
        level, _ = advance(levels[side], gains[side], must_play)
        new.append(LEVELS[max(0, level_index(level) - lost[side])])
    return LevelChange((new[0], new[1]), (gains[0], gains[1]), passed)


def apply_misplays(level: str, extra: int, must_play: Sequence[str] = ("A",)) -> str:
    """A side's level after ``extra`` misplay levels alone (never passes A)."""
    return advance(level, extra, must_play)[0]


# --- next dealer ------------------------------------------------------------------------------


def next_dealer(
    variant: Variant,
    dealer: int,
    winner: str,
    first_to_show_two: int | None = None,
) -> int:
    """The seat that deals (declares) next.

    tractor-4p: declarer side won → the dealer's partner; attackers won → the player after the
    dealer. 120分: kept → the next player of the declaring side in play order; taken over → the
    player after the declarer. Red five: the first to show a 2 in the next deal, else the
    previous dealer (``winner`` does not matter).
    """
    n = _check_variant(variant).players
    d = _check_seat("the dealer", dealer, n)
    if winner not in (DECLARER, ATTACKERS):
        raise EngineError("winner.type", got=repr(winner))
    if variant.id == RED_FIVE:
        if first_to_show_two is None:
            return d
        return _check_seat("the first to show a 2", first_to_show_two, n)
    if winner == DECLARER:
        return (d + 2) % n
    return (d + 1) % n


def next_declaring_side(declarer: int, result: DealResult) -> int:
    """Fixed sides: the side that won the deal declares the next one."""
    if declarer not in (0, 1) or isinstance(declarer, bool):
        raise EngineError("declarer.side", got=repr(declarer))
    if not isinstance(result, DealResult):
        raise EngineError("result.type", got=repr(result))
    return declarer if result.winner == DECLARER else 1 - declarer


__all__ = [
    "ATTACKERS",
    "DECLARER",
    "LEVELS",
    "PENALTY_KINDS",
    "Penalty",
    "check_penalties",
    "ending_penalty",
    "ends_the_deal",
    "penalty_levels",
    "penalty_outcome",
    "red_five_penalty_seats",
    "strikes",
    "tractor_throw_lists",
    "POINTS_PER_DECK",
    "DealResult",
    "LevelChange",
    "advance",
    "allowed_multiplier_set",
    "allowed_multipliers",
    "apply_misplays",
    "attackers_total",
    "check_kitty_points",
    "check_multiplier",
    "check_points",
    "component_sizes",
    "deal_result",
    "fixed_result_prechecked",
    "kitty_multiplier",
    "level_index",
    "level_value",
    "max_kitty_points",
    "next_declaring_side",
    "next_dealer",
    "next_levels",
    "one_twenty_table",
    "red_five_scores",
    "red_five_units",
    "throw_penalty_points",
    "tractor_table",
]
