"""The chance steps the engine and its bots take, as plain functions of a ``random.Random``.

Each function draws exactly what the ``random.Random`` method of the same name draws (CPython's
algorithms over ``getrandbits``, for whole-number arguments): the same seed gives the same
shuffle, the same choices and leaves the generator in the same state
(``tests/engine/test_rules_draws.py`` compares them). Written out here so the hot loops call
``getrandbits`` directly instead of going through the method layers (and so the compiled build
compiles them too).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import ceil, log
from typing import TypeVar

from .cards import cards_str
from .errors import EngineError, IllegalAction

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """A random int in ``0 .. n-1`` (``n > 0``): ``Random._randbelow``."""
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[T]) -> None:
    """``rng.shuffle(x)``: Fisher-Yates from the end."""
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def choice(rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice(seq)`` for a non-empty sequence."""
    if not seq:
        raise IndexError("Cannot choose from an empty sequence")
    return seq[below(rng, len(seq))]


def randint(rng: random.Random, a: int, b: int) -> int:
    """``rng.randint(a, b)`` for whole numbers ``a <= b``."""
    width = b - a + 1
    if width <= 0:
        raise ValueError(f"empty range in randint({a}, {b})")
    return a + below(rng, width)


def sample(rng: random.Random, population: Sequence[T], k: int) -> list[T]:
    """``rng.sample(population, k)``: ``k`` distinct positions, in selection order."""
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    result: list[T] = []
    setsize = 21
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = below(rng, n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
    else:
        selected: set[int] = set()
        for _ in range(k):
            j = below(rng, n)
            while j in selected:
                j = below(rng, n)
            selected.add(j)
            result.append(population[j])
    return result


def check_logged_draw(
    next_drawer: int | None,
    pack: Sequence[int],
    drawn: int,
    seat: int,
    cards: tuple[int, ...],
    action: int,
) -> None:
    """Refuse a logged draw that does not replay as recorded: none is left to draw
    (``log.draw_after``), or the log's seat or card is not the one the seeded shuffle gives next
    (``log.seed_mismatch``; ``action`` is the draw's 1-based place in the log). A logged draw
    without its card (a seat's view hides it) only has to name the right seat."""
    if next_drawer is None:
        raise IllegalAction("log.draw_after")
    if seat != next_drawer or (cards and cards != (pack[drawn],)):
        raise EngineError("log.seed_mismatch", action=action, cards=cards_str(cards), seat=seat)
