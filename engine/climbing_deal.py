"""One deal of 争上游 (CLIMBING.md §2–§4) as a state machine with a replayable log.

Phases, in order:

``draw``     the chance step: before the draw one card of the shuffled pack is turned face up
             (``turned``); ``draw()`` gives the next card to the next seat in play order, the
             first drawer being seat ``(deal_no − 1) mod n`` (so the long hands go round). Every
             card is dealt; the first drawers' hands are one card longer.
``tribute``  (from the second deal, option ``tribute``) the previous loser gives his single
             highest card (``tribute``: any copy of that rank) to the previous winner…
``return``   …who gives any one card back (``give_back``) and leads. A loser holding both jokers
             (one deck) or both high jokers (two decks) pays nothing (抗贡, ``refused``), and
             then, as in the first deal or with ``tribute: false``, whoever drew the turned card
             leads.
``play``     rounds: the leader plays anything; then each seat still in, in turn, plays a
             higher play of the same kind and size (``play``) or passes (``pass_``); a pass does
             not stop a later play in the same round. When every other seat still in has passed
             in a row after a play, its player leads a new round, or, if he has gone out, the
             next seat still in after him. A seat that plays its last card goes out (``out``, in
             order); the deal ends when one seat is left: he is the loser (末游).
``done``     ``result``: the order of going out, each seat's place (1 … n) and points.

Each action has three faces: ``verify_x`` raises ``IllegalAction`` saying why, ``can_x``
answers yes or no, ``x`` performs it and returns the ``Record`` appended to ``log``. An illegal
action changes nothing. The seed determines the shuffle and the turned card, so the setup plus
the log rebuild the state (``replay``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from . import climbing as rules
from . import draws
from .cards import HJ, card_str, cards_str, full_pack, parse_card
from .deal import Record
from .errors import EngineError, IllegalAction
from .records import entry_fields, parse_entry_cards
from .variants import CLIMBING, Variant, make_variant

DRAW: Final = "draw"
TRIBUTE: Final = "tribute"
RETURN: Final = "return"
PLAY: Final = "play"
DONE: Final = "done"
PHASES: Final = (DRAW, TRIBUTE, RETURN, PLAY, DONE)
ACTION_KINDS: Final = ("draw", "tribute", "return", "play", "pass")


@dataclass(frozen=True)
class ClimbingSetup:
    """Everything besides the log that determines a deal. ``winner`` and ``loser``: the previous
    deal's first out and last (``None`` in the first deal); they pay and take tribute."""

    variant: str = CLIMBING
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    deal_no: int = 1
    winner: int | None = None
    loser: int | None = None
    pack: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "variant": self.variant,
            "options": dict(self.options),
            "seed": self.seed,
            "deal_no": self.deal_no,
            "winner": self.winner,
            "loser": self.loser,
        }
        if self.pack is not None:
            d["pack"] = cards_str(self.pack)
        return d

    @staticmethod
    def from_json(d: Any) -> ClimbingSetup:
        if not isinstance(d, dict):
            raise EngineError("setup.type")
        unknown = set(d) - {"variant", "options", "seed", "deal_no", "winner", "loser", "pack"}
        if unknown:
            raise EngineError("setup.unknown_fields", fields=", ".join(sorted(unknown)))
        options = d.get("options") or {}
        if not isinstance(options, dict):
            raise EngineError("options.object", got=repr(options))
        pack = d.get("pack")
        if pack is not None and not isinstance(pack, list):
            raise EngineError("cards.named_list", what="pack", got=repr(pack))
        return ClimbingSetup(
            d.get("variant", CLIMBING),
            dict(options),
            d.get("seed", 0),
            d.get("deal_no", 1),
            d.get("winner"),
            d.get("loser"),
            None if pack is None else tuple(parse_card(c) for c in pack),
        )


@dataclass(frozen=True)
class ClimbingResult:
    """A finished deal: ``out_order`` (every seat in the order it went out, the loser last),
    ``places`` (each seat's place 1 … n, seat 0 first) and ``points`` (by place)."""

    out_order: tuple[int, ...]
    places: tuple[int, ...]
    points: tuple[int, ...]

    @property
    def winner(self) -> int:
        return self.out_order[0]

    @property
    def loser(self) -> int:
        return self.out_order[-1]

    def to_json(self) -> dict[str, Any]:
        return {
            "out_order": list(self.out_order),
            "places": list(self.places),
            "points": list(self.points),
        }


def _int_or_none(value: object) -> bool:
    return value is None or (type(value) is int)


class ClimbingDeal:
    """A deal in progress. Read the state through attributes and methods; change it only by
    the actions ``draw``, ``tribute``, ``give_back``, ``play`` and ``pass_``."""

    def __init__(self, setup: ClimbingSetup) -> None:
        if not isinstance(setup, ClimbingSetup):
            raise EngineError("deal.setup_type", got=repr(setup))
        if not isinstance(setup.options, dict):
            raise EngineError("options.object", got=repr(setup.options))
        if setup.variant != CLIMBING:
            raise EngineError("climb.variant", got=repr(setup.variant))
        v = make_variant(CLIMBING, setup.options)
        self.variant: Variant = v
        self.setup = setup
        n = v.players
        self.n = n
        if isinstance(setup.seed, bool) or not isinstance(setup.seed, int):
            raise EngineError("seed.type", got=repr(setup.seed))
        no = setup.deal_no
        if isinstance(no, bool) or not isinstance(no, int) or no < 1:
            raise EngineError("deal_no.range", got=repr(no))
        w, lo = setup.winner, setup.loser
        if not (_int_or_none(w) and _int_or_none(lo)) or (w is None) != (lo is None):
            raise EngineError("climb.setup_places", got=repr((w, lo)), last=n - 1)
        if w is not None and lo is not None and (not 0 <= w < n or not 0 <= lo < n or w == lo):
            raise EngineError("climb.setup_places", got=repr((w, lo)), last=n - 1)
        self.rng = random.Random(setup.seed)
        pack = full_pack(v.decks)
        draws.shuffle(self.rng, pack)
        if setup.pack is not None:
            given = list(setup.pack)
            if Counter(given) != Counter(pack):
                raise EngineError("setup.pack", n=len(pack))
            pack = given
        self.pack: list[int] = pack
        # the turned card: one position of the pack (with two decks its twin is another card)
        self.turned_at: int = draws.below(self.rng, len(pack))
        self.turned: int = pack[self.turned_at]
        self.first_drawer = (no - 1) % n
        self.turned_seat: int = (self.first_drawer + self.turned_at) % n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.drawn = 0
        self.phase = DRAW
        self.tribute_due = bool(v.options["tribute"]) and w is not None
        self.refused = False  # 抗贡
        self.tribute_card: int | None = None
        self.returned_card: int | None = None
        self.lead_by = ""  # "turned" or "winner", once the draw is over
        self.leader: int | None = None  # the leader of the current round
        self.turn: int | None = None
        self.standing: tuple[int, tuple[int, ...]] | None = None  # (seat, cards) to beat
        self.standing_shape: rules.Shape | None = None
        self.passes = 0  # passes in a row since the standing play
        self.round: list[tuple[int, tuple[int, ...] | None]] = []  # this round: None = pass
        self.rounds: list[list[tuple[int, tuple[int, ...] | None]]] = []
        self.out: list[int] = []
        self.result: ClimbingResult | None = None
        self.outcome: str | None = None
        self.log: list[Record] = []

    # --- helpers -------------------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        """The seat the deal waits for; ``None`` during the draw (a chance step) and when done."""
        ph = self.phase
        if ph == PLAY:
            return self.turn
        if ph == TRIBUTE:
            return self.setup.loser
        if ph == RETURN:
            return self.setup.winner
        return None

    @property
    def version(self) -> int:
        return len(self.log)

    @property
    def next_drawer(self) -> int | None:
        if self.phase != DRAW:
            return None
        return (self.first_drawer + self.drawn) % self.n

    def _seat(self, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalAction("seat.unknown", got=repr(seat), last=self.n - 1)
        return seat

    def _cards(self, cards: object) -> list[int]:
        if isinstance(cards, str) or not isinstance(cards, Sequence):
            raise IllegalAction("cards.list", got=repr(cards))
        out: list[int] = []
        for c in cards:
            if isinstance(c, str):
                out.append(parse_card(c))
            elif type(c) is int and 0 <= c <= HJ:
                out.append(c)
            else:
                raise IllegalAction("card.invalid", got=repr(c))
        return out

    def _card(self, card: object) -> int:
        if isinstance(card, str):
            return parse_card(card)
        if type(card) is int and 0 <= card <= HJ:
            return card
        raise IllegalAction("card.invalid", got=repr(card))

    def _in_hand(self, seat: int, cards: list[int], what: str) -> None:
        hand = self.hands[seat]
        for c, k in Counter(cards).items():
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

    def _turn(self, seat: int, action: str) -> None:
        if self.to_act != seat:
            who = self.to_act
            if who is None:
                raise IllegalAction("turn.nobody", action=action, phase=self.phase)
            raise IllegalAction("turn.not_yours", to_act=who, seat=seat)

    def still_in(self, seat: int) -> bool:
        """Has ``seat`` still cards to play (not gone out)?"""
        return self._seat(seat) not in self.out

    def _next_in(self, seat: int) -> int:
        """The next seat still in after ``seat``, in play order."""
        for i in range(1, self.n + 1):
            s = (seat + i) % self.n
            if s not in self.out:
                return s
        raise AssertionError("nobody is left")  # pragma: no cover

    def actions(self, seat: int) -> list[str]:
        """What ``seat`` may do now: ``tribute``, ``return``, ``play``, ``pass``."""
        seat = self._seat(seat)
        if self.to_act != seat:
            return []
        if self.phase == TRIBUTE:
            return ["tribute"]
        if self.phase == RETURN:
            return ["return"]
        return ["play", "pass"] if self.standing is not None else ["play"]

    # --- draw ----------------------------------------------------------------------------------
    def verify_draw(self) -> None:
        if self.phase != DRAW:
            raise IllegalAction("phase.draw_over", phase=self.phase)

    def can_draw(self) -> bool:
        return self.phase == DRAW

    def draw(self) -> Record:
        """The chance step: the next card of the shuffle goes to the next seat."""
        self.verify_draw()
        seat = (self.first_drawer + self.drawn) % self.n
        card = self.pack[self.drawn]
        self.hands[seat].append(card)
        self.drawn += 1
        rec = Record("draw", seat, (card,))
        self.log.append(rec)
        if self.drawn == len(self.pack):
            self._end_draw()
        return rec

    def _end_draw(self) -> None:
        if self.tribute_due:
            loser = self.setup.loser
            assert loser is not None
            if rules.refuses_tribute(self.hands[loser], self.variant.decks):
                self.refused = True
            else:
                self.phase = TRIBUTE
                return
        self._start_play(self.turned_seat, "turned")

    def _start_play(self, leader: int, by: str) -> None:
        self.lead_by = by
        self.phase = PLAY
        self.leader = leader
        self.turn = leader

    # --- tribute and its return ----------------------------------------------------------------
    def tribute_rank(self) -> int | None:
        """The climbing rank the loser must give now (``None`` outside the tribute phase)."""
        if self.phase != TRIBUTE:
            return None
        loser = self.setup.loser
        assert loser is not None
        return max(rules.crank(c) for c in self.hands[loser])

    def verify_tribute(self, seat: int, card: int | str) -> None:
        seat = self._seat(seat)
        c = self._card(card)
        if self.phase != TRIBUTE:
            raise IllegalAction("climb.phase_tribute", phase=self.phase)
        self._turn(seat, "tribute")
        self._in_hand(seat, [c], "give")
        rank = self.tribute_rank()
        assert rank is not None
        if rules.crank(c) != rank:
            raise IllegalAction(
                "climb.tribute_highest", card=card_str(c), rank=rules.RANK_NAMES[rank]
            )

    def can_tribute(self, seat: int, card: int | str) -> bool:
        try:
            self.verify_tribute(seat, card)
        except EngineError:
            return False
        return True

    def tribute(self, seat: int, card: int | str) -> Record:
        """The loser gives his highest card (any copy of that rank) to the winner."""
        self.verify_tribute(seat, card)
        c = self._card(card)
        winner = self.setup.winner
        assert winner is not None
        self.hands[seat].remove(c)
        self.hands[winner].append(c)
        self.tribute_card = c
        self.phase = RETURN
        rec = Record("tribute", seat, (c,))
        self.log.append(rec)
        return rec

    def verify_give_back(self, seat: int, card: int | str) -> None:
        seat = self._seat(seat)
        c = self._card(card)
        if self.phase != RETURN:
            raise IllegalAction("climb.phase_return", phase=self.phase)
        self._turn(seat, "return")
        self._in_hand(seat, [c], "give back")

    def can_give_back(self, seat: int, card: int | str) -> bool:
        try:
            self.verify_give_back(seat, card)
        except EngineError:
            return False
        return True

    def give_back(self, seat: int, card: int | str) -> Record:
        """The winner gives any one card back to the loser, then leads."""
        self.verify_give_back(seat, card)
        c = self._card(card)
        loser = self.setup.loser
        assert loser is not None
        self.hands[seat].remove(c)
        self.hands[loser].append(c)
        self.returned_card = c
        rec = Record("return", seat, (c,))
        self.log.append(rec)
        self._start_play(seat, "winner")
        return rec

    # --- play and pass -------------------------------------------------------------------------
    def verify_play(self, seat: int, cards: Sequence[int | str]) -> None:
        self._verify_play(self._seat(seat), self._cards(cards))

    def _verify_play(self, seat: int, cs: list[int]) -> rules.Shape:
        if self.phase != PLAY:
            raise IllegalAction("phase.play", phase=self.phase)
        self._turn(seat, "play")
        if not cs:
            raise IllegalAction("play.empty")
        self._in_hand(seat, cs, "play")
        shape = rules._shape(cs)
        if not shape.valid:
            raise IllegalAction("climb.no_play", cards=cards_str(cs))
        st = self.standing_shape
        if st is not None:
            if shape.kind != st.kind or shape.size != st.size:
                raise IllegalAction(
                    "climb.same_kind",
                    kind=_kind_words(st),
                    got=_kind_words(shape),
                )
            if shape.top <= st.top:
                assert self.standing is not None
                raise IllegalAction(
                    "climb.not_higher", cards=cards_str(cs), standing=cards_str(self.standing[1])
                )
        return shape

    def can_play(self, seat: int, cards: Sequence[int | str]) -> bool:
        try:
            self.verify_play(seat, cards)
        except EngineError:
            return False
        return True

    def play(self, seat: int, cards: Sequence[int | str]) -> Record:
        """Play cards: a lead (any play) or a higher play of the standing play's kind."""
        seat = self._seat(seat)
        cs = self._cards(cards)
        shape = self._verify_play(seat, cs)
        hand = self.hands[seat]
        for c in cs:
            hand.remove(c)
        played = tuple(cs)
        self.standing = (seat, played)
        self.standing_shape = shape
        self.passes = 0
        self.round.append((seat, played))
        rec = Record("play", seat, played)
        self.log.append(rec)
        if not hand:
            self.out.append(seat)
            if len(self.out) == self.n - 1:
                self.out.append(self._next_in(seat))
                self.rounds.append(self.round)
                self.round = []
                self._finish()
                return rec
        self.turn = self._next_in(seat)
        return rec

    def verify_pass(self, seat: int) -> None:
        seat = self._seat(seat)
        if self.phase != PLAY:
            raise IllegalAction("phase.pass", phase=self.phase)
        self._turn(seat, "pass")
        if self.standing is None:
            raise IllegalAction("climb.lead_pass")

    def can_pass(self, seat: int) -> bool:
        try:
            self.verify_pass(seat)
        except EngineError:
            return False
        return True

    def pass_(self, seat: int) -> Record:
        """Play nothing this time; a later play in the same round stays allowed."""
        self.verify_pass(seat)
        assert self.standing is not None
        self.passes += 1
        self.round.append((seat, None))
        rec = Record("pass", seat)
        self.log.append(rec)
        last = self.standing[0]
        others = self.n - len(self.out) - (0 if last in self.out else 1)
        if self.passes >= others:
            # every other seat still in passed in a row: the round is over
            self.rounds.append(self.round)
            self.round = []
            self.standing = None
            self.standing_shape = None
            self.passes = 0
            self.leader = last if last not in self.out else self._next_in(last)
            self.turn = self.leader
        else:
            self.turn = self._next_in(seat)
        return rec

    def _finish(self) -> None:
        v = self.variant
        order = tuple(self.out)
        places = [0] * self.n
        for i, s in enumerate(order):
            places[s] = i + 1
        self.result = ClimbingResult(order, tuple(places), tuple(rules.points_by_place(v, order)))
        self.outcome = "played"
        self.phase = DONE
        self.turn = None
        self.standing = None
        self.standing_shape = None

    # --- what a client offers ------------------------------------------------------------------
    def legal_plays(self, seat: int) -> list[list[int]]:
        """Every play ``seat`` may make now, one representative per choice of ranks (the suits
        of the cards of one rank never matter); empty when it is not his turn to play."""
        seat = self._seat(seat)
        if self.phase != PLAY or self.turn != seat:
            return []
        return _plays_from(self.hands[seat], self.standing_shape)

    def playable_cards(self, seat: int) -> list[int]:
        """The cards of ``seat``'s hand that are part of some legal play now (a client greys
        out the rest); empty when it is not his turn to play."""
        seat = self._seat(seat)
        if self.phase != PLAY or self.turn != seat:
            return []
        hand = self.hands[seat]
        ranks = {rules.crank(c) for p in self.legal_plays(seat) for c in p}
        return sorted({c for c in hand if rules.crank(c) in ranks}, key=rules.sort_key)

    def hand(self, seat: int) -> list[int]:
        return sorted(self.hands[self._seat(seat)], key=rules.sort_key)

    def state_dict(self) -> dict[str, Any]:
        """The whole state as JSON-able data (every hand included): for tests and caches."""
        return {
            "setup": self.setup.to_json(),
            "phase": self.phase,
            "to_act": self.to_act,
            "drawn": self.drawn,
            "hands": [sorted(cards_str(h)) for h in self.hands],
            "turned": card_str(self.turned),
            "turned_seat": self.turned_seat,
            "lead_by": self.lead_by or None,
            "refused": self.refused,
            "tribute": None if self.tribute_card is None else card_str(self.tribute_card),
            "returned": None if self.returned_card is None else card_str(self.returned_card),
            "leader": self.leader,
            "standing": _play_json(self.standing),
            "passes": self.passes,
            "round": [_move_json(m) for m in self.round],
            "rounds": len(self.rounds),
            "out": list(self.out),
            "result": None if self.result is None else self.result.to_json(),
            "log_length": len(self.log),
        }


def _kind_words(shape: rules.Shape) -> str:
    if shape.kind == rules.STRAIGHT:
        return f"a straight of {shape.size}"
    if shape.kind == rules.SET:
        return f"a set of {shape.size}"
    return f"a {shape.kind}"


def _play_json(play: tuple[int, tuple[int, ...]] | None) -> dict[str, Any] | None:
    if play is None:
        return None
    return {"seat": play[0], "cards": cards_str(play[1])}


def _move_json(move: tuple[int, tuple[int, ...] | None]) -> dict[str, Any]:
    seat, cards = move
    return {"seat": seat, "cards": None if cards is None else cards_str(cards)}


def plays_from(hand: Sequence[int], standing: rules.Shape | None) -> list[list[int]]:
    """Every play of ``hand`` that beats ``standing`` (or every play, to lead), one
    representative per choice of ranks: the lowest cards of each rank it uses."""
    cards = rules._checked(hand, "the hand")
    if standing is not None and not isinstance(standing, rules.Shape):
        raise EngineError("climb.shape", got=repr(standing))
    return _plays_from(cards, standing)


def _plays_from(hand: list[int], standing: rules.Shape | None) -> list[list[int]]:
    by_rank: list[list[int]] = [[] for _ in range(rules.RANK_COUNT)]
    for c in sorted(hand):
        by_rank[rules._CRANK[c]].append(c)
    out: list[list[int]] = []
    if standing is None or standing.kind != rules.STRAIGHT:
        sizes = range(1, 9) if standing is None else range(standing.size, standing.size + 1)
        low = -1 if standing is None else standing.top
        for r in range(low + 1, rules.RANK_COUNT):
            cards = by_rank[r]
            for k in sizes:
                if k <= len(cards):
                    out.append(cards[:k])
    if standing is None or standing.kind == rules.STRAIGHT:
        lengths = range(3, 13) if standing is None else range(standing.size, standing.size + 1)
        for length in lengths:
            first_top = length - 1 if standing is None else max(length - 1, standing.top + 1)
            for top in range(first_top, rules.ACE + 1):
                lo = top - length + 1
                if all(by_rank[r] for r in range(lo, top + 1)):
                    out.append([by_rank[r][0] for r in range(lo, top + 1)])
    return out


def new_deal(options: dict[str, Any] | None = None, seed: int = 0, **setup: Any) -> ClimbingDeal:
    """A fresh deal: ``new_deal({"players": 5}, seed=7)``; later deals with ``deal_no``,
    ``winner`` and ``loser`` (the previous deal's first and last out)."""
    if not isinstance(options, dict | None):
        raise EngineError("options.object", got=repr(options))
    return ClimbingDeal(ClimbingSetup(CLIMBING, dict(options or {}), seed, **setup))


def next_setup(deal: ClimbingDeal, seed: int) -> ClimbingSetup:
    """The setup of the deal after ``deal`` (finished): the same table, its winner and loser."""
    if not isinstance(deal, ClimbingDeal):
        raise EngineError("deal.type", got=repr(deal))
    if deal.result is None:
        raise IllegalAction("climb.unfinished")
    s = deal.setup
    r = deal.result
    return ClimbingSetup(s.variant, dict(s.options), seed, s.deal_no + 1, r.winner, r.loser)


def record_from_json(d: Any) -> Record:
    """A climbing log entry from its JSON form (``{"kind", "seat", "cards"}``)."""
    kind, seat, cards = entry_fields(d, ACTION_KINDS)
    return Record(kind, seat, parse_entry_cards(cards))


def apply(deal: ClimbingDeal, rec: Any) -> Record:
    """Perform a logged action on ``deal`` (replay); a drawn card must match the shuffle."""
    if not isinstance(deal, ClimbingDeal):
        raise EngineError("deal.type", got=repr(deal))
    if not isinstance(rec, Record):
        rec = record_from_json(rec)
    k = rec.kind
    if k == "draw":
        draws.check_logged_draw(
            deal.next_drawer, deal.pack, deal.drawn, rec.seat, rec.cards, len(deal.log) + 1
        )
        return deal.draw()
    if k == "play":
        return deal.play(rec.seat, rec.cards)
    if k == "pass":
        return deal.pass_(rec.seat)
    if k in ("tribute", "return"):
        if len(rec.cards) != 1:
            raise EngineError("climb.one_card", kind=k, got=len(rec.cards))
        if k == "tribute":
            return deal.tribute(rec.seat, rec.cards[0])
        return deal.give_back(rec.seat, rec.cards[0])
    raise EngineError("record.kind_unknown", got=repr(k))


def replay(setup: ClimbingSetup | dict[str, Any], log: Sequence[Any]) -> ClimbingDeal:
    """Rebuild a deal from its setup (or its JSON) and its log (records or their JSON)."""
    if isinstance(setup, dict):
        setup = ClimbingSetup.from_json(setup)
    deal = ClimbingDeal(setup)
    if isinstance(log, str | bytes | dict) or not isinstance(log, Sequence):
        raise EngineError("log.type")
    for i, rec in enumerate(log):
        try:
            apply(deal, rec)
        except EngineError as e:
            kind, seat = "?", "?"
            if isinstance(rec, Record):
                kind, seat = rec.kind, str(rec.seat)
            elif isinstance(rec, dict):
                kind, seat = str(rec.get("kind", "?")), str(rec.get("seat", "?"))
            raise EngineError(
                "log.action", action=i + 1, kind=kind, seat=seat, cause=e.as_dict()
            ) from e
    return deal


# --- views --------------------------------------------------------------------------------------


def _log_entry(deal: ClimbingDeal, rec: Record, seat: int | None) -> dict[str, Any]:
    d = rec.to_json()
    if rec.kind == "draw" and rec.seat != seat:
        d.pop("cards", None)
    hidden = deal.phase != DONE and seat not in (deal.setup.winner, deal.setup.loser)
    if rec.kind in ("tribute", "return") and hidden:
        d["cards"] = []  # shown to the two players only, until the deal is over
    return d


def _view(deal: ClimbingDeal, seat: int | None, log: bool) -> dict[str, Any]:
    v = deal.variant
    s = deal.setup
    sees_tribute = deal.phase == DONE or (seat is not None and seat in (s.winner, s.loser))
    turned_known = deal.lead_by == "turned" or (deal.phase == DRAW and not deal.tribute_due)
    view: dict[str, Any] = {
        "variant": v.id,
        "options": dict(v.options),
        "place_points": rules.place_points(v),
        "seat": seat,
        "version": deal.version,
        "deal_no": s.deal_no,
        "phase": deal.phase,
        "to_act": deal.to_act,
        "next_drawer": deal.next_drawer,
        "cards_left_to_draw": len(deal.pack) - deal.drawn,
        "hand_sizes": [len(h) for h in deal.hands],
        "turned": card_str(deal.turned) if turned_known else None,
        "turned_seat": (deal.turned_seat if turned_known and deal.drawn > deal.turned_at else None),
        "lead_by": deal.lead_by or None,
        "tribute": {
            "due": deal.tribute_due,
            "from": s.loser,
            "to": s.winner,
            "refused": deal.refused,
            "card": (
                card_str(deal.tribute_card)
                if deal.tribute_card is not None and sees_tribute
                else None
            ),
            "given": deal.tribute_card is not None,
            "returned": (
                card_str(deal.returned_card)
                if deal.returned_card is not None and sees_tribute
                else None
            ),
            "given_back": deal.returned_card is not None,
        },
        "leader": deal.leader,
        "standing": _play_json(deal.standing),
        "round": [_move_json(m) for m in deal.round],
        "rounds_played": len(deal.rounds),
        "out": list(deal.out),
        "outcome": deal.outcome,
        "result": None if deal.result is None else deal.result.to_json(),
        "log": [_log_entry(deal, r, seat) for r in deal.log] if log else None,
    }
    return view


def seat_view(deal: ClimbingDeal, seat: int, log: bool = True) -> dict[str, Any]:
    """What ``seat`` may see: its own hand (in climbing order), every seat's card count, the
    table; the tribute's cards only if it gave or took them (all once the deal is over)."""
    if not isinstance(deal, ClimbingDeal):
        raise EngineError("view.deal_type", got=repr(deal))
    seat = deal._seat(seat)
    view = _view(deal, seat, bool(log))  # any truthy value, as in engine.views
    view["hand"] = cards_str(deal.hand(seat))
    view["playable"] = cards_str(deal.playable_cards(seat))
    view["actions"] = deal.actions(seat)
    return view


def spectator_view(deal: ClimbingDeal, log: bool = True) -> dict[str, Any]:
    """The public table: card counts only, no hand."""
    if not isinstance(deal, ClimbingDeal):
        raise EngineError("view.deal_type", got=repr(deal))
    view = _view(deal, None, bool(log))
    view["hand"] = None
    view["playable"] = []
    view["actions"] = []
    return view
