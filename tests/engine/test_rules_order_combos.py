"""Strength order, trump membership and combination reading (RULES.md §1)."""

import pytest

from engine.cards import parse_card, parse_cards
from engine.combos import classify, largest_component_cards, lead_components
from engine.errors import IllegalAction, OptionError
from engine.order import TrumpContext
from engine.variants import make_variant


def ctx(variant="tractor-4p", level="2", trump="S", **options):
    return TrumpContext(make_variant(variant, options or None), level, trump)


def s(ctx_, card):
    return ctx_.strength(parse_card(card))


def cls(c, cards):
    r = classify(parse_cards(cards), c)
    return (r.suit, r.combo, r.width, r.length)


# -- order -------------------------------------------------------------------------------------


def test_standard_order_level_7_spades():
    c = ctx(level="7", trump="S")
    chain = ["HJ", "LJ", "7S", "7H", "AS", "KS", "8S", "6S", "2S"]
    strengths = [s(c, x) for x in chain]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(chain)
    assert s(c, "7H") == s(c, "7D") == s(c, "7C")
    assert all(c.is_trump(parse_card(x)) for x in chain)
    assert not c.is_trump(parse_card("AH"))
    assert c.eff_suit(parse_card("7H")) == "T" and c.eff_suit(parse_card("AH")) == "H"
    # side suit skips the level rank: 8H right above 6H
    assert c.adjacent(parse_card("6H"), parse_card("8H"))


def test_no_trump_order():
    c = ctx(level="7", trump=None)
    assert s(c, "HJ") > s(c, "LJ") > s(c, "7S") == s(c, "7H") > s(c, "AS")
    assert not c.is_trump(parse_card("AS"))
    assert c.adjacent(parse_card("7C"), parse_card("LJ"))


def test_red_five_order_spades():
    c = ctx("red-five-5p", "2", "S")
    chain = ["5H", "HJ", "LJ", "3S", "3C", "2S", "2H", "AS", "4S"]
    strengths = [s(c, x) for x in chain]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(chain)
    assert s(c, "2H") == s(c, "2D") == s(c, "2C")
    # 3s of the other colour stay in their suit; 3C is 副参谋
    assert not c.is_trump(parse_card("3H")) and not c.is_trump(parse_card("3D"))
    assert c.is_trump(parse_card("3C")) and c.is_trump(parse_card("5H"))
    assert not c.is_trump(parse_card("5D"))
    # spade 3 promoted: trump suit's lowest is 4
    assert c.adjacent(parse_card("4S"), parse_card("5S"))


def test_red_five_diamonds_promotes_3h():
    c = ctx("red-five-5p", "2", "D")
    assert c.is_trump(parse_card("3H")) and c.is_trump(parse_card("3D"))
    assert not c.is_trump(parse_card("3S"))
    assert c.adjacent(parse_card("4H"), parse_card("6H"))  # 5H and 3H promoted


def test_bad_context_inputs():
    with pytest.raises(OptionError, match="level"):
        ctx(level="1")
    with pytest.raises(OptionError, match="trump"):
        ctx(trump="X")
    with pytest.raises(OptionError, match="always 2"):
        ctx("red-five-5p", "5", "S")


# -- combinations ------------------------------------------------------------------------------


def test_tractor_across_skipped_level():
    assert cls(ctx(level="7"), ["8D", "8D", "6D", "6D"]) == ("D", "tractor", 2, 2)
    assert cls(ctx("one-twenty-6p", "7"), ["8H", "8H", "6H", "6H", "5H", "5H"]) == (
        "H",
        "tractor",
        2,
        3,
    )


def test_trump_chain_above_ace():
    c = ctx(level="7", trump="S")
    cards = ["AS", "AS", "7H", "7H", "7S", "7S", "LJ", "LJ", "HJ", "HJ"]
    assert cls(c, cards) == ("trump", "tractor", 2, 5)
    # two off-suit level pairs are equal: never a tractor
    assert cls(c, ["7D", "7D", "7H", "7H"]) == ("trump", "throw", None, None)
    # the level pair of a side suit does not join AS to KS style gaps
    assert cls(c, ["KS", "KS", "7H", "7H"])[1] == "throw"


def test_level_ace_top_is_king():
    c = ctx(level="A", trump="S")
    assert cls(c, ["KS", "KS", "AH", "AH", "AS", "AS"]) == ("trump", "tractor", 2, 3)
    assert cls(c, ["KH", "KH", "QH", "QH"]) == ("H", "tractor", 2, 2)


def test_no_trump_chain():
    c = ctx(level="7", trump=None)
    assert cls(c, ["7D", "7D", "LJ", "LJ", "HJ", "HJ"]) == ("trump", "tractor", 2, 3)
    assert cls(c, ["7D", "7D", "7S", "7S"])[1] == "throw"


def test_red_five_chains():
    c = ctx("red-five-5p", "2", "S")
    assert cls(c, ["4H", "4H", "6H", "6H"]) == ("H", "tractor", 2, 2)
    assert cls(c, ["3H", "3H", "4H", "4H"]) == ("H", "tractor", 2, 2)
    assert cls(c, ["5H", "5H", "5H", "HJ", "HJ", "HJ"]) == ("trump", "tractor", 3, 2)
    assert cls(c, ["3C", "3C", "3S", "3S"]) == ("trump", "tractor", 2, 2)
    assert cls(c, ["2S", "2S", "3C", "3C"]) == ("trump", "tractor", 2, 2)
    assert cls(c, ["2H", "2H", "2S", "2S"]) == ("trump", "tractor", 2, 2)
    assert cls(c, ["2H", "2H", "2D", "2D"])[1] == "throw"
    # 3C is promoted (black partner of spades): clubs 2s and 3s are gone, 44 55 is a tractor
    assert cls(c, ["4C", "4C", "5C", "5C"]) == ("C", "tractor", 2, 2)


def test_handled_tractor():
    c = ctx("red-five-5p", "2", "S")
    r = classify(parse_cards(["9S", "9S", "9S", "10S", "10S", "JS", "JS", "JS"]), c)
    assert (r.suit, r.combo, r.length) == ("trump", "handled-tractor", 3)
    # without triple tractors there is no handled tractor either
    c2 = ctx("red-five-5p", "2", "S", triple_tractors=False)
    assert cls(c2, ["9D", "9D", "9D", "10D", "10D"])[1] == "throw"
    assert cls(c2, ["9D", "9D", "9D", "10D", "10D", "10D"])[1] == "throw"


def test_triples_quads_and_wide_tractors():
    c = ctx("one-twenty-6p", "2", "S")
    assert cls(c, ["9D", "9D", "9D"]) == ("D", "triple", None, None)
    assert cls(c, ["9D", "9D", "9D", "10D", "10D", "10D"]) == ("D", "tractor", 3, 2)
    # handled tractors are red five only
    assert cls(c, ["9D", "9D", "9D", "10D", "10D"])[1] == "throw"
    c4 = ctx(decks=4)
    assert cls(c4, ["9D"] * 4) == ("D", "quad", None, None)
    assert cls(c4, ["9D"] * 4 + ["10D"] * 4) == ("D", "tractor", 4, 2)


def test_throw_reading_fewest_largest():
    c = ctx()
    comps = lead_components(parse_cards(["QS", "QS", "KS", "KS", "AS"]), c)
    assert [x.kind for x in comps] == ["tractor", "single"]
    c3 = ctx("red-five-5p", "2", "S")
    comps = lead_components(parse_cards(["5D", "7D", "7D", "9D", "9D"]), c3)
    assert [x.kind for x in comps] == ["pair", "pair", "single"]
    assert comps[0].top > comps[1].top


def test_mixed_and_empty():
    c = ctx()
    assert cls(c, ["2H", "3H"]) == (None, "invalid", None, None)
    assert cls(c, ["AH", "AS"]) == (None, "invalid", None, None)
    with pytest.raises(IllegalAction):
        lead_components([], c)
    with pytest.raises(IllegalAction, match="one suit"):
        lead_components(parse_cards(["AH", "AS"]), c)


def test_largest_component_cards():
    c = ctx()
    assert largest_component_cards(parse_cards(["AH"]), c) == 1
    assert largest_component_cards(parse_cards(["QS", "QS"]), c) == 2
    assert largest_component_cards(parse_cards(["QS", "QS", "KS", "KS", "AS"]), c) == 4
    assert largest_component_cards(parse_cards(["3H", "3H", "9H", "9H", "AH"]), c) == 2
