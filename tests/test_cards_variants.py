import pytest

from engine import CardError, OptionError, make_variant
from engine.cards import card_points, card_str, check_copies, full_pack, parse_card, points_of


def test_parse_and_format_round_trip():
    for text in ["2S", "10H", "QD", "AC", "HJ", "LJ"]:
        assert card_str(parse_card(text)) == text


@pytest.mark.parametrize("bad", ["", "1X", "11H", "ZZ", "10", None, 5])
def test_unknown_cards_are_refused_with_a_message(bad):
    with pytest.raises(CardError, match="card"):
        parse_card(bad)


def test_points_per_deck_is_100():
    assert points_of(full_pack(1)) == 100
    assert card_points(parse_card("KH")) == 10 and card_points(parse_card("5D")) == 5


def test_too_many_copies():
    with pytest.raises(CardError, match="3 copies of AS"):
        check_copies([parse_card("AS")] * 3, 2)


def test_variant_shapes():
    t = make_variant("tractor-4p")
    assert (t.players, t.decks, t.kitty, t.hand) == (4, 2, 8, 25)
    r = make_variant("red-five-5p")
    assert (r.players, r.decks, r.kitty, r.hand) == (5, 3, 7, 31)
    s = make_variant("one-twenty-6p")
    assert (s.players, s.decks, s.kitty, s.hand) == (6, 3, 6, 26)
    assert s.options["kitty_multiplier"] == "double"
    four = make_variant("tractor-4p", {"decks": 4})
    assert (four.kitty, four.hand, four.options["no_call_trump"]) == (0, 54, "spades")


def test_bad_options_are_named():
    with pytest.raises(OptionError, match="unknown variant"):
        make_variant("bridge")
    with pytest.raises(OptionError, match="no option 'decks'"):
        make_variant("red-five-5p", {"decks": 4})
    with pytest.raises(OptionError, match="kitty_multiplier"):
        make_variant("tractor-4p", {"kitty_multiplier": "triple"})


def test_one_list_names_every_game_and_make_variant_builds_each():
    from engine.hundred_rules import HundredVariant, make_hundred_variant
    from engine.variants import (
        ALL_VARIANT_IDS,
        default_options,
        make_any_variant,
        option_names,
        option_spec,
    )

    assert ALL_VARIANT_IDS == (
        "tractor-4p",
        "red-five-5p",
        "one-twenty-6p",
        "hundred-4p",
        "forty-4p",
        "hundred-3p",
        "climbing",
    )
    for vid in ALL_VARIANT_IDS:
        v = make_any_variant(vid)
        assert v.id == vid
        assert set(v.options) == set(option_names(vid))
        assert dict(v.options) == default_options(vid)
    hundred = make_any_variant("hundred-4p", {"friend": "shown", "stakes": "flat"})
    assert isinstance(hundred, HundredVariant)
    assert hundred == make_hundred_variant("hundred-4p", {"friend": "shown", "stakes": "flat"})
    three, forty = make_any_variant("hundred-3p"), make_any_variant("forty-4p")
    assert (three.players, forty.players) == (3, 4)
    assert make_any_variant("tractor-4p", {"decks": 4}) == make_variant("tractor-4p", {"decks": 4})
    assert option_spec("friend", "hundred-4p").choices == ("fixed", "shown", "hidden", "blind")
    assert option_spec("open_kitty", "forty-4p").kind == "bool"
    with pytest.raises(OptionError, match="forty-4p has no option 'friend'"):
        make_any_variant("forty-4p", {"friend": "shown"})
    with pytest.raises(OptionError, match="打百分's family: make_any_variant builds it"):
        make_variant("hundred-4p")
    with pytest.raises(OptionError, match="forty-4p has no option 'stakes'"):
        option_spec("stakes", "forty-4p")
    with pytest.raises(OptionError, match="hundred-4p, forty-4p, hundred-3p, climbing"):
        make_any_variant("bridge")
