"""Combinations (牌型): reading a set of same-suit cards as singles, pairs, triples, quads,
tractors of pairs or triples (or quads with 4 decks) and red five's handled tractors.

A *component* is one combination. A lead of several components is a throw (甩牌), read as the
fewest, largest components (RULES.md §1 "Leading"): among all readings, the one with the fewest
components, then with the largest components (tractors before quads, triples, pairs, singles at
equal size). Very large throws fall back to a greedy reading (longest tractors first).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, cast

from .cards import card_str
from .errors import CardError, EngineError, IllegalAction
from .order import EFF_SUITS, TRUMP, TrumpContext

SINGLE: Final = "single"
PAIR: Final = "pair"
TRIPLE: Final = "triple"
QUAD: Final = "quad"
TRACTOR: Final = "tractor"
HANDLED: Final = "handled-tractor"
THROW: Final = "throw"
INVALID: Final = "invalid"

PLAIN_KINDS: Final = {1: SINGLE, 2: PAIR, 3: TRIPLE, 4: QUAD}
# kind order for "largest first" at equal card count (lower = larger)
KIND_RANK: Final = {TRACTOR: 0, HANDLED: 0, QUAD: 1, TRIPLE: 2, PAIR: 3, SINGLE: 4}
# search budget of the exact throw reading, in states (product of count+1 over distinct cards)
_EXACT_LIMIT: Final = 4000


@dataclass(frozen=True, slots=True)
class Component:
    """One combination: ``units`` are ``(card, width)`` from the weakest position up.

    A single, pair, triple or quad has one unit; a tractor or handled tractor two or more, on
    consecutive positions. ``top`` is the strength of the strongest unit (``TrumpContext``)."""

    kind: str
    units: tuple[tuple[int, int], ...]
    top: int

    def __init__(self, kind: str, units: tuple[tuple[int, int], ...], top: int) -> None:
        # written out (the dataclass keeps eq, hash, repr and frozenness): the generated one is an
        # interpreted function even in the compiled build, about 16 times slower there
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "top", top)

    @property
    def size(self) -> int:
        return sum(w for _, w in self.units)

    @property
    def length(self) -> int:
        return len(self.units)

    @property
    def width(self) -> int:
        """The common width of the units (for a handled tractor: the largest)."""
        return max(w for _, w in self.units)

    @property
    def widths(self) -> tuple[int, ...]:
        return tuple(w for _, w in self.units)

    @property
    def is_chain(self) -> bool:
        return self.kind in (TRACTOR, HANDLED)

    def cards(self) -> list[int]:
        return [c for c, w in self.units for _ in range(w)]

    def sort_key(self) -> tuple[int, int, int]:
        """Largest first: more cards, then tractor > quad > triple > pair > single, then higher."""
        return (-self.size, KIND_RANK[self.kind], -self.top)

    def __str__(self) -> str:
        return " ".join(card_str(c) for c in self.cards())


@dataclass(frozen=True, slots=True)
class Classification:
    suit: str | None  # "S" "H" "D" "C" "trump", or None when several suits
    combo: str  # single pair triple quad tractor handled-tractor throw invalid
    width: int | None
    length: int | None
    components: tuple[Component, ...]


def _check_ctx(ctx: object) -> TrumpContext:
    if not isinstance(ctx, TrumpContext):
        raise EngineError("ctx.type", got=repr(ctx))
    return ctx


def _check_cards(cards: object, ctx: object) -> None:
    """Public entry points: a real context and a list of cards, no more copies than the decks."""
    _check_ctx(ctx)
    t = type(cards)
    if (
        t is not list
        and t is not tuple
        and (isinstance(cards, str | bytes) or not isinstance(cards, Sequence))
    ):
        raise CardError("cards.list_type", got=repr(cards))
    seq = cast(Sequence[object], cards)  # not int: the check is what proves them cards
    for c in seq:
        if type(c) is not int or not 0 <= c < 54:
            raise CardError("card.not_a_number", got=repr(c))
    decks = ctx.variant.decks  # type: ignore[attr-defined]
    if len(seq) > decks:
        for c, k in Counter(cast(Sequence[int], seq)).items():  # cards now
            if k > decks:
                raise CardError(
                    "cards.copies", what="these cards", n=k, card=card_str(c), decks=decks
                )


def suit_name(ctx: TrumpContext, suit_index: int) -> str:
    if type(suit_index) is not int or not 0 <= suit_index <= TRUMP:
        raise EngineError("suit.index", got=repr(suit_index), trump=TRUMP)
    return "trump" if suit_index == TRUMP else EFF_SUITS[suit_index]


def common_suit(cards: Iterable[int], ctx: TrumpContext) -> int | None:
    """The effective-suit index shared by all cards, or ``None`` if they span several suits."""
    _check_cards(cards, ctx)
    return _common_suit(cards, ctx)


def _common_suit(cards: Iterable[int], ctx: TrumpContext) -> int | None:
    """``common_suit`` for cards already checked (the engine's own plays)."""
    st = ctx.suit_tab
    s = -1
    for c in cards:
        cs = st[c]
        if s == -1:
            s = cs
        elif cs != s:
            return None
    return None if s == -1 else s


def _plain(card: int, width: int, ctx: TrumpContext) -> Component:
    return Component(PLAIN_KINDS[width], ((card, width),), ctx.strength_tab[card])


def _chain(units: Sequence[tuple[int, int]], ctx: TrumpContext) -> Component:
    widths = {w for _, w in units}
    kind = TRACTOR if len(widths) == 1 else HANDLED
    return Component(kind, tuple(units), ctx.strength_tab[units[-1][0]])


def chain_widths_ok(widths: Sequence[int], ctx: TrumpContext) -> bool:
    """May units of these widths (2 or more of them, consecutive) form one tractor?"""
    _check_ctx(ctx)
    if isinstance(widths, str | bytes) or not isinstance(widths, Sequence):
        raise EngineError("widths.type", got=repr(widths))
    if not all(type(w) is int for w in widths):
        raise EngineError("widths.ints", got=repr(widths))
    if len(widths) < 2 or min(widths) < 2:
        return False
    ws = set(widths)
    if len(ws) == 1:
        w = widths[0]
        return w == 2 or (ctx.triple_tractors and w <= ctx.max_width)
    return ctx.handled and ws == {2, 3}


def _neighbours(distinct: Sequence[int], ctx: TrumpContext) -> list[list[int]]:
    """For each index into ``distinct`` (sorted by position), the indices one position above."""
    pos = ctx.pos_tab
    out: list[list[int]] = []
    for c in distinct:
        p = pos[c] + 1
        out.append([j for j, d in enumerate(distinct) if pos[d] == p])
    return out


def _chains_from(
    i: int,
    counts: Sequence[int],
    nbr: Sequence[Sequence[int]],
    ctx: TrumpContext,
) -> Iterator[list[tuple[int, int]]]:
    """Every tractor (as ``(index, width)`` units) whose weakest unit is at index ``i``."""
    top_uniform = min(counts[i], ctx.max_width) if ctx.triple_tractors else min(counts[i], 2)
    path: list[tuple[int, int]] = []

    def uniform(j: int, w: int) -> Iterator[list[tuple[int, int]]]:
        for k in nbr[j]:
            if counts[k] >= w:
                path.append((k, w))
                yield list(path)
                yield from uniform(k, w)
                path.pop()

    for w in range(2, top_uniform + 1):
        path.append((i, w))
        yield from uniform(i, w)
        path.pop()
    if not ctx.handled:
        return

    def mixed(j: int, seen: int) -> Iterator[list[tuple[int, int]]]:
        for k in nbr[j]:
            for w in (2, 3):
                if counts[k] >= w:
                    path.append((k, w))
                    now = seen | (1 if w == 2 else 2)
                    if now == 3:  # both a pair and a triple are in the chain
                        yield list(path)
                    yield from mixed(k, now)
                    path.pop()

    for w in (2, 3):
        if counts[i] >= w:
            path.append((i, w))
            yield from mixed(i, 1 if w == 2 else 2)
            path.pop()


def decompose(cards: Sequence[int], ctx: TrumpContext) -> list[Component]:
    """Read same-suit ``cards`` as the fewest, largest components (largest first)."""
    _check_cards(cards, ctx)
    return _decompose(cards, ctx)


def _decompose(cards: Sequence[int], ctx: TrumpContext) -> list[Component]:
    """``decompose`` for cards already checked (the engine's own plays)."""
    if len(cards) == 1:
        c = cards[0]
        return [Component(SINGLE, ((c, 1),), ctx.strength_tab[c])]
    # a plain dict in first-seen order, as Counter counts (faster for a few cards, native when
    # compiled; only the counted cards are read)
    cnt: dict[int, int] = {}
    for c in cards:
        cnt[c] = cnt.get(c, 0) + 1
    if not cnt:
        return []
    if len(cnt) == 1:
        ((c, k),) = cnt.items()
        if k <= 4:
            return [_plain(c, k, ctx)]
    pos = ctx.pos_tab
    distinct = sorted(cnt, key=lambda c: (pos[c], c))
    counts0 = tuple(cnt[c] for c in distinct)
    nbr = _neighbours(distinct, ctx)
    space = 1
    for k in counts0:
        space *= k + 1
    if space <= _EXACT_LIMIT:
        comps = _exact(distinct, counts0, nbr, ctx)
    else:
        comps = _greedy(distinct, list(counts0), nbr, ctx)
    comps.sort(key=Component.sort_key)
    return comps


def _key(comps: Sequence[Component]) -> tuple[int, tuple[tuple[int, int], ...]]:
    return (len(comps), tuple(sorted((-c.size, KIND_RANK[c.kind]) for c in comps)))


def _exact(
    distinct: Sequence[int],
    counts0: tuple[int, ...],
    nbr: Sequence[Sequence[int]],
    ctx: TrumpContext,
) -> list[Component]:
    memo: dict[tuple[int, ...], list[Component]] = {}
    n = len(distinct)

    def best(state: tuple[int, ...]) -> list[Component]:
        got = memo.get(state)
        if got is not None:
            return got
        i = 0
        while i < n and state[i] == 0:
            i += 1
        if i == n:
            memo[state] = []
            return []
        options: list[list[Component]] = []
        k = state[i]
        for w in range(1, min(k, 4) + 1):
            rest = list(state)
            rest[i] -= w
            options.append([_plain(distinct[i], w, ctx), *best(tuple(rest))])
        for chain in _chains_from(i, state, nbr, ctx):
            rest = list(state)
            for j, w in chain:
                rest[j] -= w
            comp = _chain([(distinct[j], w) for j, w in chain], ctx)
            options.append([comp, *best(tuple(rest))])
        result = min(options, key=_key)
        memo[state] = result
        return result

    return list(best(counts0))


def _greedy(
    distinct: Sequence[int],
    counts: list[int],
    nbr: Sequence[Sequence[int]],
    ctx: TrumpContext,
) -> list[Component]:
    """Longest (most cards) tractors first, then quads, triples, pairs, singles."""
    comps: list[Component] = []
    while True:
        best_chain: list[tuple[int, int]] | None = None
        best_size = 0
        for i in range(len(distinct)):
            if counts[i] < 2:
                continue
            for chain in _chains_from(i, counts, nbr, ctx):
                size = sum(w for _, w in chain)
                if size > best_size:
                    best_chain, best_size = chain, size
        if best_chain is None:
            break
        for j, w in best_chain:
            counts[j] -= w
        comps.append(_chain([(distinct[j], w) for j, w in best_chain], ctx))
    for i, c in enumerate(distinct):
        k = counts[i]
        while k > 0:
            w = min(k, 4)
            comps.append(_plain(c, w, ctx))
            k -= w
    return comps


def lead_components(cards: Sequence[int], ctx: TrumpContext) -> list[Component]:
    """The components of a lead, largest first; raises ``IllegalAction`` for no cards or
    cards of several suits."""
    _check_cards(cards, ctx)
    if not cards:
        raise IllegalAction("lead.empty")
    if common_suit(cards, ctx) is None:
        raise IllegalAction("lead.one_suit", cards=[card_str(c) for c in cards])
    return decompose(cards, ctx)


def classify(cards: Sequence[int], ctx: TrumpContext) -> Classification:
    """What ``cards`` are as a lead: suit and combination (see FORMAT.md ``classify``)."""
    _check_cards(cards, ctx)
    if not cards:
        raise IllegalAction("classify.empty")
    s = common_suit(cards, ctx)
    if s is None:
        return Classification(None, INVALID, None, None, ())
    comps = decompose(cards, ctx)
    name = suit_name(ctx, s)
    if len(comps) > 1:
        return Classification(name, THROW, None, None, tuple(comps))
    comp = comps[0]
    if comp.kind == TRACTOR:
        return Classification(name, TRACTOR, comp.width, comp.length, (comp,))
    if comp.kind == HANDLED:
        return Classification(name, HANDLED, None, comp.length, (comp,))
    return Classification(name, comp.kind, None, None, (comp,))


def largest_component_cards(cards: Sequence[int], ctx: TrumpContext) -> int:
    """Card count of the largest component of a lead (the kitty multiplier reads it)."""
    return max(c.size for c in lead_components(cards, ctx))
