"""Audit of a whole 红五 (red-five-5p) deal against RULES.md §3, with stacked packs."""

from collections import Counter

import pytest
from deal_helpers import cards, draw_all, draw_until, stack

from engine.cards import full_pack
from engine.deal import BURY, CALLS, DRAW, FRIEND, PLAY, Deal, DealSetup, new_deal
from engine.errors import IllegalAction
from engine.game import Game
from engine.scoring import deal_result
from engine.variants import make_variant
from engine.views import seat_view, spectator_view

V = make_variant("red-five-5p", {})


def test_deal_seven_kitty_31_each_previous_dealer_draws_first():
    d = new_deal("red-five-5p", seed=4, dealer=3, first=False)
    seats = []
    while d.phase == DRAW:
        assert d.to_act is None
        seats.append(d.draw().seat)
    assert seats == [(3 + i) % 5 for i in range(155)]
    assert [len(h) for h in d.hands] == [31] * 5 and len(d.kitty_cards) == 7
    assert Counter(sum(d.hands, []) + d.kitty_cards) == Counter(full_pack(3))
    d0 = new_deal("red-five-5p", seed=4)
    assert d0.prev_dealer == 0 and d0.first_drawer == 0  # first deal: seat 0 (桌主)


def test_first_to_show_a_two_deals_its_suit_is_trump_no_overcalls():
    d = stack("red-five-5p", front={2: "2H", 4: "2S 2S"})
    draw_until(d, 10)
    d.call(2, cards("2H"))
    for s in range(5):
        assert d.legal_calls(s) == []
    with pytest.raises(IllegalAction, match="no overcalls"):
        d.call(4, cards("2S"))
    draw_all(d)
    assert (d.dealer, d.trump, d.level, d.phase, d.to_act) == (2, "H", "2", BURY, 2)
    assert len(d.hands[2]) == 38


@pytest.mark.parametrize("shown", ["2S 2S", "3S", "HJ", "2S HJ", "5H"])
def test_red_five_call_is_exactly_one_two(shown):
    d = stack("red-five-5p", front={1: "2S 2S 3S HJ 5H"})
    draw_until(d, 30)
    assert not d.can_call(1, cards(shown))
    assert d.can_call(1, cards("2S"))


def test_last_two_rounds_boundary_only_the_previous_dealer():
    d = stack("red-five-5p", late={2: "2C 2C", 1: "2D"}, dealer=1, drawer=1)
    draw_until(d, 145)  # 29 full rounds drawn: the last two rounds have not begun
    assert not d.in_last_rounds() and d.can_call(2, cards("2C"))
    d.draw()
    assert d.in_last_rounds()
    with pytest.raises(IllegalAction, match="previous dealer"):
        d.call(2, cards("2C"))
    draw_until(d, 155 - 4)  # seat 1 has drawn its last card
    d.call(1, cards("2D"))
    draw_all(d)
    assert (d.dealer, d.trump) == (1, "D")


def ya_zhuang(prev, front=None, late=None, kitty="", seed=1):
    d = stack(
        "red-five-5p",
        front=front or {},
        late=late or {},
        kitty=kitty,
        dealer=prev,
        drawer=prev,
        seed=seed,
    )
    draw_all(d)
    assert d.phase == CALLS and d.window == [prev]
    d.pass_(prev)
    assert d.dealer == prev and d.trump_source == "random" and d.phase == BURY
    return d


def test_ya_zhuang_random_two_of_the_dealers_hand_seeded():
    suits = set()
    for seed in range(1, 9):
        d = ya_zhuang(3, seed=seed)
        twos = {"SHDC"[c // 13] for c in d.hands[3][:31] if c < 52 and c % 13 == 0}
        if twos:
            assert d.trump in twos
        suits.add(d.trump)
        # seeded: the same deal gives the same trump
        again = Deal(DealSetup("red-five-5p", {}, d.setup.seed, dealer=3, pack=d.setup.pack))
        while again.phase == DRAW:
            again.draw()
        again.pass_(3)
        assert again.trump == d.trump
    assert len(suits) > 1


def test_ya_zhuang_without_twos_in_hand_a_two_of_the_kitty():
    # every 2 outside the dealer's hand and the kitty: put them all in other hands
    twos = "2S 2S 2S 2H 2H 2H 2D 2D 2D 2C 2C"
    d = ya_zhuang(0, front={1: twos}, kitty="2C 3H 4D")
    assert d.trump == "C"


def test_ya_zhuang_no_two_anywhere_near_a_suited_kitty_card_not_the_red_five():
    twos = "2S 2S 2S 2H 2H 2H 2D 2D 2D 2C 2C 2C"
    d = ya_zhuang(0, front={1: twos}, kitty="HJ LJ 5H 5H 9C HJ LJ")
    assert d.trump == "C"


def test_ya_zhuang_kitty_of_jokers_and_red_fives_gives_diamonds():
    twos = "2S 2S 2S 2H 2H 2H 2D 2D 2D 2C 2C 2C"
    d = ya_zhuang(0, front={1: twos}, kitty="HJ LJ 5H 5H 5H HJ LJ")
    assert d.trump == "D"


# --- the friend ------------------------------------------------------------------------------------


def dealt(front, kitty="", dealer_two="2S", seed=1):
    d = stack(
        "red-five-5p",
        front={**front, 0: dealer_two + " " + front.get(0, "")},
        kitty=kitty,
        seed=seed,
    )
    draw_until(d, 5)
    d.call(0, cards(dealer_two))
    draw_all(d)
    return d


def bury_rest(d, keep, must=""):
    hand = list(d.hands[0])
    out = cards(must)
    for c in out + cards(keep):
        hand.remove(c)
    d.bury(0, out + hand[: 7 - len(out)])


@pytest.mark.parametrize("card", ["AS", "KD", "5H", "HJ"])
def test_friend_card_choices(card):
    d = dealt({})
    bury_rest(d, "")
    assert d.phase == FRIEND and d.to_act == 0
    assert d.can_call_friend(0, card)
    for bad in ("QS", "LJ", "5D", "2S"):
        assert not d.can_call_friend(0, bad)
    assert not d.can_call_friend(1, card)
    d.call_friend(0, card)
    assert d.phase == PLAY and d.to_act == 0


def test_friend_card_in_the_kitty_means_alone_and_scores_alone():
    d = dealt({0: "AH", 1: "AH", 2: "AH"}, kitty="")
    # the dealer buries one AH: now one is held by him, one by seat 1, one by seat 2
    bury_rest(d, "", must="AH")
    d.call_friend(0, "AH")
    assert d.friend_pending()  # the copies of seats 1 and 2 can still be played
    d2 = dealt({0: "AH AH"}, kitty="AH")
    bury_rest(d2, "AH", must="AH")  # holds one, buried two: no copy elsewhere
    d2.call_friend(0, "AH")
    assert d2.alone and not d2.friend_pending()


def test_si_pin_friend_is_the_holder_of_the_third_revealed_when_played():
    d = dealt({0: "KD KD 3D", 4: "KD 4D"})
    bury_rest(d, "KD KD 3D")
    d.call_friend(0, "KD")
    assert d.friend == 4
    for s in range(5):
        assert seat_view(d, s)["friend"] is None
    assert spectator_view(d)["friend"] is None


def test_first_other_player_to_play_a_copy_becomes_friend_then():
    d = dealt({0: "AC 4C", 1: "AC", 3: "AC 6C"}, dealer_two="2D")
    bury_rest(d, "AC 4C")
    d.call_friend(0, "AC")
    assert d.friend is None and d.friend_pending()
    d.play(0, cards("4C"))
    clubs1 = [c for c in d.hands[1] if d.ctx.suit_index(c) == d.ctx.suit_index(cards("AC")[0])]
    d.play(1, cards("AC"))
    assert d.friend == 1 and d.friend_revealed
    assert d.friend_grabbed == (len(clubs1) > 1)
    assert seat_view(d, 3)["friend"] == 1


def test_qiang_ban_by_leading_it_while_holding_more_of_the_suit():
    d = dealt({0: "KH", 2: "AH 7H 8H"})
    bury_rest(d, "KH")
    d.call_friend(0, "AH")
    # the dealer leads KH; seat 1 follows; ... get seat 2 to lead later is long: follow instead
    d.play(0, cards("KH"))
    while d.to_act != 2:
        s = d.to_act
        d.play(s, [d.playable_cards(s)[0]])
    d.play(2, cards("AH"))
    assert d.friend == 2 and d.friend_grabbed


def test_last_card_of_the_suit_is_no_qiang_ban():
    # every other side-suit heart goes to seats 1, 3, 4: seat 2's AH is his only heart
    hearts = [
        f"{r}H" for r in ["3", "4", "6", "7", "8", "9", "10", "J", "Q", "K", "A"] for _ in range(3)
    ]
    hearts.remove("AH")
    hearts.remove("KH")
    d = dealt(
        {
            0: "KH",
            2: "AH",
            1: " ".join(hearts[:11]),
            3: " ".join(hearts[11:22]),
            4: " ".join(hearts[22:]),
        }
    )
    heart = d.ctx.suit_index(cards("AH")[0])
    assert [c for c in d.hands[2] if d.ctx.suit_index(c) == heart] == cards("AH")
    bury_rest(d, "KH")
    d.call_friend(0, "AH")
    d.play(0, cards("KH"))
    while d.to_act != 2:
        s = d.to_act
        d.play(s, [d.playable_cards(s)[0]])
    d.play(2, cards("AH"))
    assert d.friend == 2 and d.friend_revealed and not d.friend_grabbed


def test_trump_friend_card_never_qiang_ban():
    d = dealt({0: "3D", 3: "HJ LJ"}, dealer_two="2D")  # trump ♦
    bury_rest(d, "3D")
    d.call_friend(0, "HJ")
    d.play(0, cards("3D"))
    while d.to_act != 3:
        s = d.to_act
        d.play(s, [d.playable_cards(s)[0]])
    assert cards("HJ")[0] in d.playable_cards(3)
    d.play(3, cards("HJ"))  # a trump: playing it early is never 抢伴
    assert d.friend == 3 and not d.friend_grabbed


# --- scores ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "winner", "units"),
    [
        (0, "declarer", 3),
        (5, "declarer", 2),
        (55, "declarer", 2),
        (60, "declarer", 1),
        (115, "declarer", 1),
        (120, "attackers", 1),
        (175, "attackers", 1),
        (180, "attackers", 2),
        (235, "attackers", 2),
        (240, "attackers", 3),
        (295, "attackers", 3),
        (300, "attackers", 4),
    ],
)
def test_units_table(points, winner, units):
    r = deal_result(V, points, 0, None, [], dealer=0, friend=2)
    assert (r.winner, r.units) == (winner, units)
    sign = 1 if winner == "declarer" else -1
    assert r.scores == [2 * units * sign, -units * sign, units * sign, -units * sign, -units * sign]
    alone = deal_result(V, points, 0, None, [], dealer=1, friend=None)
    assert alone.scores == [-units * sign, 4 * units * sign] + [-units * sign] * 3


def test_zhi_da_swaps_the_dealer_and_friend_changes_failed_throws_included():
    r = deal_result(V, 130, 0, None, [2], dealer=0, friend=2, friend_grabbed=True)
    # base: dealer -2, friend -1, others +1; seat 2 failed: -4 to him, +1 to each other
    plain = deal_result(V, 130, 0, None, [2], dealer=0, friend=2)
    assert plain.scores == [-1, 2, -5, 2, 2]
    assert r.scores == [-5, 2, -1, 2, 2]
    won = deal_result(V, 100, 0, None, [2], dealer=0, friend=2, friend_grabbed=True)
    assert won.scores == deal_result(V, 100, 0, None, [2], dealer=0, friend=2).scores  # 直拼


def test_failed_throws_minus_four_plus_one_third_and_later_nothing():
    r0 = deal_result(V, 100, 0, None, [], dealer=0, friend=1)
    r = deal_result(V, 100, 0, None, [3, 3, 3, 3], dealer=0, friend=1)
    delta = [a - b for a, b in zip(r.scores, r0.scores, strict=True)]
    assert delta == [2, 2, 2, -8, 2]
    assert sum(r.scores) == 0


def test_points_before_the_friend_is_known_count_for_his_final_side():
    from engine.bots import make_bots, play_deal

    for seed in range(12):
        d = new_deal("red-five-5p", seed=seed)
        play_deal(d, make_bots("random", 5, seed))
        att = sum(p for s, p in enumerate(d.won) if s not in (d.dealer, d.friend))
        bonus = d.kitty_bonus[0] * d.kitty_bonus[1] if d.kitty_bonus else 0
        assert d.result.total == att + bonus


def test_next_dealer_first_to_show_a_two_else_the_previous_dealer():
    g = Game("red-five-5p", {}, seed=5)
    from engine.bots import make_bots, play_deal

    prev = 0
    for _ in range(6):
        d = g.next_deal()
        assert d.prev_dealer == prev and d.first_drawer == prev
        play_deal(d, make_bots("random", 5, d.setup.seed))
        g.record(d)
        shown = [s for s, _c, k in d.call_seq if k]
        assert d.dealer == (shown[0] if shown else prev)
        prev = d.dealer
        assert g.dealer == prev


def test_selfplay_line_names_qiang_ban_so_swapped_scores_read_right():
    from engine.bots import make_bots, play_deal
    from engine.selfplay import describe

    for seed in range(40):
        d = Deal(DealSetup("red-five-5p", {}, seed))
        play_deal(d, make_bots("heuristic", 5, seed))
        line = describe(d)
        if d.friend_grabbed and d.friend is not None:
            word = "直拼" if d.result.winner == "declarer" else "直搭"
            assert f"friend {d.friend} (抢伴, {word}" in line
            return
        assert "抢伴" not in line
    raise AssertionError("no 抢伴 in 40 deals")


def test_heuristic_bot_keeps_the_friend_card_back_when_playing_it_would_be_qiang_ban():
    from engine.bots import _keep_back_friend_card, make_bots, perform

    checked = 0
    for seed in range(12):
        d = Deal(DealSetup("red-five-5p", {}, seed))
        bots = make_bots("heuristic", 5, seed)
        while d.outcome is None:
            if d.phase == DRAW:
                s = d.draw().seat
                if d.can_call_now(s):
                    c = bots[s].on_draw(d, s)
                    if c is not None:
                        d.call(s, c)
                continue
            s = d.to_act
            act = bots[s].act(d, s)
            if act[0] == "play" and _keep_back_friend_card(d, s):
                checked += 1
                fc = d.friend_card
                if not d.trick.plays:
                    assert fc not in act[2], "led the friend card while holding more of its suit"
                else:
                    led = d.ctx.suit_index(d.trick.plays[0][1][0])
                    # (a hand of nothing but copies of the friend card has no other discard)
                    if led != d.ctx.suit_index(fc) and any(c != fc for c in d.hands[s]):
                        assert fc not in act[2], "discarded the friend card: 抢伴"
            perform(d, act)
    assert checked > 20


def test_heuristic_bot_does_not_know_a_hidden_si_pin_friend():
    from engine.bots import _friendly

    d = dealt({0: "KD KD 3D", 4: "KD 4D"})
    bury_rest(d, "KD KD 3D")
    d.call_friend(0, "KD")
    assert d.friend == 4 and not d.friend_revealed
    known = {(s, o): _friendly(d, s, o) for s in range(5) for o in range(5)}
    d.friend = None  # what the table knows
    assert {(s, o): _friendly(d, s, o) for s in range(5) for o in range(5)} == known
    d.friend = 4
    assert not known[(0, 4)] and not known[(1, 4)]
