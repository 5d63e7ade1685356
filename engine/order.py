"""Trump membership, effective suits, strength order and tractor adjacency for one deal.

A ``TrumpContext`` is built once per deal (variant, level rank, trump suit or ``None``) and holds
per-card tables as tuples indexed by the card int, so the hot rules code only does tuple lookups.

Every effective suit (the four side suits and the trump suit, index ``4``) is laid out as a list
of *positions* from weakest to strongest. Cards of equal strength share a position (the off-suit
level cards; in red five the off-suit 2s). Two positions next to each other are *consecutive* in
the sense of RULES.md §1 (promoted cards removed, the trump chain continuing above A), so a
tractor is a run of adjacent positions, one card identity per position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, NoReturn

from .cards import HJ, LJ, RANKS, SUITS
from .errors import CardError, EngineError, OptionError
from .variants import RED_FIVE, Variant

TRUMP: Final = 4  # effective-suit index of the trump suit
EFF_SUITS: Final[tuple[str, ...]] = ("S", "H", "D", "C", "T")
TRUMP_BASE: Final = 100  # strength of the weakest trump; side cards are 0..12
_COLOUR_PARTNER: Final = {0: 3, 3: 0, 1: 2, 2: 1}  # S<->C, H<->D
RED_FIVE_CARD: Final = 1 * 13 + 3  # 5H


def _card(suit: int, rank: int) -> int:
    return suit * 13 + rank


def _not_a_card(card: object) -> NoReturn:
    raise CardError("card.not_a_number", got=repr(card))


@dataclass(frozen=True, slots=True, eq=False)
class TrumpContext:
    """Per-deal card tables: ``TrumpContext(variant, level, trump)``; immutable."""

    variant: Variant
    level: str
    trump: str | None
    level_rank: int = field(init=False)
    trump_index: int | None = field(init=False)
    trump_tab: tuple[bool, ...] = field(init=False)
    suit_tab: tuple[int, ...] = field(init=False)  # effective suit index, 4 = trump
    pos_tab: tuple[int, ...] = field(init=False)  # position in the effective suit's chain
    strength_tab: tuple[int, ...] = field(init=False)
    positions: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False)
    max_width: int = field(init=False)  # widest unit: the number of decks, at most 4
    triple_tractors: bool = field(init=False)  # tractors of triples (and quads) allowed
    handled: bool = field(init=False)  # red five's handled tractors allowed

    def __post_init__(self) -> None:
        variant, level, trump = self.variant, self.level, self.trump
        if not isinstance(variant, Variant):
            raise OptionError("ctx.variant", got=repr(variant))
        if not isinstance(level, str) or level not in RANKS:
            raise OptionError("ctx.level", got=repr(level), levels=" ".join(RANKS))
        if trump is not None and (not isinstance(trump, str) or trump not in SUITS):
            raise OptionError("ctx.trump", got=repr(trump))
        red_five = variant.id == RED_FIVE
        if red_five and level != "2":
            raise OptionError("ctx.red_five_level", level=level)
        if red_five and trump is None:
            raise OptionError("ctx.red_five_trump")
        lr = RANKS.index(level)
        ti = SUITS.index(trump) if trump is not None else None
        object.__setattr__(self, "level_rank", lr)
        object.__setattr__(self, "trump_index", ti)

        # positions[s] = list of tuples of cards, weakest first
        positions: list[list[tuple[int, ...]]] = [[] for _ in range(5)]
        if red_five:
            assert ti is not None
            partner = _COLOUR_PARTNER[ti]
            promoted = {RED_FIVE_CARD, _card(ti, 1), _card(partner, 1)}
            promoted.update(_card(s, 0) for s in range(4))  # every 2 is a level card
            for s in range(4):
                target = positions[TRUMP] if s == ti else positions[s]
                for r in range(13):
                    c = _card(s, r)
                    if c not in promoted:
                        target.append((c,))
            t = positions[TRUMP]
            t.append(tuple(_card(s, 0) for s in range(4) if s != ti))  # other 2s, equal
            t.append((_card(ti, 0),))  # 2 of T
            t.append((_card(partner, 1),))  # 副参谋
            t.append((_card(ti, 1),))  # 正参谋
            t.append((LJ,))
            t.append((HJ,))
            t.append((RED_FIVE_CARD,))
        else:
            for s in range(4):
                target = positions[TRUMP] if s == ti else positions[s]
                for r in range(13):
                    if r != lr:
                        target.append((_card(s, r),))
            t = positions[TRUMP]
            if ti is not None:
                t.append(tuple(_card(s, lr) for s in range(4) if s != ti))
                t.append((_card(ti, lr),))
            else:
                t.append(tuple(_card(s, lr) for s in range(4)))
            t.append((LJ,))
            t.append((HJ,))

        suit_tab = [0] * 54
        pos_tab = [0] * 54
        strength_tab = [0] * 54
        trump_tab = [False] * 54
        for s in range(5):
            for p, cards in enumerate(positions[s]):
                for c in cards:
                    suit_tab[c] = s
                    pos_tab[c] = p
                    strength_tab[c] = p + (TRUMP_BASE if s == TRUMP else 0)
                    trump_tab[c] = s == TRUMP
        assert sum(len(cs) for ps in positions for cs in ps) == 54
        object.__setattr__(self, "suit_tab", tuple(suit_tab))
        object.__setattr__(self, "pos_tab", tuple(pos_tab))
        object.__setattr__(self, "strength_tab", tuple(strength_tab))
        object.__setattr__(self, "trump_tab", tuple(trump_tab))
        object.__setattr__(self, "positions", tuple(tuple(ps) for ps in positions))
        tt = bool(variant.options.get("triple_tractors", True))
        object.__setattr__(self, "triple_tractors", tt and variant.decks >= 3)
        object.__setattr__(self, "max_width", min(variant.decks, 4))
        object.__setattr__(self, "handled", red_five and tt)

    def __repr__(self) -> str:
        return f"TrumpContext({self.variant.id!r}, level={self.level!r}, trump={self.trump!r})"

    # -- per-card queries -------------------------------------------------------------------
    def is_trump(self, card: int) -> bool:
        if type(card) is not int or not 0 <= card < 54:
            _not_a_card(card)
        return self.trump_tab[card]

    def eff_suit(self, card: int) -> str:
        """``"S" "H" "D" "C"`` for a side card, ``"T"`` for any trump."""
        if type(card) is not int or not 0 <= card < 54:
            _not_a_card(card)
        return EFF_SUITS[self.suit_tab[card]]

    def suit_index(self, card: int) -> int:
        """``0..3`` for the side suits S H D C, ``4`` (``TRUMP``) for trumps."""
        if type(card) is not int or not 0 <= card < 54:
            _not_a_card(card)
        return self.suit_tab[card]

    def strength(self, card: int) -> int:
        """Higher is stronger; every trump beats every side card; equal cards tie.

        Side cards of different suits never beat each other: compare only within a suit or
        against trumps."""
        if type(card) is not int or not 0 <= card < 54:
            _not_a_card(card)
        return self.strength_tab[card]

    def chain_pos(self, card: int) -> int:
        """Position of the card in its effective suit's consecutive chain (0 = weakest)."""
        if type(card) is not int or not 0 <= card < 54:
            _not_a_card(card)
        return self.pos_tab[card]

    def adjacent(self, low: int, high: int) -> bool:
        """True when ``high`` is the next position above ``low`` in the same effective suit."""
        for card in (low, high):
            if type(card) is not int or not 0 <= card < 54:
                _not_a_card(card)
        return (
            self.suit_tab[low] == self.suit_tab[high]
            and self.pos_tab[high] == self.pos_tab[low] + 1
        )

    def cards_at(self, suit_index: int, pos: int) -> tuple[int, ...]:
        """The cards at chain position ``pos`` of effective suit ``suit_index`` (4: trumps)."""
        if type(suit_index) is not int or not 0 <= suit_index < len(self.positions):
            raise EngineError("suit.index", got=repr(suit_index), trump=TRUMP)
        chain = self.positions[suit_index]
        if type(pos) is not int or not 0 <= pos < len(chain):
            raise EngineError("chain.position", got=repr(pos), last=len(chain) - 1)
        return chain[pos]
