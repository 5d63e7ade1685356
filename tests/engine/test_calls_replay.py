"""Trump calls: shapes, overcalls and the conformance ``declare`` query (RULES.md §2–§4)."""

import pytest

from engine.calls import CallBook, call_shape, replay_calls
from engine.cards import parse_cards
from engine.errors import CardError, EngineError
from engine.variants import make_variant

T = make_variant("tractor-4p")
T4 = make_variant("tractor-4p", {"decks": 4})
R = make_variant("red-five-5p")
OT = make_variant("one-twenty-6p")


def run(variant, level, calls, **kw):
    return replay_calls(variant, level, [(s, parse_cards(c.split())) for s, c in calls], **kw)


def test_example_re_revolt():
    assert run(OT, "2", [(0, "2C"), (1, "2D 2D"), (0, "2C 2C")]) == ([True] * 3, 0, "C")


def test_example_wrong_joker():
    assert run(T, "2", [(1, "2H LJ")]) == ([False], None, None)


@pytest.mark.parametrize(
    ("cards", "ok"),
    [
        ("2S LJ", True),
        ("2C LJ", True),
        ("2D HJ", True),
        ("2D LJ", False),
        ("2S 2S LJ", True),
        ("LJ LJ", True),
        ("HJ HJ", True),
        ("HJ", False),
        ("LJ HJ", False),
        ("2S", False),
        ("3S LJ", False),
        ("2S 2H LJ", False),
        ("2S 2S", False),
    ],
)
def test_tractor_shapes(cards, ok):
    assert (run(T, "2", [(0, cards)])[0] == [True]) is ok


def test_tractor_ladder_and_no_self_overcall():
    acc, caller, trump = run(
        T,
        "7",
        [(0, "7H HJ"), (0, "7H 7H HJ"), (1, "7S LJ"), (1, "7S 7S LJ"), (0, "7H 7H HJ")],
    )
    # own call may not be strengthened; equal strength never beats; the first caller may come
    # back once someone else overcalled him, but only with a stronger call
    assert acc == [True, False, False, True, False]
    assert (caller, trump) == (1, "S")
    acc, caller, trump = run(T, "7", [(0, "7H HJ"), (1, "LJ LJ"), (0, "HJ HJ")])
    assert acc == [True, True, True] and caller == 0 and trump is None


def test_tractor_later_deal_dealer_side():
    acc, caller, _ = run(T, "2", [(1, "2H HJ")], deal_no=2, dealer_side=[0, 2])
    assert acc == [False] and caller is None
    acc, caller, trump = run(T, "2", [(2, "2H HJ"), (1, "2S 2S LJ")], deal_no=2, dealer_side=[0, 2])
    assert acc == [True, True] and (caller, trump) == (1, "S")


def test_four_decks_counts():
    acc, caller, trump = run(
        T4, "5", [(1, "5H 5H"), (2, "5S 5S"), (3, "5C 5C 5C"), (3, "5C" + " 5C" * 3)]
    )
    assert acc == [True, False, True, False] and (caller, trump) == (3, "C")
    assert run(T4, "5", [(0, "5H HJ")])[0] == [False]


def test_red_five_first_two_stands():
    acc, caller, trump = run(R, "2", [(3, "2D"), (1, "2S"), (1, "2S 2S")])
    assert acc == [True, False, False] and (caller, trump) == (3, "D")
    assert run(R, "2", [(0, "3D")])[0] == [False]
    with pytest.raises(EngineError, match="level 2"):
        run(R, "3", [(0, "3D")])


def test_one_twenty_kinds():
    acc, caller, trump = run(OT, "2", [(0, "2C"), (1, "2D 2D"), (2, "LJ LJ"), (3, "HJ HJ")])
    assert acc == [True, True, True, True] and (caller, trump) == (3, None)
    acc, _, _ = run(OT, "2", [(0, "2C"), (1, "HJ"), (1, "LJ HJ"), (1, "2D 2S")])
    assert acc == [True, False, False, False]
    # equal count of a level suit never beats another level suit
    assert run(OT, "2", [(0, "2C 2C"), (1, "2D 2D")])[0] == [True, False]


def test_one_twenty_take_back_only_by_the_one_just_overcalled():
    acc, caller, trump = run(OT, "2", [(0, "2C"), (1, "2D 2D"), (2, "2S 2S")])
    assert acc == [True, True, False]
    # seat 4 was never overcalled; seat 0 may take back only with its own suit
    acc, _, _ = run(OT, "2", [(0, "2C"), (1, "2D 2D"), (4, "2H"), (0, "2S 2S")])
    assert acc == [True, True, False, False]
    # taking back twice: seat 1 answers with three
    acc, caller, trump = run(
        OT, "2", [(0, "2C"), (1, "2D 2D"), (0, "2C 2C"), (1, "2D 2D 2D"), (0, "2C 2C 2C")]
    )
    assert acc == [True] * 5 and (caller, trump) == (0, "C")


def test_one_twenty_later_deal_only_declarer_side():
    acc, caller, trump = run(
        OT, "5", [(1, "5H"), (2, "5S"), (3, "5D 5D")], deal_no=3, dealer_side=[0, 2, 4]
    )
    assert acc == [False, True, False] and (caller, trump) == (2, "S")


def test_bad_input():
    with pytest.raises(CardError):
        run(T, "2", [(0, "2H 2H 2H HJ")])
    with pytest.raises(EngineError, match="not a seat"):
        run(T, "2", [(4, "2H HJ")])
    with pytest.raises(EngineError, match="not a level"):
        run(T, "1", [(0, "2H HJ")])
    with pytest.raises(EngineError, match="deal number"):
        run(T, "2", [], deal_no=0)


def test_book_reasons():
    book = CallBook(T, "2")
    assert "colour" in str(call_shape(T, "2", parse_cards(["2H", "LJ"])))
    book.offer(0, parse_cards(["2H", "HJ"]))
    assert "own call" in (book.why_not(0, parse_cards(["HJ", "HJ"])) or "")
    with pytest.raises(EngineError, match="stronger"):
        book.offer(1, parse_cards(["2S", "LJ"]))
