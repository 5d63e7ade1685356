"""Property tests (hypothesis) over random deals: the play rules agree with one another."""

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import full_pack
from engine.combos import decompose, lead_components
from engine.order import TrumpContext
from engine.play import (
    _winner_by_readings,
    can_follow,
    check_throw,
    playable_cards,
    trick_winner,
    verify_follow,
)
from engine.variants import make_variant

VARIANTS = [
    ("tractor-4p", None),
    ("tractor-4p", {"decks": 4}),
    ("red-five-5p", None),
    ("one-twenty-6p", None),
]
LEVELS = ["2", "5", "7", "10", "K", "A"]


def make_ctx(rng: random.Random) -> TrumpContext:
    vid, opts = rng.choice(VARIANTS)
    v = make_variant(vid, opts)
    if vid == "red-five-5p":
        return TrumpContext(v, "2", rng.choice("SHDC"))
    return TrumpContext(v, rng.choice(LEVELS), rng.choice(["S", "H", "D", "C", None]))


def deal_small(rng: random.Random, ctx: TrumpContext, hand_size: int):
    """A lead of one suit (biased to pairs and runs) and a follower hand biased to that suit."""
    pack = full_pack(ctx.variant.decks)
    rng.shuffle(pack)
    suit = ctx.suit_tab[pack[0]]
    in_suit = sorted((c for c in pack if ctx.suit_tab[c] == suit), key=lambda c: ctx.pos_tab[c])
    # lead: a window of the sorted suit cards gives pairs and tractors often
    n_lead = rng.randint(1, min(6, len(in_suit) // 3))
    start = rng.randrange(0, len(in_suit) - n_lead)
    lead = in_suit[start : start + n_lead]
    rest = Counter(pack)
    rest.subtract(lead)
    suit_rest = [c for c in (+rest).elements() if ctx.suit_tab[c] == suit]
    suit_rest.sort(key=lambda c: ctx.pos_tab[c])
    k = rng.randint(0, min(hand_size, len(suit_rest)))
    s0 = rng.randrange(0, max(1, len(suit_rest) - k))
    hand = suit_rest[s0 : s0 + k]
    rest.subtract(hand)
    others = [c for c in (+rest).elements() if ctx.suit_tab[c] != suit]
    rng.shuffle(others)
    hand += others[: hand_size - len(hand)]
    return lead, hand


def distinct_plays(hand, n):
    return {tuple(sorted(p)) for p in combinations(sorted(hand), n)}


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_playable_cards_is_exact_and_a_legal_play_exists(seed):
    rng = random.Random(seed)
    ctx = make_ctx(rng)
    lead, hand = deal_small(rng, ctx, rng.randint(4, 9))
    n = len(lead)
    if len(hand) < n:
        return
    legal = [p for p in distinct_plays(hand, n) if can_follow(lead, hand, list(p), ctx)]
    assert legal, (lead, hand)
    used = {c for p in legal for c in p}
    assert playable_cards(lead, hand, ctx) == used
    for p in legal[:3]:
        verify_follow(lead, hand, list(p), ctx)  # does not raise


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_pair_owed_whenever_the_hand_has_one(seed):
    rng = random.Random(seed)
    ctx = make_ctx(rng)
    lead, hand = deal_small(rng, ctx, 8)
    comps = lead_components(lead, ctx)
    if not any(c.kind != "single" for c in comps):
        return
    s = ctx.suit_tab[lead[0]]
    suit_cards = Counter(c for c in hand if ctx.suit_tab[c] == s)
    if sum(suit_cards.values()) <= len(lead) or not any(k >= 2 for k in suit_cards.values()):
        return
    for p in distinct_plays(hand, len(lead)):
        if can_follow(lead, hand, list(p), ctx):
            assert any(k >= 2 for k in Counter(p).values()), (lead, hand, p)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_reading_keeps_every_card(seed):
    rng = random.Random(seed)
    ctx = make_ctx(rng)
    lead, _ = deal_small(rng, ctx, 0)
    comps = decompose(lead, ctx)
    assert Counter(c for comp in comps for c in comp.cards()) == Counter(lead)
    sizes = [c.size for c in comps]
    assert sizes == sorted(sizes, reverse=True)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_trick_winner_invariants(seed):
    rng = random.Random(seed)
    ctx = make_ctx(rng)
    players = ctx.variant.players
    pack = full_pack(ctx.variant.decks)
    rng.shuffle(pack)
    lead, _ = deal_small(rng, ctx, 0)
    rest = Counter(pack)
    rest.subtract(lead)
    pool = list((+rest).elements())
    rng.shuffle(pool)
    s = ctx.suit_tab[lead[0]]
    plays = [lead]
    for _ in range(players - 1):
        # a mix of same-suit, trump and random plays
        choice = rng.random()
        if choice < 0.4:
            cand = [c for c in pool if ctx.suit_tab[c] == s]
        elif choice < 0.7:
            cand = [c for c in pool if ctx.trump_tab[c]]
        else:
            cand = pool
        if len(cand) < len(lead):
            cand = pool
        cand = sorted(cand, key=lambda c: (ctx.suit_tab[c], ctx.pos_tab[c]))
        i = rng.randrange(0, len(cand) - len(lead) + 1)
        p = cand[i : i + len(lead)]
        for c in p:
            pool.remove(c)
        plays.append(p)
    w = trick_winner(plays, ctx)
    assert 0 <= w < len(plays)
    wp = plays[w]
    assert all(ctx.suit_tab[c] == s for c in wp) or all(ctx.trump_tab[c] for c in wp)
    # the fast path for one-unit leads agrees with the general reading rule
    assert _winner_by_readings(plays, lead_components(lead, ctx), ctx) == w
    # the order of cards inside a play means nothing
    assert trick_winner([list(reversed(p)) for p in plays], ctx) == w
    # the winner stays the winner of the trick cut right after its play
    assert trick_winner(plays[: w + 1], ctx) == w


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_throw_check_invariants(seed):
    rng = random.Random(seed)
    ctx = make_ctx(rng)
    lead, hand = deal_small(rng, ctx, 10)
    r = check_throw(lead, [hand], ctx)
    comps = lead_components(lead, ctx)
    if len(comps) == 1:
        assert r.ok
    if r.ok:
        assert r.forced is None
    else:
        assert r.forced is not None
        assert not Counter(r.forced) - Counter(lead)
        assert len(r.forced) == max(c.size for c in r.failed_components)
    s = ctx.suit_tab[lead[0]]
    assert check_throw(lead, [[c for c in hand if ctx.suit_tab[c] != s]], ctx).ok
