"""Answer rule cases: ``python -m engine.conformance FILE.jsonl`` (or ``-`` for standard input).

One JSON object per input line in, one out, in order: the case's ``id`` plus the answer fields
of its query (``../shared/conformance/FORMAT.md``), or ``{"id": …, "error": "a sentence"}`` for a
case the engine cannot answer. Exit status 0 when every line was answered, 2 when the input is
not JSON lines (nothing is answered then).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from . import calls as calls_mod
from . import jsonlines, scoring
from .cards import RANKS, card_str, check_copies, parse_cards, points_of
from .combos import HANDLED, TRACTOR, classify, largest_component_cards
from .errors import EngineError, OptionError
from .hundred_cases import answer_hundred
from .hundred_rules import is_family
from .order import TrumpContext
from .play import can_follow, check_throw, lead_components_checked, trick_winner
from .variants import (
    CLIMBING,
    ONE_TWENTY,
    RED_FIVE,
    VARIANT_IDS,
    Variant,
    make_variant,
    option_names,
    option_spec,
)
from .variants import TRACTOR as TRACTOR_ID

Answer = dict[str, Any]


class CaseError(EngineError):
    """A case that cannot be answered as written."""


class MissingContext(CaseError):
    """The case has no ``trump`` or ``level`` field; the answer may not depend on it."""


def _check_case(case: object, variant: object) -> None:
    if not isinstance(case, dict):
        raise CaseError("case.type", got=repr(case))
    if not isinstance(variant, Variant):
        raise CaseError("case.variant_type", got=repr(variant))


def _field(case: dict[str, Any], name: str) -> Any:
    if name not in case:
        raise CaseError("case.no_field", field=repr(name))
    return case[name]


# FORMAT.md's notation only: rank then suit, upper case, or HJ / LJ. The library's parser also
# takes aliases ("1H", "TH", "BJ", lower case) for people typing; a rule case with one of those
# is an unknown card.
_CARD_TEXT = re.compile(r"(?:10|[2-9JQKA])[SHDC]|HJ|LJ")


def _parse(value: object) -> list[int]:
    if isinstance(value, list):
        for t in value:
            if isinstance(t, str) and not _CARD_TEXT.fullmatch(t):
                raise CaseError("case.card", text=repr(t))
    return parse_cards(value)


def _cards(case: dict[str, Any], name: str) -> list[int]:
    value = _field(case, name)
    try:
        return _parse(value)
    except EngineError as e:
        raise CaseError("case.field_error", field=name, cause=e.as_dict()) from None


def _card_lists(case: dict[str, Any], name: str) -> list[list[int]]:
    value = _field(case, name)
    if not isinstance(value, list) or not all(isinstance(v, list) for v in value):
        raise CaseError("case.card_lists", field=name)
    out = []
    for i, v in enumerate(value):
        try:
            out.append(_parse(v))
        except EngineError as e:
            raise CaseError("case.item_error", field=name, index=i, cause=e.as_dict()) from None
    return out


def _variant(case: dict[str, Any]) -> Variant:
    vid = _field(case, "variant")
    if not isinstance(vid, str):
        raise CaseError("case.variant", got=repr(vid))
    options = case.get("options")
    if options is not None and not isinstance(options, dict):
        raise CaseError("options.type", got=repr(options))
    if options and vid in VARIANT_IDS:
        options = _own_options(vid, options)
    return make_variant(vid, options)


def _own_options(vid: str, options: dict[str, Any]) -> dict[str, Any]:
    """Drop RULES.md options that the variant does not have and that could not change any
    answer (``throw_penalty`` outside tractor-4p, ``must_play_levels`` in red five, the calling
    and redeal options…); a deck count other than the variant's is still an error."""
    own = option_names(vid)
    kept: dict[str, Any] = {}
    for name, value in options.items():
        if name in own or not isinstance(name, str):
            kept[name] = value
            continue
        try:
            option_spec(name)
        except OptionError:
            kept[name] = value  # not an option of any variant: make_variant names the problem
            continue
        if name == "decks" and value != 3:
            raise CaseError("case.decks", variant=vid, got=repr(value))
    return kept


def _level(case: dict[str, Any]) -> str:
    if "level" not in case:
        raise MissingContext("case.no_field", field=repr("level"))
    level = case["level"]
    if not isinstance(level, str):
        raise CaseError("case.level", got=repr(level))
    return level


def _context(case: dict[str, Any], variant: Variant) -> TrumpContext:
    if "trump" not in case:
        raise MissingContext("case.no_field", field=repr("trump"))
    trump = case["trump"]
    if trump is not None and not isinstance(trump, str):
        raise CaseError("case.trump", got=repr(trump))
    return TrumpContext(variant, _level(case), trump)


def _copies(cards: Sequence[int], variant: Variant, what: str) -> None:
    check_copies(cards, variant.decks, what)


# --- the queries --------------------------------------------------------------------------------


def q_classify(case: dict[str, Any], variant: Variant) -> Answer:
    _check_case(case, variant)
    ctx = _context(case, variant)
    cards = _cards(case, "cards")
    if not cards:
        raise CaseError("case.cards_empty")
    _copies(cards, variant, "the cards")
    r = classify(cards, ctx)
    out: Answer = {"suit": r.suit, "combo": r.combo}
    if r.combo == TRACTOR:
        out["width"] = r.width
        out["length"] = r.length
    elif r.combo == HANDLED:
        out["length"] = r.length
    return out


def q_trick(case: dict[str, Any], variant: Variant) -> Answer:
    _check_case(case, variant)
    ctx = _context(case, variant)
    plays = _card_lists(case, "plays")
    if not plays:
        raise CaseError("case.plays_empty")
    if len(plays) > variant.players:
        raise CaseError(
            "case.plays_count", variant=variant.id, players=variant.players, got=len(plays)
        )
    if not plays[0]:
        raise CaseError("case.lead_empty")
    return {"winner": trick_winner(plays, ctx)}


def q_follow(case: dict[str, Any], variant: Variant) -> Answer:
    _check_case(case, variant)
    ctx = _context(case, variant)
    lead = _cards(case, "lead")
    hand = _cards(case, "hand")
    play = _cards(case, "play")
    if not lead:
        raise CaseError("case.lead_empty")
    _copies(lead + hand, variant, "the lead and the hand")
    if len(play) != len(lead):
        raise CaseError("case.follow_count", lead=len(lead), play=len(play))
    have = Counter(hand)
    for c, k in Counter(play).items():
        if have[c] < k:
            raise CaseError("case.follow_hand", n=k, card=card_str(c), held=have[c])
    lead_components_checked(lead, ctx)
    return {"legal": can_follow(lead, hand, play, ctx)}


def q_throw(case: dict[str, Any], variant: Variant) -> Answer:
    _check_case(case, variant)
    ctx = _context(case, variant)
    cards = _cards(case, "cards")
    others = _card_lists(case, "others")
    if not cards:
        raise CaseError("case.throw_empty")
    if len(others) > variant.players - 1:
        raise CaseError("case.others_count", variant=variant.id, others=variant.players - 1)
    r = check_throw(cards, others, ctx)
    out: Answer = {"ok": r.ok}
    if not r.ok:
        assert r.forced is not None
        out["forced"] = [card_str(c) for c in r.forced]
    return out


def q_deal_result(case: dict[str, Any], variant: Variant) -> Answer:
    _check_case(case, variant)
    if variant.id == RED_FIVE:
        return _red_five_deal_result(case, variant)
    # fixed sides: competition penalties first (RULES §7): a deal ended by one needs no numbers
    pens = scoring.check_penalties(variant, case.get("penalties"))
    ending = scoring.ending_penalty(variant, pens)
    before = _levels_before(case)
    failed = case.get("failed_throws")
    misplays: list[int] = []  # 120分: the sides (0 declarer, 1 attackers) of the misplays
    if variant.id == TRACTOR_ID:
        mode = variant.options["throw_penalty"]
        scoring.tractor_throw_lists(failed, per_card=mode == "ten_per_card")
    elif before is not None and failed is not None:
        dec, att = scoring.tractor_throw_lists(failed)
        misplays = [0] * len(dec) + [1] * len(att)
    total: int | None
    if ending is not None:
        total = None
        winner, levels = scoring.penalty_outcome(ending)
    else:
        total = _table_total(case, variant)
        if variant.id == ONE_TWENTY:
            winner, levels = scoring.one_twenty_table(total)
        else:
            winner, levels = scoring.tractor_table(total, variant.decks)
    out: Answer = {
        "total": total,
        "winner": winner,
        "levels": levels,
        "ended_by": None if ending is None else ending.kind,
    }
    if before is not None:
        extra, lost = scoring.penalty_levels(variant, pens)
        result = scoring.DealResult(total, winner, levels=levels, extra=extra, lost=lost)
        change = scoring.next_levels(before, 0, result, misplays, variant.must_play_levels)
        out["levels_after"] = {"declarer": change.levels[0], "attackers": change.levels[1]}
        out["passed"] = change.passed
    return out


def _levels_before(case: dict[str, Any]) -> tuple[str, str] | None:
    raw = case.get("levels_before")
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"declarer", "attackers"}:
        raise CaseError("case.levels_before", got=repr(raw))
    out = []
    for role in ("declarer", "attackers"):
        lv = raw[role]
        if not isinstance(lv, str) or lv not in RANKS:
            raise CaseError("case.levels_before_level", role=role, got=repr(lv))
        out.append(lv)
    return out[0], out[1]


def _table_total(case: dict[str, Any], variant: Variant) -> int:
    """The attackers' total of a deal played out: trick points, the kitty bonus and the failed
    throws' penalty points (tractor-4p), kept at 0 or more once."""
    # Only what the answer needs is required: without a `last` lead the kitty's cards, the trump
    # and the level do not matter; without a kitty (4 decks) neither does `last`. Impossible
    # totals (more points than the decks hold) are still read off the tables: the answer does
    # not depend on how the points came about.
    last_raw = case.get("last")
    last = None if last_raw is None else _cards(case, "last")
    if case.get("kitty") is None and (last is None or variant.kitty == 0):
        kitty = []
    else:
        kitty = _cards(case, "kitty")
    multiplier = 0
    if last is not None:
        if not last:
            raise CaseError("case.last_empty")
        _copies(kitty + last, variant, "the kitty and the last lead")
        if variant.kitty:  # without a kitty (4 decks) there is nothing to multiply
            mode = variant.options["kitty_multiplier"]
            n = (
                len(last)
                if mode == "double"
                else largest_component_cards(last, _context(case, variant))
            )
            multiplier = scoring.kitty_multiplier(mode, n)
    else:
        _copies(kitty, variant, "the kitty")
    points = _field(case, "points")
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise CaseError("case.points", got=repr(points))
    penalty = 0
    if variant.id == TRACTOR_ID:
        penalty = scoring.throw_penalty_points(variant, case.get("failed_throws"))
    # one-twenty-6p: failed throws change no card points (they are misplays)
    return max(0, points + points_of(kitty) * multiplier + penalty)


def _red_five_deal_result(case: dict[str, Any], variant: Variant) -> Answer:
    failed = case.get("failed_throws")
    throws = scoring._red_five_throws(failed, variant.players)
    dealer_raw = case.get("dealer")
    dealer = None
    if dealer_raw is not None:
        dealer = scoring._check_seat("the dealer", dealer_raw, variant.players)
    pens = scoring.check_penalties(variant, case.get("penalties"), dealer)
    total = _table_total(case, variant)
    winner, units = scoring.red_five_units(total)
    out: Answer = {"total": total, "winner": winner, "units": units}
    if dealer is None:
        return out  # no dealer: the scores cannot be shared out, the rest stands
    friend_raw = case.get("friend")  # FORMAT.md: null (here also absent) = played alone
    friend = None
    if friend_raw is not None:
        friend = scoring._check_seat("the friend", friend_raw, variant.players)
    if friend == dealer:
        raise CaseError("case.friend_is_dealer")
    grabbed = case.get("friend_grabbed", False)
    if not isinstance(grabbed, bool):
        raise CaseError("case.grabbed", got=repr(grabbed))
    if grabbed and friend is None:
        raise CaseError("result.grabbed_alone")
    out["scores"] = scoring.red_five_scores(
        variant.players,
        winner,
        units,
        dealer,
        friend,
        throws,
        grabbed,
        scoring.red_five_penalty_seats(variant, pens),
    )
    return out


def q_advance(case: dict[str, Any], variant: Variant) -> Answer:
    _check_case(case, variant)
    start = _field(case, "from")
    gain = _field(case, "gain")
    to, passed = scoring.advance(start, gain, variant.must_play_levels)
    return {"to": to, "passed": passed}


def q_declare(case: dict[str, Any], variant: Variant) -> Answer:
    _check_case(case, variant)
    level = _level(case)
    raw = _field(case, "calls")
    if not isinstance(raw, list):
        raise CaseError("case.calls")
    calls: list[tuple[int, list[int]]] = []
    shown: dict[Any, Counter[int]] = {}
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or "seat" not in item or "cards" not in item:
            raise CaseError("case.call_item", index=i + 1)
        try:
            cards = _parse(item["cards"])
        except EngineError as e:
            raise CaseError("case.call_error", index=i + 1, cause=e.as_dict()) from None
        seat = item["seat"]
        calls.append((seat, cards))
        if isinstance(seat, int) and not isinstance(seat, bool):
            # a seat showing a card again shows the same card: keep the most it showed at once
            mine = shown.setdefault(seat, Counter())
            for c, k in Counter(cards).items():
                mine[c] = max(mine[c], k)
    together: list[int] = []
    for cnt in shown.values():
        together.extend(cnt.elements())
    _copies(together, variant, "the calls of all seats")
    deal_no = case.get("deal", 1)
    dealer_side = case.get("dealer_side")
    if dealer_side is not None and not isinstance(dealer_side, list):
        raise CaseError("case.dealer_side")
    accepted, caller, trump = calls_mod.replay_calls(variant, level, calls, deal_no, dealer_side)
    return {"accepted": accepted, "caller": caller, "trump": trump}


QUERIES: dict[str, Callable[[dict[str, Any], Variant], Answer]] = {
    "classify": q_classify,
    "trick": q_trick,
    "follow": q_follow,
    "throw": q_throw,
    "deal_result": q_deal_result,
    "advance": q_advance,
    "declare": q_declare,
}


def answer(case: Any) -> Answer:
    """The answer object for one case (never raises for bad input)."""
    if not isinstance(case, dict):
        return {"id": None, "error": "a case is a JSON object with id, variant and query"}
    out: Answer = {"id": case.get("id")}
    try:
        if "id" not in case:
            raise CaseError("case.no_id")
        query = _field(case, "query")
        if case.get("variant") == CLIMBING:  # 争上游: its own queries (engine.climbing_cases)
            from .climbing_cases import answer_climbing

            out.update(answer_climbing(case))
            return out
        if is_family(case.get("variant")):  # 打百分: its own queries (engine.hundred_cases)
            out.update(answer_hundred(case))
            return out
        handler = QUERIES.get(query) if isinstance(query, str) else None
        if handler is None:
            raise CaseError("case.query", got=repr(query), queries=", ".join(QUERIES))
        variant = _variant(case)
        out.update(_answer_with_context(handler, case, variant))
    except EngineError as e:
        out = {"id": out["id"], "error": str(e) or type(e).__name__}
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as e:
        # malformed field types that slipped past the checks above: still an answer, not a crash
        out = {"id": out["id"], "error": f"the case is malformed: {type(e).__name__}: {e}"}
    except Exception as e:  # noqa: BLE001 - one odd line must never stop the other answers
        out = {"id": out["id"], "error": f"the case could not be answered: {type(e).__name__}: {e}"}
    return out


def _answer_with_context(
    handler: Callable[[dict[str, Any], Variant], Answer], case: dict[str, Any], variant: Variant
) -> Answer:
    """Answer a case; when it lacks ``level`` or ``trump``, answer only if every possible value
    gives the same answer (red five is always at level 2, and every first deal of a game is)."""
    try:
        return handler(case, variant)
    except MissingContext as missing:
        levels: Sequence[str] = [case["level"]] if "level" in case else RANKS
        if "level" not in case and (
            variant.id == RED_FIVE or (case.get("query") == "declare" and case.get("deal", 1) == 1)
        ):
            levels = ["2"]
        trumps: Sequence[str | None] = [case["trump"]] if "trump" in case else ["S", "H", "D", "C"]
        if "trump" not in case and variant.id != RED_FIVE:
            trumps = [*trumps, None]
        answers: list[str] = []
        first: Answer | None = None
        first_error: EngineError | None = None
        for level in levels:
            for trump in trumps:
                try:
                    got = handler({**case, "level": level, "trump": trump}, variant)
                except EngineError as e:
                    got = {"error": str(e)}
                    error: EngineError | None = e
                else:
                    error = None
                key = json.dumps(got, sort_keys=True)
                if key not in answers:
                    answers.append(key)
                    first, first_error = got, error
                if len(answers) > 1:
                    raise CaseError("case.depends", cause=missing.as_dict()) from None
        assert first is not None
        if first_error is not None:  # every value gives this same error: the case's answer
            raise CaseError.because(first_error) from None
        return first


def run(stream: TextIO, out: TextIO) -> int:
    return jsonlines.run(stream, out, answer)


def main(argv: Sequence[str] | None = None) -> int:
    return jsonlines.main(argv, "engine.conformance", answer)


if __name__ == "__main__":
    sys.exit(main())
