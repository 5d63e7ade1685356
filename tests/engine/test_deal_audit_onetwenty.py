"""Audit of a whole 120分 (one-twenty-6p) deal against RULES.md §4 and §5, with stacked packs."""

from collections import Counter

import pytest
from deal_helpers import cards, draw_all, draw_until, stack

from engine.cards import full_pack
from engine.deal import BURY, CALLS, DONE, DRAW, PLAY, REDEAL, Deal, DealSetup
from engine.errors import IllegalAction
from engine.scoring import advance, deal_result, next_dealer, next_levels
from engine.variants import make_variant

V = make_variant("one-twenty-6p", {})
NO_REFUSE = {"refuse_below": None}


def passes(d, phase):
    while d.phase == phase:
        d.pass_(d.to_act)


@pytest.mark.parametrize(
    ("cut", "steps"),
    [
        ("AS", 0),
        ("7H", 0),
        ("KD", 0),
        ("2C", 1),
        ("8S", 1),
        ("3D", 2),
        ("9C", 2),
        ("4H", 3),
        ("10H", 3),
        ("5S", 4),
        ("JS", 4),
        ("6D", 5),
        ("QC", 5),
    ],
)
def test_cut_card_counts_round_the_table_from_the_shuffler(cut, steps):
    base = Deal(DealSetup("one-twenty-6p", {}, 9))
    pack = list(base.pack)
    i = pack.index(cards(cut)[0])
    pack[0], pack[i] = pack[i], pack[0]
    for shuffler in (0, 4):
        first = shuffler == 0
        d = Deal(
            DealSetup(
                "one-twenty-6p",
                {},
                9,
                ("2", "2"),
                None if first else shuffler,
                first,
                pack=tuple(pack),
            )
        )
        assert d.first_drawer == (shuffler + steps) % 6
        assert d.draw().seat == d.first_drawer and d.hands[d.first_drawer] == [pack[0]]


def test_deal_26_each_six_left_for_the_kitty():
    d = Deal(DealSetup("one-twenty-6p", {}, 2))
    while d.phase == DRAW:
        assert d.to_act is None
        d.draw()
    assert [len(h) for h in d.hands] == [26] * 6 and len(d.kitty_cards) == 6
    assert Counter(sum(d.hands, []) + d.kitty_cards) == Counter(full_pack(3))


@pytest.mark.parametrize(
    ("shown", "ok"),
    [
        ("2H", True),
        ("2H 2H", True),
        ("2H 2H 2H", True),
        ("2H 2S", False),
        ("LJ", False),
        ("LJ LJ", True),
        ("HJ HJ HJ", True),
        ("LJ HJ", False),
        ("2H LJ", False),
        ("3H", False),
    ],
)
def test_call_shapes(shown, ok):
    d = stack("one-twenty-6p", front={2: "2H 2H 2H 2S LJ LJ HJ HJ HJ 3H"})
    draw_until(d, 80)
    assert d.can_call(2, cards(shown)) is ok


def test_more_cards_beat_equal_count_stronger_kind_beats():
    d = stack(
        "one-twenty-6p",
        front={1: "2H 2H", 2: "LJ LJ", 3: "HJ HJ", 4: "2S 2S 2S", 5: "2D 2D"},
        options=NO_REFUSE,
    )
    draw_until(d, 40)
    d.call(1, cards("2H 2H"))
    with pytest.raises(IllegalAction, match="more cards"):
        d.call(5, cards("2D 2D"))  # as many of the same kind
    d.call(2, cards("LJ LJ"))
    d.call(3, cards("HJ HJ"))
    d.call(4, cards("2S 2S 2S"))
    draw_all(d)
    passes(d, CALLS)
    # the last accepted call declares in the first deal
    assert (d.dealer, d.trump, d.level, d.phase, d.to_act) == (4, "S", "2", BURY, 4)
    assert len(d.hands[4]) == 32
    d.bury(4, d.hands[4][:6])
    assert d.phase == PLAY and d.to_act == 4 and d.buried and len(d.buried) == 6


def test_zai_zao_fan_only_by_the_player_just_overcalled():
    d = stack("one-twenty-6p", front={0: "2C 2C", 1: "2D 2D", 2: "2S 2S", 3: "2H 2H 2H"})
    draw_until(d, 30)
    d.call(0, cards("2C"))
    d.call(1, cards("2D 2D"))  # 造反
    with pytest.raises(IllegalAction):
        d.call(2, cards("2S 2S"))  # not the one just overcalled
    d.call(0, cards("2C 2C"))  # 再造反: as many as the standing call
    assert d.book.caller == 0
    with pytest.raises(IllegalAction):
        d.call(1, cards("2D 2D"))  # seat 1 was just overcalled, but shows no more than before
    d.call(3, cards("2H 2H 2H"))
    assert d.book.caller == 3


def test_last_six_window_lets_entitled_players_overcall_then_calling_is_over():
    d = stack("one-twenty-6p", front={0: "2C"}, late={3: "2H 2H"}, options=NO_REFUSE)
    draw_until(d, 12)
    d.call(0, cards("2C"))
    draw_all(d)
    assert d.drawn == 156 and len(d.undealt()) == 6
    assert d.phase == CALLS and d.window == [1, 2, 3, 4, 5, 0]
    d.pass_(1)
    d.pass_(2)
    d.call(3, cards("2H 2H"))
    assert d.window == [4, 5, 0, 1, 2, 3]
    passes(d, CALLS)
    assert (d.dealer, d.trump) == (3, "H")
    with pytest.raises(IllegalAction, match="no calls now"):
        d.call(0, cards("2C"))


def later(front=None, kitty="", dealer=2, levels=("7", "3"), **kw):
    return stack(
        "one-twenty-6p",
        front=front or {},
        kitty=kitty,
        levels=levels,
        dealer=dealer,
        first=False,
        deal_no=4,
        options=NO_REFUSE,
        **kw,
    )


def test_later_deal_declarers_side_calls_trump_only():
    d = later({4: "7D 7D", 1: "3S 3S", 3: "7S"})
    draw_until(d, 60)
    with pytest.raises(IllegalAction, match="dealer's side"):
        d.call(1, cards("3S 3S"))
    with pytest.raises(IllegalAction, match="dealer's side"):
        d.call(3, cards("7S"))
    d.call(4, cards("7D 7D"))  # the declarer's partner names trump; the declarer stays
    draw_all(d)
    assert all(s % 2 == 0 for s in d.window)
    passes(d, CALLS)
    assert (d.dealer, d.level, d.trump, d.to_act, d.phase) == (2, "7", "D", 2, BURY)


def test_later_deal_nobody_calls_first_non_joker_of_the_kitty():
    d = later(kitty="LJ HJ 9S 4C")
    draw_all(d)
    passes(d, CALLS)
    assert (d.dealer, d.trump, d.trump_source) == (2, "S", "kitty")


def test_first_deal_nobody_calls_is_dealt_again():
    d = stack("one-twenty-6p", options=NO_REFUSE)
    draw_all(d)
    passes(d, CALLS)
    assert d.outcome == "redeal" and d.phase == DONE and d.dealer is None


def test_refuse_below_20_opponents_only_then_a_race():
    d = stack("one-twenty-6p", front={0: "2C"}, weak=(3,))
    draw_until(d, 12)
    d.call(0, cards("2C"))
    draw_all(d)
    passes(d, CALLS)
    assert d.phase == REDEAL and d.window == [1, 3, 5]
    d.pass_(1)
    d.redeal(3)
    assert d.outcome == "refused"
    race = Deal(DealSetup("one-twenty-6p", {}, 4, ("5", "8"), 0, False, True, 2))
    assert race.open_calls and race.dealer is None
    while race.drawn < 60:
        race.draw()
    lv = {s: "5" if s % 2 == 0 else "8" for s in range(6)}
    for s in range(6):  # each side shows its own level card
        for c in race.legal_calls(s):
            assert all(x >= 52 or "23456789TJQKA"[x % 13] == lv[s][0] for x in c)


def test_refuse_off():
    d = stack("one-twenty-6p", front={0: "2C"}, weak=(3,), options=NO_REFUSE)
    draw_until(d, 12)
    d.call(0, cards("2C"))
    draw_all(d)
    passes(d, CALLS)
    assert d.phase == BURY


@pytest.mark.parametrize(
    ("points", "winner", "gain"),
    [
        (0, "declarer", 2),
        (55, "declarer", 2),
        (60, "declarer", 1),
        (115, "declarer", 1),
        (120, "attackers", 0),
        (175, "attackers", 0),
        (180, "attackers", 1),
        (235, "attackers", 1),
        (240, "attackers", 2),
        (300, "attackers", 2),
    ],
)
def test_result_table(points, winner, gain):
    r = deal_result(V, points, 0, None)
    assert (r.winner, r.levels) == (winner, gain)


def test_next_declarer():
    for d in range(6):
        assert next_dealer(V, d, "declarer") == (d + 2) % 6
        assert next_dealer(V, d, "attackers") == (d + 1) % 6


def test_misplays_give_the_other_side_an_extra_level_skipping_but_stopped_by_must_play():
    r = deal_result(V, 100, 0, None)  # declarer side 0 +1
    ch = next_levels(("7", "4"), 0, r, [1])
    assert ch.levels == ("9", "4")  # at 7, winning: 8 is not played
    ch = next_levels(("7", "4"), 0, r, [0])
    assert ch.levels == ("8", "5")
    ch = next_levels(("Q", "4"), 0, r, [1, 1, 1])
    assert ch.levels == ("A", "4") and not ch.passed
    ch = next_levels(("7", "4"), 0, r, [1, 1], ("9", "A"))
    assert ch.levels == ("9", "4")
    assert advance("8", 3, ("9", "A"))[0] == "9"


def test_misplays_recorded_from_failed_throws_in_a_game():
    from engine.bots import make_bots, play_deal
    from engine.game import Game

    g = Game("one-twenty-6p", {"refuse_below": None}, seed=7)
    seen = 0
    for _ in range(25):
        if g.over:
            break
        d = g.next_deal()
        before = g.levels
        play_deal(d, make_bots("random", 6, d.setup.seed))
        s = g.record(d)
        if s.outcome != "played":
            continue
        mis = [seat % 2 for seat in d.failed_throws]
        assert list(s.misplays) == mis
        ch = next_levels(before, d.dealer % 2, d.result, mis)
        assert g.levels == ch.levels
        kept = d.result.winner == "declarer"
        assert g.dealer == ((d.dealer + 2) % 6 if kept else (d.dealer + 1) % 6)
        seen += bool(mis)
    assert seen
