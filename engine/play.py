"""Playing cards: leading, throws, following (有对必对) and the winner of a trick (RULES.md §1).

All functions take card ints and a ``TrumpContext``. Hands and plays are multisets (lists).

Following is decided by *demands*: a lead asks, component by component (largest first), for
shapes — a chain (tractor) of given unit widths, or a plain unit (pair, triple, quad). Each
component has a ladder from its own shape down to nothing (a tractor: the same tractor, then
shorter tractors plus single units, then units alone; a unit of width w: w, w-1, … 2, nothing).
Walking the components in order, each one gets the strongest step of its ladder that the
follower's cards of the led suit can still supply together with the steps already fixed. A play
is legal when its cards of the led suit supply all the fixed steps (so it matches the lead as
far as the hand allows, largest components first).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, cast

from .cards import card_str
from .combos import (
    KIND_RANK,
    SINGLE,
    Component,
    _common_suit,
    common_suit,
    decompose,
    suit_name,
)
from .errors import CardError, EngineError, IllegalAction
from .order import TRUMP, TrumpContext

# A demand: ("chain", widths sorted high→low) or ("unit", (width,)).
Demand = tuple[str, tuple[int, ...]]
_CHAIN: Final = "chain"
_UNIT: Final = "unit"


def _names(cards: Iterable[int]) -> list[str]:
    """Cards as card strings: an error's ``cards`` parameter (worded with spaces between)."""
    return [card_str(c) for c in cards]


# --- a pool of same-suit cards and the placement search ---------------------------------------


class _Pool:
    """Distinct cards of one effective suit, weakest position first, with counts."""

    __slots__ = ("cards", "counts", "nbr", "strength")

    def __init__(self, cnt: dict[int, int], ctx: TrumpContext) -> None:
        pos = ctx.pos_tab
        cards = sorted(cnt, key=lambda c: (pos[c], c))
        self.cards = cards
        self.counts = [cnt[c] for c in cards]
        by_pos: dict[int, list[int]] = {}
        for i, c in enumerate(cards):
            by_pos.setdefault(pos[c], []).append(i)
        self.nbr = [by_pos.get(pos[c] + 1, []) for c in cards]
        st = ctx.strength_tab
        self.strength = [st[c] for c in cards]


def _chain_paths(pool: _Pool, t: int, min_w: int) -> Iterator[list[int]]:
    """Index paths of ``t`` consecutive positions, every count at least ``min_w``."""
    counts, nbr = pool.counts, pool.nbr
    path: list[int] = []

    def walk(j: int) -> Iterator[list[int]]:
        if len(path) == t:
            yield path
            return
        for k in nbr[j]:
            if counts[k] >= min_w:
                path.append(k)
                yield from walk(k)
                path.pop()

    for i in range(len(counts)):
        if counts[i] >= min_w:
            path.append(i)
            yield from walk(i)
            path.pop()


def _arrangements(widths: tuple[int, ...], counts: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Distinct orders of ``widths`` that fit under ``counts`` position by position."""
    if widths[0] == widths[-1]:
        if all(c >= widths[0] for c in counts):
            yield widths
        return
    seen: set[tuple[int, ...]] = set()
    rest = list(widths)
    out: list[int] = []

    def rec(p: int) -> Iterator[tuple[int, ...]]:
        if p == len(counts):
            tup = tuple(out)
            if tup not in seen:
                seen.add(tup)
                yield tup
            return
        tried: set[int] = set()
        for idx, w in enumerate(rest):
            if w in tried or counts[p] < w:
                continue
            tried.add(w)
            out.append(w)
            rest.pop(idx)
            yield from rec(p + 1)
            rest.insert(idx, w)
            out.pop()

    yield from rec(0)


def _chain_placements(pool: _Pool, widths: tuple[int, ...]) -> Iterator[list[tuple[int, int]]]:
    """Every way to take a chain of these unit widths from the pool: ``(index, width)``."""
    counts = pool.counts
    for path in _chain_paths(pool, len(widths), widths[-1]):
        for arr in _arrangements(widths, [counts[i] for i in path]):
            yield list(zip(path, arr, strict=True))


def _unit_placements(pool: _Pool, width: int, dedupe: bool) -> Iterator[list[tuple[int, int]]]:
    counts = pool.counts
    seen: set[int] = set()
    for i, c in enumerate(counts):
        if c >= width:
            if dedupe:
                if c in seen:
                    continue
                seen.add(c)
            yield [(i, width)]


def _placements(pool: _Pool, demand: Demand, dedupe: bool) -> Iterator[list[tuple[int, int]]]:
    kind, widths = demand
    if kind == _CHAIN:
        return _chain_placements(pool, widths)
    return _unit_placements(pool, widths[0], dedupe)


def _order(demands: Sequence[Demand]) -> list[Demand]:
    """Chains first (hardest), then units widest first."""
    return sorted(demands, key=lambda d: (d[0] != _CHAIN, -len(d[1]), -d[1][0]))


def _search(
    pool: _Pool,
    demands: Sequence[Demand],
    on_found: Callable[[list[tuple[int, int]]], bool],
    dedupe: bool = True,
) -> bool:
    """Depth-first over disjoint placements of ``demands`` (already ordered). ``on_found`` gets
    the used ``(index, width)`` list and returns True to stop. Returns True if stopped."""
    counts = pool.counts
    used: list[tuple[int, int]] = []
    n = len(demands)

    def rec(k: int) -> bool:
        if k == n:
            return on_found(used)
        for place in _placements(pool, demands[k], dedupe and demands[k][0] == _UNIT):
            for i, w in place:
                counts[i] -= w
            used.extend(place)
            stop = rec(k + 1)
            del used[len(used) - len(place) :]
            for i, w in place:
                counts[i] += w
            if stop:
                return True
        return False

    return rec(0)


def _satisfiable(pool: _Pool, demands: Sequence[Demand]) -> bool:
    if not demands:
        return True
    return _search(pool, _order(demands), lambda _used: True)


# --- what a lead demands of a follower ----------------------------------------------------------


def _unit_ladder(w: int) -> list[list[Demand]]:
    ladder: list[list[Demand]] = [[(_UNIT, (x,))] for x in range(w, 1, -1)]
    ladder.append([])
    return ladder


def _fixed_demands(comps: Sequence[Component], pool: _Pool) -> list[Demand]:
    """The strongest demands the pool can meet, component by component (largest first)."""
    fixed: list[Demand] = []

    def take(ladder: Iterable[list[Demand]]) -> list[Demand]:
        for option in ladder:
            if not option or _satisfiable(pool, fixed + option):
                fixed.extend(option)
                return option
        return []  # pragma: no cover - the empty option always fits

    for comp in comps:
        if comp.kind == SINGLE:
            continue
        widths = tuple(sorted(comp.widths, reverse=True))
        if not comp.is_chain:
            take(_unit_ladder(widths[0]))
            continue
        length = len(widths)
        chain_ladder: list[list[Demand]] = [
            [(_CHAIN, widths[:t])] for t in range(length, 1, -1)
        ] + [[]]
        got = take(chain_ladder)
        t = len(got[0][1]) if got else 0
        for w in widths[t:]:
            take(_unit_ladder(w))
    return fixed


def _describe(demands: Sequence[Demand]) -> str:
    names = {2: "pair", 3: "triple", 4: "quad"}
    parts = []
    for kind, widths in demands:
        if kind == _CHAIN:
            if widths[0] == widths[-1]:
                parts.append(f"a tractor of {len(widths)} {names[widths[0]]}s")
            else:
                parts.append(
                    f"a handled tractor of {widths.count(3)} triples and {widths.count(2)} pairs"
                )
        else:
            parts.append(f"a {names[widths[0]]}")
    return ", ".join(parts)


def _demand_list(demands: Sequence[Demand]) -> list[dict[str, Any]]:
    """``_describe``'s demands as data (an error parameter an application words itself):
    ``{"kind": "pair" | "triple" | "quad"}``, ``{"kind": "tractor", "unit": …, "length": n}``,
    or ``{"kind": "handled", "triples": n, "pairs": m}``."""
    names = {2: "pair", 3: "triple", 4: "quad"}
    out: list[dict[str, Any]] = []
    for kind, widths in demands:
        if kind != _CHAIN:
            out.append({"kind": names[widths[0]]})
        elif widths[0] == widths[-1]:
            out.append({"kind": "tractor", "unit": names[widths[0]], "length": len(widths)})
        else:
            out.append({"kind": "handled", "triples": widths.count(3), "pairs": widths.count(2)})
    return out


# --- public: leading ----------------------------------------------------------------------------


def _args(ctx: object, *lists: object) -> None:
    """Public entry points: a real ``TrumpContext`` and lists of cards (not text, not a number)."""
    if not isinstance(ctx, TrumpContext):
        raise EngineError("ctx.type", got=repr(ctx))
    for cards in lists:
        t = type(cards)
        if t is list or t is tuple:  # the usual case, without the slower ABC check
            continue
        if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
            raise CardError("cards.list_type", got=repr(cards))


def _given_comps(lead: Sequence[object], ctx: TrumpContext, comps: object) -> None:
    """A caller that passes the lead's components still passes a real lead with them."""
    for c in lead:
        if type(c) is not int or not 0 <= c < 54:
            raise CardError("lead.not_a_card", got=repr(c))
    if type(comps) is list:
        pass
    elif isinstance(comps, str | bytes) or not isinstance(comps, Sequence):
        raise EngineError("lead_comps.type", got=repr(comps))
    if not comps or not all(isinstance(c, Component) for c in comps):
        raise EngineError("lead_comps.type", got=repr(comps))


def _lead_comps(
    lead: Sequence[int], ctx: TrumpContext, lead_comps: Sequence[Component] | None
) -> Sequence[Component]:
    """The lead's components: read from ``lead`` (checked), or the caller's ``lead_comps``
    once they are shown to be real components of a real lead."""
    if lead_comps is None:
        return lead_components_checked(lead, ctx)
    _given_comps(lead, ctx, lead_comps)
    return lead_comps


def _counter(cards: Sequence[object], what: str, decks: int = 0) -> Counter[int]:
    """Count ``cards``; refuse non-cards and, with ``decks``, more copies than the decks hold."""
    try:
        cnt: Counter[object] = Counter(cards)
    except TypeError:  # an unhashable element such as a list: not a card
        raise CardError("cards.unhashable", what=what, got=repr(cards)) from None
    for c, k in cnt.items():
        if type(c) is not int or not 0 <= c < 54:
            raise CardError("cards.holds_non_card", what=what, got=repr(c))
        if decks and k > decks:
            raise CardError("cards.copies", what=what, n=k, card=card_str(c), decks=decks)
    return cast("Counter[int]", cnt)  # every key was just shown to be a card


def _check_in_hand(cards: Sequence[int], hand: Sequence[int], what: str) -> Counter[int]:
    need = _counter(cards, what)
    have = _counter(hand, "the hand")
    for c, k in need.items():
        if have[c] < k:
            held = have[c]
            if held:
                raise IllegalAction("hand.too_few", what=what, n=k, card=card_str(c), held=held)
            raise IllegalAction("hand.missing", card=card_str(c))
    return have


def verify_lead(cards: Sequence[int], hand: Sequence[int], ctx: TrumpContext) -> list[Component]:
    """A lead must be one or more cards of the hand, all of one suit (trumps are one suit).

    Returns the lead's components, largest first. Whether a throw stands is ``check_throw``."""
    _args(ctx, cards, hand)
    if not cards:
        raise IllegalAction("lead.empty")
    _check_in_hand(cards, hand, "the lead")
    s = common_suit(cards, ctx)
    if s is None:
        raise IllegalAction("lead.one_suit", cards=_names(cards))
    return decompose(cards, ctx)


def can_lead(cards: Sequence[int], hand: Sequence[int], ctx: TrumpContext) -> bool:
    try:
        verify_lead(cards, hand, ctx)
    except (IllegalAction, CardError):
        return False
    return True


@dataclass(frozen=True)
class ThrowCheck:
    ok: bool
    forced: list[int] | None = None  # the cards the leader must play instead
    failed_components: list[Component] = field(default_factory=list)


def _holds_higher(pool: _Pool, comp: Component) -> bool:
    """Does the pool hold a same-kind combination strictly higher than ``comp``?"""
    st = pool.strength
    if not comp.is_chain:
        w = comp.units[0][1]
        return any(c >= w and st[i] > comp.top for i, c in enumerate(pool.counts))
    widths = tuple(sorted(comp.widths, reverse=True))
    return any(st[place[-1][0]] > comp.top for place in _chain_placements(pool, widths))


def check_throw(
    cards: Sequence[int], other_hands: Sequence[Sequence[int]], ctx: TrumpContext
) -> ThrowCheck:
    """Does a lead stand against the other players' hands (RULES.md §1 "Leading")?

    A single combination always stands. A throw fails when one other player holds, in its
    suit, a same-kind higher combination than one of its components; the leader then plays the
    failing component with the most cards (the lowest of those)."""
    _args(ctx, cards, other_hands)
    _args(ctx, *other_hands)
    comps = lead_components_checked(cards, ctx)
    everything = list(cards)
    for h in other_hands:
        everything.extend(h)
    _counter(everything, "the throw and the other hands", ctx.variant.decks)
    return _throw_checked(cards, comps, other_hands, ctx)


def _throw_checked(
    cards: Sequence[int],
    comps: Sequence[Component],
    other_hands: Sequence[Sequence[int]],
    ctx: TrumpContext,
) -> ThrowCheck:
    """``check_throw`` for a lead already known good (``comps``: its components)."""
    if len(comps) <= 1:
        return ThrowCheck(True)
    s = ctx.suit_tab[cards[0]]
    st = ctx.suit_tab
    failed: list[Component] = []
    pools = []
    for h in other_hands:
        cnt = Counter(c for c in h if st[c] == s)
        if cnt:
            pools.append(_Pool(cnt, ctx))
    for comp in comps:
        if any(_holds_higher(p, comp) for p in pools):
            failed.append(comp)
    if not failed:
        return ThrowCheck(True)
    forced = min(failed, key=lambda c: (-c.size, c.top, KIND_RANK[c.kind]))
    return ThrowCheck(False, forced.cards(), failed)


def lead_components_checked(cards: Sequence[int], ctx: TrumpContext) -> list[Component]:
    """``combos.lead_components`` plus checks of the cards themselves (not cards, copies)."""
    _args(ctx, cards)
    if not cards:
        raise IllegalAction("lead.empty")
    _counter(cards, "the lead", ctx.variant.decks)
    if len(cards) == 1:
        c = cards[0]
        return [Component(SINGLE, ((c, 1),), ctx.strength_tab[c])]
    if common_suit(cards, ctx) is None:
        raise IllegalAction("lead.one_suit", cards=_names(cards))
    return decompose(cards, ctx)


# --- public: following --------------------------------------------------------------------------


def _suit_counter(cnt: Counter[int], s: int, ctx: TrumpContext) -> dict[int, int]:
    st = ctx.suit_tab
    return {c: k for c, k in cnt.items() if st[c] == s}


def verify_follow(
    lead: Sequence[int],
    hand: Sequence[int],
    play: Sequence[int],
    ctx: TrumpContext,
    lead_comps: Sequence[Component] | None = None,
) -> None:
    """Raise ``IllegalAction`` (plain words) unless ``play`` is a legal follow to ``lead``.

    ``hand`` is the follower's whole hand before playing (it includes ``play``). Pass
    ``lead_comps`` (from ``lead_components``) to skip re-reading the lead."""
    _args(ctx, lead, hand, play)
    lead_comps = _lead_comps(lead, ctx, lead_comps)
    n = len(lead)
    if len(play) != n:
        raise IllegalAction("follow.count", lead=n, play=len(play))
    have = _check_in_hand(play, hand, "the play")
    _follow_checked(
        lead, hand, play, _suit_counter(have, ctx.suit_tab[lead[0]], ctx), ctx, lead_comps
    )


def _suit_counts(hand: Sequence[int], s: int, ctx: TrumpContext) -> dict[int, int]:
    """How many of each card of effective suit ``s`` the hand holds (cards already checked)."""
    st = ctx.suit_tab
    out: dict[int, int] = {}
    for c in hand:
        if st[c] == s:
            out[c] = out.get(c, 0) + 1
    return out


def _follow_checked(
    lead: Sequence[int],
    hand: Sequence[int],
    play: Sequence[int],
    hand_s: dict[int, int],
    ctx: TrumpContext,
    lead_comps: Sequence[Component],
) -> None:
    """``verify_follow`` once the arguments are known good: ``play`` is cards of ``hand``,
    ``hand_s`` the hand's counts of the led suit (``_suit_counts``), ``lead_comps`` the lead's
    real components. The engine's deal calls this after its own checks of the same things."""
    n = len(lead)
    if len(play) != n:
        raise IllegalAction("follow.count", lead=n, play=len(play))
    st = ctx.suit_tab
    s = st[lead[0]]
    n_hand_s = sum(hand_s.values())
    play_s = [c for c in play if st[c] == s]
    if n_hand_s >= n:
        if len(play_s) != n:
            raise IllegalAction(
                "follow.suit",
                held=n_hand_s,
                suit=_suit_word(ctx, s),
                lead=n,
                cards=_names(c for c in play if st[c] != s),
            )
    elif len(play_s) != n_hand_s:
        raise IllegalAction(
            "follow.suit_all",
            held=n_hand_s,
            suit=_suit_word(ctx, s),
            cards=_names(sorted(c for c in hand if st[c] == s)),
        )
    if n_hand_s <= n:
        return  # every card of the suit goes out: no shape choice left
    if len(hand_s) == n_hand_s:
        return  # no two cards alike: no pair to demand
    demands_top = _top_demands(lead_comps)
    if not demands_top:
        return
    play_pool = _Pool(Counter(play_s), ctx)
    if _satisfiable(play_pool, demands_top):
        return
    fixed = _fixed_demands(lead_comps, _Pool(hand_s, ctx))
    if not _satisfiable(play_pool, fixed):
        name = _suit_word(ctx, s)
        raise IllegalAction(
            "follow.shape", suit=name, shape=_describe(fixed), demands=_demand_list(fixed)
        )


def _suit_word(ctx: TrumpContext, s: int) -> str:
    return "trumps" if s == TRUMP else suit_name(ctx, s)


def can_follow(
    lead: Sequence[int], hand: Sequence[int], play: Sequence[int], ctx: TrumpContext
) -> bool:
    try:
        verify_follow(lead, hand, play, ctx)
    except (IllegalAction, CardError):
        return False
    return True


def _top_demands(comps: Sequence[Component]) -> list[Demand]:
    out: list[Demand] = []
    for comp in comps:
        if comp.kind == SINGLE:
            continue
        widths = tuple(sorted(comp.widths, reverse=True))
        out.append((_CHAIN, widths) if comp.is_chain else (_UNIT, widths))
    return out


def playable_cards(
    lead: Sequence[int] | None,
    hand: Sequence[int],
    ctx: TrumpContext,
    lead_comps: Sequence[Component] | None = None,
) -> set[int]:
    """The cards of ``hand`` that may be part of some legal play now (``lead`` None: leading).

    Greying out the rest is exact: every card returned is in at least one legal play, and a
    legal play uses only returned cards. ``lead_comps`` skips re-reading the lead."""
    _args(ctx, hand, *([] if lead is None else [lead]))
    if not lead:
        return set(_counter(hand, "the hand"))
    comps = _lead_comps(lead, ctx, lead_comps)
    n = len(lead)
    st = ctx.suit_tab
    s = st[lead[0]]
    have = _counter(hand, "the hand")
    hand_s = _suit_counter(have, s, ctx)
    n_hand_s = sum(hand_s.values())
    if n_hand_s < n:
        return set(hand)  # all the suit's cards must go, the rest is free
    if n_hand_s == n:
        return set(hand_s)
    pool = _Pool(hand_s, ctx)
    fixed = _fixed_demands(comps, pool)
    need = sum(sum(w) if k == _CHAIN else w[0] for k, w in fixed)
    if need < n:
        return set(hand_s)
    ordered = _order(fixed)
    usable: set[int] = set()

    def first(used: list[tuple[int, int]]) -> bool:
        usable.update(i for i, _w in used)
        return True

    _search(pool, ordered, first)
    for i in range(len(pool.cards)):
        if i not in usable and _can_use(pool, ordered, i):
            usable.add(i)
    return {pool.cards[i] for i in usable}


def _can_use(pool: _Pool, demands: Sequence[Demand], i: int) -> bool:
    """Is there a placement of all ``demands`` in which one of them takes card index ``i``?"""
    counts = pool.counts
    tried: set[Demand] = set()
    for k, d in enumerate(demands):
        if d in tried:
            continue
        tried.add(d)
        rest = [*demands[:k], *demands[k + 1 :]]
        for place in _placements(pool, d, dedupe=False):
            if all(j != i for j, _w in place):
                continue
            for j, w in place:
                counts[j] -= w
            ok = _satisfiable(pool, rest)
            for j, w in place:
                counts[j] += w
            if ok:
                return True
    return False


# --- public: the winner of a trick ---------------------------------------------------------------


def _deciding_index(comps: Sequence[Component]) -> int:
    return min(range(len(comps)), key=lambda i: (KIND_RANK[comps[i].kind], -comps[i].size))


def _best_value(cards: Sequence[int], comps: Sequence[Component], ctx: TrumpContext) -> int | None:
    """The best strength of the deciding unit over readings of ``cards`` as the lead's
    components, or ``None`` when the cards cannot be read so."""
    pool = _Pool(Counter(cards), ctx)
    demands = _top_demands(comps)
    d = _deciding_index(comps)
    deciding = comps[d]
    if deciding.kind == SINGLE:
        if not _satisfiable(pool, demands):
            return None
        return max(ctx.strength_tab[c] for c in cards)
    widths = tuple(sorted(deciding.widths, reverse=True))
    dec: Demand = (_CHAIN, widths) if deciding.is_chain else (_UNIT, widths)
    rest = list(demands)
    rest.remove(dec)
    rest = _order(rest)
    counts = pool.counts
    best: int | None = None
    for place in _placements(pool, dec, dedupe=False):
        value = max(pool.strength[i] for i, _w in place)
        if best is not None and value <= best:
            continue
        for i, w in place:
            counts[i] -= w
        ok = _satisfiable(pool, rest)
        for i, w in place:
            counts[i] += w
        if ok:
            best = value
    return best


def trick_winner(
    plays: Sequence[Sequence[int]],
    ctx: TrumpContext,
    lead_comps: Sequence[Component] | None = None,
) -> int:
    """Index into ``plays`` (leader first) of the play that wins the trick.

    ``lead_comps`` (the lead's ``lead_components``) skips re-reading the lead."""
    _args(ctx, plays)
    _args(ctx, *plays)
    if not plays:
        raise IllegalAction("trick.empty")
    lead = plays[0]
    comps = _lead_comps(lead, ctx, lead_comps)
    n = len(lead)
    everything: list[int] = []
    for i, p in enumerate(plays):
        if len(p) != n:
            raise IllegalAction("trick.count", index=i, got=len(p), lead=n)
        everything.extend(p)
    _counter(everything, "the plays of one trick", ctx.variant.decks)
    return _winner_checked(plays, comps, ctx)


def _winner_checked(
    plays: Sequence[Sequence[int]], comps: Sequence[Component], ctx: TrumpContext
) -> int:
    """``trick_winner`` for plays already known legal (the engine's deal, at a trick's end):
    ``comps`` are the lead's components."""
    lead = plays[0]
    n = len(lead)
    st = ctx.suit_tab
    s = st[lead[0]]
    strength = ctx.strength_tab
    if len(comps) == 1 and not comps[0].is_chain:
        # one plain unit (single, pair, triple, quad): only the same unit can beat it
        best = comps[0].top
        winner = 0
        for i in range(1, len(plays)):
            p = plays[i]
            c = p[0]
            cs = st[c]
            same_unit = (cs == s or (cs == TRUMP and s != TRUMP)) and p.count(c) == n
            if same_unit and strength[c] > best:
                best, winner = strength[c], i
        return winner
    return _winner_by_readings(plays, comps, ctx)


def _winner_by_readings(
    plays: Sequence[Sequence[int]], comps: Sequence[Component], ctx: TrumpContext
) -> int:
    """The general rule: suit, split into the lead's components, deciding component higher."""
    lead = plays[0]
    st = ctx.suit_tab
    s = st[lead[0]]
    d = _deciding_index(comps)
    best = comps[d].top if comps[d].kind != SINGLE else max(ctx.strength_tab[c] for c in lead)
    winner = 0
    for i in range(1, len(plays)):
        p = plays[i]
        ps = _common_suit(p, ctx)
        if ps != s and not (ps == TRUMP and s != TRUMP):
            continue
        value = _best_value(p, comps, ctx)
        if value is not None and value > best:
            best, winner = value, i
    return winner
