"""升级 (tractor-4p) deal scenarios: calls, 反主, fallbacks, redeal, 炒底, 4 decks, throws."""

import pytest
from deal_helpers import cards, draw_all, draw_until, stack

from engine.cards import cards_str, points_of
from engine.deal import BURY, CALLS, DONE, OVERCALL, PLAY, REDEAL
from engine.errors import IllegalAction
from engine.views import seat_view


def test_first_deal_call_makes_dealer_and_no_self_overcall():
    d = stack("tractor-4p", front={1: "2H HJ 2H", 3: "2S LJ"})
    assert d.to_act is None and d.next_drawer == 0
    assert not d.can_call(1, cards("2H HJ"))  # not drawn yet
    draw_until(d, 8)
    d.call(1, cards("2H HJ"))
    with pytest.raises(IllegalAction, match="stronger"):
        d.verify_call(3, cards("2S LJ"))
    draw_until(d, 12)
    with pytest.raises(IllegalAction, match="own call"):
        d.verify_call(1, cards("2H 2H HJ"))
    draw_all(d)
    assert d.phase == CALLS and d.window == [2, 3, 0] and d.to_act == 2
    with pytest.raises(IllegalAction, match="seat 2's turn"):
        d.pass_(3)
    for s in (2, 3, 0):
        d.pass_(s)
    assert (d.dealer, d.trump, d.level) == (1, "H", "2")
    assert d.phase == REDEAL and d.window == [2, 0]


def test_first_deal_overcall_after_the_deal_changes_dealer():
    d = stack("tractor-4p", front={1: "2H HJ", 0: "2S 2S LJ"})
    draw_until(d, 8)
    d.call(1, cards("2H HJ"))
    draw_all(d)
    d.pass_(2)
    d.pass_(3)
    d.call(0, cards("2S 2S LJ"))  # 反主反打
    assert d.window == [1, 2, 3]
    d.call(1, ["HJ", "HJ"]) if d.can_call(1, ["HJ", "HJ"]) else d.pass_(1)
    while d.phase == CALLS:
        d.pass_(d.to_act)
    assert d.dealer == d.book.caller


def test_no_call_turns_the_kitty():
    d = stack("tractor-4p", kitty="LJ HJ 7D 3C")
    draw_all(d)
    for s in (0, 1, 2, 3):
        d.pass_(s)
    assert (d.dealer, d.trump, d.trump_source) == (0, "D", "kitty")
    d = stack("tractor-4p", kitty="LJ HJ 7D", options={"no_call_trump": "spades"})
    draw_all(d)
    for s in (0, 1, 2, 3):
        d.pass_(s)
    assert (d.dealer, d.trump, d.trump_source) == (0, "S", "spades")


def later(front, kitty=""):
    return stack(
        "tractor-4p",
        front=front,
        kitty=kitty,
        drawer=1,
        levels=("5", "9"),
        dealer=1,
        first=False,
        deal_no=3,
    )


def setup_later(front, kitty=""):
    d = later(front, kitty)
    assert d.level == "9" and d.dealer == 1
    return d


def test_chaodi_overcaller_reburies_and_dealer_stays():
    d = setup_later({3: "9C LJ", 0: "9H HJ", 2: "9D 9D HJ"})
    draw_until(d, 12)
    with pytest.raises(IllegalAction, match="dealer's side"):
        d.verify_call(0, cards("9H HJ"))
    d.call(3, cards("9C LJ"))
    draw_all(d)
    assert d.phase == REDEAL  # dealer's side called: no window, redeal requests next
    while d.phase == REDEAL:
        d.pass_(d.to_act)
    assert d.phase == BURY and d.to_act == 1 and len(d.hands[1]) == 33
    d.bury(1, d.hands[1][:8])
    assert d.phase == OVERCALL and d.window == [2, 0, 1]  # all but the standing caller
    old_buried = list(d.buried)
    d.call(2, cards("9D 9D HJ"))
    assert d.phase == BURY and d.to_act == 2 and len(d.hands[2]) == 33
    assert sorted(old_buried) == sorted(c for c in old_buried)  # the kitty went to seat 2
    d.bury(2, d.hands[2][-8:])
    assert d.phase == OVERCALL and d.window == [3, 0, 1]
    while d.phase == OVERCALL:
        d.pass_(d.to_act)
    assert d.phase == PLAY and d.dealer == 1 and d.to_act == 1 and d.trump == "D"
    assert d.kitty_owner == 2 and d.burials == 2


def test_later_deal_attacker_calls_after_the_deal_and_becomes_dealer():
    d = setup_later({0: "5H HJ", 2: "9H HJ"})
    draw_all(d)
    assert d.phase == CALLS and d.window == [2, 0]
    with pytest.raises(IllegalAction):
        d.verify_call(2, cards("9H HJ"))  # an attacker calls with his own level, 5
    d.pass_(2)
    d.call(0, cards("5H HJ"))
    assert (d.dealer, d.level, d.trump) == (0, "5", "H")


def test_redeal_request_weak_hand_only():
    d = stack("tractor-4p", front={0: "2S LJ"}, weak=(1,))
    draw_until(d, 8)
    d.call(0, cards("2S LJ"))
    draw_all(d)
    for s in (1, 2, 3):
        d.pass_(s)
    assert d.phase == REDEAL and d.window == [1, 3]
    assert points_of(d.hands[1]) < 15
    if points_of(d.hands[3]) >= 15:
        d.pass_(1)
        with pytest.raises(IllegalAction, match="fewer than 15"):
            d.redeal(3)
        return
    d.redeal(1)
    assert d.outcome == "redeal" and d.phase == DONE


def test_redeal_off():
    d = stack("tractor-4p", front={0: "2S LJ"}, options={"redeal_below": None})
    draw_until(d, 8)
    d.call(0, cards("2S LJ"))
    draw_all(d)
    for s in (1, 2, 3):
        d.pass_(s)
    assert d.phase == BURY


def test_four_decks_hidden_calls():
    d = stack("tractor-4p", front={1: "2H 2H", 2: "2S 2S", 3: "2C"}, options={"decks": 4})
    draw_until(d, 8)
    d.call(1, cards("2H 2H"))
    d.call(2, cards("2S 2S"))  # equal count, later: does not count, but is not refused
    d.call(3, cards("2C"))
    view = seat_view(d, 0)
    assert view["calls"] == [] and view["caller"] is None
    assert [c["seat"] for c in seat_view(d, 2)["calls"]] == [2]
    with pytest.raises(IllegalAction):
        d.verify_call(0, cards("2H HJ"))
    draw_all(d)
    assert (d.dealer, d.trump) == (1, "H")
    assert d.kitty_cards == [] and d.phase == REDEAL
    assert len(seat_view(d, 0)["calls"]) == 3


def first_play(front, kitty="3H", seed=1):
    d = stack("tractor-4p", front=front, kitty=kitty, options={"redeal_below": None}, seed=seed)
    draw_all(d)
    for s in range(4):
        d.pass_(s)
    keep = set(cards(front.get(0, "")))
    bury = [c for c in d.hands[0] if c not in keep][:8]
    d.bury(0, bury)
    assert d.phase == PLAY and d.to_act == 0
    return d


def test_failed_throw_plays_the_forced_component_and_is_recorded():
    d = first_play({0: "AS KS", 2: "AS"})
    assert d.trump == "H"
    rec = d.play(0, cards("AS KS"))
    assert rec.played == tuple(cards("KS"))
    assert d.trick.plays[0] == (0, tuple(cards("KS")))
    assert d.failed_throws == [0]
    assert cards("AS")[0] in d.hands[0]
    assert rec.to_json()["played"] == ["KS"]


def test_play_out_of_turn_and_not_in_hand():
    d = first_play({0: "AS KS", 2: "AS"})
    with pytest.raises(IllegalAction, match="seat 0's turn"):
        d.play(1, d.hands[1][:1])
    missing = next(c for c in range(54) if c not in d.hands[0])
    with pytest.raises(IllegalAction, match="not in that hand"):
        d.play(0, [missing])
    with pytest.raises(IllegalAction):
        d.play(0, [])
    assert d.playable_cards(1) == []
    assert d.playable_cards(0) == sorted(set(d.hands[0]))


def test_follow_rule_enforced_and_playable():
    d = first_play({0: "AS", 1: "3S 4S"})
    d.play(0, cards("AS"))
    offsuit = next(c for c in d.hands[1] if d.ctx.suit_index(c) != 0)
    with pytest.raises(IllegalAction):
        d.play(1, [offsuit])
    assert set(d.playable_cards(1)) <= {c for c in d.hands[1] if d.ctx.suit_index(c) == 0}


def test_whole_deal_scores_with_kitty_multiplier():
    from engine.bots import make_bots, play_deal
    from engine.combos import largest_component_cards
    from engine.deal import new_deal
    from engine.scoring import kitty_multiplier

    seen = 0
    for seed in range(80):
        d = new_deal("tractor-4p", seed=seed)
        play_deal(d, make_bots("random", 4, seed))
        if d.outcome != "played":
            continue
        last = d.tricks[-1]
        pts = sum(p for s, p in enumerate(d.won) if s % 2 != d.dealer % 2)
        if d.is_attacker(last.winner):
            n = largest_component_cards(list(last.plays[0][1]), d.ctx)
            m = kitty_multiplier("by_shape", n)
            assert d.kitty_bonus == (points_of(d.buried), m)
            bonus = points_of(d.buried) * m
            seen += 1
        else:
            assert d.kitty_bonus is None
            bonus = 0
        dec = sum(1 for s in d.failed_throws if s % 2 == d.dealer % 2)
        att = len(d.failed_throws) - dec
        pen = 10 * min(dec, 3) - 10 * min(att, 3)
        assert d.result.total == max(0, pts + bonus + pen)
        assert sum(d.won) + points_of(d.buried) == 200
    assert seen > 5


def test_view_hides_kitty_until_revealed():
    d = first_play({0: "AS"})
    assert seat_view(d, 0)["kitty"]["cards"] == cards_str(d.buried)
    assert seat_view(d, 1)["kitty"]["cards"] is None
    assert all(
        "cards" not in e or e["seat"] == 1 for e in seat_view(d, 1)["log"] if e["kind"] == "draw"
    )


def test_actions_and_legal_calls_per_seat():
    d = stack("tractor-4p", front={1: "2H HJ"})
    draw_until(d, 8)
    assert d.actions(1) == ["call"]
    assert d.legal_calls(1) == [cards("2H HJ")]
    assert seat_view(d, 1)["legal_calls"] == [["2H", "HJ"]]
    d.call(1, cards("2H HJ"))
    assert d.actions(1) == []  # no self-overcall
    draw_all(d)
    assert "pass" in d.actions(2) and d.actions(3) == [] and d.actions(1) == []
    while d.phase == CALLS:
        d.pass_(d.to_act)
    while d.phase == REDEAL:
        assert d.actions(d.to_act)[-1] == "pass"
        d.pass_(d.to_act)
    assert d.actions(1) == ["bury"] and d.actions(0) == []
    assert seat_view(d, 1)["actions"] == ["bury"]
