"""争上游 online: the climbing family's adapter to the engine (``engine.climbing_deal``).

``bridge`` stays the one entry of the online tables into the engine: it keeps the trick games
(``engine.deal.Deal``) as its own code and hands a deal of another family to that family's
adapter, chosen by the deal's variant (``bridge.family_of``). An adapter is a module of plain
functions on its family's deal object, with no Flask, database or ``Live`` of its own:

``FAMILY``, ``owns(variant)``                                 its name, the variants it plays
``first_setup(options, seed)``, ``next_setup(deal, seed)``   a deal's setup as stored JSON
``new_deal(setup)``, ``apply_entry(deal, entry)``             replay (the deal cache)
``draw_entry(deal)``                                          the chance step, performed
``bot_entry(deal, seat, kind, seed)``                         one bot decision, performed
``move_entry(deal, seat, kind, cards)``                       one seat's move, performed
``sheet_row(deal)``                                           a played deal's score sheet row
``seat_view(deal, seat)``, ``spectator_view(deal)``           the engine's views
``replay_moves(setup, entries)``                              a finished deal move by move

打百分 (``engine.hundred_deal``) is meant to plug in the same way, with an adapter of its own.

Here: the draw is the chance step (no pause: nothing is called while the cards are dealt); the
loser of the deal before pays the tribute (a card of his highest rank, his choice among its
copies) and the winner gives one card back; then the rounds of plays and passes. A played deal
becomes the sheet row a typed 争上游 row is (each seat's place, the tribute), and the next deal's
setup is the engine's (``next_setup``: the winner and the loser carried over).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import climbing_deal as cd
from engine.cards import card_str, parse_card
from engine.climbing import crank, sort_key
from engine.climbing_bots import ClimbingHeuristicBot, ClimbingRandomBot, perform
from engine.climbing_deal import ClimbingDeal, ClimbingSetup
from engine.errors import IllegalAction
from engine.variants import CLIMBING

from ...competition import model as cm

FAMILY = "climbing"
DRAW, TRIBUTE, RETURN, PLAY, DONE = cd.DRAW, cd.TRIBUTE, cd.RETURN, cd.PLAY, cd.DONE
MOVE_KINDS = ("tribute", "return", "play", "pass")


def owns(variant: str) -> bool:
    return variant == CLIMBING


# --- setups and replay ------------------------------------------------------------------------


def first_setup(options: dict[str, Any], seed: int) -> dict[str, Any]:
    """The first deal of a table: no tribute (nobody has won or lost yet)."""
    return ClimbingSetup(CLIMBING, dict(options), seed, 1).to_json()


def next_setup(deal: ClimbingDeal, seed: int) -> dict[str, Any]:
    """The deal after a played one: the engine's setup, its winner and loser carried over (the
    tribute is paid at its start)."""
    return cd.next_setup(deal, seed).to_json()


def new_deal(setup: dict[str, Any]) -> ClimbingDeal:
    return ClimbingDeal(ClimbingSetup.from_json(setup))


def apply_entry(deal: ClimbingDeal, entry: dict[str, Any]) -> None:
    cd.apply(deal, cd.record_from_json(entry))


# --- acting -----------------------------------------------------------------------------------


def _bot(kind: str, seed: int) -> ClimbingRandomBot:
    """``easy`` (kind ``random``) plays random legal moves; ``normal`` and ``strong`` play the
    rules of thumb (the climbing engine has no searching bot)."""
    if kind == "random":
        return ClimbingRandomBot(seed)
    return ClimbingHeuristicBot(seed)


def bot_entry(deal: ClimbingDeal, seat: int, kind: str, seed: int) -> dict[str, Any]:
    """The decision of the bot of ``seat`` (``kind``: the engine bot kind of its strength),
    performed on the deal, as its log entry."""
    bot = _bot(kind, seed)
    return perform(deal, bot.act(deal, seat)).to_json()


def draw_entry(deal: ClimbingDeal) -> dict[str, Any] | None:
    """The chance step: the next card dealt (None once the draw is over)."""
    if deal.phase != DRAW:
        return None
    return deal.draw().to_json()


def move_entry(deal: ClimbingDeal, seat: int, kind: str, cards: Sequence[str]) -> dict[str, Any]:
    """A seat's move performed on the deal (``EngineError`` when refused; nothing changed)."""
    parsed = [parse_card(c) for c in cards]
    if kind == "play":
        return deal.play(seat, parsed).to_json()
    if kind == "pass":
        return deal.pass_(seat).to_json()
    if kind in ("tribute", "return"):
        if len(parsed) != 1:
            raise IllegalAction("climb.one_card", kind=kind, got=len(parsed))
        if kind == "tribute":
            return deal.tribute(seat, parsed[0]).to_json()
        return deal.give_back(seat, parsed[0]).to_json()
    raise IllegalAction("action.unknown", got=repr(kind))


# --- results ----------------------------------------------------------------------------------


def tribute_of(deal: ClimbingDeal) -> cm.Tribute | None:
    """The tribute paid before this deal (None: first deal, tribute off, or 抗贡)."""
    s = deal.setup
    if deal.tribute_card is None or s.loser is None or s.winner is None:
        return None
    return cm.Tribute(s.loser, s.winner, card_str(deal.tribute_card))


def sheet_row(deal: ClimbingDeal) -> cm.Deal:
    """The score sheet row of a played deal: as a typed 争上游 row (places, tribute)."""
    r = deal.result
    assert r is not None
    return cm.Deal(points=0, kitty=0, places=tuple(r.places), tribute=tribute_of(deal))


def seat_view(deal: ClimbingDeal, seat: int) -> dict[str, Any]:
    """The engine's seat view, and ``choices``: the cards of the hand the seat may pick now (a
    card of its highest rank to pay the tribute, any card to give back, the cards of a play that
    beats the standing one)."""
    view = cd.seat_view(deal, seat, log=False)
    choices: list[str] = []
    if deal.to_act == seat and deal.phase == TRIBUTE:
        rank = deal.tribute_rank()
        choices = [c for c in view["hand"] if rank_index(c) == rank]
    elif deal.to_act == seat and deal.phase == RETURN:
        choices = list(view["hand"])
    elif deal.to_act == seat and deal.phase == PLAY:
        choices = list(view["playable"])
    view["choices"] = choices
    return view


def spectator_view(deal: ClimbingDeal) -> dict[str, Any]:
    return cd.spectator_view(deal, log=False)


def sort_codes(codes: Sequence[str]) -> list[str]:
    """Card codes in climbing order (3 … A 2 小王 大王)."""
    return [card_str(c) for c in sorted((parse_card(x) for x in codes), key=sort_key)]


def rank_index(code: str) -> int:
    return crank(parse_card(code))


def replay_moves(setup: dict[str, Any], entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A finished deal move by move: each hand as dealt, the tribute, then every play or pass
    with the round it belongs to, and the end (the deal rebuilt from its log)."""
    deal = new_deal(setup)
    moves: list[dict[str, Any]] = []
    dealt: list[list[str]] | None = None
    rounds = 0
    for entry in entries:
        if entry["kind"] != "draw" and dealt is None:
            dealt = [[card_str(c) for c in deal.hand(s)] for s in range(deal.n)]
        before = len(deal.rounds)
        apply_entry(deal, entry)
        if entry["kind"] == "draw":
            continue
        moves.append(
            {
                "kind": entry["kind"],
                "seat": entry["seat"],
                "cards": sort_codes(entry.get("cards") or []),
                "round": rounds + 1,
                "out": entry["seat"] in deal.out and entry["kind"] == "play",
                "left": len(deal.hands[entry["seat"]]),
            }
        )
        if len(deal.rounds) > before:
            rounds = len(deal.rounds)
    if dealt is None:
        dealt = [[card_str(c) for c in deal.hand(s)] for s in range(deal.n)]
    return {
        "deal": deal,
        "dealt": dealt,
        "moves": moves,
        "result": None if deal.result is None else deal.result.to_json(),
        "tribute": tribute_of(deal),
        "returned": None if deal.returned_card is None else card_str(deal.returned_card),
        "refused": deal.refused,
        "turned": card_str(deal.turned),
        "turned_seat": deal.turned_seat,
    }
