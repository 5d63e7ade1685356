"""What one seat (or a spectator) may see of a deal, as JSON-able dicts.

A seat sees its own hand, the public table (calls once shown, tricks, points won, the friend
card and the friend once revealed, failed throws) and the cards it buried itself; never another
hand, never the buried kitty before it is revealed at the end (when the attackers win the last
trick), never a hidden 4-deck call of another seat before the deal ends. A spectator sees the
public table only. The log inside a view is redacted the same way.
"""

from __future__ import annotations

from typing import Any

from .cards import LJ, cards_str, points_of
from .deal import DONE, DRAW, Deal, Record
from .errors import EngineError


def _visible_calls(deal: Deal, seat: int | None) -> list[dict[str, Any]]:
    hidden = deal.book.hidden and deal.phase == DRAW
    return [
        {"seat": s, "cards": cards_str(c)} for s, c, _k in deal.call_seq if not hidden or s == seat
    ]


def _log_entry(deal: Deal, rec: Record, seat: int | None) -> dict[str, Any]:
    d = rec.to_json()
    own = rec.seat == seat
    if own:
        return d
    if rec.kind == "draw":
        d.pop("cards", None)
    hidden_bury = rec.kind == "bury" and not deal.kitty_revealed
    hidden_call = rec.kind == "call" and deal.book.hidden and deal.phase == DRAW
    if hidden_bury or hidden_call:
        d["cards"] = []
    if hidden_call:
        d["seat"] = None  # 暗叫: not even who called is shown before the deal ends
    return d


def _turned(deal: Deal) -> list[str] | None:
    """Nobody called and the kitty named trump: the kitty cards turned face up for everyone,
    up to the first that is not a joker (RULES §2 and §4)."""
    if deal.trump_source != "kitty":
        return None
    out = []
    for c in deal.kitty_cards:
        out.append(c)
        if c < LJ:
            break
    return cards_str(out)


def _known_attackers_points(deal: Deal) -> int | None:
    if deal.dealer is None:
        return None
    if deal.variant.fixed_sides:
        return sum(p for s, p in enumerate(deal.won) if s % 2 != deal.dealer % 2)
    friend = deal.friend if deal.friend_revealed else None
    return sum(p for s, p in enumerate(deal.won) if s != deal.dealer and s != friend)


def _view(deal: Deal, seat: int | None, log: bool) -> dict[str, Any]:
    v = deal.variant
    hidden_calls = deal.book.hidden and deal.phase == DRAW
    standing = deal.book.standing
    view: dict[str, Any] = {
        "variant": v.id,
        "options": dict(v.options),
        "seat": seat,
        "version": deal.version,
        "phase": deal.phase,
        "to_act": deal.to_act,
        "next_drawer": deal.next_drawer,
        "cards_left_to_draw": deal.to_deal - deal.drawn,
        "hand_sizes": [len(h) for h in deal.hands],
        "levels": list(deal.levels),
        "level": deal.level,
        "first_deal": deal.setup.first,
        "dealer": deal.dealer,
        "previous_dealer": deal.prev_dealer,
        "trump": deal.trump if deal.trump_set else None,
        "trump_known": deal.trump_set,
        "trump_source": deal.trump_source or None,
        "calls": _visible_calls(deal, seat),
        "caller": None if hidden_calls or standing is None else standing.seat,
        "window": list(deal.window),
        "kitty": {
            "size": v.kitty,
            "owner": deal.kitty_owner,
            "burier": deal.burier,
            "cards": cards_str(deal.buried) if deal.kitty_revealed else None,
            "points": points_of(deal.buried) if deal.kitty_revealed else None,
            "turned": _turned(deal),
        },
        "cut_card": None if deal.cut_card is None else cards_str([deal.cut_card])[0],
        "first_drawer": deal.first_drawer,
        "friend_card": None if deal.friend_card is None else cards_str([deal.friend_card])[0],
        "friend_called": deal.friend_called,
        "friend": deal.friend if deal.friend_revealed else None,
        "tricks": [t.to_json() for t in deal.tricks],
        "trick": None if deal.trick is None else deal.trick.to_json(),
        "won": list(deal.won),
        "attackers_points": _known_attackers_points(deal),
        "failed_throws": list(deal.failed_throws),
        "outcome": deal.outcome,
        "result": None,
        "log": [_log_entry(deal, r, seat) for r in deal.log] if log else None,
    }
    if deal.phase == DONE and deal.result is not None:
        r = deal.result
        view["result"] = {
            "total": r.total,
            "winner": r.winner,
            "levels": r.levels,
            "units": r.units,
            "scores": None if r.scores is None else list(r.scores),
        }
        view["friend"] = deal.friend
        view["friend_grabbed"] = deal.friend_grabbed
    return view


def _check_deal(deal: object) -> None:
    if not isinstance(deal, Deal):
        raise EngineError("view.deal_type", got=repr(deal))


def seat_view(deal: Deal, seat: int, log: bool = True) -> dict[str, Any]:
    """Everything ``seat`` may see, and nothing more. ``log=False`` leaves the redacted log
    out (``"log": None``): it grows with the deal, and a page that draws the table from the
    rest need not build it on every move."""
    _check_deal(deal)
    deal._seat(seat)
    view = _view(deal, seat, log)
    view["hand"] = sorted(cards_str(deal.hands[seat]))
    view["playable"] = cards_str(deal.playable_cards(seat))
    view["actions"] = deal.actions(seat)
    view["legal_calls"] = [cards_str(c) for c in deal.legal_calls(seat)]
    if deal.kitty_owner == seat and not deal.kitty_revealed:
        view["kitty"]["cards"] = cards_str(deal.buried)  # the cards it buried itself
    return view


def spectator_view(deal: Deal, log: bool = True) -> dict[str, Any]:
    """The public table: no hand, no buried kitty before it is revealed (``log`` as for
    ``seat_view``)."""
    _check_deal(deal)
    view = _view(deal, None, log)
    view["hand"] = None
    view["playable"] = []
    view["actions"] = []
    view["legal_calls"] = []
    return view
