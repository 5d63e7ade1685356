"""The JSON form of a log entry, ``{"kind", "seat", "cards", …}``, read once for every family.

The trick variants' ``Record``, 争上游's records and 打百分's ``Act`` share it; each adds its own
keys (``played``, ``value``) after ``entry_fields`` has read the common ones, and then parses the
cards (so a bad extra key is reported before a bad card, as each family did before).
"""

from __future__ import annotations

from typing import Any

from .cards import parse_card
from .errors import EngineError


def entry_fields(d: Any, kinds: tuple[str, ...]) -> tuple[str, int, list[Any]]:
    """The kind, seat and card list (not yet parsed: ``parse_entry_cards``) of a log entry's JSON
    form, or ``EngineError``: not an object with ``kind`` and ``seat`` (``record.type``), a kind
    not in ``kinds`` (``record.kind``), a seat that is not a whole number (``record.seat``),
    cards that are not a list (``record.cards``)."""
    if not isinstance(d, dict) or "kind" not in d or "seat" not in d:
        raise EngineError("record.type", got=repr(d))
    kind = d["kind"]
    if kind not in kinds:
        raise EngineError("record.kind", got=repr(kind), kinds=", ".join(kinds))
    seat = d["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise EngineError("record.seat", got=repr(seat))
    cards = d.get("cards", [])
    if not isinstance(cards, list):
        raise EngineError("record.cards", got=repr(cards))
    return kind, seat, cards


def parse_entry_cards(cards: list[Any]) -> tuple[int, ...]:
    """The cards of a log entry (``card.*`` at the first that is not one)."""
    return tuple(parse_card(c) for c in cards)
