"""Which engine bot plays a bot seat: the director's strength per seat.

``easy`` is ``RandomBot``, ``normal`` is ``HeuristicBot`` and ``strong`` is the search bot
``MCBot`` with a time box short enough for a web request (``STRONG_MS`` of wall-clock time per
move). A request in which bots play many moves in a row (a table of bots, or several strong seats
between two human moves) stops searching once it has thought for ``REQUEST_THINK_S`` seconds:
the strong bots then play as ``normal`` ones for the rest of that request, so a page answers in
time. ``flask tournament run-bots --bots KIND`` plays every seat with one kind for its run, with
no request budget.
"""

from __future__ import annotations

import time
from contextvars import ContextVar
from typing import NamedTuple

from flask_babel import lazy_gettext as _l

from engine.bots import HeuristicBot, RandomBot
from engine.deal import Deal
from engine.mcbot import MCBot

from ..tournaments.audit import value_words

LEVELS = ("easy", "normal", "strong")
LEVEL_LABELS = {
    "easy": _l("easy (random moves)"),
    "normal": _l("normal (rules of thumb)"),
    "strong": _l("strong (searches ahead)"),
}
# the trail words a seat's strength as the forms do (``online_bot_level`` entries: "level")
value_words("level", LEVEL_LABELS)
KIND_OF_LEVEL = {"easy": "random", "normal": "heuristic", "strong": "mc"}
BOT_KINDS = ("heuristic", "random", "mc")
STRONG_MS = 200


class Strength(NamedTuple):
    """One arena measurement (``python -m engine.arena``, duplicate pairs: each deal played twice
    with the seats swapped, so the cards cancel out): ``level`` against ``against``, the mean
    advantage per deal (levels; 积分 per seat in red five) and its 95 % interval."""

    level: str
    against: str
    variant: str
    pairs: int
    diff: float
    low: float
    high: float
    command: str


# Measured on this project's 2-core machine on 2026-12-01 (strong = 200 ms of CPU a move, as here),
# with the heuristic that remembers the cards played (engine/README.md has every run).
MEASURED = (
    Strength(
        "normal",
        "easy",
        "tractor-4p",
        2000,
        1.556,
        1.532,
        1.579,
        "python -m engine.arena --variant tractor-4p --a heuristic --b random --deals 2000 --seed 1",
    ),
    Strength(
        "normal",
        "easy",
        "red-five-5p",
        2000,
        1.321,
        1.277,
        1.366,
        "python -m engine.arena --variant red-five-5p --a heuristic --b random --deals 2000 --seed 1",
    ),
    Strength(
        "normal",
        "easy",
        "one-twenty-6p",
        2000,
        1.304,
        1.282,
        1.326,
        "python -m engine.arena --variant one-twenty-6p --a heuristic --b random --deals 2000 --seed 1",
    ),
    Strength(
        "strong",
        "normal",
        "tractor-4p",
        100,
        0.355,
        0.255,
        0.455,
        "python -m engine.arena --variant tractor-4p --a mc --b heuristic --deals 100 --seed 51 --time-per-move 200",
    ),
    Strength(
        "strong",
        "normal",
        "red-five-5p",
        40,
        0.320,
        0.174,
        0.466,
        "python -m engine.arena --variant red-five-5p --a mc --b heuristic --deals 40 --seed 21 --time-per-move 200",
    ),
    Strength(
        "strong",
        "normal",
        "one-twenty-6p",
        100,
        0.265,
        0.186,
        0.344,
        "python -m engine.arena --variant one-twenty-6p --a mc --b heuristic --deals 100 --seed 41 --time-per-move 200",
    ),
)


def strength_table(variant: str) -> list[Strength]:
    """What the arena measured for this game, strongest comparison last."""
    return [m for m in MEASURED if m.variant == variant]


REQUEST_THINK_S = 3.0

# set by ``run-bots`` for its run: one kind for every seat, and no per-request budget
FORCED_KIND: ContextVar[str | None] = ContextVar("online_bot_kind", default=None)
# seconds the strong bots of this request may still think (None: no limit)
THINK_LEFT: ContextVar[float | None] = ContextVar("online_think_left", default=None)


def kind_for(level: str | None) -> str:
    """The engine bot kind for a seat's strength (run-bots' kind wins when set)."""
    forced = FORCED_KIND.get()
    if forced is not None:
        return forced
    return KIND_OF_LEVEL.get(level or "normal", "heuristic")


class _RequestMC(MCBot):
    """A strong bot that charges its thinking to the request's budget."""

    def _choose_play(self, deal: Deal, seat: int) -> list[int]:
        left = THINK_LEFT.get()
        if left is not None and left <= 0:
            return HeuristicBot._choose_play(self, deal, seat)
        t0 = time.perf_counter()
        try:
            return super()._choose_play(deal, seat)
        finally:
            if left is not None:
                THINK_LEFT.set(left - (time.perf_counter() - t0))


def new_request_budget() -> None:
    """A request starts: its strong bots may think ``REQUEST_THINK_S`` seconds in all
    (``run-bots`` sets a kind and has no budget)."""
    THINK_LEFT.set(None if FORCED_KIND.get() is not None else REQUEST_THINK_S)


def make_seat_bot(level: str | None, seed: int) -> RandomBot:
    """The bot that makes one decision for a seat of the given strength."""
    kind = kind_for(level)
    if kind == "random":
        return RandomBot(seed)
    if kind == "mc":
        return _RequestMC(seed, time_per_move=STRONG_MS / 1000, clock=time.perf_counter)
    return HeuristicBot(seed)
