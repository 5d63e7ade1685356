"""The one-deck rules of 打百分 as properties (HUNDRED.md §1–§2): the card order, every legal
follow the bots build is accepted, the follow rule against an oracle written from the text over
every play of small hands, and the trick's winner against a pairwise reading of §2."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import hundred_rules as hr
from engine.cards import HJ, LJ, parse_card
from engine.hundred_bots import random_follow, random_lead


def test_trumps_are_hj_lj_then_the_trump_suit_a_to_2_and_side_suits_a_to_2():
    t = hr.check_trump("H")
    order = ["HJ", "LJ", "AH", "KH", "QH", "JH", "10H", "9H", "2H"]
    strengths = [hr.strength(parse_card(c), t) for c in order]
    assert strengths == sorted(strengths, reverse=True)
    assert all(s > hr.strength(parse_card("AS"), t) for s in strengths)
    assert hr.group(LJ, t) == hr.group(HJ, t) == hr.group(parse_card("2H"), t) == hr.TRUMP
    assert hr.group(parse_card("2S"), t) == 0  # 2s are plain cards: no level, no 常主
    assert hr.strength(parse_card("AS"), t) > hr.strength(parse_card("KS"), t)


def _oracle_follow(lead, hand, play, t):
    """§2's sentences, read literally."""
    if len(play) != len(lead):
        return False

    def grp(c):
        return hr.TRUMP if c >= LJ or c // 13 == t else c // 13

    if hr.shape(lead, t).combo == hr.HORIZONTAL:
        return all(
            any(grp(c) == g for c in play) for g in range(5) if any(grp(c) == g for c in hand)
        )
    s = grp(lead[0])
    mine = [c for c in hand if grp(c) == s]
    if len(mine) >= len(lead):
        return all(grp(c) == s for c in play)
    return all(c in play for c in mine)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), size=st.integers(4, 8), k=st.integers(1, 4))
def test_follow_agrees_with_the_oracle_on_every_play_of_a_small_hand(seed, size, k):
    rng = random.Random(seed)
    t = rng.randrange(4)
    pack = list(range(54))
    rng.shuffle(pack)
    hand = pack[:size]
    if k == 4 and rng.random() < 0.5:
        r = rng.randrange(13)
        lead = [s * 13 + r for s in range(4)]
        hand = [c for c in pack if c not in lead][:size]
    else:
        suit = hr.group(pack[size], t)
        lead = [c for c in pack[size:] if hr.group(c, t) == suit][:k]
    for play in itertools.combinations(hand, len(lead)):
        want = _oracle_follow(lead, hand, list(play), t)
        assert (hr.follow_reason(lead, hand, list(play), t) is None) is want, (lead, hand, play)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.sampled_from([3, 4]))
def test_bot_leads_and_follows_are_legal_and_the_winner_is_not_beaten(seed, players):
    rng = random.Random(seed)
    t = rng.randrange(4)
    pack = list(range(54))
    rng.shuffle(pack)
    hands = [pack[i * 12 : (i + 1) * 12] for i in range(4)]
    lead = random_lead(rng, hands[0], t)
    assert hr.lead_reason(lead, t) is None
    plays = [lead]
    for h in hands[1:]:
        play = random_follow(rng, lead, h, t)
        assert hr.follow_reason(lead, h, play, t) is None
        plays.append(play)
    w = hr.winner(plays, t)
    sh = hr.shape(lead, t)
    # the winner beats every play before it that was winning, and nothing after it beats it
    for i, p in enumerate(plays):
        if i > w:
            assert not hr.beats(p, plays[w], sh, t)
    if w:
        assert hr.beats(plays[w], plays[0], sh, t) or any(
            hr.beats(plays[w], plays[j], sh, t) for j in range(1, w)
        )
