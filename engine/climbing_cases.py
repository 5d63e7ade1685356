"""The rule-case queries of 争上游 (``variant: "climbing"``; FORMAT.md, "The games of seed 001"):
``classify``, ``beats``, ``deal_result`` and ``tribute``. ``engine.conformance`` hands every
climbing case to ``answer_climbing``; the answer fields are FORMAT.md's.
"""

from __future__ import annotations

from typing import Any

from . import climbing as rules
from .cards import check_copies
from .conformance import CaseError, _cards, _field
from .variants import CLIMBING, Variant, make_variant

Answer = dict[str, Any]

QUERIES = ("classify", "beats", "deal_result", "tribute")


def _variant(case: dict[str, Any], players: int | None = None) -> Variant:
    options = case.get("options")
    if options is not None and not isinstance(options, dict):
        raise CaseError("options.type", got=repr(options))
    options = dict(options or {})
    if players is not None and "players" not in options:
        options["players"] = players
    return make_variant(CLIMBING, options)


def _some_cards(case: dict[str, Any], name: str) -> list[int]:
    cards = _cards(case, name)
    if not cards:
        raise CaseError("case.climb_empty", field=name)
    return cards


def _classify(case: dict[str, Any]) -> Answer:
    v = _variant(case)
    cards = _some_cards(case, "cards")
    check_copies(cards, v.decks, "the cards")
    shape = rules.classify(cards)
    out: Answer = {"combo": shape.kind}
    if shape.kind == rules.STRAIGHT:
        out["length"] = shape.size
    return out


def _beats(case: dict[str, Any]) -> Answer:
    v = _variant(case)
    standing = _some_cards(case, "standing")
    play = _some_cards(case, "play")
    check_copies(standing + play, v.decks, "the standing play and the play")
    if not rules.classify(standing).valid:
        raise CaseError("case.climb_standing")
    return {"legal": rules.beats(standing, play)}


def _deal_result(case: dict[str, Any]) -> Answer:
    order = _field(case, "out_order")
    players = None
    if isinstance(order, list) and 3 <= len(order) <= 6:
        players = len(order)  # the table's size is the number of seats named
    v = _variant(case, players)
    return {"points": rules.points_by_place(v, order)}


def _tribute(case: dict[str, Any]) -> Answer:
    v = _variant(case)
    hand = _some_cards(case, "hand")
    rank = rules.tribute_rank(hand, v.decks)
    return {"card": None if rank is None else rules.RANK_NAMES[rank]}


def answer_climbing(case: dict[str, Any]) -> Answer:
    """The answer fields of one climbing case (raises an ``EngineError`` for a case that
    cannot be answered; ``engine.conformance.answer`` turns it into ``error``)."""
    if not isinstance(case, dict):
        raise CaseError("case.type", got=repr(case))
    query = _field(case, "query")
    if query == "classify":
        return _classify(case)
    if query == "beats":
        return _beats(case)
    if query == "deal_result":
        return _deal_result(case)
    if query == "tribute":
        return _tribute(case)
    raise CaseError("case.query", got=repr(query), queries=", ".join(QUERIES))
