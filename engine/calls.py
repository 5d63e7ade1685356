"""Trump calls (叫主 / 报主 / 反主 / 造反) for the three variants (RULES.md §2, §3, §4).

A call is a set of cards a seat shows. ``call_shape`` reads it as a call of one variant (or says
why it is none), ``CallBook`` keeps a sequence of calls and decides which beat the standing one,
and ``replay_calls`` answers the conformance ``declare`` query. Who may call *when* (during the
deal, in the last rounds, after the deal) is the deal state machine's business (``engine.deal``);
``replay_calls`` has no timing and applies the eligibility the query can know.

Shapes and strength:

- ``tractor-4p`` (2 decks): a level card of X + the joker of X's colour (1), two level cards of X
  + that joker (2), ``LJ LJ`` (3, no trump), ``HJ HJ`` (4, no trump); a call must be stronger than
  the standing one, and the seat whose call stands may not overcall itself.
- ``tractor-4p`` (4 decks): k level cards of one suit; more cards win, equal counts go to the
  earlier call; no self-overcall.
- ``red-five-5p``: one 2; the first stands, no overcalls.
- ``one-twenty-6p``: k level cards of one suit, or k ≥ 2 identical jokers (no trump); more cards
  win, equal counts go to the stronger kind (level cards < LJ < HJ); the seat whose call was just
  overcalled may take it back (再造反) by showing as many cards of its earlier call as the standing
  call holds. In a race (the deal after a refused one) the first seat to show level cards of
  its own side's level wins and nothing overcalls it; jokers do not call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import HJ, LJ, RANKS, SUITS, check_card, check_copies
from .errors import EngineError, Reason
from .variants import ONE_TWENTY, RED_FIVE, TRACTOR, Variant

_COLOUR_JOKER: Final = {"S": LJ, "C": LJ, "H": HJ, "D": HJ}


@dataclass(frozen=True)
class CallShape:
    """What a set of shown cards is as a call.

    ``suit`` is the trump suit it names (``None``: no trump); ``count`` and ``kind`` order calls:
    tractor 2 decks uses ``kind`` 1–4 alone; 4 decks and 120分 compare ``count`` first, then
    ``kind`` (0 level cards, 1 ``LJ``, 2 ``HJ``).
    """

    suit: str | None
    count: int
    kind: int

    def __init__(self, suit: str | None, count: int, kind: int) -> None:
        # written out (the dataclass keeps eq, hash, repr and frozenness): the generated one is an
        # interpreted function even in the compiled build, about 16 times slower there
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "kind", kind)

    @property
    def key(self) -> tuple[str, str | None]:
        """What a take-back must repeat: level cards of the same suit, or the same joker."""
        return ("joker" if self.kind else "level", self.suit if not self.kind else str(self.kind))


@dataclass(frozen=True)
class Call:
    seat: int
    cards: tuple[int, ...]
    shape: CallShape


def _check_level(level: object) -> str:
    if not isinstance(level, str) or level not in RANKS:
        raise EngineError("level.unknown", got=repr(level), levels=" ".join(RANKS))
    return level


def call_shape(variant: Variant, level: str, cards: Sequence[int]) -> CallShape | Reason:
    """Read ``cards`` as a call at ``level``; return the shape, or a plain reason it is none."""
    if not isinstance(variant, Variant):
        raise EngineError("call.variant_type", got=repr(variant))
    lv = RANKS.index(_check_level(level))
    if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
        raise EngineError("call.cards_type", got=repr(cards))
    cards = [check_card(c) for c in cards]
    n = len(cards)
    if n == 0:
        return Reason("call.empty")
    jokers = [c for c in cards if c >= LJ]
    suited = [c for c in cards if c < LJ]
    level_cards = [c for c in suited if c % 13 == lv]
    suits = {SUITS[c // 13] for c in suited}
    if len(level_cards) != len(suited):
        return Reason("call.level_cards", level=RANKS[lv])
    if len(suits) > 1:
        return Reason("call.one_suit")
    suit = next(iter(suits)) if suits else None
    if variant.id == RED_FIVE:
        if n == 1 and suit is not None:
            return CallShape(suit, 1, 0)
        return Reason("call.red_five")
    if variant.id == TRACTOR and variant.decks == 4:
        if jokers:
            return Reason("call.four_decks")
        assert suit is not None
        return CallShape(suit, n, 0)
    if variant.id == TRACTOR:
        if suit is None:
            if n == 2 and jokers[0] == jokers[1]:
                return CallShape(None, 2, 3 if jokers[0] == LJ else 4)
            return Reason("call.joker_pair")
        if len(jokers) != 1 or len(level_cards) > 2:
            return Reason("call.tractor_shape")
        want = _COLOUR_JOKER[suit]
        if jokers[0] != want:
            need = "HJ" if want == HJ else "LJ"
            return Reason("call.joker_colour", suit=suit, card=need)
        return CallShape(suit, n, len(level_cards))
    # one-twenty-6p
    if suit is not None:
        if jokers:
            return Reason("call.mixed")
        return CallShape(suit, n, 0)
    if len(set(jokers)) != 1:
        return Reason("call.jokers_identical")
    if n < 2:
        return Reason("call.single_joker")
    return CallShape(None, n, 1 if jokers[0] == LJ else 2)


class CallBook:
    """The calls of one deal in time order and the one that stands.

    ``hidden`` (4 decks): calls stay secret until the deal ends, so ``offer`` never refuses a
    well-formed call by comparison — one that does not beat the standing call simply does not
    count (``counted`` says which did).
    """

    def __init__(self, variant: Variant, level: str, race: bool = False) -> None:
        if not isinstance(variant, Variant):
            raise EngineError("callbook.variant_type", got=repr(variant))
        if not isinstance(race, bool) or (race and variant.id != ONE_TWENTY):
            raise EngineError("setup.race")
        self.variant = variant
        # 120分 after a refused deal (RULES §4, seed 000 item 10: 补到就放在桌上): the first seat
        # to show its own side's level card wins the race; nothing overcalls it
        self.race = race
        self.level = _check_level(level)
        self.calls: list[Call] = []
        self.counted: list[bool] = []
        self.standing: Call | None = None
        self.overcalled: Call | None = None  # the call the standing one just beat (120分 再造反)
        self.last_by_seat: dict[int, Call] = {}

    @property
    def hidden(self) -> bool:
        return self.variant.id == TRACTOR and self.variant.decks == 4

    def why_not(self, seat: int, cards: Sequence[int], level: str | None = None) -> Reason | None:
        """``None`` if ``cards`` by ``seat`` would stand now, else the reason in plain words.

        ``level`` overrides the book's level for this call (a 120分 race: each side shows its own).
        """
        _check_seat(self.variant, seat, "a call")
        shape = call_shape(self.variant, level or self.level, cards)
        if isinstance(shape, Reason):
            return shape
        return self._why_not_shape(seat, shape)

    def _why_not_shape(self, seat: int, shape: CallShape) -> Reason | None:
        st = self.standing
        vid = self.variant.id
        if self.race:
            if shape.kind:
                return Reason("call.race_level")
            if st is not None:
                return Reason("call.race_won", caller=st.seat)
            return None
        if st is None:
            return None
        if vid == RED_FIVE:
            return Reason("call.red_five_shown")
        if vid == TRACTOR:
            if st.seat == seat:
                return Reason("call.own")
            if self.variant.decks == 4:
                if shape.count > st.shape.count:
                    return None
                return Reason("call.more_level_cards", count=st.shape.count)
            if shape.kind > st.shape.kind:
                return None
            return Reason("call.stronger")
        # one-twenty-6p
        ss = st.shape
        if shape.count > ss.count or (shape.count == ss.count and shape.kind > ss.kind):
            return None
        ov = self.overcalled
        if (
            ov is not None
            and ov.seat == seat
            and st.seat != seat
            and shape.key == self.last_by_seat[seat].shape.key
            and shape.count >= ss.count
            and shape.count > self.last_by_seat[seat].shape.count
        ):
            return None  # 再造反: take the call back with as many cards as the standing call
        return Reason("call.stronger_120")

    def offer(self, seat: int, cards: Sequence[int], level: str | None = None) -> bool:
        """Record a call that ``why_not`` accepted (or any well-formed hidden call).

        Returns whether it now stands. Raises ``EngineError`` for a malformed call, or for a call
        that does not beat the standing one when calls are open.
        """
        _check_seat(self.variant, seat, "a call")
        shape = call_shape(self.variant, level or self.level, cards)
        if isinstance(shape, Reason):
            raise EngineError.because(shape)
        reason = self._why_not_shape(seat, shape)
        if reason is not None and not self.hidden:
            raise EngineError.because(reason)
        call = Call(seat, tuple(cards), shape)
        self.calls.append(call)
        self.counted.append(reason is None)
        if reason is None:
            if self.standing is not None and self.standing.seat != seat:
                self.overcalled = self.standing
            elif self.standing is None:
                self.overcalled = None
            self.standing = call
            self.last_by_seat[seat] = call
        return reason is None

    @property
    def trump(self) -> str | None:
        return self.standing.shape.suit if self.standing else None

    @property
    def caller(self) -> int | None:
        return self.standing.seat if self.standing else None


def replay_calls(
    variant: Variant,
    level: str,
    calls: list[tuple[int, list[int]]],
    deal_no: int = 1,
    dealer_side: Sequence[int] | None = None,
) -> tuple[list[bool], int | None, str | None]:
    """The conformance ``declare`` query: which calls were accepted, who stands, what is trump.

    Calls are in time order. Without hands there is only a copy check per call. With
    ``deal_no > 1`` and ``dealer_side``: in 120分 only that side may call; in 升级 the other side
    may call only as an overcall right after the deal (a call must already stand; not with 4
    decks, which have no overcalls after the deal).
    """
    if not isinstance(variant, Variant):
        raise EngineError("calls.variant_type", got=repr(variant))
    _check_level(level)
    if variant.id == RED_FIVE and level != "2":
        raise EngineError("calls.red_five_level", level=level)
    if isinstance(deal_no, bool) or not isinstance(deal_no, int) or deal_no < 1:
        raise EngineError("deal_no.range", got=repr(deal_no))
    side: set[int] | None = None
    if dealer_side is not None:
        side = set()
        if isinstance(dealer_side, str | bytes) or not isinstance(dealer_side, Sequence):
            raise EngineError("calls.dealer_side_type", got=repr(dealer_side))
        for s in dealer_side:
            side.add(_check_seat(variant, s, "dealer_side"))
    if not isinstance(calls, list):
        raise EngineError("calls.list_type")
    book = CallBook(variant, level)
    accepted: list[bool] = []
    for i, item in enumerate(calls):
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise EngineError("calls.item", index=i + 1)
        seat = _check_seat(variant, item[0], f"call {i + 1}")
        if isinstance(item[1], str | bytes) or not isinstance(item[1], Sequence):
            raise EngineError("calls.item_cards", index=i + 1, got=repr(item[1]))
        cards = list(item[1])
        check_copies(cards, variant.decks, f"the cards of call {i + 1}")
        if len(cards) > variant.hand:
            raise EngineError("calls.item_too_many", index=i + 1)
        ok = book.why_not(seat, cards) is None
        if ok and deal_no > 1 and side is not None and seat not in side:
            # 升级 with a kitty: an overcall right after the deal (炒底); 4 decks have no kitty
            # and no overcalls after the deal, so the other side's call is one during the deal
            ok = variant.id == TRACTOR and variant.kitty > 0 and book.standing is not None
        if ok:
            book.offer(seat, cards)
        accepted.append(ok)
    return accepted, book.caller, book.trump


def _check_seat(variant: Variant, seat: object, what: str) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < variant.players:
        raise EngineError(
            "calls.seat", what=what, got=repr(seat), variant=variant.id, last=variant.players - 1
        )
    return seat
