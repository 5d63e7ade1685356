"""Duplicate boards: the same draw at every table, the paper deal, and the bots' par."""

from __future__ import annotations

from collections import Counter

import pytest

from app.competition.boards import (
    Board,
    arranged_deal,
    arrangements,
    board_seed,
    event_boards,
    paper_deal,
    par,
)
from app.competition.duplicate import DuplicateError
from engine.bots import HeuristicBot, play_deal
from engine.cards import card_str
from engine.variants import VARIANT_IDS


def drawn_hands(board: Board) -> tuple[list[list[str]], list[str], list[tuple[int, str]]]:
    """Draw the whole board through the engine, nobody calling."""
    d = board.deal()
    hands: list[list[str]] = [[] for _ in range(d.n)]
    order = []
    while d.phase == "draw":
        rec = d.draw()
        hands[rec.seat].append(card_str(d.hands[rec.seat][-1]))
        order.append((rec.seat, hands[rec.seat][-1]))
    return hands, [card_str(c) for c in d.kitty_cards], order


def test_event_boards_are_stable_and_turn_the_first_drawer() -> None:
    a = event_boards("tractor-4p", {}, 42, 8)
    assert [b.number for b in a] == list(range(1, 9))
    assert [b.shuffler for b in a] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert len({b.seed for b in a}) == 8
    # a board does not depend on how many boards the event has
    assert event_boards("tractor-4p", {}, 42, 3) == a[:3]
    assert event_boards("tractor-4p", {}, 43, 1)[0].seed != a[0].seed
    assert a[0].seed == board_seed(42, 1) < 2**48
    with pytest.raises(DuplicateError, match="number of boards"):
        event_boards("tractor-4p", {}, 1, 0)
    with pytest.raises(DuplicateError):
        event_boards("bridge", {}, 1, 2)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_paper_deal_is_the_draw_dealt_out(variant: str) -> None:
    board = event_boards(variant, {}, 5, 2)[1]
    pd = paper_deal(board)
    hands, kitty, order = drawn_hands(board)
    again, _, order2 = drawn_hands(board)
    assert order == order2  # every table that plays the board draws the same, seat by seat
    assert list(pd.draws) == order and list(pd.kitty) == kitty
    assert pd.first_drawer == order[0][0]
    for seat, hand in enumerate(hands):
        assert Counter(pd.hands[seat]) == Counter(hand)
    # sorted by suit: spades, hearts, diamonds, clubs, then the jokers; high cards first
    suits = "SHDCJ"
    for hand in pd.hands:
        keys = [suits.index("J" if c in ("LJ", "HJ") else c[-1]) for c in hand]
        assert keys == sorted(keys)
    spades = [c for c in pd.hands[0] if c.endswith("S")]
    ranks = "AKQJ1098765432"
    assert [ranks.index(c[0]) for c in spades] == sorted(ranks.index(c[0]) for c in spades)
    by_suit = dict(pd.suits(0))
    assert sum(len(v) for v in by_suit.values()) == len(pd.hands[0])
    if variant == "one-twenty-6p":
        assert pd.cut_card is not None
    else:
        assert pd.cut_card is None and pd.first_drawer == board.shuffler


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_arrangements_move_hands_within_their_side(variant: str) -> None:
    board = event_boards(variant, {}, 9, 1)[0]
    pd = paper_deal(board)
    arr = arrangements(variant)
    assert len(arr) == {"tractor-4p": 4, "one-twenty-6p": 9, "red-five-5p": 5}[variant]
    assert len(set(arr)) == len(arr)
    for a in arr:
        if variant != "red-five-5p":
            assert all(a[h] % 2 == h % 2 for h in range(len(a)))
        d = arranged_deal(board, a)
        assert d.first_drawer == pd.first_drawer
        assert [card_str(c) for c in d.kitty_cards] == list(pd.kitty)
        hands: list[list[str]] = [[] for _ in range(d.n)]
        while d.phase == "draw":
            rec = d.draw()
            hands[rec.seat].append(card_str(d.hands[rec.seat][-1]))
        for h in range(d.n):
            assert Counter(hands[a[h]]) == Counter(pd.hands[h])


def test_par_fixed_sides_is_the_mean_of_the_bots_plays() -> None:
    board = event_boards("tractor-4p", {}, 3, 1)[0]
    p = par(board)
    assert p.plays == 4 and len(p.values) == 4
    assert p.value0 == sum(p.values) / 4
    # the first play is the board as dealt, the heuristic bots in every seat
    d = play_deal(board.deal(), [HeuristicBot(s) for s in range(4)])
    assert d.result is not None and d.dealer is not None and d.result.total is not None
    h = 80
    t = d.result.total
    assert p.values[0] == (h - t if d.dealer % 2 == 0 else t - h)
    assert par(board) == p  # deterministic
    assert par(board, plays=6).plays == 6
    with pytest.raises(DuplicateError, match="plays"):
        par(board, plays=0)


def test_par_red_five_per_seat() -> None:
    board = event_boards("red-five-5p", {}, 3, 1)[0]
    p = par(board)
    assert p.value0 is None and p.seat_scores is not None and len(p.seat_scores) == 5
    assert p.plays == 5
    assert abs(sum(p.seat_scores)) < 1e-9  # 积分 changes of a deal sum to zero


def test_a_board_is_never_dealt_again() -> None:
    """A board's cards are fixed: 升级's 暴动 (redeal_below) and 120分's refusal (refuse_below)
    are off on every board, whatever the event's options; red five has neither."""
    (t,) = event_boards("tractor-4p", {"redeal_below": 15}, 5, 1)
    assert t.options["redeal_below"] is None and t.deal().variant.option("redeal_below") is None
    (o,) = event_boards("one-twenty-6p", None, 5, 1)
    assert o.deal().variant.option("refuse_below") is None
    (r,) = event_boards("red-five-5p", None, 5, 1)
    assert dict(r.options) == {}
