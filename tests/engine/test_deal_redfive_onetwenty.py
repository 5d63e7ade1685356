"""红五 and 120分 deal scenarios: declaring, 压庄, the friend (死拼, 独打, 抢伴), the cut, 再造反,
later-deal calls, the kitty fallback, refusing a deal."""

import pytest
from deal_helpers import cards, draw_all, draw_until, stack

from engine.cards import points_of
from engine.deal import BURY, CALLS, DONE, FRIEND, PLAY, REDEAL, Deal, DealSetup
from engine.errors import IllegalAction

# --- red five --------------------------------------------------------------------------------


def test_red_five_first_two_stands_no_overcall():
    d = stack("red-five-5p", front={3: "2D", 1: "2S"})
    draw_until(d, 10)
    d.call(3, cards("2D"))
    with pytest.raises(IllegalAction, match="no overcalls"):
        d.verify_call(1, cards("2S"))
    draw_all(d)
    assert (d.dealer, d.trump, d.level) == (3, "D", "2")
    assert d.phase == BURY and len(d.hands[3]) == 38


def test_red_five_last_two_rounds_only_previous_dealer():
    d = stack("red-five-5p", late={2: "2C", 4: "2S"}, dealer=4, drawer=4)
    draw_until(d, 154)  # both drew their last card (seat 4 draws first)
    assert d.in_last_rounds()
    with pytest.raises(IllegalAction, match="previous dealer"):
        d.verify_call(2, cards("2C"))
    d.call(4, cards("2S"))
    draw_all(d)
    assert (d.dealer, d.trump) == (4, "S")


def test_red_five_last_window_and_ya_zhuang():
    d = stack("red-five-5p", late={1: "2H"}, dealer=1, drawer=1)
    draw_all(d)
    assert d.phase == CALLS and d.window == [1] and d.to_act == 1
    with pytest.raises(IllegalAction, match="seat 1's turn"):
        d.pass_(0)
    d.pass_(1)
    assert d.dealer == 1 and d.trump_source == "random"
    twos = {c // 13 for c in d.hands[1] if c < 52 and c % 13 == 0}
    assert "SHDC".index(d.trump) in twos


def friend_deal(front, kitty):
    d = stack("red-five-5p", front=front, kitty=kitty)
    draw_until(d, 5)
    d.call(0, cards("2S"))
    draw_all(d)
    assert d.phase == BURY and d.to_act == 0
    return d


def bury_keep(d, seat, keep, must_bury=""):
    hand = list(d.hands[seat])
    out = cards(must_bury)
    for c in out:
        hand.remove(c)
    for c in cards(keep):
        hand.remove(c)
    out += hand[: d.kitty_size - len(out)]
    d.bury(seat, out)


def test_friend_first_other_player_to_play_it_and_qiang_ban():
    d = friend_deal({0: "2S 4C", 1: "AC 5C 6C", 2: "AC"}, kitty="AC")
    bury_keep(d, 0, "4C", must_bury="AC")
    assert d.phase == FRIEND and d.to_act == 0
    with pytest.raises(IllegalAction, match="friend card"):
        d.call_friend(0, "QC")
    d.call_friend(0, "AC")
    assert d.phase == PLAY and d.friend is None and d.friend_pending()
    d.play(0, cards("4C"))
    d.play(1, cards("AC"))  # holding 5C 6C: 抢伴
    assert d.friend == 1 and d.friend_revealed and d.friend_grabbed


def test_friend_si_pin_with_two_copies():
    d = friend_deal({0: "2S AC AC", 3: "AC"}, kitty="")
    bury_keep(d, 0, "AC AC")
    d.call_friend(0, "AC")
    assert d.friend == 3 and not d.friend_revealed  # known to the engine only


def test_friend_alone_when_holding_all_three():
    d = friend_deal({0: "2S AC AC AC"}, kitty="")
    bury_keep(d, 0, "AC AC AC")
    d.call_friend(0, "AC")
    assert d.friend is None and not d.friend_pending()
    d2 = friend_deal({0: "2S"}, kitty="")
    bury_keep(d2, 0, "")
    d2.call_friend(0, None)
    assert d2.alone and d2.friend_card is None


# --- 120分 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cut", "drawer"),
    [
        ("AS", 0),
        ("7H", 0),
        ("KD", 0),
        ("2C", 1),
        ("8S", 1),
        ("3D", 2),
        ("9C", 2),
        ("6H", 5),
        ("QS", 5),
        ("HJ", 0),
    ],
)
def test_cut_card_names_the_first_drawer(cut, drawer):
    base = Deal(DealSetup("one-twenty-6p", {}, 5))
    pack = list(base.pack)
    i = pack.index(cards(cut)[0])
    pack[0], pack[i] = pack[i], pack[0]
    d = Deal(DealSetup("one-twenty-6p", {}, 5, pack=tuple(pack)))
    assert d.first_drawer == drawer
    d = Deal(DealSetup("one-twenty-6p", {}, 5, ("2", "2"), 3, False, pack=tuple(pack)))
    assert d.first_drawer == (3 + drawer) % 6


def test_one_twenty_first_deal_nobody_calls_deals_again():
    d = stack("one-twenty-6p")
    draw_all(d)
    assert d.phase == CALLS and len(d.window) == 6
    while d.phase == CALLS:
        d.pass_(d.to_act)
    assert d.outcome == "redeal"


def test_one_twenty_re_revolt_during_the_deal_and_last_window():
    d = stack("one-twenty-6p", front={0: "2C 2C", 1: "2D 2D", 4: "HJ HJ"})
    draw_until(d, 18)
    d.call(0, cards("2C"))
    d.call(1, cards("2D 2D"))
    with pytest.raises(IllegalAction):
        d.verify_call(2, cards("2S"))  # weaker (or not even held)
    d.call(0, cards("2C 2C"))  # 再造反
    assert d.book.caller == 0
    draw_all(d)
    assert d.phase == CALLS and d.window[0] == 1  # starts after the standing caller
    d.pass_(1)
    d.pass_(2)
    d.pass_(3)
    d.call(4, cards("HJ HJ"))  # no trump, opens the window again
    assert d.window == [5, 0, 1, 2, 3, 4]
    while d.phase == CALLS:
        d.pass_(d.to_act)
    assert (d.dealer, d.trump, d.level) == (4, None, "2")


def test_one_twenty_later_deal_declarer_side_only_and_kitty_suit():
    d = stack(
        "one-twenty-6p",
        front={1: "7H", 2: "7S"},
        kitty="HJ LJ 4C",
        levels=("7", "3"),
        dealer=2,
        first=False,
        drawer=3,
        deal_no=5,
    )
    draw_until(d, 12)
    with pytest.raises(IllegalAction, match="dealer's side"):
        d.verify_call(1, cards("7H"))
    draw_all(d)
    assert d.window == [s for s in d.window if s % 2 == 0]
    while d.phase == CALLS:
        d.pass_(d.to_act)
    assert (d.dealer, d.level, d.trump, d.trump_source) == (2, "7", "C", "kitty")


def test_one_twenty_kitty_of_jokers_means_no_trump():
    d = stack("one-twenty-6p", kitty="HJ HJ HJ LJ LJ LJ", levels=("7", "3"), dealer=2, first=False)
    draw_all(d)
    while d.phase == CALLS:
        d.pass_(d.to_act)
    assert d.trump is None and d.trump_source == "kitty"


def test_one_twenty_refusing_a_weak_hand():
    d = stack("one-twenty-6p", front={0: "2C"}, weak=(1,))
    draw_until(d, 12)
    d.call(0, cards("2C"))
    draw_all(d)
    while d.phase == CALLS:
        d.pass_(d.to_act)
    assert d.phase == REDEAL and d.window == [1, 3, 5]
    assert points_of(d.hands[1]) < 20
    d.redeal(1)
    assert d.outcome == "refused" and d.phase == DONE
    assert d.to_act is None


def test_red_five_ya_zhuang_without_a_two_in_hand_uses_the_kitty():
    d = stack("red-five-5p", kitty="2C", dealer=2, drawer=2)
    # move every other 2 out of seat 2's draws: swap them with non-2 cards of other seats
    pack = list(d.pack)
    mine = [i for i in range(d.to_deal) if (d.first_drawer + i) % 5 == 2]
    others = [i for i in range(d.to_deal) if (d.first_drawer + i) % 5 != 2]
    for i in mine:
        if pack[i] < 52 and pack[i] % 13 == 0:
            j = next(j for j in others if not (pack[j] < 52 and pack[j] % 13 == 0))
            others.remove(j)
            pack[i], pack[j] = pack[j], pack[i]
    d = Deal(DealSetup("red-five-5p", {}, 1, dealer=2, pack=tuple(pack)))
    draw_all(d)
    d.pass_(2)
    twos = [c for c in d.kitty_cards if c < 52 and c % 13 == 0]
    assert d.dealer == 2 and d.trump in {"SHDC"[c // 13] for c in twos}


def test_red_five_friend_card_buried_means_alone_and_scores_so():
    from engine.bots import RandomBot, play_deal

    d = friend_deal({0: "2S AH"}, kitty="AH AH")
    bury_keep(d, 0, "", must_bury="AH AH AH")
    d.call_friend(0, "AH")
    assert not d.friend_pending()
    play_deal(d, [RandomBot(s) for s in range(5)])
    assert d.friend is None and d.outcome == "played"
    r = d.result
    sign = 1 if r.winner == "declarer" else -1
    base = [-sign * r.units] * 5
    base[0] = sign * 4 * r.units
    assert sum(r.scores) == 0
    if not d.failed_throws:
        assert r.scores == base


def test_one_twenty_refused_deal_then_race_in_a_game():
    from engine.bots import RandomBot, play_deal
    from engine.game import Game

    deals = 0
    for game_seed in range(10):  # games until one has a refused deal (bots' luck)
        game = Game("one-twenty-6p", seed=game_seed)
        while not game.over and deals < 60:
            deal = game.next_deal()
            deals += 1
            play_deal(deal, [RandomBot(deal.setup.seed + s) for s in range(6)])
            s = game.record(deal)
            if s.outcome == "refused" and not game.over:
                nxt = game.next_deal()
                assert nxt.setup.race and nxt.open_calls and nxt.dealer is None
                play_deal(nxt, [RandomBot(s) for s in range(6)])
                game.record(nxt)
                if nxt.outcome == "played":
                    assert nxt.level == game.history[-2].levels_after[nxt.dealer % 2]
                    assert not game.race
                return
    raise AssertionError(f"no refused deal in {deals} deals")
