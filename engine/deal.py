"""One deal as a state machine with explicit phases (RULES.md §1–§4).

Phases, in order (a variant skips the ones it does not have):

``draw``      the chance step: ``draw()`` gives the next card of the seeded shuffle to the next
              seat; calls (``call``) by any eligible seat may come between draws (升级 with 2
              decks: only the first call; overcalls, 反主, wait until after the deal).
``calls``     the window right after the deal: seats answer one at a time (``call`` or
              ``pass_``) — 升级's first-deal 反主 before the kitty is taken, its later-deal
              attackers' call when the dealer's side did not call, 120分's last window.
``redeal``    an attacker with a weak hand may ask for a redeal (升级 暴动, ``redeal_below``) or
              an opponent may refuse the deal (120分 ``refuse_below``): ``redeal`` or ``pass_``.
``bury``      the declarer (or an overcaller in 炒底) holds the kitty and buries as many cards.
``overcall``  升级 later deals: after the burial, overcalls (炒底) in turn; an overcaller buries.
``friend``    红五: the dealer names the friend card, or plays alone (``call_friend``).
``play``      tricks; the seat to act plays (``play``).
``done``      ``outcome`` says how it ended: ``"played"`` (``result`` holds the score),
              ``"redeal"`` (dealt again, the dealer stays) or ``"refused"`` (120分: next deal a
              race).

Each action has three faces: ``verify_x`` raises ``IllegalAction`` with a plain reason, ``can_x``
answers yes or no, ``x`` performs it and returns the frozen ``Record`` appended to ``log``. An
illegal action changes nothing. After the deal exactly one seat is to act (``to_act``).

The seed fully determines the shuffle and every chance step (``random.Random(seed)``), so the
setup plus the log rebuild the state (``engine.serialize.replay``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, cast

from . import combos, draws
from . import play as rules
from .calls import CallBook, call_shape
from .cards import (
    _POINTS,
    HJ,
    LJ,
    RANKS,
    SUITS,
    card_str,
    cards_str,
    full_pack,
    parse_card,
    points_of,
)
from .errors import EngineError, IllegalAction, Reason
from .order import TrumpContext
from .records import entry_fields, parse_entry_cards
from .scoring import DealResult, deal_result, kitty_multiplier
from .variants import ONE_TWENTY, RED_FIVE, TRACTOR, Variant, make_variant

DRAW: Final = "draw"
CALLS: Final = "calls"
REDEAL: Final = "redeal"
BURY: Final = "bury"
OVERCALL: Final = "overcall"
FRIEND: Final = "friend"
PLAY: Final = "play"
DONE: Final = "done"
PHASES: Final = (DRAW, CALLS, REDEAL, BURY, OVERCALL, FRIEND, PLAY, DONE)

RED_FIVE_CARD: Final = 13 + 3  # 5H
FRIEND_RANKS: Final = (11, 12)  # K, A


# --- records ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Record:
    """One action of the log. ``cards``: drawn card, call, burial, friend card or played cards.

    For a play, ``played`` holds what was really played when a throw failed (the forced
    component); otherwise it is ``None``.
    """

    kind: str
    seat: int
    cards: tuple[int, ...] = ()
    played: tuple[int, ...] | None = None

    def __init__(
        self,
        kind: str,
        seat: int,
        cards: tuple[int, ...] = (),
        played: tuple[int, ...] | None = None,
    ) -> None:
        # written out (the dataclass keeps eq, hash, repr and frozenness): the generated one is an
        # interpreted function even in the compiled build, about 16 times slower there
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "played", played)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.cards or self.kind in ("friend", "call", "bury", "play"):
            d["cards"] = cards_str(self.cards)
        if self.played is not None:
            d["played"] = cards_str(self.played)
        return d

    @staticmethod
    def from_json(d: Any) -> Record:
        kind, seat, cards = entry_fields(d, ACTION_KINDS)
        played = d.get("played")
        if played is not None and not isinstance(played, list):
            raise EngineError("record.played", got=repr(played))
        return Record(
            kind,
            seat,
            parse_entry_cards(cards),
            None if played is None else parse_entry_cards(played),
        )


ACTION_KINDS: Final = ("draw", "call", "pass", "redeal", "bury", "friend", "play")


@dataclass(frozen=True)
class DealSetup:
    """Everything besides the log that determines a deal.

    ``levels``: the fixed sides' levels (side 0, side 1); red five: ``("2", "2")``.
    ``dealer``: the dealer (declarer) if already known (later deals), else ``None`` (first deal:
    decided by the calls). Red five: the previous dealer (原庄; seat 0 in the first deal).
    ``first``: the first deal of a game (anyone may call; 升级 反主反打; 120分 抢2).
    ``race``: 120分 after a refused deal: each side calls with its own level, like a first deal.
    """

    variant: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    levels: tuple[str, str] = ("2", "2")
    dealer: int | None = None
    first: bool = True
    race: bool = False
    deal_no: int = 1
    pack: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        d = {
            "variant": self.variant,
            "options": dict(self.options),
            "seed": self.seed,
            "levels": list(self.levels),
            "dealer": self.dealer,
            "first": self.first,
            "race": self.race,
            "deal_no": self.deal_no,
        }
        if self.pack is not None:
            d["pack"] = cards_str(self.pack)
        return d

    @staticmethod
    def from_json(d: Any) -> DealSetup:
        if not isinstance(d, dict):
            raise EngineError("setup.type")
        unknown = set(d) - {
            "variant",
            "options",
            "seed",
            "levels",
            "dealer",
            "first",
            "race",
            "deal_no",
            "pack",
        }
        if unknown:
            raise EngineError("setup.unknown_fields", fields=", ".join(sorted(unknown)))
        if "variant" not in d:
            raise EngineError("setup.no_variant")
        levels = d.get("levels", ["2", "2"])
        if not isinstance(levels, list | tuple) or len(levels) != 2:
            raise EngineError("setup.levels_type", got=repr(levels))
        options = d.get("options") or {}
        if not isinstance(options, dict):
            raise EngineError("options.object", got=repr(options))
        return DealSetup(
            d["variant"],
            dict(options),
            d.get("seed", 0),
            (levels[0], levels[1]),
            d.get("dealer"),
            d.get("first", True),
            d.get("race", False),
            d.get("deal_no", 1),
            None if d.get("pack") is None else tuple(_parse_list(d["pack"], "pack")),
        )


def _parse_list(cards: object, what: str) -> list[int]:
    if not isinstance(cards, list | tuple):
        raise EngineError("cards.named_list", what=what, got=repr(cards))
    return [parse_card(c) for c in cards]


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise EngineError("seed.type", got=repr(seed))
    return seed


# --- the deal -----------------------------------------------------------------------------------


class Deal:
    """A deal in progress. Read the state through attributes and methods; change it only by
    actions (``draw``, ``call``, ``pass_``, ``redeal``, ``bury``, ``call_friend``, ``play``)."""

    def __init__(self, setup: DealSetup) -> None:
        if not isinstance(setup, DealSetup):
            raise EngineError("deal.setup_type", got=repr(setup))
        self.setup = setup
        if not isinstance(setup.options, dict):
            raise EngineError("options.object", got=repr(setup.options))
        if not isinstance(setup.levels, tuple | list) or len(setup.levels) != 2:
            raise EngineError("setup.levels", got=repr(setup.levels))
        v = make_variant(setup.variant, setup.options)
        self.variant: Variant = v
        seed = _check_seed(setup.seed)
        for lv in setup.levels:
            if lv not in RANKS:
                raise EngineError("level.unknown", got=repr(lv), levels=" ".join(RANKS))
        if v.id == RED_FIVE and tuple(setup.levels) != ("2", "2"):
            raise EngineError("setup.red_five_level")
        n = v.players
        if setup.dealer is not None and (
            isinstance(setup.dealer, bool)
            or not isinstance(setup.dealer, int)
            or not 0 <= setup.dealer < n
        ):
            raise EngineError("setup.dealer", last=n - 1, got=repr(setup.dealer))
        if not isinstance(setup.first, bool) or not isinstance(setup.race, bool):
            raise EngineError("setup.flags")
        if setup.race and v.id != ONE_TWENTY:
            raise EngineError("setup.race")
        if not setup.first and setup.dealer is None and not setup.race:
            raise EngineError("setup.later_dealer")
        if (
            isinstance(setup.deal_no, bool)
            or not isinstance(setup.deal_no, int)
            or setup.deal_no < 1
        ):
            raise EngineError("deal_no.range", got=repr(setup.deal_no))
        self.n = n
        self.rng = random.Random(seed)
        pack = full_pack(v.decks)
        draws.shuffle(self.rng, pack)  # the same shuffle as self.rng.shuffle(pack)
        if setup.pack is not None:
            # a stacked pack (tests, or a physical table's deal typed in): the seed still drives
            # the other chance steps
            given = list(setup.pack)
            if Counter(given) != Counter(pack):
                raise EngineError("setup.pack", n=len(pack))
            pack = given
        self.pack: list[int] = pack
        self.to_deal = n * v.hand
        self.kitty_cards: list[int] = pack[self.to_deal :]
        self.open_calls = setup.first or setup.race  # anyone may call; calls decide the dealer
        self.prev_dealer: int | None = setup.dealer
        self.dealer: int | None = None if (self.open_calls and v.id != RED_FIVE) else setup.dealer
        if v.id == RED_FIVE:
            self.prev_dealer = 0 if setup.dealer is None else setup.dealer
            self.dealer = None
            self.open_calls = True
        self.levels = tuple(setup.levels)
        # who draws first: 120分 by the turned card after the cut; else the (previous) dealer
        shuffler = self.prev_dealer if self.prev_dealer is not None else 0
        self.cut_card: int | None = None
        if v.id == ONE_TWENTY:
            self.cut_card = pack[0]
            number = 1 if pack[0] >= LJ else pack[0] % 13 + 2
            if number == 14:
                number = 1  # an ace counts 1
            self.first_drawer = (shuffler + number - 1) % n
        else:
            self.first_drawer = shuffler
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.drawn = 0
        self.phase = DRAW
        self.book = CallBook(v, self.levels[0], race=setup.race)
        self.call_seq: list[tuple[int, tuple[int, ...], bool]] = []  # (seat, cards, counted)
        self.first_to_call: int | None = None
        self.window: list[int] = []
        self.window_kind = ""
        self.trump: str | None = None
        self.trump_set = False
        self.trump_source = ""  # "call", "kitty", "spades", "random" (压庄)
        self.level: str | None = None if self.dealer is None else self._side_level(self.dealer)
        if v.id == RED_FIVE:
            self.level = "2"
        self.ctx: TrumpContext | None = None
        self.buried: list[int] = []
        self.burier: int | None = None
        self.kitty_owner: int | None = None
        self.burials = 0
        self.friend_card: int | None = None
        self.friend_called = False
        self.friend: int | None = None
        self.friend_revealed = False
        self.friend_grabbed = False
        self.tricks: list[Trick] = []
        self.trick: Trick | None = None
        self.won: list[int] = [0] * n  # card points of the tricks each seat won
        self.failed_throws: list[int] = []  # seats, in order
        self.failed_throw_cards: list[int] = []  # cards each failed throw took back, in order
        self.outcome: str | None = None
        self.result: DealResult | None = None
        self.kitty_bonus: tuple[int, int] | None = None  # (kitty points, multiplier)
        self.kitty_revealed = False
        self.redeal_by: int | None = None
        self.log: list[Record] = []
        self._vouched: tuple[int, int, int, list[int], tuple[int, ...]] | None = None

    # --- helpers -------------------------------------------------------------------------------
    def _side_level(self, seat: int) -> str:
        if self.variant.id == RED_FIVE:
            return "2"
        return self.levels[seat % 2]

    def side_of(self, seat: int) -> int:
        """Fixed sides: 0 or 1. Red five: 0 for the dealer's side (dealer and friend), 1 else."""
        seat = self._seat(seat)
        if self.variant.fixed_sides:
            return seat % 2
        return 0 if seat == self.dealer or (seat == self.friend and seat is not None) else 1

    def is_attacker(self, seat: int) -> bool:
        """Is ``seat`` on the attacking side as far as the engine knows (red five: once the
        friend is known; before that only the dealer is sure to be a declarer)."""
        seat = self._seat(seat)
        if self.dealer is None:
            return False
        if self.variant.fixed_sides:
            return seat % 2 != self.dealer % 2
        return seat != self.dealer and seat != self.friend

    @property
    def to_act(self) -> int | None:
        """The one seat whose action the deal waits for; ``None`` while cards are drawn (the
        next step is the chance step ``draw``) and once the deal is done."""
        ph = self.phase
        if ph in (CALLS, REDEAL, OVERCALL):
            return self.window[0]
        if ph == BURY:
            return self.burier
        if ph == FRIEND:
            return self.dealer
        if ph == PLAY:
            assert self.trick is not None
            return (self.trick.leader + len(self.trick.plays)) % self.n
        return None

    @property
    def version(self) -> int:
        """How many actions the deal has taken: a client sends the version it saw with each
        move, and a stale or repeated move can be refused before it reaches the engine."""
        return len(self.log)

    @property
    def next_drawer(self) -> int | None:
        if self.phase != DRAW:
            return None
        return (self.first_drawer + self.drawn) % self.n

    @property
    def kitty_size(self) -> int:
        return self.variant.kitty

    def _seat(self, seat: object) -> int:
        if type(seat) is int and 0 <= seat < self.n:  # the usual case, without isinstance
            return seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction("seat.unknown", got=repr(seat), last=self.n - 1)
        return seat

    def _cards(self, cards: object) -> list[int]:
        t = type(cards)
        if t is list or t is tuple:  # the usual case: card numbers, checked without isinstance
            for c in cards:  # type: ignore[attr-defined]
                if type(c) is not int or not 0 <= c <= HJ:
                    break
            else:
                return list(cards)  # type: ignore[call-overload]
        if isinstance(cards, str) or not isinstance(cards, Sequence):
            raise IllegalAction("cards.list", got=repr(cards))
        out: list[int] = []
        for c in cards:
            if isinstance(c, str):
                out.append(parse_card(c))
            elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= HJ:
                out.append(c)
            else:
                raise IllegalAction("card.invalid", got=repr(c))
        return out

    def _in_hand(self, seat: int, cards: list[int], what: str) -> None:
        hand = self.hands[seat]
        if len(cards) == 1:
            if cards[0] in hand:
                return
            need = {cards[0]: 1}
        else:
            need = dict.fromkeys(cards, 0)  # first-seen order: the first missing card is named
            for c in cards:
                need[c] += 1
        for c, k in need.items():
            have = hand.count(c)
            if have < k:
                if have:
                    raise IllegalAction(
                        "card.too_few_in_hand",
                        seat=seat,
                        action=what,
                        card=card_str(c),
                        n=k,
                        held=have,
                    )
                raise IllegalAction("card.not_in_hand", seat=seat, action=what, card=card_str(c))

    def _log(self, rec: Record) -> Record:
        self.log.append(rec)
        return rec

    def _turn(self, seat: int, action: str) -> None:
        if self.to_act != seat:
            who = self.to_act
            if who is None:
                raise IllegalAction("turn.nobody", action=action, phase=self.phase)
            raise IllegalAction("turn.not_yours", to_act=who, seat=seat)

    # --- draw ----------------------------------------------------------------------------------
    def verify_draw(self) -> None:
        if self.phase != DRAW:
            raise IllegalAction("phase.draw_over", phase=self.phase)

    def can_draw(self) -> bool:
        return self.phase == DRAW

    def draw(self) -> Record:
        """The chance step: the next card of the shuffle goes to the next seat."""
        if self.phase != DRAW:
            self.verify_draw()  # raises
        drawn = self.drawn
        seat = (self.first_drawer + drawn) % self.n
        card = self.pack[drawn]
        self.hands[seat].append(card)
        self.drawn = drawn = drawn + 1
        rec = Record("draw", seat, (card,))
        self.log.append(rec)
        if drawn == self.to_deal:
            self._end_draw()
        return rec

    def in_last_rounds(self) -> bool:
        """Red five: the last two rounds of the deal, when only the previous dealer may call."""
        return self.drawn > self.to_deal - 2 * self.n

    # --- calls ---------------------------------------------------------------------------------
    def _call_level(self, seat: int) -> str:
        if self.variant.id == RED_FIVE:
            return "2"
        if self.open_calls or (self.phase == CALLS and self.window_kind == "attackers"):
            return self._side_level(seat)  # an attacker calling becomes dealer at his level
        assert self.level is not None
        return self.level

    def verify_call(self, seat: int, cards: Sequence[int]) -> None:
        who = self._seat(seat)  # a typed local (see bots.RandomBot.act)
        cs = self._cards(cards)
        v = self.variant
        ph = self.phase
        if ph == DRAW:
            reason = self._draw_call_reason(who)
            if reason:
                raise IllegalAction.because(reason)
        elif ph in (CALLS, OVERCALL):
            self._turn(who, "call")
        else:
            raise IllegalAction("phase.no_calls", phase=ph)
        self._in_hand(who, cs, "show")
        if self.book.hidden and ph == DRAW:
            shape = call_shape(v, self._call_level(who), cs)
            if isinstance(shape, Reason):
                raise IllegalAction.because(shape)
            return
        reason = self.book.why_not(who, cs, self._call_level(who))
        if reason is not None:
            raise IllegalAction.because(reason)
        if ph == DRAW and v.id == TRACTOR and self.book.standing is not None:
            # RULES §2: the first accepted call makes its player dealer; overcalls (反主) come
            # after the deal (seed 004: 反主是指每局报主结束后，开始出牌之前)
            raise IllegalAction("call.after_deal", caller=self.book.caller)

    def _draw_call_reason(self, seat: int) -> Reason | None:
        v = self.variant
        if v.id == RED_FIVE:
            if self.book.standing is not None:
                return Reason("call.red_five_shown")
            if self.in_last_rounds() and seat != self.prev_dealer:
                return Reason("call.last_rounds", dealer=self.prev_dealer)
        elif not self.open_calls:
            assert self.dealer is not None
            if seat % 2 != self.dealer % 2:
                return Reason("call.dealer_side", seats=list(range(self.dealer % 2, self.n, 2)))
        return None

    def can_call_now(self, seat: int) -> bool:
        """During the draw: may ``seat`` call at all now (whatever its cards)?"""
        seat = self._seat(seat)
        return self.phase == DRAW and self._draw_call_reason(seat) is None

    def call_options(self, seat: int) -> list[list[int]]:
        """Every call shape ``seat``'s hand could show (not checked against the standing call
        or the moment): the candidates ``legal_calls`` filters."""
        who = self._seat(seat)  # a typed local (see bots.RandomBot.act)
        v = self.variant
        lv = RANKS.index(self._call_level(who))
        # only the level cards and the jokers count, in one pass over the hand (no Counter):
        # held[s] copies of suit s's level card, held[4] low jokers, held[5] high jokers
        held = [0, 0, 0, 0, 0, 0]
        for c in self.hands[who]:
            if c >= LJ:
                held[c - LJ + 4] += 1
            elif c % 13 == lv:
                held[c // 13] += 1
        out: list[list[int]] = []
        for s in range(4):
            card = s * 13 + lv
            k = held[s]
            if not k:
                continue
            if v.id == TRACTOR and v.decks == 2:
                joker = HJ if s in (1, 2) else LJ
                if held[joker - LJ + 4]:
                    out.append([card, joker])
                    if k >= 2:
                        out.append([card, card, joker])
            elif v.id == RED_FIVE:
                out.append([card])
            else:
                out.extend([card] * j for j in range(1, k + 1))
        if v.id == TRACTOR and v.decks == 2:
            for j in (LJ, HJ):
                if held[j - LJ + 4] >= 2:
                    out.append([j, j])
        elif v.id == ONE_TWENTY:
            for j in (LJ, HJ):
                out.extend([j] * m for m in range(2, held[j - LJ + 4] + 1))
        return out

    def legal_calls(self, seat: int) -> list[list[int]]:
        """The calls ``seat`` may make right now (a client offers these as buttons)."""
        who = self._seat(seat)  # a typed local (see bots.RandomBot.act)
        if self.phase not in (DRAW, CALLS, OVERCALL):
            return []
        return [c for c in self.call_options(who) if self.can_call(who, c)]

    def actions(self, seat: int) -> list[str]:
        """The kinds of action ``seat`` may take now: ``call``, ``pass``, ``redeal``, ``bury``,
        ``friend``, ``play`` (``draw`` is the chance step, no seat's action)."""
        seat = self._seat(seat)
        ph = self.phase
        out: list[str] = []
        if ph == DRAW:
            if self.can_call_now(seat) and self.legal_calls(seat):
                out.append("call")
            return out
        if self.to_act != seat:
            return out
        if ph in (CALLS, OVERCALL):
            if self.legal_calls(seat):
                out.append("call")
            out.append("pass")
        elif ph == REDEAL:
            if self.can_redeal(seat):
                out.append("redeal")
            out.append("pass")
        elif ph == BURY:
            out.append("bury")
        elif ph == FRIEND:
            out.append("friend")
        elif ph == PLAY:
            out.append("play")
        return out

    def can_call(self, seat: int, cards: Sequence[int]) -> bool:
        try:
            self.verify_call(seat, cards)
        except EngineError:
            return False
        return True

    def call(self, seat: int, cards: Sequence[int]) -> Record:
        """Show ``cards`` as a trump call (or overcall)."""
        self.verify_call(seat, cards)
        cs = self._cards(cards)
        counted = self.book.offer(seat, cs, self._call_level(seat))
        self.call_seq.append((seat, tuple(cs), counted))
        if counted and self.first_to_call is None:
            self.first_to_call = seat
        rec = self._log(Record("call", seat, tuple(cs)))
        ph = self.phase
        if ph == CALLS:
            if self.window_kind == "last" or self.setup.race:
                self._close_calls()
            elif self.window_kind == "attackers":
                # 升级 later deal: an attacker's call after the deal makes him dealer
                self.dealer = seat
                self.level = self._side_level(seat)
                self._close_calls()
            else:
                self._open_window(self._window_seats(after=seat), "calls")
        elif ph == OVERCALL:
            # 炒底: the overcaller takes the kitty and buries again; the dealer stays
            self._set_trump(self.book.trump, "call")
            self._start_bury(seat)
        return rec

    def _window_seats(self, after: int) -> list[int]:
        """Seats that answer the post-deal window, in play order after ``after``."""
        order = [(after + i) % self.n for i in range(1, self.n + 1)]
        v = self.variant
        standing = self.book.caller
        if v.id == ONE_TWENTY:
            if self.open_calls:
                return order
            assert self.dealer is not None
            return [s for s in order if s % 2 == self.dealer % 2]
        return [s for s in order if s != standing]

    def _open_window(self, seats: list[int], kind: str) -> None:
        self.window = seats
        self.window_kind = kind

    # --- pass ----------------------------------------------------------------------------------
    def verify_pass(self, seat: int) -> None:
        seat = self._seat(seat)
        if self.phase not in (CALLS, REDEAL, OVERCALL):
            raise IllegalAction("phase.pass", phase=self.phase)
        self._turn(seat, "pass")

    def can_pass(self, seat: int) -> bool:
        try:
            self.verify_pass(seat)
        except EngineError:
            return False
        return True

    def pass_(self, seat: int) -> Record:
        """Decline: no call in a call window, no redeal / refusal in the redeal window."""
        self.verify_pass(seat)
        rec = self._log(Record("pass", seat))
        self.window.pop(0)
        if not self.window:
            if self.phase == CALLS:
                self._close_calls()
            elif self.phase == REDEAL:
                self._after_redeal_window()
            else:
                self._start_play()
        return rec

    # --- the end of the draw and the settling of trump -----------------------------------------
    def _end_draw(self) -> None:
        v = self.variant
        if v.id == RED_FIVE:
            if self.book.standing is not None:
                self._close_calls()
            else:
                # the previous dealer may still show a 2 he drew with the last cards
                assert self.prev_dealer is not None
                self._open_window([self.prev_dealer], "last")
                self.phase = CALLS
            return
        if v.id == TRACTOR:
            if self.open_calls:
                if v.decks == 4:
                    self._close_calls()  # hidden calls are shown now; no window after them
                    return
                after = self.book.caller if self.book.caller is not None else self.n - 1
                self._open_window(self._window_seats(after=after), "calls")
                self.phase = CALLS
                return
            if self.book.standing is not None:
                self._close_calls()
                return
            assert self.dealer is not None
            attackers = [
                (self.dealer + i) % self.n for i in range(1, self.n) if i % 2 == 1
            ]  # the attackers in play order after the dealer
            self._open_window(attackers, "attackers")
            self.phase = CALLS
            return
        # one-twenty-6p: the last window (a race already won has none: nothing overcalls it)
        if self.setup.race and self.book.standing is not None:
            self._close_calls()
            return
        after = self.book.caller if self.book.caller is not None else self.first_drawer - 1
        self._open_window(self._window_seats(after=after % self.n), "calls")
        self.phase = CALLS

    def _close_calls(self) -> None:
        v = self.variant
        st = self.book.standing
        if v.id == RED_FIVE:
            if st is not None:
                self.dealer = st.seat
                self._set_trump(st.shape.suit, "call")
            else:
                self.dealer = self.prev_dealer
                self._set_trump(self._red_five_fallback(), "random")
        elif v.id == TRACTOR:
            if self.open_calls:
                self.dealer = st.seat if st is not None else 0
            assert self.dealer is not None
            self.level = self._side_level(self.dealer)
            if st is not None:
                self._set_trump(st.shape.suit, "call")
            else:
                self._tractor_fallback()
        else:  # one-twenty-6p
            if st is None:
                if self.open_calls:
                    self._finish("redeal")  # nobody called in the first deal: dealt again
                    return
                self._set_trump(self._kitty_suit(), "kitty")
            else:
                if self.open_calls:
                    self.dealer = st.seat
                    self.level = self._side_level(st.seat)
                self._set_trump(st.shape.suit, "call")
        self._settle()

    def _kitty_suit(self) -> str | None:
        for c in self.kitty_cards:
            if c < LJ:
                return SUITS[c // 13]
        return None

    def _tractor_fallback(self) -> None:
        if self.variant.option("no_call_trump") == "spades" or not self.kitty_cards:
            self._set_trump("S", "spades")
        else:
            self._set_trump(self._kitty_suit(), "kitty")

    def _red_five_fallback(self) -> str:
        """压庄: a random 2 of the dealer's hand, else of the kitty, else a random suited kitty
        card (not a red five), else ♦."""
        assert self.dealer is not None
        twos = [c for c in self.hands[self.dealer] if c < LJ and c % 13 == 0]
        if not twos:
            twos = [c for c in self.kitty_cards if c < LJ and c % 13 == 0]
        if not twos:
            twos = [c for c in self.kitty_cards if c < LJ and c != RED_FIVE_CARD]
        if not twos:
            return "D"
        return SUITS[draws.choice(self.rng, sorted(twos)) // 13]

    def _set_trump(self, suit: str | None, source: str) -> None:
        self.trump = suit
        self.trump_set = True
        self.trump_source = source
        if self.level is not None:
            self.ctx = TrumpContext(self.variant, self.level, suit)

    def _settle(self) -> None:
        """Calls are over: the dealer and trump are known. Redeal window, then the kitty."""
        assert self.dealer is not None and self.level is not None
        if self.ctx is None or self.ctx.level != self.level:
            self.ctx = TrumpContext(self.variant, self.level, self.trump)
        v = self.variant
        limit = None
        if v.id == TRACTOR:
            limit = v.option("redeal_below")
        elif v.id == ONE_TWENTY:
            limit = v.option("refuse_below")
        if limit is not None:
            seats = [(self.dealer + i) % self.n for i in range(1, self.n) if i % 2 == 1]
            self._open_window(seats, "redeal")
            self.phase = REDEAL
            return
        self._after_redeal_window()

    def redeal_limit(self) -> int | None:
        v = self.variant
        if v.id == TRACTOR:
            return v.option("redeal_below")  # type: ignore[no-any-return]
        if v.id == ONE_TWENTY:
            return v.option("refuse_below")  # type: ignore[no-any-return]
        return None

    # --- redeal / refuse -----------------------------------------------------------------------
    def verify_redeal(self, seat: int) -> None:
        seat = self._seat(seat)
        if self.phase != REDEAL:
            raise IllegalAction("phase.redeal", phase=self.phase)
        self._turn(seat, "ask for a redeal")
        limit = self.redeal_limit()
        assert limit is not None
        pts = points_of(self.hands[seat])
        if pts >= limit:
            raise IllegalAction("redeal.points", seat=seat, points=pts, limit=limit)

    def can_redeal(self, seat: int) -> bool:
        try:
            self.verify_redeal(seat)
        except EngineError:
            return False
        return True

    def redeal(self, seat: int) -> Record:
        """An attacker with a weak hand asks for a redeal (升级 暴动; 120分 refusing the deal)."""
        self.verify_redeal(seat)
        rec = self._log(Record("redeal", seat))
        self.redeal_by = seat
        self.window = []
        self._finish("refused" if self.variant.id == ONE_TWENTY else "redeal")
        return rec

    def _after_redeal_window(self) -> None:
        assert self.dealer is not None
        if self.variant.kitty:
            self._start_bury(self.dealer)
        else:
            self._start_play()

    # --- bury ----------------------------------------------------------------------------------
    def _start_bury(self, seat: int) -> None:
        take = self.buried if self.burials else self.kitty_cards
        self.hands[seat].extend(take)
        self.buried = []
        self.burier = seat
        self.window = []
        self.phase = BURY

    def verify_bury(self, seat: int, cards: Sequence[int]) -> None:
        seat = self._seat(seat)
        cs = self._cards(cards)
        if self.phase != BURY:
            raise IllegalAction("phase.bury", phase=self.phase)
        self._turn(seat, "bury")
        if len(cs) != self.kitty_size:
            raise IllegalAction("bury.count", need=self.kitty_size, got=len(cs))
        self._in_hand(seat, cs, "bury")

    def can_bury(self, seat: int, cards: Sequence[int]) -> bool:
        try:
            self.verify_bury(seat, cards)
        except EngineError:
            return False
        return True

    def bury(self, seat: int, cards: Sequence[int]) -> Record:
        """Bury the kitty face down (扣底; again by an overcaller in 炒底)."""
        self.verify_bury(seat, cards)
        cs = self._cards(cards)
        hand = self.hands[seat]
        for c in cs:
            hand.remove(c)
        self.buried = cs
        self.kitty_owner = seat
        self.burials += 1
        self.burier = None
        rec = self._log(Record("bury", seat, tuple(cs)))
        v = self.variant
        assert self.dealer is not None
        if v.id == RED_FIVE:
            self.phase = FRIEND
        elif v.id == TRACTOR and not self.open_calls and self.book.standing is not None:
            self._open_window(self._window_seats(after=seat), "overcall")
            self.phase = OVERCALL
            if not self.window:
                self._start_play()
        else:
            self._start_play()
        return rec

    # --- friend (red five) ---------------------------------------------------------------------
    def verify_call_friend(self, seat: int, card: int | str | None) -> None:
        seat = self._seat(seat)
        if self.phase != FRIEND:
            raise IllegalAction("phase.friend", phase=self.phase)
        self._turn(seat, "call the friend")
        if card is None:
            return
        c = self._cards([card])[0]
        if not (c in (HJ, RED_FIVE_CARD) or (c < LJ and c % 13 in FRIEND_RANKS)):
            raise IllegalAction("friend.card", card=card_str(c))

    def can_call_friend(self, seat: int, card: int | str | None) -> bool:
        try:
            self.verify_call_friend(seat, card)
        except EngineError:
            return False
        return True

    def call_friend(self, seat: int, card: int | str | None) -> Record:
        """Name the friend card (找伴), or ``None`` to play alone (独打)."""
        self.verify_call_friend(seat, card)
        self.friend_called = True
        if card is None:
            rec = self._log(Record("friend", seat, ()))
        else:
            c = self._cards([card])[0]
            self.friend_card = c
            held = self.hands[seat].count(c)
            if held == 2:  # 死拼: whoever holds the third copy (revealed when played)
                for s in range(self.n):
                    if s != seat and c in self.hands[s]:
                        self.friend = s
            rec = self._log(Record("friend", seat, (c,)))
        self._start_play()
        return rec

    @property
    def alone(self) -> bool:
        """Red five: the dealer plays without a friend (so far, if the friend card is pending)."""
        return self.friend is None

    def friend_pending(self) -> bool:
        """The friend card is named and another seat may still become the friend by playing it."""
        if self.friend_card is None or self.friend is not None:
            return False
        assert self.dealer is not None
        held = self.hands[self.dealer].count(self.friend_card)
        if held >= 2:
            return False  # alone (3 held) or 死拼 with the third copy in the kitty
        return any(self.friend_card in h for s, h in enumerate(self.hands) if s != self.dealer)

    # --- play ----------------------------------------------------------------------------------
    def _start_play(self) -> None:
        assert self.dealer is not None and self.ctx is not None
        self.window = []
        self.phase = PLAY
        self.trick = Trick(self.dealer)

    def verify_play(self, seat: int, cards: Sequence[int]) -> None:
        self._verify_play(seat, cards)

    def _verify_play(
        self, seat: object, cards: object
    ) -> tuple[int, list[int], list[combos.Component] | None]:
        """The checks of ``verify_play``; returns the seat, the cards as card numbers and, for a
        lead, its components (read once here and used again by ``play``)."""
        seat = self._seat(seat)
        cs = self._cards(cards)
        if self.phase != PLAY:
            raise IllegalAction("phase.play", phase=self.phase)
        self._turn(seat, "play")
        if not cs:
            raise IllegalAction("play.empty")
        self._in_hand(seat, cs, "play")
        trick, ctx = self.trick, self.ctx
        assert trick is not None and ctx is not None
        hand = self.hands[seat]
        if not trick.plays:
            if combos._common_suit(cs, ctx) is None:
                raise IllegalAction("lead.one_suit", cards=cards_str(cs))
            return seat, cs, combos._decompose(cs, ctx)
        lead = trick.plays[0][1]
        comps = trick.lead_comps
        if comps is None:
            comps = trick.lead_comps = combos._decompose(lead, ctx)
        hand_s = rules._suit_counts(hand, ctx.suit_tab[lead[0]], ctx)
        rules._follow_checked(lead, hand, cs, hand_s, ctx, comps)
        return seat, cs, None

    def _vouch(self, seat: int, cards: list[int]) -> None:
        """A legal-move generator (a bot building its play from this deal's own rules) vouches
        that ``cards`` is a legal play of ``seat`` now: ``play`` called with this very list,
        unchanged, for the same seat before any other action skips re-proving it. Anything
        else (another list, another seat, a later state, another deal) is verified in full."""
        if self.phase == PLAY and self.to_act == seat:
            self._vouched = (id(self), len(self.log), seat, cards, tuple(cards))

    def can_play(self, seat: int, cards: Sequence[int]) -> bool:
        try:
            self.verify_play(seat, cards)
        except EngineError:
            return False
        return True

    def playable_cards(self, seat: int) -> list[int]:
        """The cards of ``seat``'s hand that may be part of a legal play now (a client greys out
        the rest); empty when it is not that seat's turn to play."""
        seat = self._seat(seat)
        if self.phase != PLAY or self.to_act != seat:
            return []
        assert self.trick is not None and self.ctx is not None
        hand = self.hands[seat]
        if not self.trick.plays:
            return sorted(set(hand))
        return sorted(rules.playable_cards(self.trick.plays[0][1], hand, self.ctx))

    def throw_outcome(self, seat: int, cards: Sequence[int]) -> tuple[bool, tuple[int, ...]]:
        """For a lead: (does it stand, the cards really played). A single combination stands."""
        seat = self._seat(seat)
        cs = self._cards(cards)
        if self.ctx is None:
            raise IllegalAction("throw.no_trump")
        if len(combos.lead_components(cs, self.ctx)) == 1:
            return True, tuple(cs)
        others = [h for s, h in enumerate(self.hands) if s != seat]
        check = rules.check_throw(cs, others, self.ctx)
        if check.ok or not check.forced:
            return True, tuple(cs)
        return False, tuple(check.forced)

    def play(self, seat: int, cards: Sequence[int]) -> Record:
        """Play cards: a lead (a throw that fails plays its forced component and is recorded as
        a penalty) or a follow."""
        v = self._vouched
        if (
            v is not None
            and cards is v[3]
            and v[0] == id(self)
            and v[1] == len(self.log)
            and type(seat) is int
            and seat == v[2]
            and _unchanged(cast("list[object]", v[3]), v[4])
        ):
            self._vouched = None
            return self._play(seat, list(v[4]), None)
        seat, cs, comps = self._verify_play(seat, cards)
        return self._play(seat, cs, comps)

    def _play(self, seat: int, cs: list[int], comps: list[combos.Component] | None) -> Record:
        """A play known legal: ``cs`` are card numbers; ``comps`` the lead's components when
        already read (``None``: read them here if this is a lead)."""
        trick = self.trick
        ctx = self.ctx
        assert trick is not None and ctx is not None
        played: tuple[int, ...] | None = None
        actual = tuple(cs)
        leading = not trick.plays
        if leading:
            if comps is None:
                comps = combos._decompose(cs, ctx)
            if len(comps) > 1:
                others = [h for s, h in enumerate(self.hands) if s != seat]
                check = rules._throw_checked(cs, comps, others, ctx)
                if not check.ok and check.forced:
                    actual = tuple(check.forced)
                    played = actual
                    self.failed_throws.append(seat)
                    self.failed_throw_cards.append(len(cs) - len(actual))
                    comps = combos._decompose(actual, ctx)
        hand = self.hands[seat]
        fc = self.friend_card
        if (
            fc is not None
            and seat != self.dealer
            and fc in actual
            and (self.friend is None or (self.friend == seat and not self.friend_revealed))
        ):
            if self.friend is None:
                self.friend = seat
            self.friend_revealed = True
            if not ctx.trump_tab[fc]:
                # 抢伴: the friend card played while its player keeps cards of that suit
                st = ctx.suit_tab
                suit = st[fc]
                rest = Counter(hand)
                rest.subtract(actual)
                grabbed = any(k > 0 and st[c] == suit for c, k in rest.items())
                self.friend_grabbed = grabbed
        for c in actual:
            hand.remove(c)
        if leading:
            trick.lead_comps = comps
        trick.plays.append((seat, actual))
        rec = Record("play", seat, tuple(cs), played)
        self.log.append(rec)
        if len(trick.plays) == self.n:
            self._end_trick()
        return rec

    def _end_trick(self) -> None:
        trick = self.trick
        assert trick is not None and self.ctx is not None
        plays = [p for _, p in trick.plays]
        comps = trick.lead_comps
        if comps is None:
            comps = trick.lead_comps = combos._decompose(plays[0], self.ctx)
        winner = trick.plays[rules._winner_checked(plays, comps, self.ctx)][0]
        trick.winner = winner
        trick.points = sum([_POINTS[c] for p in plays for c in p])
        self.won[winner] += trick.points
        self.tricks.append(trick)
        if not self.hands[winner]:
            self.trick = None
            self._score()
        else:
            self.trick = Trick(winner)

    def attackers_points(self) -> int:
        """Card points the attackers took in tricks so far (red five: by the sides known now)."""
        return sum(p for s, p in enumerate(self.won) if self.is_attacker(s))

    def _score(self) -> None:
        v = self.variant
        assert self.dealer is not None
        last = self.tricks[-1]
        mult = None
        kitty_pts = points_of(self.buried)
        if v.kitty and self.is_attacker(last.winner or 0):
            assert self.ctx is not None
            comps = last.lead_comps or combos._decompose(last.plays[0][1], self.ctx)
            n = max(c.size for c in comps)
            mult = kitty_multiplier(v.option("kitty_multiplier"), n)
            self.kitty_bonus = (kitty_pts, mult)
            self.kitty_revealed = True
        else:
            kitty_pts = 0
        points = self.attackers_points()
        if v.id == TRACTOR:
            side = self.dealer % 2
            throws = list(zip(self.failed_throws, self.failed_throw_cards, strict=True))
            ft: Any = {
                "declarer": [n for s, n in throws if s % 2 == side],
                "attackers": [n for s, n in throws if s % 2 != side],
            }
            self.result = deal_result(v, points, kitty_pts, mult, ft)
        elif v.id == ONE_TWENTY:
            self.result = deal_result(v, points, kitty_pts, mult)
        else:
            self.result = deal_result(
                v,
                points,
                kitty_pts,
                mult,
                list(self.failed_throws),
                dealer=self.dealer,
                friend=self.friend,
                friend_grabbed=self.friend_grabbed and self.friend is not None,
            )
        self._finish("played")

    def _finish(self, outcome: str) -> None:
        self.outcome = outcome
        self.phase = DONE
        self.window = []

    # --- facts for the game and the views ------------------------------------------------------
    def misplays(self) -> list[int]:
        """120分: the sides whose failed throws count as misplays (吃苍蝇), one entry each."""
        if self.variant.id != ONE_TWENTY:
            return []
        return [s % 2 for s in self.failed_throws]

    def hand(self, seat: int) -> list[int]:
        return list(self.hands[self._seat(seat)])

    def played_cards(self) -> list[int]:
        out = [c for t in self.tricks for _, p in t.plays for c in p]
        if self.trick is not None:
            out.extend(c for _, p in self.trick.plays for c in p)
        return out

    def undealt(self) -> list[int]:
        """Cards not yet in anyone's hand, nor buried: the rest of the pack during the draw and
        the kitty until it is taken."""
        if self.phase == DRAW:
            return self.pack[self.drawn :]
        if self.burials == 0 and self.burier is None and self.outcome != "played":
            return list(self.kitty_cards)
        return []

    def state_dict(self) -> dict[str, Any]:
        """The whole state as JSON-able data (every hand included): for tests, caches, debug."""
        return {
            "setup": self.setup.to_json(),
            "phase": self.phase,
            "to_act": self.to_act,
            "drawn": self.drawn,
            "hands": [sorted(cards_str(h)) for h in self.hands],
            "dealer": self.dealer,
            "level": self.level,
            "trump": self.trump,
            "trump_set": self.trump_set,
            "trump_source": self.trump_source,
            "calls": [
                {"seat": s, "cards": cards_str(c), "counted": k} for s, c, k in self.call_seq
            ],
            "caller": self.book.caller,
            "window": list(self.window),
            "buried": cards_str(self.buried),
            "kitty_owner": self.kitty_owner,
            "burier": self.burier,
            "friend_card": None if self.friend_card is None else card_str(self.friend_card),
            "friend_called": self.friend_called,
            "friend": self.friend,
            "friend_revealed": self.friend_revealed,
            "friend_grabbed": self.friend_grabbed,
            "tricks": [t.to_json() for t in self.tricks],
            "trick": None if self.trick is None else self.trick.to_json(),
            "won": list(self.won),
            "failed_throws": list(self.failed_throws),
            "outcome": self.outcome,
            "result": None if self.result is None else _result_json(self.result),
            "kitty_bonus": None if self.kitty_bonus is None else list(self.kitty_bonus),
            "log_length": len(self.log),
        }


@dataclass
class Trick:
    leader: int
    plays: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    winner: int | None = None
    points: int = 0
    lead_comps: list[combos.Component] | None = None

    def __init__(
        self,
        leader: int,
        plays: list[tuple[int, tuple[int, ...]]] | None = None,
        winner: int | None = None,
        points: int = 0,
        lead_comps: list[combos.Component] | None = None,
    ) -> None:
        # written out (the dataclass keeps eq, hash, repr and frozenness): the generated one is an
        # interpreted function even in the compiled build, about 16 times slower there
        self.leader = leader
        self.plays = [] if plays is None else plays
        self.winner = winner
        self.points = points
        self.lead_comps = lead_comps

    def to_json(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "plays": [{"seat": s, "cards": cards_str(p)} for s, p in self.plays],
            "winner": self.winner,
            "points": self.points,
        }


def _unchanged(held: list[object], shown: tuple[object, ...]) -> bool:
    """A vouched list still holds the very int objects it held when vouched for (identity, not
    equality: a list edited in place is verified in full); a native loop when compiled."""
    if len(held) != len(shown):
        return False
    # a loop, not all(...): no generator frame in the pure engine (lengths checked above)
    for a, b in zip(held, shown):  # noqa: B905, SIM110
        if a is not b:
            return False
    return True


def _result_json(r: DealResult) -> dict[str, Any]:
    d: dict[str, Any] = {"total": r.total, "winner": r.winner}
    if r.ended_by is not None:
        d["ended_by"] = r.ended_by
    if r.levels is not None:
        d["levels"] = r.levels
    if r.units is not None:
        d["units"] = r.units
    if r.scores is not None:
        d["scores"] = list(r.scores)
    return d


def new_deal(
    variant: str,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    **setup: Any,
) -> Deal:
    """A fresh deal: ``new_deal("tractor-4p", seed=7)`` (first deal of a game), or with
    ``levels=("5", "3"), dealer=2, first=False`` for a later deal."""
    if not isinstance(options, dict | None):
        raise EngineError("options.object", got=repr(options))
    if "levels" in setup and isinstance(setup["levels"], list):
        setup["levels"] = tuple(setup["levels"])
    return Deal(DealSetup(variant, dict(options or {}), seed, **setup))


def apply(deal: Deal, rec: Record) -> Record:
    """Perform a logged action on ``deal`` (replay); the drawn card must match the shuffle."""
    if not isinstance(deal, Deal):
        raise EngineError("deal.type", got=repr(deal))
    if not isinstance(rec, Record):
        rec = Record.from_json(rec)
    k = rec.kind
    if k == "draw":
        draws.check_logged_draw(
            deal.next_drawer, deal.pack, deal.drawn, rec.seat, rec.cards, len(deal.log) + 1
        )
        return deal.draw()
    if k == "call":
        return deal.call(rec.seat, rec.cards)
    if k == "pass":
        return deal.pass_(rec.seat)
    if k == "redeal":
        return deal.redeal(rec.seat)
    if k == "bury":
        return deal.bury(rec.seat, rec.cards)
    if k == "friend":
        return deal.call_friend(rec.seat, rec.cards[0] if rec.cards else None)
    if k == "play":
        return deal.play(rec.seat, rec.cards)
    raise EngineError("record.kind_unknown", got=repr(k))
