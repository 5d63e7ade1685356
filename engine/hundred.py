"""One deal of the 打百分 family as a state machine (``../shared/rules/HUNDRED.md``).

Phases, in order (a variant skips the ones it does not have):

``auction``  叫分 (``hundred-4p``, ``hundred-3p``): the seat to act bids (``bid``) or passes
             (``pass_``); the declarer and the bid follow (``engine.hundred_rules.Auction``).
``trump``    the declarer names the trump suit (``name_trump``). ``hundred-3p``: the dummy is
             turned face up then.
``friend``   ``hundred-4p`` shown / hidden / blind: the declarer names the friend card
             (``call_friend``): any card it does not hold (nor buried).
``bury``     the declarer holds the kitty and buries 6 (``bury``).
``play``     tricks (``play``); in ``hundred-3p`` the declarer plays the dummy's cards in its turn.
``done``     ``result`` holds the deal's ``HundredResult`` (and ``outcome`` is ``"played"``).

Order (§5): ``fixed``, ``shown``, ``hidden``, ``hundred-3p``: bury, trump (then the friend card);
``blind``: trump and the friend card before the kitty is taken; ``forty-4p``: no auction (a
turned card names trump), the declarer buries.

The deal is drawn at once from the seed (one card at a time in the order of play from the first
drawer; in ``hundred-3p`` the dummy's hand is the fourth drawn in each round). Every action has
the faces ``verify_x`` (raises ``IllegalAction``), ``can_x`` and ``x`` (returns the ``Act``
appended to ``log``); an illegal action changes nothing; setup and log replay the deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from . import draws
from . import hundred_rules as hr
from .cards import LJ, SUITS, card_str, cards_str, parse_card, points_of
from .errors import EngineError, IllegalAction
from .records import entry_fields, parse_entry_cards

AUCTION: Final = "auction"
TRUMP_PHASE: Final = "trump"
FRIEND: Final = "friend"
BURY: Final = "bury"
PLAY: Final = "play"
DONE: Final = "done"
PHASES: Final = (AUCTION, TRUMP_PHASE, FRIEND, BURY, PLAY, DONE)

DUMMY: Final = 3  # the hand index of 3人百分's dummy
ACT_KINDS: Final = ("bid", "pass", "trump", "friend", "bury", "play")


@dataclass(frozen=True, slots=True)
class Act:
    """One action of the log: ``bid`` (``value`` the bid), ``pass``, ``trump`` (``value`` the
    suit), ``friend`` (``cards`` the friend card), ``bury`` and ``play`` (``cards``). ``seat`` is
    the seat that acted (the declarer for the dummy)."""

    kind: str
    seat: int
    cards: tuple[int, ...] = ()
    value: int | str | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.kind in ("friend", "bury", "play"):
            d["cards"] = cards_str(self.cards)
        if self.kind in ("bid", "trump"):
            d["value"] = self.value
        return d

    @staticmethod
    def from_json(d: Any) -> Act:
        kind, seat, cards = entry_fields(d, ACT_KINDS)
        value = d.get("value")
        if value is not None and type(value) not in (int, str):
            raise EngineError("hundred.act_value", got=repr(value))
        return Act(kind, seat, parse_entry_cards(cards), value)


@dataclass(frozen=True)
class HundredSetup:
    """What a deal starts from: the variant and options, the seed, the first drawer and, for a
    later ``forty-4p`` deal, its declarer (``None``: the first deal, the drawer of the turned
    card declares)."""

    variant: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    first: int = 0
    declarer: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "options": dict(self.options),
            "seed": self.seed,
            "first": self.first,
            "declarer": self.declarer,
        }

    @staticmethod
    def from_json(d: Any) -> HundredSetup:
        if not isinstance(d, dict) or "variant" not in d:
            raise EngineError("setup.no_variant")
        extra = set(d) - {"variant", "options", "seed", "first", "declarer"}
        if extra:
            raise EngineError("setup.unknown_fields", fields=", ".join(sorted(map(str, extra))))
        options = d.get("options") or {}
        if not isinstance(options, dict):
            raise EngineError("options.object", got=repr(options))
        return HundredSetup(
            d["variant"], options, d.get("seed", 0), d.get("first", 0), d.get("declarer")
        )


class HundredDeal:
    def __init__(self, setup: HundredSetup) -> None:
        if not isinstance(setup, HundredSetup):
            raise EngineError("deal.setup_type", got=repr(setup))
        self.setup = setup
        self.variant = hr.make_hundred_variant(setup.variant, setup.options)
        v = self.variant
        if type(setup.seed) is not int:
            raise EngineError("seed.type", got=repr(setup.seed))
        if type(setup.first) is not int or not 0 <= setup.first < v.players:
            raise EngineError("setup.dealer", got=repr(setup.first), last=v.players - 1)
        if setup.declarer is not None and (
            v.bidding or type(setup.declarer) is not int or not 0 <= setup.declarer < v.players
        ):
            raise EngineError("hundred.setup_declarer", got=repr(setup.declarer))
        rng = random.Random(setup.seed)
        pack = list(range(54))
        draws.shuffle(rng, pack)
        self.turned: int | None = None
        if v.id == hr.FORTY_4P:
            # §6: one of the 52 suited cards is turned and put back at random among the cards
            # the players draw (so that in the first deal someone draws it)
            turned = draws.choice(rng, [c for c in pack if c < LJ])
            pack.remove(turned)
            pack.insert(draws.below(rng, 48), turned)
            self.turned = turned
        self.hands: list[list[int]] = [[] for _ in range(4)]
        for i in range(48):
            self.hands[self._drawer(i)].append(pack[i])
        self.kitty: list[int] = pack[48:]
        self.log: list[Act] = []
        self.phase: str = AUCTION
        self.auction: hr.Auction | None = None
        self.declarer: int | None = None
        self.bid: int | None = None
        self.trump: int | None = None
        self.friend_card: int | None = None
        self.friend: int | None = None  # the seat holding the friend card (None: alone/none)
        self.friend_revealed = False
        self.kitty_taken = False
        self.buried: list[int] = []
        self.trick: list[tuple[int, list[int]]] = []  # (hand, cards) in the order played
        self.tricks: list[tuple[tuple[tuple[int, tuple[int, ...]], ...], int]] = []
        self.leader: int = 0
        self.won_points: list[int] = [0, 0, 0, 0]
        self.played: list[int] = []
        self.result: hr.HundredResult | None = None
        # "played" once the deal is over (as the other families' deals say it; this family's
        # deals always end played: an auction where all pass makes the first seat declare)
        self.outcome: str | None = None
        if v.bidding:
            self.auction = hr.Auction(v.players, setup.first)
        else:
            self.trump = self.turned // 13 if self.turned is not None else None
            if setup.declarer is None:
                assert self.turned is not None
                self.declarer = next(s for s in range(4) if self.turned in self.hands[s])
            else:
                self.declarer = setup.declarer
            self._take_kitty()

    # --- who is where ----------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """The seats at the table (3人百分: 3; its dummy is no seat)."""
        return self.variant.players

    def _drawer(self, i: int) -> int:
        """The hand that draws card ``i`` of the pack."""
        if self.variant.id == hr.HUNDRED_3P:
            k = i % 4
            return DUMMY if k == 3 else (self.setup.first + k) % 3
        return (self.setup.first + i) % 4

    @property
    def cycle(self) -> list[int]:
        """The hands in the order of play, from the declarer (3人百分: declarer, next, dummy,
        remaining)."""
        d = self.declarer if self.declarer is not None else 0
        if self.variant.id == hr.HUNDRED_3P:
            return [d, (d + 1) % 3, DUMMY, (d + 2) % 3]
        return [(d + k) % 4 for k in range(4)]

    def actor(self, hand: int) -> int:
        """The seat that acts for ``hand`` (the declarer for the dummy)."""
        if hand == DUMMY and self.variant.id == hr.HUNDRED_3P:
            assert self.declarer is not None
            return self.declarer
        return hand

    @property
    def turn_hand(self) -> int | None:
        """The hand whose turn it is to play (the dummy's index 3 in 3人百分)."""
        if self.phase != PLAY:
            return None
        cyc = self.cycle
        return cyc[(cyc.index(self.leader) + len(self.trick)) % 4]

    @property
    def to_act(self) -> int | None:
        if self.phase == AUCTION:
            assert self.auction is not None
            return self.auction.to_act
        if self.phase in (TRUMP_PHASE, FRIEND, BURY):
            return self.declarer
        if self.phase == PLAY:
            hand = self.turn_hand
            assert hand is not None
            return self.actor(hand)
        return None

    def declarer_side(self, *, final: bool = True) -> set[int]:
        """The declaring side's hands (the friend's only once known when ``final`` is false)."""
        d = self.declarer
        if d is None:
            return set()
        if self.variant.fixed_pairs:
            return {d, (d + 2) % 4}
        if self.variant.id == hr.HUNDRED_3P:
            return {d, DUMMY}
        if self.friend is not None and (final or self.friend_revealed):
            return {d, self.friend}
        return {d}

    def attackers(self) -> list[int]:
        side = self.declarer_side()
        return [s for s in range(self.variant.players) if s not in side]

    @property
    def alone(self) -> bool:
        return self.friend_card is not None and self.friend is None

    # --- checks -----------------------------------------------------------------------------------

    def _seat(self, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < self.variant.players:
            raise IllegalAction("seat.unknown", got=repr(seat), last=self.variant.players - 1)
        return seat

    def _turn(self, seat: int, phases: Sequence[str], action: str) -> None:
        if self.phase not in phases:
            raise IllegalAction("turn.nobody", action=action, phase=self.phase)
        to_act = self.to_act
        if seat != to_act:
            raise IllegalAction("turn.not_yours", to_act=to_act, seat=seat)

    @staticmethod
    def _cards(cards: object) -> list[int]:
        if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
            raise IllegalAction("cards.list", got=repr(cards))
        out = []
        for c in cards:
            if isinstance(c, str):
                out.append(parse_card(c))
            elif type(c) is int and 0 <= c < 54:
                out.append(c)
            else:
                raise IllegalAction("card.invalid", got=repr(c))
        hr.check_unique(out, "the cards")
        return out

    def _in_hand(self, hand: int, cards: list[int], seat: int, action: str) -> None:
        held = self.hands[hand]
        for c in cards:
            if c not in held:
                raise IllegalAction("card.not_in_hand", seat=seat, action=action, card=card_str(c))

    def _act(self, act: Act) -> Act:
        self.log.append(act)
        return act

    # --- the auction -----------------------------------------------------------------------------

    def legal_bids(self, seat: int) -> list[int]:
        self._seat(seat)
        if self.phase != AUCTION or self.to_act != seat:
            return []
        assert self.auction is not None
        return self.auction.legal_bids()

    def verify_bid(self, seat: int, bid: int) -> None:
        seat = self._seat(seat)
        self._turn(seat, (AUCTION,), "bid")
        assert self.auction is not None
        if type(bid) is not int:
            raise IllegalAction("auction.bid", got=repr(bid))
        reason = self.auction.why_not(seat, bid)
        if reason is not None:
            raise IllegalAction.because(reason)

    def can_bid(self, seat: int, bid: int) -> bool:
        try:
            self.verify_bid(seat, bid)
        except EngineError:
            return False
        return True

    def bid_(self, seat: int, bid: int) -> Act:
        self.verify_bid(seat, bid)
        return self._auction_act(seat, bid)

    def verify_pass(self, seat: int) -> None:
        seat = self._seat(seat)
        self._turn(seat, (AUCTION,), "pass")

    def can_pass(self, seat: int) -> bool:
        try:
            self.verify_pass(seat)
        except EngineError:
            return False
        return True

    def pass_(self, seat: int) -> Act:
        self.verify_pass(seat)
        return self._auction_act(seat, None)

    def _auction_act(self, seat: int, bid: int | None) -> Act:
        auction = self.auction
        assert auction is not None
        auction.act(seat, bid)
        act = self._act(Act("pass", seat) if bid is None else Act("bid", seat, (), bid))
        if auction.declarer is not None:
            self.declarer, self.bid = auction.declarer, auction.bid
            if self.variant.friend_mode == hr.BLIND:
                self.phase = TRUMP_PHASE
            else:
                self._take_kitty()
        return act

    def _take_kitty(self) -> None:
        assert self.declarer is not None
        self.hands[self.declarer].extend(self.kitty)
        self.kitty_taken = True
        self.phase = BURY

    # --- trump, friend, burial ---------------------------------------------------------------------

    def verify_name_trump(self, seat: int, suit: str) -> None:
        seat = self._seat(seat)
        self._turn(seat, (TRUMP_PHASE,), "name trump")
        hr.check_trump(suit)

    def can_name_trump(self, seat: int, suit: str) -> bool:
        try:
            self.verify_name_trump(seat, suit)
        except EngineError:
            return False
        return True

    def name_trump(self, seat: int, suit: str) -> Act:
        self.verify_name_trump(seat, suit)
        self.trump = hr.check_trump(suit)
        act = self._act(Act("trump", seat, (), suit))
        mode = self.variant.friend_mode
        if mode in (hr.SHOWN, hr.HIDDEN, hr.BLIND):
            self.phase = FRIEND
        else:
            self._start_play()
        return act

    def verify_call_friend(self, seat: int, card: int | str) -> None:
        seat = self._seat(seat)
        self._turn(seat, (FRIEND,), "call a friend")
        (c,) = self._cards([card])
        if c in self.hands[seat] or c in self.buried:
            raise IllegalAction("hundred.friend_card", card=card_str(c))

    def can_call_friend(self, seat: int, card: int | str) -> bool:
        try:
            self.verify_call_friend(seat, card)
        except EngineError:
            return False
        return True

    def call_friend(self, seat: int, card: int | str) -> Act:
        self.verify_call_friend(seat, card)
        (c,) = self._cards([card])
        self.friend_card = c
        self.friend = next((s for s in range(4) if s != seat and c in self.hands[s]), None)
        self.friend_revealed = self.variant.friend_mode == hr.SHOWN
        act = self._act(Act("friend", seat, (c,)))
        if self.variant.friend_mode == hr.BLIND:
            self._take_kitty()  # the card in the kitty: the declarer plays alone
        else:
            self._start_play()
        return act

    def verify_bury(self, seat: int, cards: Sequence[int | str]) -> None:
        seat = self._seat(seat)
        self._turn(seat, (BURY,), "bury")
        cs = self._cards(cards)
        if len(cs) != hr.KITTY:
            raise IllegalAction("bury.count", need=hr.KITTY, got=len(cs))
        self._in_hand(seat, cs, seat, "bury")

    def can_bury(self, seat: int, cards: Sequence[int | str]) -> bool:
        try:
            self.verify_bury(seat, cards)
        except EngineError:
            return False
        return True

    def bury(self, seat: int, cards: Sequence[int | str]) -> Act:
        self.verify_bury(seat, cards)
        cs = self._cards(cards)
        for c in cs:
            self.hands[seat].remove(c)
        self.buried = cs
        act = self._act(Act("bury", seat, tuple(cs)))
        if self.variant.id == hr.FORTY_4P or self.variant.friend_mode == hr.BLIND:
            self._start_play()
        else:
            self.phase = TRUMP_PHASE
        return act

    def _start_play(self) -> None:
        assert self.declarer is not None
        self.phase = PLAY
        self.leader = self.declarer

    # --- play ------------------------------------------------------------------------------------

    def verify_play(self, seat: int, cards: Sequence[int | str]) -> None:
        seat = self._seat(seat)
        self._turn(seat, (PLAY,), "play")
        cs = self._cards(cards)
        if not cs:
            raise IllegalAction("play.empty")
        hand = self.turn_hand
        assert hand is not None and self.trump is not None
        self._in_hand(hand, cs, seat, "play")
        if not self.trick:
            reason = hr.lead_reason(cs, self.trump)
        else:
            reason = hr.follow_reason(self.trick[0][1], self.hands[hand], cs, self.trump)
        if reason is not None:
            raise IllegalAction.because(reason)

    def can_play(self, seat: int, cards: Sequence[int | str]) -> bool:
        try:
            self.verify_play(seat, cards)
        except EngineError:
            return False
        return True

    def play(self, seat: int, cards: Sequence[int | str]) -> Act:
        self.verify_play(seat, cards)
        cs = self._cards(cards)
        hand = self.turn_hand
        assert hand is not None
        for c in cs:
            self.hands[hand].remove(c)
        self.played.extend(cs)
        self.trick.append((hand, cs))
        if self.friend_card in cs:
            self.friend_revealed = True
        act = self._act(Act("play", seat, tuple(cs)))
        if len(self.trick) == 4:
            self._end_trick()
        return act

    def playable_cards(self, seat: int) -> list[int]:
        """The cards a client may leave enabled: the led suit's when the hand must follow it."""
        seat = self._seat(seat)
        if self.phase != PLAY or self.to_act != seat:
            return []
        hand = self.turn_hand
        assert hand is not None and self.trump is not None
        cards = sorted(self.hands[hand])
        if not self.trick:
            return cards
        lead = self.trick[0][1]
        sh = hr.shape(lead, self.trump)
        if sh.group is None:
            return cards
        suited = [c for c in cards if hr.group(c, self.trump) == sh.group]
        return suited if len(suited) >= len(lead) else cards

    def _end_trick(self) -> None:
        assert self.trump is not None
        plays = [cs for _, cs in self.trick]
        w = hr.winner(plays, self.trump)
        hand = self.trick[w][0]
        self.won_points[hand] += points_of([c for cs in plays for c in cs])
        self.tricks.append((tuple((h, tuple(cs)) for h, cs in self.trick), hand))
        self.trick = []
        self.leader = hand
        if not self.hands[self.declarer if self.declarer is not None else 0]:
            self._score(hand)

    def _score(self, last_winner: int) -> None:
        self.friend_revealed = self.friend_revealed or self.friend is not None
        att = self.attackers()
        points = self.attackers_points()
        friend = None if self.variant.fixed_pairs else self.friend
        self.result = hr.deal_outcome(
            self.variant,
            bid=self.bid if self.variant.bidding else None,
            points=points,
            kitty=self.buried,
            last_won_by=hr.ATTACKERS if last_winner in att else hr.DECLARER,
            declarer=self.declarer,
            friend=friend,
        )
        self.phase = DONE
        self.outcome = "played"

    def attackers_points(self) -> int:
        """The attackers' trick points (the sides as they end; the dummy's are the declarer's)."""
        side = self.declarer_side()
        return sum(self.won_points[h] for h in range(4) if h not in side)

    def seen_attackers_points(self, viewer: int | None) -> int:
        """The attackers' trick points as ``viewer`` (``None``: a spectator) sees them: until a
        hidden friend is revealed, its tricks show as the attackers' to all but the friend."""
        if self.phase == DONE or (viewer is not None and viewer == self.friend):
            return self.attackers_points()
        side = self.declarer_side(final=False)
        return sum(self.won_points[h] for h in range(4) if h not in side)

    # --- the next deal -----------------------------------------------------------------------------

    def next_setup(self, seed: int) -> HundredSetup:
        """§1 and §6: the winning side draws first (its declarer, else the attacker who plays
        after the declarer); 40分下台: the attackers that won declare from the seat after the old
        declarer, otherwise the declarer's partner declares."""
        if self.result is None or self.declarer is None:
            raise IllegalAction("game.not_finished")
        d = self.declarer
        n = self.variant.players
        won = self.result.winner == hr.DECLARER
        att = self.attackers()
        after = next(s for s in ((d + k) % n for k in range(1, n)) if s in att)
        first = d if won else after
        declarer = None
        if self.variant.id == hr.FORTY_4P:
            declarer = (d + 2) % 4 if won else (d + 1) % 4
        return HundredSetup(self.setup.variant, dict(self.setup.options), seed, first, declarer)

    def actions(self, seat: int) -> list[str]:
        seat = self._seat(seat)
        if self.to_act != seat:
            return []
        return {
            AUCTION: ["bid", "pass"] if self.legal_bids(seat) else ["pass"],
            TRUMP_PHASE: ["trump"],
            FRIEND: ["friend"],
            BURY: ["bury"],
            PLAY: ["play"],
        }.get(self.phase, [])

    def state_dict(self) -> dict[str, Any]:
        """Everything, for tests of replay (not a view: it shows every hand)."""
        return {
            "phase": self.phase,
            "hands": [sorted(h) for h in self.hands],
            "kitty": list(self.kitty),
            "buried": list(self.buried),
            "declarer": self.declarer,
            "bid": self.bid,
            "trump": self.trump,
            "friend_card": self.friend_card,
            "friend": self.friend,
            "friend_revealed": self.friend_revealed,
            "trick": [(h, list(c)) for h, c in self.trick],
            "tricks": list(self.tricks),
            "won_points": list(self.won_points),
            "result": None if self.result is None else self.result.to_json(),
        }


def new_hundred_deal(
    variant: str,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    first: int = 0,
    declarer: int | None = None,
) -> HundredDeal:
    return HundredDeal(HundredSetup(variant, dict(options or {}), seed, first, declarer))


def apply(deal: HundredDeal, act: Act) -> Act:
    """Perform a logged action again (``IllegalAction`` if it is not legal now)."""
    if act.kind == "bid":
        if type(act.value) is not int:
            raise IllegalAction("auction.bid", got=repr(act.value))
        return deal.bid_(act.seat, act.value)
    if act.kind == "pass":
        return deal.pass_(act.seat)
    if act.kind == "trump":
        return deal.name_trump(act.seat, str(act.value))
    if act.kind == "friend":
        if len(act.cards) != 1:
            raise IllegalAction("hundred.friend_one")
        return deal.call_friend(act.seat, act.cards[0])
    if act.kind == "bury":
        return deal.bury(act.seat, list(act.cards))
    return deal.play(act.seat, list(act.cards))


def replay(setup: HundredSetup, log: Sequence[Any]) -> HundredDeal:
    """The deal that ``setup`` and ``log`` (``Act``s or their JSON) lead to."""
    deal = HundredDeal(setup)
    if not isinstance(log, (list, tuple)):
        raise EngineError("log.type")
    for i, item in enumerate(log, 1):
        act = item if isinstance(item, Act) else Act.from_json(item)
        try:
            apply(deal, act)
        except EngineError as e:
            raise EngineError(
                "log.action", action=i, kind=act.kind, seat=act.seat, cause=e.as_dict()
            ) from None
    return deal


# --- views ---------------------------------------------------------------------------------------


def _public(deal: HundredDeal, viewer: int | None) -> dict[str, Any]:
    v = deal.variant
    see_kitty = deal.kitty_taken and (
        bool(v.options.get("open_kitty")) or (viewer is not None and viewer == deal.declarer)
    )
    final = deal.phase == DONE
    friend: int | None = None
    if deal.friend is not None and (deal.friend_revealed or final or viewer == deal.friend):
        friend = deal.friend
    alone: bool | None = None  # unknown
    if deal.friend_card is not None:
        if final or (deal.friend_revealed and deal.friend is None):
            alone = deal.friend is None
        elif deal.friend is not None and viewer == deal.friend:
            alone = False
        elif viewer == deal.declarer and deal.kitty_taken:
            alone = deal.friend is None  # blind: the card lay in the kitty
    dummy_shown = v.id == hr.HUNDRED_3P and deal.trump is not None
    auction = deal.auction
    return {
        "variant": v.id,
        "options": dict(v.options),
        "phase": deal.phase,
        "to_act": deal.to_act,
        "turn_hand": deal.turn_hand,
        "first": deal.setup.first,
        "hand_counts": [len(h) for h in deal.hands],
        "auction": None
        if auction is None
        else {
            "entries": [{"seat": s, "bid": b} for s, b in auction.entries],
            "bid": auction.bid,
            "to_act": auction.to_act,
        },
        "declarer": deal.declarer,
        "bid": deal.bid,
        "threshold": None if deal.bid is None else hr.TOTAL_POINTS - deal.bid,
        "trump": None if deal.trump is None else SUITS[deal.trump],
        "turned": None if deal.turned is None else card_str(deal.turned),
        "friend_card": None if deal.friend_card is None else card_str(deal.friend_card),
        "friend": friend,
        "alone": alone,
        "kitty": cards_str(deal.kitty) if see_kitty else None,
        "buried": cards_str(deal.buried) if see_kitty and deal.buried else None,
        "dummy": sorted(cards_str(deal.hands[DUMMY])) if dummy_shown else None,
        "trick": [{"hand": h, "cards": cards_str(cs)} for h, cs in deal.trick],
        "tricks": [
            {"plays": [{"hand": h, "cards": cards_str(cs)} for h, cs in plays], "winner": w}
            for plays, w in deal.tricks
        ],
        "won_points": list(deal.won_points),
        "attackers_points": deal.seen_attackers_points(viewer),
        "result": None if deal.result is None else deal.result.to_json(),
        "log": [_act_seen(deal, a, viewer, see_kitty) for a in deal.log],
    }


def _act_seen(deal: HundredDeal, act: Act, viewer: int | None, see_kitty: bool) -> dict[str, Any]:
    d = act.to_json()
    if act.kind == "bury" and not see_kitty:
        d["cards"] = None
    return d


def hundred_seat_view(deal: HundredDeal, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may see and nothing more (the declarer also sees the dummy's hand
    it plays, which is public once turned)."""
    if not isinstance(deal, HundredDeal):
        raise EngineError("view.deal_type", got=repr(deal))
    seat = deal._seat(seat)
    view = _public(deal, seat)
    view["seat"] = seat
    view["hand"] = sorted(cards_str(deal.hands[seat]))
    view["playable"] = cards_str(deal.playable_cards(seat))
    view["actions"] = deal.actions(seat)
    view["legal_bids"] = deal.legal_bids(seat)
    return view


def hundred_spectator_view(deal: HundredDeal) -> dict[str, Any]:
    if not isinstance(deal, HundredDeal):
        raise EngineError("view.deal_type", got=repr(deal))
    view = _public(deal, None)
    view["seat"] = None
    view["hand"] = None
    view["playable"] = []
    view["actions"] = []
    view["legal_bids"] = []
    return view


# --- saved deals and games -------------------------------------------------------------------------

SCHEMA: Final = 1


def hundred_to_json(deal: HundredDeal) -> dict[str, Any]:
    """A deal as JSON: its setup and log (what rebuilds it), with its phase and result to check."""
    if not isinstance(deal, HundredDeal):
        raise EngineError("save.deal_type", got=repr(deal))
    return {
        "schema": SCHEMA,
        "setup": deal.setup.to_json(),
        "log": [a.to_json() for a in deal.log],
        "phase": deal.phase,
        "result": None if deal.result is None else deal.result.to_json(),
    }


def hundred_from_json(data: Any) -> HundredDeal:
    """The deal saved by ``hundred_to_json`` (replayed; a saved state that does not match what
    the log replays to is refused)."""
    if not isinstance(data, dict):
        raise EngineError("save.deal_object")
    if data.get("schema") != SCHEMA:
        raise EngineError("save.schema", got=repr(data.get("schema")), schema=SCHEMA)
    if "setup" not in data or "log" not in data:
        raise EngineError("save.deal_fields")
    deal = replay(HundredSetup.from_json(data["setup"]), data["log"])
    result = None if deal.result is None else deal.result.to_json()
    if data.get("phase", deal.phase) != deal.phase or data.get("result", result) != result:
        raise EngineError("save.deal_state")
    return deal


class HundredGame:
    """Deals in a row: each starts from the previous one's ``next_setup`` (who draws first, 40分
    下台's declarer); ``scores`` adds up every recorded deal's 积分 (fixed pairs: units per seat)."""

    def __init__(self, variant: str, options: dict[str, Any] | None = None, seed: int = 0) -> None:
        if type(seed) is not int:
            raise EngineError("seed.type", got=repr(seed))
        self.variant = hr.make_hundred_variant(variant, options)
        self.seed = seed
        self.deals: list[HundredDeal] = []
        self.current: HundredDeal | None = None
        self.scores: list[int] = [0] * self.variant.players

    def next_deal(self) -> HundredDeal:
        if self.current is not None:
            raise EngineError("game.deal_unfinished")
        seed = self.seed * 1_000_003 + len(self.deals)
        if self.deals:
            setup = self.deals[-1].next_setup(seed)
        else:
            setup = HundredSetup(self.variant.id, dict(self.variant.options), seed)
        self.current = HundredDeal(setup)
        return self.current

    def record(self, deal: HundredDeal) -> None:
        current = self.current
        if current is None or deal is not current:
            raise EngineError("game.not_current")
        result = current.result
        if result is None or result.scores is None:
            raise EngineError("game.not_finished")
        for s, change in enumerate(result.scores):
            self.scores[s] += change
        self.deals.append(current)
        self.current = None
