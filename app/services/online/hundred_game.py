"""打百分 online: the hundred family's adapter to the engine (``engine.hundred``), as
``climbing_game`` is 争上游's (its docstring lists what an adapter offers; ``bridge`` dispatches
to it by the deal's variant).

The variants: ``hundred-4p`` (every friend mode), ``forty-4p`` (40分下台) and ``hundred-3p``
(3人百分, the declarer playing a face-up dummy: hand index 3, whose moves the declarer's seat
makes). The engine deals the whole pack at once from the seed, so a deal has no chance step
here: the auction, naming trump, the friend card, the burial and the tricks are all decisions
(a seat's or a bot's). A move's one value (the bid, the trump suit, the friend card) travels
in the form's ``card`` field, as the trick games' friend card does.

A played deal becomes the sheet row a typed 打百分 row is (``competition.hundred.HundredDeal``:
the bid or the turned card, trump, the friend card and its holder, the attackers' trick points,
抠底, the buried cards' points for the record) and the next deal's setup is the engine's
(``HundredDeal.next_setup``: who draws first, 40分下台's declarer).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from engine import hundred as hd
from engine import hundred_rules as hr
from engine.cards import LJ, SUITS, card_str, parse_card, points_of
from engine.errors import IllegalAction
from engine.hundred import Act, HundredDeal, HundredSetup
from engine.hundred_bots import HeuristicHundredBot, RandomHundredBot, perform
from engine.hundred_mcbot import HundredMCBot

from ...competition import hundred as ch
from . import botchoice

FAMILY = "hundred"
VARIANTS = tuple(hr.FAMILY_IDS)
AUCTION, TRUMP, FRIEND, BURY, PLAY, DONE = (
    hd.AUCTION,
    hd.TRUMP_PHASE,
    hd.FRIEND,
    hd.BURY,
    hd.PLAY,
    hd.DONE,
)
DUMMY = hd.DUMMY
MOVE_KINDS = ("bid", "pass", "trump", "friend", "bury", "play")
KITTY = hr.KITTY
TOTAL_POINTS = hr.TOTAL_POINTS
FORTY_LINE = hr.FORTY_LINE
HUNDRED_3P, FORTY_4P = hr.HUNDRED_3P, hr.FORTY_4P


def owns(variant: str) -> bool:
    return variant in VARIANTS


def is_deal(deal: object) -> bool:
    return isinstance(deal, HundredDeal)


def players(variant: str) -> int:
    """Seats at a table of the variant (3人百分: 3; its dummy is no one's seat)."""
    return 3 if variant == HUNDRED_3P else 4


def options_of(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    """The variant's options with the engine's defaults filled in."""
    return dict(hr.make_hundred_variant(variant, options).options)


# --- setups and replay ------------------------------------------------------------------------


def first_setup(variant: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """The first deal of a table: seat 0 draws first (40分下台: the turned card's drawer
    declares)."""
    return HundredSetup(variant, dict(options), seed, 0, None).to_json()


def next_setup(deal: HundredDeal, seed: int) -> dict[str, Any]:
    """The deal after a played one: the engine's (the winners draw first; 40分下台's next
    declarer)."""
    return deal.next_setup(seed).to_json()


def new_deal(setup: dict[str, Any]) -> HundredDeal:
    return HundredDeal(HundredSetup.from_json(setup))


def apply_entry(deal: HundredDeal, entry: dict[str, Any]) -> None:
    hd.apply(deal, Act.from_json(entry))


# --- acting -----------------------------------------------------------------------------------


class _RequestMC(HundredMCBot):
    """The strong bot, its search charged to the request's thinking budget (``botchoice``):
    once spent, it plays as the heuristic bot for the rest of the request."""

    def play(self, deal: HundredDeal, seat: int, hand: int) -> list[int]:
        left = botchoice.THINK_LEFT.get()
        if left is not None and left <= 0:
            return HeuristicHundredBot.play(self, deal, seat, hand)
        t0 = time.perf_counter()
        try:
            return super().play(deal, seat, hand)
        finally:
            if left is not None:
                botchoice.THINK_LEFT.set(left - (time.perf_counter() - t0))


def _bot(kind: str, seed: int) -> RandomHundredBot:
    """``easy`` (kind ``random``) bids and plays at random; ``normal`` the rules of thumb;
    ``strong`` searches its plays (a time box per move, as the trick games' strong bot)."""
    if kind == "random":
        return RandomHundredBot(seed)
    if kind == "mc":
        return _RequestMC(seed, time_per_move=botchoice.STRONG_MS / 1000, clock=time.perf_counter)
    return HeuristicHundredBot(seed)


def bot_entry(deal: HundredDeal, seat: int, kind: str, seed: int) -> dict[str, Any]:
    """The decision of the bot of ``seat`` (``kind``: the engine bot kind of its strength),
    performed on the deal, as its log entry."""
    return perform(deal, _bot(kind, seed).act(deal, seat)).to_json()


def move_entry(
    deal: HundredDeal, seat: int, kind: str, cards: Sequence[str], value: str
) -> dict[str, Any]:
    """A seat's move performed on the deal (``EngineError`` when refused; nothing changed):
    ``bid`` (``value`` the bid), ``pass``, ``trump`` (``value`` S/H/D/C), ``friend`` (``value``
    the card), ``bury`` and ``play`` (``cards``)."""
    if kind == "bid":
        try:
            bid = int(value)
        except ValueError:
            raise IllegalAction("auction.bid", got=repr(value)) from None
        return deal.bid_(seat, bid).to_json()
    if kind == "pass":
        return deal.pass_(seat).to_json()
    if kind == "trump":
        return deal.name_trump(seat, value).to_json()
    if kind == "friend":
        return deal.call_friend(seat, parse_card(value)).to_json()
    parsed = [parse_card(c) for c in cards]
    if kind == "bury":
        return deal.bury(seat, parsed).to_json()
    if kind == "play":
        return deal.play(seat, parsed).to_json()
    raise IllegalAction("action.unknown", got=repr(kind))


# --- results ----------------------------------------------------------------------------------


def _kou_di(deal: HundredDeal) -> bool:
    """Did an attacker win the last trick (抠底)?"""
    if not deal.tricks:
        return False
    return deal.tricks[-1][1] in deal.attackers()


def sheet_row(deal: HundredDeal) -> ch.HundredDeal:
    """The score sheet row of a played deal, as a typed 打百分 row: the declarer's seat, the
    bid (40分下台: the turned card), trump, the friend card and the seat that held it (None:
    alone, or fixed sides), the attackers' trick points, 抠底 and the buried cards' points."""
    assert deal.result is not None and deal.declarer is not None and deal.trump is not None
    v = deal.variant
    friend = None if v.fixed_pairs or v.id == HUNDRED_3P else deal.friend
    return ch.HundredDeal(
        points=deal.attackers_points(),
        kitty=0,
        trump=SUITS[deal.trump],
        declarer=deal.declarer,
        friend=friend,
        bid=deal.bid if v.bidding else None,
        turned=None if deal.turned is None else card_str(deal.turned),
        friend_card=None if deal.friend_card is None else card_str(deal.friend_card),
        kou_di=_kou_di(deal),
        kitty_points=points_of(deal.buried),
    )


def seat_view(deal: HundredDeal, seat: int) -> dict[str, Any]:
    """The engine's seat view (never another seat's hand: the dummy's only once turned), and
    ``choices``: the cards the seat may pick now (its whole hand to bury; in play the cards it
    may leave enabled, from the dummy's hand when the declarer plays for it), ``friend_cards``
    (the cards it may call as its friend) and ``moving_hand`` (the hand it plays from now)."""
    view = hd.hundred_seat_view(deal, seat)
    view.pop("log", None)
    choices: list[str] = []
    friend_cards: list[str] = []
    if deal.to_act == seat and deal.phase == BURY:
        choices = list(view["hand"])
    elif deal.to_act == seat and deal.phase == PLAY:
        choices = list(view["playable"])
    elif deal.to_act == seat and deal.phase == FRIEND:
        friend_cards = [card_str(c) for c in range(54) if deal.can_call_friend(seat, c)]
    view["choices"] = choices
    view["friend_cards"] = sort_codes(deal, friend_cards)
    view["moving_hand"] = deal.turn_hand if deal.to_act == seat else None
    return view


def spectator_view(deal: HundredDeal) -> dict[str, Any]:
    view = hd.hundred_spectator_view(deal)
    view.pop("log", None)
    return view


def order_key(deal: HundredDeal) -> Callable[[int], tuple[int, ...]]:
    """Cards in this deal's order: by suit, trumps last once trump is named (the jokers above
    the trump suit's A), weakest first."""
    trump = deal.trump
    if trump is None:
        return lambda c: (c >= LJ, c // 13, c % 13, c)
    return lambda c: (
        hr.group(c, trump) == hr.TRUMP,
        hr.group(c, trump),
        hr.strength(c, trump),
        c,
    )


def sort_codes(deal: HundredDeal, codes: Sequence[str]) -> list[str]:
    return [card_str(c) for c in sorted((parse_card(x) for x in codes), key=order_key(deal))]


def replay_moves(setup: dict[str, Any], entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A finished deal move by move: each hand as dealt (and the dummy's), the kitty, the
    auction, trump, the friend card, the burial, every trick with its winner and points (the
    trick where a hidden friend's card fell marked), and the end."""
    deal = new_deal(setup)
    dealt = [[card_str(c) for c in h] for h in deal.hands]
    kitty = [card_str(c) for c in deal.kitty]
    auction: list[dict[str, Any]] = []
    tricks: list[dict[str, Any]] = []
    buried: list[str] = []
    revealed_at: int | None = None
    for entry in entries:
        before = len(deal.tricks)
        was_revealed = deal.friend_revealed
        apply_entry(deal, entry)
        kind = entry["kind"]
        if kind in ("bid", "pass"):
            auction.append({"seat": entry["seat"], "bid": entry.get("value")})
        elif kind == "bury":
            buried = list(entry.get("cards") or [])
        if deal.friend_revealed and not was_revealed and kind == "play":
            revealed_at = len(deal.tricks) + (0 if len(deal.tricks) > before else 1)
        if len(deal.tricks) > before:
            plays, winner = deal.tricks[-1]
            tricks.append(
                {
                    "number": len(deal.tricks),
                    "plays": [
                        {"hand": h, "cards": sort_codes(deal, [card_str(c) for c in cs])}
                        for h, cs in plays
                    ],
                    "winner": winner,
                    "points": points_of([c for _h, cs in plays for c in cs]),
                }
            )
    return {
        "deal": deal,
        "dealt": [sort_codes(deal, h) for h in dealt],
        "kitty": sort_codes(deal, kitty),
        "buried": sort_codes(deal, buried),
        "auction": auction,
        "tricks": tricks,
        "revealed_at": revealed_at,
        "view": spectator_view(deal),
    }
