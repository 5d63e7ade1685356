"""120分: the deal after a refused one is a race (RULES §4; seed 000 item 10: 补到就放在桌上):
the first seat to show its own side's level card declares at its side's level, and no later
call, however long, overcalls it."""

from __future__ import annotations

import pytest
from deal_helpers import cards, draw_all, draw_until, stack

from engine.bots import RandomBot, play_deal
from engine.calls import CallBook
from engine.deal import CALLS, DRAW
from engine.errors import EngineError, IllegalAction
from engine.game import Game
from engine.variants import make_variant

RACE = {"levels": ("5", "8"), "dealer": 0, "first": False, "race": True}


def test_the_first_to_show_wins_and_a_longer_call_does_not_overcall() -> None:
    d = stack("one-twenty-6p", front={1: "8H", 0: "5S 5S 5S"}, **RACE)
    draw_until(d, 6)
    d.call(1, cards("8H"))  # the other side shows its level card first
    draw_until(d, 30)
    with pytest.raises(IllegalAction) as e:
        d.call(0, cards("5S 5S"))  # two cards would overcall one in a first deal
    assert e.value.code == "call.race_won" and e.value.params == {"caller": 1}
    assert not d.can_call(0, cards("5S 5S 5S")) and not d.can_call(1, cards("8H 8H"))
    assert d.legal_calls(0) == [] and "call" not in d.actions(0)
    draw_all(d)
    assert d.phase != CALLS  # no last window: nothing can overcall a won race
    assert d.dealer == 1 and d.level == "8" and d.trump == "H"


def test_jokers_do_not_win_a_race() -> None:
    d = stack("one-twenty-6p", front={2: "LJ LJ 5D"}, **RACE)
    draw_until(d, 18)
    with pytest.raises(IllegalAction) as e:
        d.call(2, cards("LJ LJ"))
    assert e.value.code == "call.race_level"
    d.call(2, cards("5D"))  # its own side's level card does
    draw_all(d)
    assert d.dealer == 2 and d.level == "5" and d.trump == "D"


def test_nobody_showed_during_the_draw_the_first_in_the_last_window_wins() -> None:
    d = stack("one-twenty-6p", late={3: "8C"}, **RACE)
    draw_all(d)
    assert d.phase == CALLS
    while not d.legal_calls(d.to_act):
        d.pass_(d.to_act)
    seat = d.to_act
    call = d.legal_calls(seat)[0]
    d.call(seat, call)
    assert d.phase != CALLS and d.dealer == seat
    assert d.level == ("5" if seat % 2 == 0 else "8")


def test_a_first_deal_still_lets_a_longer_call_overcall() -> None:
    d = stack("one-twenty-6p", front={1: "2H", 0: "2S 2S"})
    draw_until(d, 6)
    d.call(1, cards("2H"))
    draw_until(d, 30)
    d.call(0, cards("2S 2S"))  # 造反 outside a race
    assert d.book.caller == 0 and d.phase == DRAW


def test_race_books_only_in_one_twenty() -> None:
    with pytest.raises(EngineError):
        CallBook(make_variant("tractor-4p"), "2", race=True)
    book = CallBook(make_variant("one-twenty-6p"), "5", race=True)
    book.offer(3, cards("8D"), level="8")
    assert book.why_not(0, cards("5S 5S"), level="5") is not None


def test_a_refused_deal_then_a_race_in_a_game_never_overcalls() -> None:
    for seed in range(60):
        game = Game("one-twenty-6p", {"refuse_below": 40}, seed=seed)
        for _ in range(12):
            deal = game.next_deal()
            play_deal(deal, [RandomBot(deal.setup.seed + s) for s in range(6)])
            game.record(deal)
            if deal.setup.race and deal.call_seq:
                counted = [s for s, _c, k in deal.call_seq if k]
                assert len(counted) == 1  # the first accepted call is the only one
                if deal.outcome == "played" or deal.dealer is not None:
                    assert deal.dealer == counted[0]
                return
            if game.over:
                break
    raise AssertionError("no race with a call in 60 games")
