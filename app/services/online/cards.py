"""How cards show on a page: a card's face (大王/小王, or rank and suit symbol, red suits red),
cards in the deal's order (trumps grouped once trump is known) and a hand in suit groups."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import HJ, LJ, card_str, parse_card
from engine.climbing import sort_key as climbing_order
from engine.climbing_deal import ClimbingDeal
from engine.deal import Deal
from engine.errors import EngineError
from engine.hundred import HundredDeal
from engine.order import TrumpContext
from engine.variants import RED_FIVE

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_face(card: int) -> dict[str, Any]:
    """How a card shows: 大王/小王, or rank and suit symbol; red suits red."""
    text = card_str(card)
    if card == HJ:
        return {"code": text, "label": "大王", "rank": "大", "pip": "王", "red": True}
    if card == LJ:
        return {"code": text, "label": "小王", "rank": "小", "pip": "王", "red": False}
    suit = text[-1]
    pip = SUIT_SYMBOLS[suit]
    return {
        "code": text,
        "label": text[:-1] + pip,
        "rank": text[:-1],
        "pip": pip,
        "red": suit in ("H", "D"),
    }


def face_of(code: str) -> dict[str, Any]:
    """The face of a card given by its code (``"10H"``)."""
    return card_face(parse_card(code))


def sorted_cards(deal: Deal | ClimbingDeal | HundredDeal, cards: list[int]) -> list[int]:
    """Cards in the deal's order: a trick game's (trumps last once known), 争上游's ranks (3 …
    A 2 小王 大王)."""
    if isinstance(deal, ClimbingDeal):
        return sorted(cards, key=climbing_order)
    if isinstance(deal, HundredDeal):  # 打百分: by suit, trumps last once named
        from .hundred_game import order_key

        return sorted(cards, key=order_key(deal))
    ctx = deal.ctx
    if ctx is None:
        return sorted(cards, key=lambda c: (c >= LJ, c // 13, c % 13, c))
    return sorted(cards, key=lambda c: (ctx.suit_index(c), ctx.strength(c), c))


def faces(deal: Deal | ClimbingDeal | HundredDeal, cards: Sequence[str]) -> list[dict[str, Any]]:
    """Card codes as faces, in the deal's order (trumps grouped once trump is known)."""
    return [card_face(c) for c in sorted_cards(deal, [parse_card(x) for x in cards])]


def faces_of(deal: Deal | ClimbingDeal | HundredDeal, cards: Sequence[int]) -> list[dict[str, Any]]:
    """Cards as faces, in the deal's order."""
    return [card_face(c) for c in sorted_cards(deal, list(cards))]


def grouping(deal: Deal, seat: int | None) -> TrumpContext | None:
    """The deal's trump context, or before trump is known the one its level gives (jokers and
    level cards grouped as trumps while the cards are dealt)."""
    if deal.ctx is not None:
        return deal.ctx
    v = deal.variant
    level = deal.level
    if level is None:
        level = "2" if v.id == RED_FIVE or seat is None else deal.levels[seat % 2]
    try:
        return TrumpContext(v, level, deal.trump if deal.trump_set else None)
    except EngineError:
        return None  # red five has no "no trump": its trumps wait for the 2 that is shown


GROUP_ORDER = (4, 0, 1, 3, 2)  # trumps, then ♠ ♥ ♣ ♦: the colours alternate


def hand_groups(deal: Deal, seat: int) -> list[dict[str, Any]]:
    """A seat's hand in groups: trumps first (strongest first), then each side suit."""
    ctx = grouping(deal, seat)
    groups: dict[int, list[int]] = {}
    for c in deal.hands[seat]:
        key = ctx.suit_index(c) if ctx is not None else 4 if c >= LJ else c // 13
        groups.setdefault(key, []).append(c)
    out = []
    for key in GROUP_ORDER:
        cards = groups.get(key)
        if not cards:
            continue
        if ctx is not None:
            cards.sort(key=lambda c: (-ctx.strength(c), c))
        else:
            cards.sort(reverse=True)
        suit = None if key == 4 else "SHDC"[key]
        out.append(
            {
                "trump": key == 4,
                "suit": suit,
                "symbol": "" if suit is None else SUIT_SYMBOLS[suit],
                "red": suit in ("H", "D"),
                "cards": [card_face(c) for c in cards],
            }
        )
    return out
