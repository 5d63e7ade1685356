"""Duplicate boards (复式): one standalone deal every table plays, and the bots' par. Pure.

A board (``shared/rules/DUPLICATE.md``, Boards) is the variant and its options, a seed giving
the deck order, the seat that draws first and the level both sides play at. Calls follow the
rules of a game's first deal, so the engine gets ``DealSetup(first=True)`` with the board's
shuffler as the previous dealer: the draw order is then the same at every table, seat by seat.

* ``event_boards(variant, options, seed, count)``: boards 1 … count of an event, each with its
  own seed (derived from the event's seed and the board number, so a board never depends on
  how many boards the event has) and the first drawer turning round the table. A board's
  options are the event's with the weak-hand redeal off (``board_options``: 升级 暴动
  ``redeal_below``, 120分's refusal ``refuse_below``, both ``null`` as RULES.md allows): a
  board's cards are fixed, so a table cannot have them dealt again.
* ``paper_deal(board)``: the whole draw dealt out: each seat's cards sorted by suit (trumps are
  not known before the calls: spades, hearts, diamonds, clubs, high to low, then the jokers),
  the kitty, and the draw order (the seat and card of each draw).
* ``par(board, plays)``: the heuristic bots play the board from each seat arrangement
  (``arrangements``: the hands turned round their own side's seats, so side 0 keeps side 0's
  cards; red five: round the table), ``plays`` times in all (default: each arrangement once;
  more plays go round again with the next bot seeds); par is the average value for side 0
  (DUPLICATE.md's ``value``), or for red five each board seat's average 积分 change.
  Deterministic. (The heuristic bots play alike from any seed, so it is the arrangements that
  make the plays differ.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.bots import HeuristicBot, play_deal
from engine.cards import LJ, card_str
from engine.deal import Deal, DealSetup
from engine.errors import EngineError
from engine.variants import ONE_TWENTY, RED_FIVE, TRACTOR, make_variant

from .duplicate import DuplicateError, value


@dataclass(frozen=True)
class Board:
    number: int  # from 1
    variant: str
    seed: int
    shuffler: int  # the seat the draw starts from (120分: the cut card counts on from here)
    options: Mapping[str, Any] = field(default_factory=dict)
    level: str = "2"

    def setup(self) -> DealSetup:
        return DealSetup(
            self.variant,
            dict(self.options),
            self.seed,
            levels=(self.level, self.level),
            dealer=self.shuffler,
            first=True,
        )

    def deal(self) -> Deal:
        """A fresh deal of this board, before the first draw."""
        try:
            return Deal(self.setup())
        except EngineError as e:
            raise DuplicateError(f"board {self.number} cannot be dealt: {e}") from None


def board_seed(event_seed: int, number: int) -> int:
    """A 48-bit seed for board ``number`` of an event (stable across Python versions)."""
    digest = hashlib.sha256(f"duplicate:{event_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


# A duplicate board is not dealt again: the weak-hand redeal options, turned off on every board.
NO_REDEAL = {TRACTOR: "redeal_below", ONE_TWENTY: "refuse_below"}


def board_options(variant: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options a duplicate board is played with: the event's, with the weak-hand redeal
    (升级 暴动, 120分's refused deal) off."""
    opts = dict(options or {})
    off = NO_REDEAL.get(variant)
    if off is not None:
        opts[off] = None
    return opts


def event_boards(
    variant: str,
    options: Mapping[str, Any] | None,
    seed: int,
    count: int,
    level: str = "2",
) -> list[Board]:
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise DuplicateError(f"the number of boards must be a whole number from 1, not {count!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise DuplicateError(f"the event seed must be a whole number, not {seed!r}")
    opts = board_options(variant, options)
    try:
        n = make_variant(variant, opts).players
    except EngineError as e:
        raise DuplicateError(str(e)) from None
    return [
        Board(k, variant, board_seed(seed, k), (k - 1) % n, opts, level)
        for k in range(1, count + 1)
    ]


# --- the paper deal ---------------------------------------------------------------------------

SUIT_ORDER = ("S", "H", "D", "C")


def _sort_key(card: int) -> tuple[int, int]:
    if card >= LJ:
        return (len(SUIT_ORDER), -(card - LJ))  # the jokers last, the big one first
    return (card // 13, -(card % 13))


def sorted_by_suit(cards: list[int]) -> list[int]:
    return sorted(cards, key=_sort_key)


@dataclass(frozen=True)
class PaperDeal:
    board: Board
    first_drawer: int
    hands: tuple[tuple[str, ...], ...]  # per seat, sorted by suit (card strings)
    kitty: tuple[str, ...]  # in the order it is left
    draws: tuple[tuple[int, str], ...]  # (seat, card) per draw, in order
    cut_card: str | None  # 120分: the card turned after the cut

    def suits(self, seat: int) -> list[tuple[str, list[str]]]:
        """The seat's hand by suit: ``[("S", ["AS", …]), …, ("J", ["HJ", "LJ"])]``."""
        out: dict[str, list[str]] = {s: [] for s in (*SUIT_ORDER, "J")}
        for c in self.hands[seat]:
            out["J" if c in ("LJ", "HJ") else c[-1]].append(c)
        return list(out.items())


def paper_deal(board: Board) -> PaperDeal:
    d = board.deal()
    n = d.n
    pack = list(d.pack)
    to_deal = n * d.variant.hand
    hands: list[list[int]] = [[] for _ in range(n)]
    draws = []
    for i, card in enumerate(pack[:to_deal]):
        seat = (d.first_drawer + i) % n
        hands[seat].append(card)
        draws.append((seat, card_str(card)))
    return PaperDeal(
        board,
        d.first_drawer,
        tuple(tuple(card_str(c) for c in sorted_by_suit(h)) for h in hands),
        tuple(card_str(c) for c in pack[to_deal:]),
        tuple(draws),
        None if d.cut_card is None else card_str(d.cut_card),
    )


# --- par --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Par:
    plays: int  # plays that ended with a result (a 120分 board nobody called has none)
    value0: float | None  # fixed sides: the mean value for side 0
    seat_scores: tuple[float, ...] | None  # red five: each board seat's mean 积分 change
    values: tuple[int, ...]  # fixed sides: side 0's value in each counted play


def arrangements(variant: str, options: Mapping[str, Any] | None = None) -> list[tuple[int, ...]]:
    """The seat arrangements par plays a board from: ``a[h]`` is the seat that gets board seat
    ``h``'s hand. Fixed sides: each side's hands turned round that side's seats independently
    (升级 2 × 2 = 4, 120分 3 × 3 = 9), so side 0's cards stay with side 0; red five: the five
    hands turned round the table (5)."""
    n = make_variant(variant, dict(options or {})).players
    if variant == RED_FIVE:
        return [tuple((h + i) % n for h in range(n)) for i in range(n)]
    half = n // 2
    out = []
    for i in range(half):
        for j in range(half):
            out.append(tuple((h + 2 * (i if h % 2 == 0 else j)) % n for h in range(n)))
    return out


def default_plays(variant: str) -> int:
    return len(arrangements(variant))


def arranged_deal(board: Board, seat_of: tuple[int, ...]) -> Deal:
    """The board with board seat ``h``'s hand drawn by seat ``seat_of[h]`` (the same kitty, the
    draw still starting from the board's first drawer)."""
    d = board.deal()
    n, fd = d.n, d.first_drawer
    to_deal = n * d.variant.hand
    pack = list(d.pack)
    back = {seat_of[h]: h for h in range(n)}
    new = list(pack)
    for i in range(to_deal):
        q = (fd + i) % n
        new[i] = pack[(i // n) * n + (back[q] - fd) % n]
    setup = board.setup()
    for shift in range(n):  # 120分: the turned card decides the first drawer; keep it fixed
        s = DealSetup(
            setup.variant,
            dict(setup.options),
            setup.seed,
            setup.levels,
            (board.shuffler + shift) % n,
            True,
            pack=tuple(new),
        )
        out = Deal(s)
        if out.first_drawer == fd:
            return out
    raise DuplicateError(f"board {board.number} cannot be re-seated")  # pragma: no cover


def _bots(n: int, rnd: int) -> list[HeuristicBot]:
    return [HeuristicBot(rnd * 1000 + s) for s in range(n)]


def side0_value(d: Deal) -> int | None:
    """Side 0's value of a finished fixed-sides deal (None when it had no result)."""
    r = d.result
    if d.outcome != "played" or r is None or r.total is None or d.dealer is None:
        return None
    return value(d.variant, d.dealer % 2, r.total)[0]


def par(board: Board, plays: int | None = None) -> Par:
    """Play ``plays`` (default: one per arrangement) with the heuristic bots: play ``p`` from
    arrangement ``p mod A`` with the bots of seed round ``p // A``."""
    arr = arrangements(board.variant, board.options)
    if plays is None:
        plays = len(arr)
    if isinstance(plays, bool) or not isinstance(plays, int) or plays < 1:
        raise DuplicateError(f"par needs a whole number of plays from 1, not {plays!r}")
    n = len(arr[0])
    vals: list[int] = []
    seats: list[list[int]] = []
    for p in range(plays):
        rnd, a = divmod(p, len(arr))
        d = play_deal(arranged_deal(board, arr[a]), _bots(n, rnd))
        if board.variant == RED_FIVE:
            if d.outcome == "played" and d.result is not None and d.result.scores is not None:
                sc = d.result.scores
                seats.append([sc[arr[a][h]] for h in range(n)])
            continue
        v = side0_value(d)
        if v is not None:
            vals.append(v)
    if board.variant == RED_FIVE:
        if not seats:
            return Par(0, None, None, ())
        k = len(seats)
        return Par(k, None, tuple(sum(s[i] for s in seats) / k for i in range(n)), ())
    return Par(len(vals), sum(vals) / len(vals) if vals else None, None, tuple(vals))
