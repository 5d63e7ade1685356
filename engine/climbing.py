"""争上游, the climbing game (``../shared/rules/CLIMBING.md``): its card order, plays, beating,
tribute (进贡, 抗贡) and points by place. Pure functions on card numbers (``engine.cards``);
the deal's state machine is ``engine.climbing_deal``.

Climbing ranks (``crank``), low to high: ``3 4 … K A`` are 0 … 11, ``2`` is 12, ``LJ`` 13 and
``HJ`` 14; suits never count. A play is a single, a pair, a triple, a quad, a set (5 to 8 of a
rank, two decks only: one deck cannot hold them), or a straight: three or more cards of
consecutive ranks from 3 up to A, one card each (no 2, no joker; A is never low). ``HJ LJ`` is no
play (two jokers are a pair only when they are the same joker). A play beats the standing one
only when it is of the same kind and size and higher; there are no bombs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import HJ, LJ, card_str, check_card, check_copies
from .errors import EngineError, IllegalAction
from .variants import CLIMBING, Variant

SINGLE: Final = "single"
PAIR: Final = "pair"
TRIPLE: Final = "triple"
QUAD: Final = "quad"
SET: Final = "set"
STRAIGHT: Final = "straight"
INVALID: Final = "invalid"
KINDS: Final = (SINGLE, PAIR, TRIPLE, QUAD, SET, STRAIGHT)

# the climbing rank's printed name, by climbing rank
RANK_NAMES: Final[tuple[str, ...]] = (
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
    "A",
    "2",
    "LJ",
    "HJ",
)
ACE: Final = 11  # the highest rank a straight may reach
TWO: Final = 12
LOW_JOKER: Final = 13
HIGH_JOKER: Final = 14
RANK_COUNT: Final = 15
_OF_A_KIND: Final[tuple[str, ...]] = ("", SINGLE, PAIR, TRIPLE, QUAD, SET, SET, SET, SET)

# crank of every card number: suited cards are suit*13 + (2 … A as 0 … 12)
_CRANK: Final[tuple[int, ...]] = tuple((c % 13 - 1) % 13 for c in range(52)) + (
    LOW_JOKER,
    HIGH_JOKER,
)


def crank(card: int) -> int:
    """The climbing rank of ``card``: 0 for a 3 … 11 for an ace, 12 for a 2, 13 LJ, 14 HJ."""
    return _CRANK[check_card(card)]


def rank_name(card: int) -> str:
    """``"10"``, ``"2"``, ``"LJ"``…: the printed rank (a joker names itself)."""
    return RANK_NAMES[crank(card)]


def sort_key(card: int) -> tuple[int, int]:
    """Climbing order, then suit: a hand sorted by it reads 3 … A 2 LJ HJ."""
    return (_CRANK[check_card(card)], card)


class Shape:
    """What a set of cards is as a play: ``kind`` (``invalid`` when no play), ``size`` (how many
    cards) and ``top`` (the climbing rank compared: the rank of an n-of-a-kind, a straight's
    top card; -1 for an invalid play)."""

    __slots__ = ("kind", "size", "top")

    def __init__(self, kind: str, size: int, top: int) -> None:
        self.kind = kind
        self.size = size
        self.top = top

    @property
    def valid(self) -> bool:
        return self.kind != INVALID

    @property
    def length(self) -> int | None:
        """A straight's length; ``None`` for every other kind."""
        return self.size if self.kind == STRAIGHT else None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shape) and (self.kind, self.size, self.top) == (
            other.kind,
            other.size,
            other.top,
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.size, self.top))

    def __repr__(self) -> str:
        return f"Shape({self.kind!r}, {self.size}, {self.top})"


def _shape(cards: Sequence[int]) -> Shape:
    """The shape of checked card numbers (internal: no argument checks)."""
    n = len(cards)
    if n == 0:
        return Shape(INVALID, 0, -1)
    ranks = sorted([_CRANK[c] for c in cards])
    lo, hi = ranks[0], ranks[-1]
    if lo == hi:
        if n > 8:
            return Shape(INVALID, n, -1)
        return Shape(_OF_A_KIND[n], n, hi)
    if n >= 3 and hi <= ACE and hi - lo == n - 1:
        for i in range(1, n):
            if ranks[i] != ranks[i - 1] + 1:
                return Shape(INVALID, n, -1)
        return Shape(STRAIGHT, n, hi)
    return Shape(INVALID, n, -1)


def _checked(cards: object, what: str) -> list[int]:
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise EngineError("cards.named_list", what=what, got=repr(cards))
    return [check_card(c) for c in cards]


def classify(cards: Sequence[int]) -> Shape:
    """The shape of ``cards`` as a play (``kind`` ``invalid`` when they are none)."""
    cs = _checked(cards, "the cards")
    if not cs:
        raise EngineError("classify.empty")
    return _shape(cs)


def _beats(standing: Shape, play: Shape) -> bool:
    return (
        play.kind != INVALID
        and play.kind == standing.kind
        and play.size == standing.size
        and play.top > standing.top
    )


def beats(standing: Sequence[int], play: Sequence[int]) -> bool:
    """Does ``play`` beat the standing play ``standing``? (Same kind and size, higher.)"""
    st = classify(standing)
    if not st.valid:
        raise IllegalAction("climb.standing_invalid", cards=_names(standing))
    return _beats(st, classify(play))


def _names(cards: Sequence[int]) -> list[str]:
    return [card_str(c) for c in cards]


def refuses_tribute(hand: Sequence[int], decks: int) -> bool:
    """抗贡: the loser holds both jokers (one deck) or both high jokers (two decks)."""
    cs = _checked(hand, "the hand")
    if decks == 1:
        return HJ in cs and LJ in cs
    return cs.count(HJ) >= 2


def tribute_rank(hand: Sequence[int], decks: int) -> int | None:
    """The climbing rank the loser must give (his single highest card), or ``None`` for 抗贡."""
    cs = _checked(hand, "the hand")
    if not cs:
        raise EngineError("climb.hand_empty")
    if type(decks) is not int or decks not in (1, 2):
        raise EngineError("climb.decks", got=repr(decks))
    check_copies(cs, decks, "the hand")
    if refuses_tribute(cs, decks):
        return None
    return max(_CRANK[c] for c in cs)


def _check_climbing(variant: object) -> Variant:
    if not isinstance(variant, Variant) or variant.id != CLIMBING:
        raise EngineError("climb.variant", got=repr(variant))
    return variant


def place_points(variant: Variant) -> list[int]:
    """Points by place, first place first: the option, or n − 1 for the first out down to 0."""
    v = _check_climbing(variant)
    given = v.options.get("place_points")
    if given is None:
        return list(range(v.players - 1, -1, -1))
    return list(given)


def check_out_order(out_order: object, players: int) -> list[int]:
    """``out_order`` itself when it names every seat ``0 … players − 1`` once."""
    if type(players) is not int or not 3 <= players <= 6:
        raise EngineError("bots.players", got=repr(players))
    if not isinstance(out_order, list | tuple) or not all(type(s) is int for s in out_order):
        raise EngineError("climb.out_order", got=repr(out_order), last=players - 1)
    if sorted(out_order) != list(range(players)):
        raise EngineError("climb.out_order", got=repr(out_order), last=players - 1)
    return list(out_order)


def points_by_place(variant: Variant, out_order: Sequence[int]) -> list[int]:
    """Each seat's points for a deal whose players went out in ``out_order`` (the last is the
    loser), seat 0 first."""
    v = _check_climbing(variant)
    order = check_out_order(out_order, v.players)
    table = place_points(v)
    out = [0] * v.players
    for place, seat in enumerate(order):
        out[seat] = table[place]
    return out
