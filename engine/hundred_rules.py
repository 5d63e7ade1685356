"""打百分, the one-deck bidding family (``../shared/rules/HUNDRED.md``): its variants and options,
card order, plays (single, vertical throw 豎甩, horizontal throw 橫甩), following and winning, the
auction (叫分) and the deal's result with units and 积分.

Pure rules on plain card numbers (``engine.cards``); the deal's state machine is
``engine.hundred``. One deck: every card is unique, so a list of cards is a set here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .cards import HJ, LJ, SUITS, card_str, points_of
from .errors import EngineError, OptionError, Reason
from .variants import FORTY_4P, HUNDRED_3P, HUNDRED_4P
from .variants import HUNDRED_IDS as FAMILY_IDS
from .variants import is_hundred as is_family

FIXED: Final = "fixed"
SHOWN: Final = "shown"
HIDDEN: Final = "hidden"
BLIND: Final = "blind"
FRIEND_MODES: Final[tuple[str, ...]] = (FIXED, SHOWN, HIDDEN, BLIND)

DECLARER: Final = "declarer"
ATTACKERS: Final = "attackers"

SINGLE: Final = "single"
VERTICAL: Final = "vertical"
HORIZONTAL: Final = "horizontal"
INVALID: Final = "invalid"

TRUMP: Final = 4  # the trump group (the trump suit with both jokers); 0..3 are S H D C
GROUP_NAMES: Final[tuple[str, ...]] = ("S", "H", "D", "C", "trump")
# the word a refusal uses for a group (engine.codes: ``suit`` is S H D C or trumps)
_GROUP_WORDS: Final[tuple[str, ...]] = ("S", "H", "D", "C", "trumps")

KITTY: Final = 6
HAND: Final = 12
MIN_BID: Final = 60
MAX_BID: Final = 100
BID_STEP: Final = 5
TOTAL_POINTS: Final = 100
FORTY_LINE: Final = 40

REVOKE: Final = "revoke"
MISCOUNT: Final = "miscount"
TAKEBACK: Final = "takeback"
PENALTY_KINDS: Final[tuple[str, ...]] = (REVOKE, MISCOUNT, TAKEBACK)

_OPTION_CHOICES: Final[dict[str, tuple[Any, ...]]] = {
    "friend": FRIEND_MODES,
    "open_kitty": (False, True),
    "stakes": ("bid", "flat"),
}
_DEFAULTS: Final[dict[str, Any]] = {"friend": HIDDEN, "open_kitty": False, "stakes": "bid"}
_FAMILY_OPTIONS: Final[dict[str, tuple[str, ...]]] = {
    HUNDRED_4P: ("friend", "open_kitty", "stakes"),
    FORTY_4P: ("open_kitty",),
    HUNDRED_3P: ("open_kitty", "stakes"),
}
OPTION_HELP: Final[dict[str, str]] = {
    "friend": "Sides: fixed partners, a friend card shown at once, a hidden friend, or the "
    "friend card and trump named before the kitty is seen",
    "open_kitty": "The kitty as taken and the buried cards are shown to every seat (明底)",
    "stakes": "Units of a deal: (bid − 55) / 5, or 1 whatever the bid",
}


@dataclass(frozen=True)
class HundredVariant:
    """One variant of the family: ``players`` bidding/playing seats (3 in ``hundred-3p``, whose
    fourth hand is the dummy), always four hands of 12 and a kitty of 6."""

    id: str
    players: int
    options: Mapping[str, Any] = field(hash=False, compare=True)

    @property
    def hands(self) -> int:
        return 4

    @property
    def kitty(self) -> int:
        return KITTY

    @property
    def hand(self) -> int:
        return HAND

    @property
    def friend_mode(self) -> str:
        """``fixed`` for fixed pairs (``forty-4p``, ``hundred-4p`` fixed); ``hundred-3p``: ``dummy``."""
        if self.id == FORTY_4P:
            return FIXED
        if self.id == HUNDRED_3P:
            return "dummy"
        return str(self.options["friend"])

    @property
    def fixed_pairs(self) -> bool:
        return self.friend_mode == FIXED

    @property
    def bidding(self) -> bool:
        return self.id != FORTY_4P

    def check_seat(self, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise OptionError("seat.range", got=repr(seat), last=self.players - 1)
        return seat

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.id, "options": dict(self.options)}


def family_option_names(variant_id: str) -> tuple[str, ...]:
    _check_family_id(variant_id)
    return _FAMILY_OPTIONS[variant_id]


def family_option_choices(name: str) -> tuple[Any, ...]:
    if not isinstance(name, str) or name not in _OPTION_CHOICES:
        raise OptionError("option.unknown", got=repr(name), options=", ".join(_OPTION_CHOICES))
    return _OPTION_CHOICES[name]


def _check_family_id(variant_id: object) -> None:
    if not is_family(variant_id):
        raise OptionError("variant.unknown", got=repr(variant_id), variants=", ".join(FAMILY_IDS))


def make_hundred_variant(
    variant_id: str, options: Mapping[str, Any] | None = None
) -> HundredVariant:
    """A validated variant of the family; an unknown option or value raises ``OptionError``."""
    _check_family_id(variant_id)
    if not isinstance(options, (Mapping, type(None))):
        raise OptionError("options.type", got=repr(options))
    own = _FAMILY_OPTIONS[variant_id]
    merged = {name: _DEFAULTS[name] for name in own}
    for name, value in (options or {}).items():
        if not isinstance(name, str) or name not in own:
            raise OptionError(
                "option.not_for_variant", variant=variant_id, got=repr(name), options=", ".join(own)
            )
        choices = _OPTION_CHOICES[name]
        if type(value) is not type(choices[0]) or value not in choices:
            raise OptionError(
                "option.choice",
                name=name,
                choices=", ".join(repr(c) for c in choices),
                got=repr(value),
            )
        merged[name] = value
    return HundredVariant(variant_id, 3 if variant_id == HUNDRED_3P else 4, merged)


# --- card order ----------------------------------------------------------------------------------


def check_trump(trump: object) -> int:
    """The index 0..3 of a trump suit ``"S" "H" "D" "C"`` (there is always one)."""
    if not isinstance(trump, str) or trump not in SUITS:
        raise EngineError("hundred.trump", got=repr(trump))
    return SUITS.index(trump)


def group(card: int, trump: int) -> int:
    """0..3 for a side-suit card (its suit), ``TRUMP`` (4) for a joker or a trump-suit card."""
    if card >= LJ:
        return TRUMP
    s = card // 13
    return TRUMP if s == trump else s


def strength(card: int, trump: int) -> int:
    """Side suits 0 (a 2) … 12 (an A); trumps 100 (the trump 2) … 112 (its A), LJ 113, HJ 114."""
    if card == HJ:
        return 114
    if card == LJ:
        return 113
    if card // 13 == trump:
        return 100 + card % 13
    return card % 13


@dataclass(frozen=True)
class Shape:
    """What a set of cards is as a lead: ``combo`` and the group (``None`` for a horizontal
    throw or an invalid set); ``rank`` is a horizontal throw's rank index (2 = 0 … A = 12)."""

    combo: str
    group: int | None
    rank: int = -1

    @property
    def suit(self) -> str | None:
        return None if self.group is None else GROUP_NAMES[self.group]


def shape(cards: Sequence[int], trump: int) -> Shape:
    if not cards:
        raise EngineError("classify.empty")
    if len(cards) == 1:
        return Shape(SINGLE, group(cards[0], trump))
    g = group(cards[0], trump)
    if all(group(c, trump) == g for c in cards):
        return Shape(VERTICAL, g)
    if len(cards) == 4 and all(c < LJ for c in cards):
        ranks = {c % 13 for c in cards}
        if len(ranks) == 1 and len({c // 13 for c in cards}) == 4:
            return Shape(HORIZONTAL, None, cards[0] % 13)
    return Shape(INVALID, None)


def check_unique(cards: Sequence[int], what: str) -> None:
    """One deck: no card twice."""
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise EngineError("cards.copies", what=what, n=2, card=card_str(c), decks=1)
        seen.add(c)


def lead_reason(cards: Sequence[int], trump: int) -> Reason | None:
    if not cards:
        return Reason("lead.empty")
    if shape(cards, trump).combo == INVALID:
        return Reason("hundred.lead", cards=[card_str(c) for c in cards])
    return None


def follow_reason(
    lead: Sequence[int], hand: Sequence[int], play: Sequence[int], trump: int
) -> Reason | None:
    """Why ``play`` (part of ``hand``) may not follow ``lead``, or ``None`` (HUNDRED.md §2)."""
    if len(play) != len(lead):
        return Reason("follow.count", lead=len(lead), play=len(play))
    sh = shape(lead, trump)
    if sh.combo == HORIZONTAL:
        held = {group(c, trump) for c in hand}
        shown = {group(c, trump) for c in play}
        missing = sorted(held - shown)
        if missing:
            return Reason(
                "hundred.follow_horizontal",
                suits=", ".join(_GROUP_WORDS[g] for g in missing),
                cards=[card_str(c) for c in play],
            )
        return None
    if sh.group is None:
        return Reason("hundred.lead", cards=[card_str(c) for c in lead])
    g = sh.group
    held_g = sum(1 for c in hand if group(c, trump) == g)
    in_play = sum(1 for c in play if group(c, trump) == g)
    k = len(lead)
    if held_g >= k:
        if in_play != k:
            return Reason(
                "follow.suit",
                held=held_g,
                suit=_GROUP_WORDS[g],
                lead=k,
                cards=[card_str(c) for c in play],
            )
    elif in_play != held_g:
        return Reason(
            "follow.suit_all",
            held=held_g,
            suit=_GROUP_WORDS[g],
            cards=[card_str(c) for c in hand if group(c, trump) == g],
        )
    return None


def beats(play: Sequence[int], best: Sequence[int], lead_shape: Shape, trump: int) -> bool:
    """Does a follower's ``play`` beat the trick's current winning play ``best`` (§2)?"""
    if lead_shape.combo == HORIZONTAL:
        sh = shape(play, trump)
        best_rank = shape(best, trump).rank
        return sh.combo == HORIZONTAL and sh.rank > best_rank
    g = lead_shape.group
    assert g is not None
    top = max(strength(c, trump) for c in play)
    best_top = max(strength(c, trump) for c in best)
    best_trump = all(group(c, trump) == TRUMP for c in best)
    if all(group(c, trump) == g for c in play):
        # of the led suit: beats a winner of the led suit with a stronger top card
        return (g == TRUMP or not best_trump) and top > best_top
    if g != TRUMP and all(group(c, trump) == TRUMP for c in play):
        return not best_trump or top > best_top  # 将吃: trumps beat any side-suit play
    return False


def winner(plays: Sequence[Sequence[int]], trump: int) -> int:
    """The index of the play that wins a trick of legal plays, the lead first."""
    lead_shape = shape(plays[0], trump)
    best = 0
    for i in range(1, len(plays)):
        if beats(plays[i], plays[best], lead_shape, trump):
            best = i
    return best


def check_trick(plays: Sequence[Sequence[int]], trump: int) -> None:
    """Raise for a trick that cannot be judged: no lead, an invalid lead, plays of another
    length, a card twice."""
    if not plays or not plays[0]:
        raise EngineError("trick.empty")
    reason = lead_reason(plays[0], trump)
    if reason is not None:
        raise EngineError.because(reason)
    for i, p in enumerate(plays):
        if len(p) != len(plays[0]):
            raise EngineError("trick.count", index=i, got=len(p), lead=len(plays[0]))
    check_unique([c for p in plays for c in p], "the plays of a trick")


# --- the auction (叫分) ----------------------------------------------------------------------------


class Auction:
    """§4: from ``first``, each seat in order bids 60…100 by 5 above the standing bid, or passes
    (final). Ends when all others have passed after a bid, at once on 100; all pass: ``first``
    declares at 60."""

    def __init__(self, players: int, first: int) -> None:
        self.players = players
        self.first = first
        self.to_act: int | None = first
        self.passed: list[bool] = [False] * players
        self.bid: int | None = None
        self.bidder: int | None = None
        self.declarer: int | None = None
        self.entries: list[tuple[int, int | None]] = []

    @property
    def done(self) -> bool:
        return self.declarer is not None

    def legal_bids(self) -> list[int]:
        low = MIN_BID if self.bid is None else self.bid + BID_STEP
        return list(range(low, MAX_BID + 1, BID_STEP))

    def why_not(self, seat: int, bid: int | None) -> Reason | None:
        if self.to_act is None:
            return Reason("auction.over")
        if seat != self.to_act:
            return Reason("turn.not_yours", to_act=self.to_act, seat=seat)
        if bid is None:
            return None
        if type(bid) is not int or bid < MIN_BID or bid > MAX_BID or bid % BID_STEP:
            return Reason("auction.bid", got=repr(bid))
        if self.bid is not None and bid <= self.bid:
            return Reason("auction.higher", got=bid, standing=self.bid)
        return None

    def act(self, seat: int, bid: int | None) -> None:
        """Bid (``bid`` a number) or pass (``None``); the caller has checked ``why_not``."""
        self.entries.append((seat, bid))
        if bid is None:
            self.passed[seat] = True
        else:
            self.bid, self.bidder = bid, seat
        left = [s for s in range(self.players) if not self.passed[s]]
        if bid == MAX_BID or (self.bidder is not None and left == [self.bidder]):
            self._end(self.bidder, self.bid)
            return
        if not left:
            self._end(self.first, MIN_BID)
            return
        nxt = (seat + 1) % self.players
        while self.passed[nxt]:
            nxt = (nxt + 1) % self.players
        self.to_act = nxt

    def _end(self, declarer: int | None, bid: int | None) -> None:
        self.declarer, self.bid, self.to_act = declarer, bid, None


# --- the deal's result (§3, §8) ------------------------------------------------------------------


@dataclass(frozen=True)
class HundredResult:
    """``total``: the attackers' points (the kitty's added on 抠底; ``None`` when a penalty ended
    the deal); ``scores``: each seat's change, seat 0 first (fixed pairs: its side's units ±)."""

    total: int | None
    winner: str
    units: int
    scores: tuple[int, ...] | None
    ended_by: str | None = None
    kou_di: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "winner": self.winner,
            "units": self.units,
            "scores": None if self.scores is None else list(self.scores),
            "ended_by": self.ended_by,
            "kou_di": self.kou_di,
        }


def check_bid(bid: object) -> int:
    if type(bid) is not int or not MIN_BID <= bid <= MAX_BID or bid % BID_STEP:
        raise EngineError("hundred.bid", got=repr(bid))
    return bid


def units_of(variant: HundredVariant, bid: int | None) -> int:
    if not variant.bidding or variant.options.get("stakes") == "flat":
        return 1
    return (check_bid(bid) - 55) // 5


def check_penalties(penalties: object) -> list[tuple[str, str]]:
    """Competition penalties of §8 as ``(kind, side)``, in the order they happened."""
    if penalties is None:
        return []
    if not isinstance(penalties, (list, tuple)):
        raise EngineError("penalties.type", got=repr(penalties))
    out: list[tuple[str, str]] = []
    for i, item in enumerate(penalties, 1):
        if not isinstance(item, Mapping):
            raise EngineError("penalty.item", index=i, got=repr(item))
        extra = set(item) - {"kind", "side"}
        if extra:
            raise EngineError("penalty.fields", index=i, got=str(sorted(map(str, extra))))
        kind, side = item.get("kind"), item.get("side")
        if not isinstance(kind, str) or kind not in PENALTY_KINDS:
            raise EngineError(
                "penalty.kind", index=i, got=repr(kind), kinds=", ".join(PENALTY_KINDS)
            )
        if side not in (DECLARER, ATTACKERS):
            raise EngineError("penalty.side", index=i, got=repr(side))
        out.append((kind, str(side)))
    return out


def side_scores(
    variant: HundredVariant, winner_side: str, units: int, declarer: int, friend: int | None
) -> tuple[int, ...]:
    """Each seat's 积分 (or fixed pairs' units) change, seat 0 first (§8)."""
    sign = 1 if winner_side == DECLARER else -1
    n = variant.players
    if variant.fixed_pairs:
        return tuple(sign * units if s % 2 == declarer % 2 else -sign * units for s in range(n))
    if variant.id == HUNDRED_3P:
        return tuple(sign * 2 * units if s == declarer else -sign * units for s in range(n))
    if friend is None:
        return tuple(sign * 3 * units if s == declarer else -sign * units for s in range(n))
    return tuple(sign * units if s in (declarer, friend) else -sign * units for s in range(n))


def deal_outcome(
    variant: HundredVariant,
    *,
    bid: int | None,
    points: int | None,
    kitty: Sequence[int] | None,
    last_won_by: str | None,
    declarer: int | None,
    friend: int | None,
    penalties: object = None,
    strict: bool = True,
) -> HundredResult:
    """The result of a finished deal (§3, §8). ``points``: the attackers' trick points;
    ``kitty``: the buried cards; ``last_won_by``: ``declarer`` or ``attackers``. A deal ended by a
    revoke or a miscount needs none of these (its total is ``None``). Without ``declarer`` the
    scores are ``None``. ``strict`` refuses trick points and kitty points together above 100 (a
    score sheet); rule cases answer them, as the answer does not depend on how they came about."""
    if bid is not None and not variant.bidding:
        raise EngineError("hundred.no_bid", variant=variant.id)
    if declarer is not None:
        declarer = variant.check_seat(declarer)
    if (
        variant.fixed_pairs
        and declarer is not None
        and type(friend) is int
        and friend == (declarer + 2) % 4
    ):
        friend = None  # the partner opposite: what fixed pairs mean anyway
    if friend is not None:
        if variant.fixed_pairs or variant.id == HUNDRED_3P:
            raise EngineError("hundred.no_friend", variant=variant.id)
        friend = variant.check_seat(friend)
        if friend == declarer:
            raise EngineError("hundred.friend_is_declarer")
    pens = check_penalties(penalties)
    ending = next(((k, s) for k, s in pens if k in (REVOKE, MISCOUNT)), None)
    total: int | None
    kou_di = False
    if ending is not None:
        total = None
        win = ATTACKERS if ending[1] == DECLARER else DECLARER
    else:
        if type(points) is not int or not 0 <= points <= TOTAL_POINTS or points % 5:
            raise EngineError("hundred.points", got=repr(points))
        if last_won_by not in (DECLARER, ATTACKERS):
            raise EngineError("hundred.last_won_by", got=repr(last_won_by))
        kou_di = last_won_by == ATTACKERS
        total = points
        if kitty is not None:
            check_unique(kitty, "the kitty")
            kp = points_of(kitty)
            if strict and points + kp > TOTAL_POINTS:
                raise EngineError("hundred.kitty_points", points=points, kitty_points=kp)
            if kou_di:
                total = points + kp
        elif kou_di:
            raise EngineError("hundred.kitty_needed")
        if kou_di:
            win = ATTACKERS
        elif variant.bidding:
            win = ATTACKERS if points > TOTAL_POINTS - check_bid(bid) else DECLARER
        else:
            win = ATTACKERS if points >= FORTY_LINE else DECLARER
    units = units_of(variant, bid)
    scores = None if declarer is None else side_scores(variant, win, units, declarer, friend)
    return HundredResult(total, win, units, scores, None if ending is None else ending[0], kou_di)
