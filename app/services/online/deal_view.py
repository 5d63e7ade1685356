"""What a deal in play shows beyond the engine's seat view (``bridge.view``): the trick on the
felt by seat, with the play that wins it so far (the engine's judgement), its points and a
failed throw that led it, and what a seat may call now and why cards it holds are no call
(codes the page words in the reader's language). ``pages.py`` arranges them on the pages.
"""

from __future__ import annotations

from typing import Any

from .bridge import (
    CALLS,
    DRAW,
    HJ,
    LJ,
    ONE_TWENTY,
    OVERCALL,
    RANKS,
    RED_FIVE,
    TRACTOR,
    Live,
    points_of,
    trick_winner,
)
from .cards import card_face, faces_of
from .throws import failed_throw


def trick_plays(live: Live, which: str = "current") -> dict[str, Any] | None:
    """The current trick (or the previous one: ``which="previous"``) by seat, with the play
    that wins it so far (the engine's judgement) and its points."""
    deal = live.trick
    if which == "current":
        tr = deal.trick
        if tr is None or not tr.plays or deal.ctx is None:
            return None
        idx = trick_winner([p for _s, p in tr.plays], deal.ctx, tr.lead_comps)
        winner: int | None = tr.plays[idx][0]
        points = sum(points_of(p) for _s, p in tr.plays)
        number = len(deal.tricks)
    else:
        if not deal.tricks:
            return None
        tr = deal.tricks[-1]
        winner, points = tr.winner, tr.points
        number = len(deal.tricks) - 1
    return {
        "failed": failed_throw(deal, number),  # a failed throw led it: announced to every seat
        "leader": tr.leader,
        "winner": winner,
        "points": points,
        "plays": {s: faces_of(deal, p) for s, p in tr.plays},
        "order": [s for s, _p in tr.plays],
    }


def current_winner(live: Live) -> int | None:
    t = trick_plays(live)
    return None if t is None else t["winner"]


def call_help(live: Live, seat: int) -> dict[str, Any] | None:
    """What the rules allow a seat to call now, and why cards it holds are not a call here
    (codes the page words in the reader's language). None outside the calling phases."""
    deal = live.trick
    if deal.phase not in (DRAW, CALLS, OVERCALL):
        return None
    v = deal.variant
    book = deal.book
    standing = book.standing
    help_: dict[str, Any] = {
        "variant": v.id,
        "decks": v.decks,
        "level": deal._call_level(seat),
        "phase": deal.phase,
        "standing": None
        if standing is None or (book.hidden and deal.phase == DRAW)
        else {"seat": standing.seat, "cards": faces_of(deal, standing.cards)},
        "notes": [],
        "open": False,
    }
    notes: list[dict[str, Any]] = help_["notes"]
    if deal.phase == DRAW and not deal.can_call_now(seat):
        if v.id == RED_FIVE and standing is not None:
            notes.append({"code": "rf_shown"})
        elif v.id == RED_FIVE:
            notes.append({"code": "rf_last_rounds", "seat": deal.prev_dealer})
        else:
            assert deal.dealer is not None
            notes.append({"code": "side_only", "seats": list(range(deal.dealer % 2, deal.n, 2))})
        return help_
    if deal.phase != DRAW and deal.to_act != seat:
        return help_
    help_["open"] = True
    hand = deal.hands[seat]
    lv = RANKS.index(help_["level"])
    options = deal.call_options(seat)
    legal = {tuple(sorted(c)) for c in deal.legal_calls(seat)}
    refused = [c for c in options if tuple(sorted(c)) not in legal]
    if refused:
        if deal.phase == DRAW and v.id == TRACTOR and standing is not None:
            notes.append({"code": "after_deal"})
        elif v.id == TRACTOR and standing is not None and standing.seat == seat:
            notes.append({"code": "own_call"})
        else:
            notes.append({"code": "weaker", "cards": faces_of(deal, refused[0])})
    if v.id == TRACTOR and v.decks == 2:
        for s, suit in enumerate("SHDC"):
            card = s * 13 + lv
            joker = HJ if suit in ("H", "D") else LJ
            if card in hand and joker not in hand:
                notes.append(
                    {"code": "need_joker", "card": card_face(card), "joker": card_face(joker)}
                )
        for joker, colour in ((LJ, (0, 3)), (HJ, (1, 2))):
            if hand.count(joker) == 1 and not any(s * 13 + lv in hand for s in colour):
                notes.append({"code": "joker_alone", "card": card_face(joker)})
    elif v.id == ONE_TWENTY:
        for joker in (LJ, HJ):
            if hand.count(joker) == 1:
                notes.append({"code": "single_joker", "card": card_face(joker)})
    return help_
