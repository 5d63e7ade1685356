"""Following, throws and trick winners, one test per rule edge of RULES.md §1."""

import pytest

from engine.cards import parse_cards
from engine.errors import CardError, IllegalAction
from engine.order import TrumpContext
from engine.play import (
    can_follow,
    can_lead,
    check_throw,
    playable_cards,
    trick_winner,
    verify_follow,
    verify_lead,
)
from engine.variants import make_variant


def ctx(variant="tractor-4p", level="2", trump="S", **options):
    return TrumpContext(make_variant(variant, options or None), level, trump)


C2 = ctx()
C120 = ctx("one-twenty-6p")
RF = ctx("red-five-5p")


def P(*cards):
    return parse_cards(list(cards))


def legal(c, lead, hand, play):
    return can_follow(P(*lead.split()), P(*hand.split()), P(*play.split()), c)


def winner(c, *plays):
    return trick_winner([P(*p.split()) for p in plays], c)


# --- suit --------------------------------------------------------------------------------------


def test_must_follow_suit_when_enough():
    assert not legal(C2, "AH", "3H 4D", "4D")
    assert legal(C2, "AH", "3H 4D", "3H")


def test_short_in_suit_plays_all_then_fills():
    assert legal(C2, "10H 10H", "3H 4D 9D KC", "3H 4D")
    assert not legal(C2, "10H 10H", "3H 4D 9D KC", "4D 9D")


def test_trump_lead_is_followed_by_any_trump_incl_level_and_jokers():
    assert legal(C2, "AS", "2H 3H", "2H")  # 2H is a level card: trump
    assert not legal(C2, "AS", "2H 3H", "3H")
    assert legal(C2, "AS", "LJ 3H", "LJ")


def test_void_may_ruff_or_discard():
    assert legal(C2, "AH", "3S 4D", "3S")
    assert legal(C2, "AH", "3S 4D", "4D")


# --- shape: pairs ------------------------------------------------------------------------------


def test_pair_owed():
    assert not legal(ctx(level="4"), "7S 7S", "2S 2S 3S 3S 5S 5S 9H", "2S 3S")
    assert legal(ctx(level="4"), "7S 7S", "2S 2S 3S 3S 5S 5S 9H", "3S 3S")


def test_two_singles_never_a_pair():
    # no pair in hearts: any two hearts
    assert legal(C2, "KH KH", "3H 4H 9H", "3H 9H")
    # off-suit level cards are equal in strength but not identical: not a pair
    assert legal(ctx(level="7"), "AS AS", "7H 7D 3S", "7H 7D")
    assert legal(ctx(level="7"), "AS AS", "7H 7D 3S", "7H 3S")


def test_triple_in_hand_is_broken_for_a_pair():
    assert not legal(C120, "KH KH", "3H 3H 3H 9H", "3H 9H")
    assert legal(C120, "KH KH", "3H 3H 3H 9H", "3H 3H")


# --- shape: tractors -----------------------------------------------------------------------------


def test_tractor_answered_by_tractor():
    hand = "5H 5H 6H 6H 9H 9H JH QH"
    assert legal(C2, "3H 3H 4H 4H", hand, "5H 5H 6H 6H")
    assert not legal(C2, "3H 3H 4H 4H", hand, "5H 5H 9H 9H")
    assert not legal(C2, "3H 3H 4H 4H", hand, "9H 9H JH QH")


def test_tractor_without_tractor_needs_pairs():
    hand = "5H 5H 8H 8H JH QH"
    assert legal(C2, "3H 3H 4H 4H", hand, "5H 5H 8H 8H")
    assert not legal(C2, "3H 3H 4H 4H", hand, "5H 5H JH QH")
    # one pair only: that pair plus anything
    assert legal(C2, "3H 3H 4H 4H", "5H 5H 8H JH QH", "5H 5H JH QH")
    assert not legal(C2, "3H 3H 4H 4H", "5H 5H 8H JH QH", "5H 8H JH QH")


def test_long_tractor_longest_shorter_tractor_plus_pairs():
    lead = "3H 3H 4H 4H 5H 5H"
    hand = "6H 6H 7H 7H 10H 10H QH KH AH"
    assert legal(C2, lead, hand, "6H 6H 7H 7H 10H 10H")
    assert not legal(C2, lead, hand, "6H 6H 7H 7H QH KH")  # the third pair is owed
    # only a shorter tractor and no other pair: the tractor and anything
    hand2 = "6H 6H 7H 7H 10H QH KH AH"
    assert legal(C2, lead, hand2, "6H 6H 7H 7H QH KH")
    assert not legal(C2, lead, hand2, "6H 6H 10H QH KH AH")


def test_tractor_across_level_rank_must_be_played():
    c = ctx(level="7")
    # 66 88 of hearts are consecutive at level 7
    assert not legal(c, "3H 3H 4H 4H", "6H 6H 8H 8H 10H 10H", "6H 6H 10H 10H")
    assert legal(c, "3H 3H 4H 4H", "6H 6H 8H 8H 10H 10H", "6H 6H 8H 8H")


def test_red_five_hearts_tractor_skips_red_five():
    assert not legal(RF, "9H 9H 10H 10H", "4H 4H 6H 6H 8H 8H", "4H 4H 8H 8H")
    assert legal(RF, "9H 9H 10H 10H", "4H 4H 6H 6H 8H 8H", "4H 4H 6H 6H")


def test_trump_tractor_above_ace_owed():
    c = ctx(level="7")
    hand = "AS AS 7H 7H 3S 3S 9C"
    assert not legal(c, "4S 4S 5S 5S", hand, "AS AS 3S 3S")
    assert legal(c, "4S 4S 5S 5S", hand, "AS AS 7H 7H")


# --- shape: triples and tractors of triples ------------------------------------------------------


def test_triple_lead_triple_else_pair():
    assert not legal(C120, "9D 9D 9D", "3D 3D 3D 4D 4D 5D", "4D 4D 5D")
    assert legal(C120, "9D 9D 9D", "3D 3D 3D 4D 4D 5D", "3D 3D 3D")
    assert legal(C120, "9D 9D 9D", "3D 3D 4D 5D", "3D 3D 5D")
    assert not legal(C120, "9D 9D 9D", "3D 3D 4D 5D", "3D 4D 5D")


def test_triple_tractor_unit_by_unit():
    lead = "9D 9D 9D 10D 10D 10D"
    # same shape available
    hand = "3D 3D 3D 4D 4D 4D 6D 6D 6D 8D"
    assert legal(C120, lead, hand, "3D 3D 3D 4D 4D 4D")
    assert not legal(C120, lead, hand, "3D 3D 3D 6D 6D 6D")
    # two triples not consecutive: both triples
    hand = "3D 3D 3D 6D 6D 6D 8D 8D KD"
    assert legal(C120, lead, hand, "3D 3D 3D 6D 6D 6D")
    assert not legal(C120, lead, hand, "3D 3D 3D 8D 8D KD")
    # one triple: the triple and a pair
    hand = "3D 3D 3D 6D 6D 8D 8D KD"
    assert legal(C120, lead, hand, "3D 3D 3D 8D 8D KD")
    assert not legal(C120, lead, hand, "3D 3D 3D 6D 8D KD")
    # no triple: pairs
    hand = "3D 3D 4D 4D 8D KD AD"
    assert legal(C120, lead, hand, "3D 3D 4D 4D 8D KD")
    assert not legal(C120, lead, hand, "3D 3D 4D 8D KD AD")


def test_handled_tractor_followed_by_shape_regardless_of_handle():
    lead = "9S 9S 9S 10S 10S JS JS JS"
    # 44 555 666 77? needs 2 triples + 1 pair in a chain: 444 55 666
    hand = "4S 4S 4S 5S 5S 6S 6S 6S QS KS"
    assert legal(RF, lead, hand, "4S 4S 4S 5S 5S 6S 6S 6S")
    assert not legal(RF, lead, hand, "4S 4S 4S 6S 6S 6S QS KS")
    # three triples in a row can be broken to the handled shape
    hand = "4S 4S 4S 5S 5S 5S 6S 6S 6S"
    assert legal(RF, lead, hand, "4S 4S 5S 5S 5S 6S 6S 6S")
    assert legal(RF, lead, hand, "4S 4S 4S 5S 6S 6S 6S 5S")  # 444 55 666: the handle moved
    hand = "4S 4S 4S 5S 5S 5S 6S 6S 6S 9S"
    assert not legal(RF, lead, hand, "4S 4S 4S 6S 6S 6S 5S 9S")


def test_throw_followed_largest_components_first():
    lead = "3H 3H 4H 4H 9H"
    hand = "6H 6H 7H 7H QH QH KH"
    assert legal(C2, lead, hand, "6H 6H 7H 7H KH")
    assert legal(C2, lead, hand, "6H 6H 7H 7H QH")
    assert not legal(C2, lead, hand, "6H 6H QH QH KH")


def test_follow_bad_input():
    with pytest.raises(IllegalAction, match="not in the hand"):
        verify_follow(P("AH"), P("3H"), P("4H"), C2)
    with pytest.raises(IllegalAction, match="1 cards"):
        verify_follow(P("AH"), P("3H", "4H"), P("3H", "4H"), C2)
    with pytest.raises(CardError, match="copies"):
        verify_follow(P("AH", "AH", "AH"), P("3H"), P("3H"), C2)
    with pytest.raises(IllegalAction, match="one suit"):
        verify_follow(P("AH", "AS"), P("3H", "4H"), P("3H", "4H"), C2)


def test_illegal_follow_message_names_the_shape():
    with pytest.raises(IllegalAction, match="a pair"):
        verify_follow(P("KH", "KH"), P("3H", "3H", "4H"), P("3H", "4H"), C2)


# --- playable cards ------------------------------------------------------------------------------


def test_playable_cards_grey_out():
    hand = P("5H", "5H", "6H", "6H", "9H", "JH", "3S", "4C")
    assert playable_cards(None, hand, C2) == set(hand)
    assert playable_cards(P("3H", "3H", "4H", "4H"), hand, C2) == set(P("5H", "6H"))
    assert playable_cards(P("AH"), hand, C2) == set(P("5H", "6H", "9H", "JH"))
    assert playable_cards(P("AH", "AH"), hand, C2) == set(P("5H", "6H"))
    # short in suit: everything may go
    assert playable_cards(P("AD"), hand, C2) == set(hand)


# --- leading and throws -------------------------------------------------------------------------


def test_verify_lead():
    hand = P("AH", "KH", "3S")
    assert [c.kind for c in verify_lead(P("AH", "KH"), hand, C2)] == ["single", "single"]
    with pytest.raises(IllegalAction, match="one suit"):
        verify_lead(P("AH", "3S"), hand, C2)
    with pytest.raises(IllegalAction, match="not in the hand"):
        verify_lead(P("QH"), hand, C2)
    assert not can_lead([], hand, C2)


def throw(c, cards, *others):
    return check_throw(P(*cards.split()), [P(*o.split()) for o in others], c)


def test_throw_seed_example():
    r = throw(RF, "5D 7D 7D 9D 9D", "10D KC", "3H", "4C", "AH")
    assert (r.ok, r.forced) == (False, P("5D"))
    r = throw(RF, "5D 7D 7D 9D 9D", "8D 8D", "3H", "4C", "AH")
    assert (r.ok, r.forced) == (False, P("7D", "7D"))
    r = throw(RF, "5D 7D 7D 9D 9D", "10D 10D", "3H", "4C", "AH")
    assert (r.ok, r.forced) == (False, P("7D", "7D"))  # pairs outnumber the single
    r = throw(RF, "5D 7D 7D 9D 9D", "4D 3D 3D", "2D", "AH", "KC")
    assert r.ok


def test_throw_equal_card_does_not_beat():
    c7 = ctx(level="7")
    assert throw(c7, "7H LJ", "7D").ok  # off-suit level cards are equal
    assert throw(c7, "7H 7H LJ", "7D 7D").ok
    assert not throw(c7, "7H 7H LJ", "7S 7S").ok  # the trump suit's level pair is higher
    assert throw(C2, "AH QH QH", "AH KH").ok  # equal AH does not beat; a single KH no pair
    assert not throw(C2, "KH QH QH", "AH").ok  # a higher single beats the single KH


def test_throw_only_one_player_counts():
    # two players holding one 10H each do not hold a pair
    assert throw(C2, "9H 9H AH", "10H", "10H").ok


def test_throw_held_triple_counts_as_pair():
    r = throw(C120, "9H 9H AH", "10H 10H 10H")
    assert (r.ok, r.forced) == (False, P("9H", "9H"))


def test_throw_tractor_beaten_only_by_tractor_of_same_size_or_more():
    # a higher pair does not break a thrown tractor
    assert throw(C2, "3H 3H 4H 4H AH", "KH KH").ok
    r = throw(C2, "3H 3H 4H 4H AH", "5H 5H 6H 6H")
    assert (r.ok, r.forced) == (False, P("3H", "3H", "4H", "4H"))
    # a longer, higher tractor also beats it
    r = throw(C2, "3H 3H 4H 4H AH", "8H 8H 9H 9H 10H 10H")
    assert not r.ok
    # a shorter tractor does not beat a longer one
    assert throw(C2, "3H 3H 4H 4H 5H 5H AH", "8H 8H 9H 9H").ok


def test_throw_triple_tractor_needs_triples():
    assert throw(C120, "3H 3H 3H 4H 4H 4H AH", "8H 8H 9H 9H").ok
    assert not throw(C120, "3H 3H 3H 4H 4H 4H AH", "8H 8H 8H 9H 9H 9H").ok


def test_throw_forced_is_lowest_of_largest():
    r = throw(C2, "3H 3H 9H 9H AH", "10H 10H", "5H 5H")
    assert (r.ok, r.forced) == (False, P("3H", "3H"))
    assert len(r.failed_components) == 2


def test_throw_in_trumps_and_other_suits_ignored():
    assert throw(C2, "AS AS KS", "HJ").ok is False
    assert throw(C2, "AH AH KH", "HJ HJ 3S 3S").ok  # trumps do not beat a side-suit throw here


def test_single_combination_always_stands():
    assert throw(C2, "3H 3H", "AH AH").ok
    assert throw(C2, "3H 3H 4H 4H", "AH AH KH KH").ok


def test_throw_bad_input():
    with pytest.raises(CardError, match="copies"):
        throw(C2, "AH KH", "AH AH")
    with pytest.raises(IllegalAction, match="one suit"):
        throw(C2, "AH KS")


# --- trick winner ------------------------------------------------------------------------------


def test_equal_cards_first_wins():
    assert winner(C2, "5H", "KH", "AH", "AH") == 2
    assert winner(C2, "2H", "2D", "2C", "3S") == 0
    assert winner(ctx("one-twenty-6p", "7", None), "7C", "7H", "AS", "7S", "3C", "KC") == 0


def test_ruff_and_overruff():
    assert winner(C2, "AH", "3S", "AC", "7H") == 1
    assert winner(C2, "AH", "3S", "4S", "7H") == 2
    assert winner(C2, "AH", "3S", "2H", "LJ") == 3
    assert winner(C2, "AS", "AH", "AD", "AC") == 0  # off-suit aces never beat


def test_red_five_tops():
    assert winner(RF, "AS", "5H", "HJ", "3S", "2S") == 1
    assert winner(RF, "4S", "3C", "3S", "2H", "2S") == 2


def test_pair_only_beaten_by_pair():
    assert winner(C2, "9H 9H", "3S 4S", "KH QH", "AH AH") == 3
    assert winner(C2, "9H 9H", "3S 3S", "KH QH", "AH AH") == 1
    assert winner(C2, "9H 9H", "3S 3S", "5S 5S", "4S 4S") == 2


def test_tractor_only_beaten_by_tractor():
    assert winner(C2, "3H 3H 4H 4H", "5S 5S 9S 9S", "5H 5H 6H 6H", "AH KH QH JH") == 2
    assert winner(C2, "3H 3H 4H 4H", "5S 5S 6S 6S", "5H 5H 6H 6H", "7S 7S 8S 8S") == 3


def test_triple_beaten_only_by_triple():
    assert winner(C120, "9H 9H 9H", "3S 3S 4S", "10H 10H 10H", "JH JH 2H") == 2
    assert winner(C120, "9H 9H 9H", "3S 3S 3S", "10H 10H 10H", "JH JH 2H") == 1


def test_throw_beaten_only_by_same_shape_all_trump():
    lead = "KH KH AH"
    assert winner(C2, lead, "3S 3S 5S", "4D 4D 5D") == 1
    assert winner(C2, lead, "3S 4S 5S", "4D 4D 5D") == 0  # no pair: cannot beat
    assert winner(C2, lead, "3S 3S 5H", "4D 4D 5D") == 0  # not all trump


def test_deciding_component_is_the_largest_kind():
    lead = "3H 3H AH"
    # pairs decide: 55 beats 44 however high the single
    assert winner(C2, lead, "4S 4S HJ", "5S 5S 6S") == 2
    assert winner(C2, lead, "5S 5S 6S", "4S 4S HJ") == 1


def test_best_reading_of_a_play():
    lead = "KH KH QH JH"
    # 66 99 of spades is read with the pair 99 deciding, beating 55
    assert winner(C120, lead, "5S 5S 5S 7S", "6S 6S 9S 9S") == 2


def test_throw_of_singles_decided_by_highest_single():
    assert winner(C2, "AH KH", "3S 4S", "5S 6S", "LJ 3D") == 2


def test_trick_bad_input():
    with pytest.raises(IllegalAction, match="cards"):
        winner(C2, "AH AH", "3S")
    with pytest.raises(CardError, match="copies"):
        winner(C2, "AH", "AH", "AH")
    with pytest.raises(IllegalAction):
        trick_winner([], C2)


def test_cached_lead_components_give_the_same_answers():
    from engine.combos import lead_components

    lead = P("3H", "3H", "4H", "4H")
    comps = lead_components(lead, C2)
    hand = P("5H", "5H", "6H", "6H", "9H", "JH")
    plays = [lead, P("5S", "5S", "6S", "6S"), P("5H", "5H", "6H", "6H")]
    assert trick_winner(plays, C2, comps) == trick_winner(plays, C2) == 1
    assert playable_cards(lead, hand, C2, comps) == playable_cards(lead, hand, C2)
    with pytest.raises(IllegalAction):
        verify_follow(lead, hand, P("5H", "5H", "9H", "JH"), C2, comps)
