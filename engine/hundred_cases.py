"""Rule cases of the 打百分 family (FORMAT.md, "The games of seed 001"): ``classify``, ``trick``,
``follow``, ``throw`` (never fails here), ``auction`` and ``deal_result`` for ``hundred-4p``, ``forty-4p`` and ``hundred-3p``.
``engine.conformance`` hands these variants' cases here."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from . import hundred_rules as hr
from .cards import card_str, parse_cards
from .errors import EngineError

Answer = dict[str, Any]

_CARD_TEXT = re.compile(r"(?:10|[2-9JQKA])[SHDC]|HJ|LJ")


class HundredCaseError(EngineError):
    """A case of the family that cannot be answered as written."""


class _NoTrump(HundredCaseError):
    """The case has no ``trump``: answer only if every suit gives the same answer."""


def _field(case: dict[str, Any], name: str) -> Any:
    if name not in case:
        raise HundredCaseError("case.no_field", field=repr(name))
    return case[name]


def _cards(case: dict[str, Any], name: str) -> list[int]:
    value = _field(case, name)
    try:
        if isinstance(value, list):
            for t in value:
                if isinstance(t, str) and not _CARD_TEXT.fullmatch(t):
                    raise HundredCaseError("case.card", text=repr(t))
        return parse_cards(value)
    except EngineError as e:
        raise HundredCaseError("case.field_error", field=name, cause=e.as_dict()) from None


def _trump(case: dict[str, Any]) -> int:
    if "trump" not in case:
        raise _NoTrump("case.no_field", field=repr("trump"))
    return hr.check_trump(case["trump"])


def _variant(case: dict[str, Any]) -> hr.HundredVariant:
    options = case.get("options")
    if options is not None and not isinstance(options, dict):
        raise HundredCaseError("options.type", got=repr(options))
    vid = case["variant"]
    own = hr.family_option_names(vid)
    kept: dict[str, Any] = {}
    for name, value in (options or {}).items():
        if name in own:
            kept[name] = value
        elif name == "stakes" and vid == hr.FORTY_4P and value in ("bid", "flat"):
            continue  # 40分下台 has no bid: its units are 1 whatever the stakes
        else:
            kept[name] = value  # make_hundred_variant names the problem
    return hr.make_hundred_variant(vid, kept)


def q_classify(case: dict[str, Any], variant: hr.HundredVariant) -> Answer:
    trump = _trump(case)
    cards = _cards(case, "cards")
    if not cards:
        raise HundredCaseError("case.cards_empty")
    hr.check_unique(cards, "the cards")
    sh = hr.shape(cards, trump)
    return {"suit": sh.suit, "combo": sh.combo}


def q_trick(case: dict[str, Any], variant: hr.HundredVariant) -> Answer:
    trump = _trump(case)
    raw = _field(case, "plays")
    if not isinstance(raw, list) or not all(isinstance(p, list) for p in raw):
        raise HundredCaseError("case.card_lists", field="plays")
    plays = []
    for i, p in enumerate(raw):
        try:
            plays.append(_cards({"play": p}, "play"))
        except EngineError as e:
            raise HundredCaseError(
                "case.item_error", field="plays", index=i, cause=e.as_dict()
            ) from None
    if not plays:
        raise HundredCaseError("case.plays_empty")
    if len(plays) > 4:  # 3人百分: three players and the dummy
        raise HundredCaseError("case.plays_count", variant=variant.id, players=4, got=len(plays))
    hr.check_trick(plays, trump)
    return {"winner": hr.winner(plays, trump)}


def q_follow(case: dict[str, Any], variant: hr.HundredVariant) -> Answer:
    trump = _trump(case)
    lead = _cards(case, "lead")
    hand = _cards(case, "hand")
    play = _cards(case, "play")
    if not lead:
        raise HundredCaseError("case.lead_empty")
    hr.check_unique(lead + hand, "the lead and the hand")
    hr.check_unique(play, "the play")
    if len(play) != len(lead):
        raise HundredCaseError("case.follow_count", lead=len(lead), play=len(play))
    held = set(hand)
    for c in play:
        if c not in held:
            raise HundredCaseError("case.follow_hand", n=1, card=card_str(c), held=0)
    reason = hr.lead_reason(lead, trump)
    if reason is not None:
        raise HundredCaseError.because(reason)
    return {"legal": hr.follow_reason(lead, hand, play, trump) is None}


def q_throw(case: dict[str, Any], variant: hr.HundredVariant) -> Answer:
    """§2: a vertical (or horizontal) throw never fails in this family: always ``ok``."""
    trump = _trump(case)
    cards = _cards(case, "cards")
    raw = _field(case, "others")
    if not isinstance(raw, list) or not all(isinstance(p, list) for p in raw):
        raise HundredCaseError("case.card_lists", field="others")
    if len(raw) > 3:
        raise HundredCaseError("case.others_count", variant=variant.id, others=3)
    others = [c for i, p in enumerate(raw) for c in _cards({f"others[{i}]": p}, f"others[{i}]")]
    if not cards:
        raise HundredCaseError("case.throw_empty")
    hr.check_unique(cards + others, "the throw and the other hands")
    reason = hr.lead_reason(cards, trump)
    if reason is not None:
        raise HundredCaseError.because(reason)
    return {"ok": True}


def q_auction(case: dict[str, Any], variant: hr.HundredVariant) -> Answer:
    if not variant.bidding:
        raise HundredCaseError("hundred.no_bid", variant=variant.id)
    first = _field(case, "first")
    variant.check_seat(first)
    raw = _field(case, "bids")
    if not isinstance(raw, list):
        raise HundredCaseError("case.bids")
    auction = hr.Auction(variant.players, first)
    accepted: list[bool] = []
    for i, item in enumerate(raw, 1):
        if not isinstance(item, dict) or "seat" not in item or "bid" not in item:
            raise HundredCaseError("case.bid_item", index=i)
        seat, bid = item["seat"], item["bid"]
        if type(seat) is not int:
            raise HundredCaseError("case.bid_seat", index=i, got=repr(seat))
        if bid is not None and type(bid) is not int:
            raise HundredCaseError("case.bid_value", index=i, got=repr(bid))
        ok = auction.why_not(seat, bid) is None
        if ok:
            auction.act(seat, bid)
        accepted.append(ok)
    return {"accepted": accepted, "declarer": auction.declarer, "bid": auction.bid}


def q_deal_result(case: dict[str, Any], variant: hr.HundredVariant) -> Answer:
    kitty = None
    if case.get("kitty") is not None:
        kitty = _cards(case, "kitty")
    result = hr.deal_outcome(
        variant,
        bid=case.get("bid"),
        points=case.get("points"),
        kitty=kitty,
        last_won_by=case.get("last_won_by"),
        declarer=case.get("declarer"),
        friend=case.get("friend"),
        penalties=case.get("penalties"),
        strict=False,
    )
    out: Answer = {
        "total": result.total,
        "winner": result.winner,
        "units": result.units,
        "ended_by": result.ended_by,
    }
    if result.scores is not None:
        out["scores"] = list(result.scores)
    return out


QUERIES: dict[str, Callable[[dict[str, Any], hr.HundredVariant], Answer]] = {
    "classify": q_classify,
    "trick": q_trick,
    "follow": q_follow,
    "throw": q_throw,
    "auction": q_auction,
    "deal_result": q_deal_result,
}


def answer_hundred(case: dict[str, Any]) -> Answer:
    """The answer fields of one case of the family (raises ``EngineError`` for a bad case)."""
    query = _field(case, "query")
    handler = QUERIES.get(query) if isinstance(query, str) else None
    if handler is None:
        raise HundredCaseError("case.query", got=repr(query), queries=", ".join(QUERIES))
    variant = _variant(case)
    try:
        return handler(case, variant)
    except _NoTrump as missing:
        answers: list[str] = []
        first: Answer | None = None
        first_error: EngineError | None = None
        for suit in ("S", "H", "D", "C"):
            try:
                got = handler({**case, "trump": suit}, variant)
                error: EngineError | None = None
            except EngineError as e:
                got, error = {"error": str(e)}, e
            key = json.dumps(got, sort_keys=True)
            if key not in answers:
                answers.append(key)
                first, first_error = got, error
        if len(answers) > 1:
            raise HundredCaseError("case.depends", cause=missing.as_dict()) from None
        assert first is not None
        if first_error is not None:
            raise HundredCaseError.because(first_error) from None
        return first
