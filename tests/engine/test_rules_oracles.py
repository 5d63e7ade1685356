"""Brute-force oracles for throws and trick winners, written straight from the RULES.md sentences
and compared with the engine on random small cases (hypothesis)."""

import random
from collections import Counter
from itertools import combinations, permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import full_pack
from engine.combos import KIND_RANK, decompose, lead_components
from engine.order import TrumpContext
from engine.play import can_follow, check_throw, trick_winner
from engine.variants import make_variant

VARIANTS = [("tractor-4p", None), ("red-five-5p", None), ("one-twenty-6p", None)]


def make_ctx(rng):
    vid, opts = rng.choice(VARIANTS)
    v = make_variant(vid, opts)
    if vid == "red-five-5p":
        return TrumpContext(v, "2", rng.choice("SHDC"))
    return TrumpContext(v, rng.choice(["2", "7", "A"]), rng.choice(["S", "H", None]))


def window(rng, ctx, suit_cards, n):
    cards = sorted(suit_cards, key=lambda c: ctx.pos_tab[c])
    if len(cards) < n:
        return cards
    i = rng.randrange(0, len(cards) - n + 1)
    return cards[i : i + n]


def one_component(cards, ctx):
    comps = decompose(list(cards), ctx)
    return comps[0] if len(comps) == 1 else None


def beats_component(hand_suit, comp, ctx):
    """Some sub-multiset of the hand is one combination of comp's kind, strictly higher."""
    want = sorted(comp.widths)
    for sub in set(combinations(sorted(hand_suit), comp.size)):
        held = one_component(sub, ctx)
        if held is None:
            continue
        if comp.is_chain:
            ok_shape = held.is_chain and held.length == comp.length
            # at least as wide unit by unit (after sorting), e.g. a triple tractor holds pairs
            ok_shape = ok_shape and all(
                h >= w for h, w in zip(sorted(held.widths), want, strict=True)
            )
        else:
            ok_shape = held.kind == comp.kind
        if ok_shape and held.top > comp.top:
            return True
    return False


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_throw_check_matches_oracle(seed):
    rng = random.Random(seed)
    ctx = make_ctx(rng)
    pack = full_pack(ctx.variant.decks)
    rng.shuffle(pack)
    s = ctx.suit_tab[pack[0]]
    suit_cards = [c for c in pack if ctx.suit_tab[c] == s]
    throw = window(rng, ctx, suit_cards, rng.randint(2, 6))
    rest = Counter(suit_cards)
    rest.subtract(throw)
    pool = list((+rest).elements())
    rng.shuffle(pool)
    others = []
    for _ in range(ctx.variant.players - 1):
        k = rng.randint(0, 5)
        others.append(window(rng, ctx, pool, k) if rng.random() < 0.6 else pool[:k])
        for c in others[-1]:
            pool.remove(c)
    comps = lead_components(throw, ctx)
    r = check_throw(throw, others, ctx)
    if len(comps) == 1:
        assert r.ok
        return
    failing = [c for c in comps if any(beats_component(o, c, ctx) for o in others)]
    assert r.ok == (not failing)
    if failing:
        most = max(c.size for c in failing)
        lowest = min(c.top for c in failing if c.size == most)
        assert len(r.forced) == most
        assert max(ctx.strength(c) for c in r.forced) == lowest


def readings_value(play, comps, ctx):
    """Best strength of the deciding part over all splits of ``play`` into the lead's parts."""
    order = sorted(range(len(comps)), key=lambda i: (KIND_RANK[comps[i].kind], -comps[i].size))
    d = order[0]
    sizes = [c.size for c in comps]
    best = None
    for perm in set(permutations(play)):
        parts, i = [], 0
        for size in sizes:
            parts.append(perm[i : i + size])
            i += size
        ok = True
        for comp, part in zip(comps, parts, strict=True):
            if comp.kind == "single":
                continue
            got = one_component(part, ctx)
            if got is None or got.kind != comp.kind or sorted(got.widths) != sorted(comp.widths):
                ok = False
                break
        if not ok:
            continue
        part = parts[d]
        value = max(ctx.strength(c) for c in part)
        if best is None or value > best:
            best = value
    return best


def oracle_winner(plays, ctx):
    lead = plays[0]
    comps = lead_components(lead, ctx)
    s = ctx.suit_tab[lead[0]]
    best = readings_value(lead, comps, ctx)
    win = 0
    for i, p in enumerate(plays[1:], 1):
        suits = {ctx.suit_tab[c] for c in p}
        if not (suits == {s} or (suits == {4} and s != 4)):
            continue
        v = readings_value(p, comps, ctx)
        if v is not None and v > best:
            best, win = v, i
    return win


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_trick_winner_matches_oracle(seed):
    rng = random.Random(seed)
    ctx = make_ctx(rng)
    pack = full_pack(ctx.variant.decks)
    rng.shuffle(pack)
    s = ctx.suit_tab[pack[0]]
    lead = window(rng, ctx, [c for c in pack if ctx.suit_tab[c] == s], rng.randint(1, 5))
    rest = Counter(pack)
    rest.subtract(lead)
    pool = list((+rest).elements())
    plays = [lead]
    for _ in range(ctx.variant.players - 1):
        r = rng.random()
        if r < 0.4:
            cand = [c for c in pool if ctx.suit_tab[c] == s]
        elif r < 0.8:
            cand = [c for c in pool if ctx.trump_tab[c]]
        else:
            cand = list(pool)
        if len(cand) < len(lead):
            cand = list(pool)
        p = window(rng, ctx, cand, len(lead))
        for c in p:
            pool.remove(c)
        plays.append(p)
    assert trick_winner(plays, ctx) == oracle_winner(plays, ctx)


def disjoint_pairs(cards):
    return sum(k // 2 for k in Counter(cards).values())


def has_tractor(cards, length, ctx):
    for sub in set(combinations(sorted(cards), 2 * length)):
        comp = one_component(sub, ctx)
        if comp is not None and comp.kind == "tractor" and comp.length == length:
            return True
    return False


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_follow_matches_oracle_for_single_combination_leads(seed):
    """Pair, triple and pair-tractor leads, straight from RULES.md "Following" 2."""
    rng = random.Random(seed)
    ctx = make_ctx(rng)
    pack = full_pack(ctx.variant.decks)
    rng.shuffle(pack)
    s = ctx.suit_tab[pack[0]]
    suit_cards = [c for c in pack if ctx.suit_tab[c] == s]
    lead = window(rng, ctx, suit_cards, rng.choice([2, 3, 4, 6]))
    comps = lead_components(lead, ctx)
    if len(comps) != 1 or comps[0].kind not in ("pair", "triple", "tractor"):
        return
    comp = comps[0]
    if comp.kind == "tractor" and comp.width != 2:
        return
    rest = Counter(suit_cards)
    rest.subtract(lead)
    hand = window(rng, ctx, list((+rest).elements()), rng.randint(len(lead) + 1, len(lead) + 4))
    n = len(lead)
    if len(hand) <= n:
        return
    for play in set(combinations(sorted(hand), n)):
        got = can_follow(lead, hand, list(play), ctx)
        if comp.kind == "pair":
            want = disjoint_pairs(hand) == 0 or disjoint_pairs(play) >= 1
        elif comp.kind == "triple":
            if any(k >= 3 for k in Counter(hand).values()):
                want = any(k >= 3 for k in Counter(play).values())
            elif disjoint_pairs(hand):
                want = disjoint_pairs(play) >= 1
            else:
                want = True
        else:
            length = comp.length
            if has_tractor(hand, length, ctx):
                want = has_tractor(play, length, ctx)
            elif not any(has_tractor(hand, k, ctx) for k in range(2, length)):
                want = disjoint_pairs(play) >= min(length, disjoint_pairs(hand))
            else:
                continue  # shorter tractors: covered by the scenario tests
        assert got == want, (lead, hand, play)
