"""Cards as small integers, their text notation, points and multi-deck packs.

A card is an ``int`` in ``0..53``: ``suit * 13 + rank`` for the 52 suited cards (suits in the
order ``S H D C``, ranks ``2 … A`` as ``0 … 12``), ``52`` for the low joker ``LJ`` and ``53`` for
the high joker ``HJ``. Copies of a card in a multi-deck pack are the same integer: a hand is a
multiset (a list or a ``Counter``), never a set.

Text notation (RULES.md §1): rank then suit, ``"10H"``, ``"QS"``, ``"2C"``; ``"HJ"``/``"LJ"``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Final

from .errors import CardError

SUITS: Final[tuple[str, ...]] = ("S", "H", "D", "C")
RANKS: Final[tuple[str, ...]] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RED_SUITS: Final = frozenset({"H", "D"})
LJ: Final = 52
HJ: Final = 53
CARDS_PER_DECK: Final = 54
POINTS_PER_DECK: Final = 100

_RANK_INDEX: Final = {r: i for i, r in enumerate(RANKS)}
_SUIT_INDEX: Final = {s: i for i, s in enumerate(SUITS)}
# Accept a few common spellings of ten and lower-case input; output is always canonical.
_RANK_ALIASES: Final = {"T": "10", "1": "A"}


def check_card(card: object) -> int:
    """``card`` itself if it is a card number ``0..53``; raise ``CardError`` otherwise."""
    if type(card) is not int or not 0 <= card < CARDS_PER_DECK:
        raise CardError("card.not_a_card", got=repr(card))
    return card


def make_card(rank: str, suit: str) -> int:
    """The card of ``rank`` (``"2"`` … ``"A"``) and ``suit`` (``"S" "H" "D" "C"``)."""
    if not isinstance(rank, str) or not isinstance(suit, str):
        raise CardError("card.rank_suit_type", got_rank=repr(rank), got_suit=repr(suit))
    try:
        return _SUIT_INDEX[suit] * 13 + _RANK_INDEX[rank]
    except KeyError:
        raise CardError("card.no_such", got_rank=repr(rank), got_suit=repr(suit)) from None


def parse_card(text: object) -> int:
    """Parse ``"10H"``, ``"QS"``, ``"HJ"``… into a card; raise ``CardError`` on anything else."""
    if not isinstance(text, str):
        raise CardError("card.text_type", got=repr(text))
    t = text.strip().upper()
    if t in ("HJ", "BJ", "RJ"):
        return HJ
    if t in ("LJ", "SJ"):
        return LJ
    if len(t) < 2:
        raise CardError("card.unknown", text=repr(text))
    rank, suit = t[:-1], t[-1]
    rank = _RANK_ALIASES.get(rank, rank)
    if rank not in _RANK_INDEX or suit not in _SUIT_INDEX:
        raise CardError("card.unknown", text=repr(text))
    return _SUIT_INDEX[suit] * 13 + _RANK_INDEX[rank]


def parse_cards(texts: object) -> list[int]:
    """Parse a list of card strings; raise ``CardError`` naming the first bad one."""
    if isinstance(texts, str) or not isinstance(texts, (list, tuple)):
        raise CardError("cards.list_type_text", got=repr(texts))
    return [parse_card(t) for t in texts]


def card_str(card: int) -> str:
    check_card(card)
    if card == HJ:
        return "HJ"
    if card == LJ:
        return "LJ"
    return RANKS[card % 13] + SUITS[card // 13]


def _iter_cards(cards: object) -> list[int]:
    t = type(cards)
    if t is list or t is tuple:  # the usual case, without the slower ABC check
        return [check_card(c) for c in cards]  # type: ignore[attr-defined]
    if isinstance(cards, str | bytes | dict) or not isinstance(cards, Iterable):
        raise CardError("cards.list_type", got=repr(cards))
    return [check_card(c) for c in cards]


def cards_str(cards: Iterable[int]) -> list[str]:
    return [card_str(c) for c in _iter_cards(cards)]


def is_joker(card: int) -> bool:
    return check_card(card) >= LJ


def suit_of(card: int) -> str | None:
    """The printed suit of a card, ``None`` for a joker (trump membership is not decided here)."""
    return None if check_card(card) >= LJ else SUITS[card // 13]


def rank_of(card: int) -> str | None:
    """The printed rank of a card, ``None`` for a joker."""
    return None if check_card(card) >= LJ else RANKS[card % 13]


def rank_index(card: int) -> int:
    """``0`` for a 2 … ``12`` for an ace; jokers have none (raises)."""
    if check_card(card) >= LJ:
        raise CardError("card.joker_rank")
    return card % 13


def card_points(card: int) -> int:
    """5 → 5, 10 → 10, K → 10, every other card 0 (RULES.md §1)."""
    if type(card) is not int or not 0 <= card < CARDS_PER_DECK:
        check_card(card)  # raises
    if card >= LJ:
        return 0
    r = card % 13
    if r == 3:  # a 5
        return 5
    if r in (8, 11):  # a 10 or a king
        return 10
    return 0


_POINTS = tuple(5 if r == 3 else 10 if r in (8, 11) else 0 for _ in range(4) for r in range(13))
_POINTS += (0, 0)  # the jokers


def points_of(cards: Iterable[int]) -> int:
    return sum(_POINTS[c] for c in _iter_cards(cards))


def full_pack(decks: int) -> list[int]:
    """Every card of ``decks`` decks, in a fixed order (shuffle it with a seeded ``Random``)."""
    if type(decks) is not int or not 1 <= decks <= 8:
        raise CardError("pack.decks", got=repr(decks))
    return [c for c in range(CARDS_PER_DECK) for _ in range(decks)]


def check_copies(cards: Iterable[int], decks: int, what: str = "these cards") -> None:
    """Raise ``CardError`` if ``cards`` hold more copies of a card than ``decks`` decks have."""
    if type(decks) is not int or decks < 1:
        raise CardError("decks.count", got=repr(decks))
    for card, n in Counter(_iter_cards(cards)).items():
        if n > decks:
            raise CardError("cards.copies", what=what, n=n, card=card_str(card), decks=decks)
