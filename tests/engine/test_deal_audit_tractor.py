"""Audit of a whole 升级 (tractor-4p) deal against RULES.md §1–§2 and §5, with stacked packs."""

from collections import Counter

import pytest
from deal_helpers import cards, draw_all, draw_until, stack

from engine.cards import full_pack, points_of
from engine.deal import BURY, CALLS, DONE, DRAW, OVERCALL, PLAY, REDEAL, new_deal
from engine.errors import IllegalAction
from engine.game import Game
from engine.views import seat_view, spectator_view

NO_REDEAL = {"redeal_below": None}


def passes(d, phase):
    while d.phase == phase:
        d.pass_(d.to_act)


# --- "Deal: counter-clockwise, one card at a time, until 8 remain (25 each)." -------------------


def test_deal_one_card_at_a_time_in_play_order_until_eight_remain():
    d = new_deal("tractor-4p", seed=5)
    seats = []
    while d.phase == DRAW:
        assert d.to_act is None  # the chance step: no seat acts while cards are drawn
        seats.append(d.draw().seat)
    assert seats == [i % 4 for i in range(100)]  # seat 0 first in the first deal
    assert [len(h) for h in d.hands] == [25] * 4 and len(d.kitty_cards) == 8
    assert Counter(sum(d.hands, []) + d.kitty_cards) == Counter(full_pack(2))


def test_later_deal_the_dealer_draws_first():
    d = new_deal("tractor-4p", seed=5, levels=("3", "2"), dealer=2, first=False)
    assert [d.draw().seat for _ in range(5)] == [2, 3, 0, 1, 2]


# --- call shapes --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shown", "ok"),
    [
        ("2H HJ", True),
        ("2D HJ", True),
        ("2S LJ", True),
        ("2C LJ", True),
        ("2S HJ", False),  # the joker of the other colour
        ("2H LJ", False),
        ("2H", False),  # a level card alone
        ("HJ", False),  # a joker alone is never a call
        ("2H 2H HJ", True),
        ("2H 2D HJ", False),
        ("LJ LJ", True),
        ("HJ HJ", True),
        ("LJ HJ", False),
        ("3H HJ", False),  # not the level
    ],
)
def test_call_shapes(shown, ok):
    d = stack("tractor-4p", front={1: "2H 2H HJ HJ LJ LJ 2S 2D 2C 3H"})
    draw_until(d, 40)
    assert d.can_call(1, cards(shown)) is ok


def test_ladder_after_the_deal_declare_pair_hjhj_and_several_in_a_row():
    d = stack(
        "tractor-4p",
        front={0: "2S LJ", 1: "2C 2C LJ", 2: "HJ HJ"},
        options=NO_REDEAL,
    )
    draw_until(d, 8)
    d.call(0, cards("2S LJ"))
    draw_all(d)
    assert d.phase == CALLS and d.window == [1, 2, 3]
    d.call(1, cards("2C 2C LJ"))  # pair overcall
    assert d.window == [2, 3, 0]
    d.call(2, cards("HJ HJ"))
    assert d.window == [3, 0, 1]
    for s in (3, 0, 1):
        assert d.legal_calls(s) == []
        d.pass_(s)
    # 反主反打: the last overcaller is dealer, no trump suit
    assert (d.dealer, d.trump, d.phase, d.to_act) == (2, None, BURY, 2)


def test_ljlj_overcalls_a_pair_call():
    d = stack("tractor-4p", front={0: "2H 2H HJ", 3: "LJ LJ"}, options=NO_REDEAL)
    draw_until(d, 12)
    d.call(0, cards("2H 2H HJ"))
    draw_all(d)
    d.pass_(1)
    d.pass_(2)
    d.call(3, cards("LJ LJ"))
    passes(d, CALLS)
    assert (d.dealer, d.trump) == (3, None)


def test_equal_calls_do_not_overcall():
    d = stack("tractor-4p", front={0: "2S LJ", 1: "2D HJ", 2: "2C 2C LJ", 3: "2H 2H HJ"})
    draw_until(d, 8)
    d.call(0, cards("2S LJ"))
    draw_all(d)
    with pytest.raises(IllegalAction, match="stronger"):
        d.call(1, cards("2D HJ"))
    d.pass_(1)
    d.call(2, cards("2C 2C LJ"))
    with pytest.raises(IllegalAction, match="stronger"):
        d.call(3, cards("2H 2H HJ"))


def test_no_self_overcall_until_someone_else_overcalled():
    d = stack("tractor-4p", front={1: "2H HJ LJ LJ", 2: "2D 2D HJ"}, options=NO_REDEAL)
    draw_until(d, 20)
    d.call(1, cards("2H HJ"))
    draw_all(d)
    assert 1 not in d.window  # the standing caller is not asked
    d.call(2, cards("2D 2D HJ"))
    assert d.window == [3, 0, 1]
    d.pass_(3)
    d.pass_(0)
    d.call(1, cards("LJ LJ"))  # someone else overcalled: he may again
    assert d.window == [2, 3, 0]
    passes(d, CALLS)
    assert (d.dealer, d.trump) == (1, None)


# --- first deal: anyone calls during the deal, the first accepted call makes dealer -------------


def test_first_deal_first_call_makes_dealer_overcalls_wait_for_the_end_of_the_deal():
    d = stack("tractor-4p", front={1: "2H HJ", 2: "2S 2S LJ"}, options=NO_REDEAL)
    draw_until(d, 12)
    d.call(1, cards("2H HJ"))
    before = d.state_dict()
    assert not d.can_call(2, cards("2S 2S LJ"))
    with pytest.raises(IllegalAction, match="after the deal"):
        d.call(2, cards("2S 2S LJ"))
    assert d.state_dict() == before
    draw_all(d)
    assert d.window == [2, 3, 0]
    passes(d, CALLS)
    assert (d.dealer, d.trump, d.level) == (1, "H", "2")


def test_first_deal_overcall_before_the_kitty_makes_the_overcaller_dealer():
    d = stack("tractor-4p", front={1: "2H HJ", 3: "2C 2C LJ"}, options=NO_REDEAL)
    draw_until(d, 12)
    d.call(1, cards("2H HJ"))
    draw_all(d)
    d.pass_(2)
    d.call(3, cards("2C 2C LJ"))
    passes(d, CALLS)
    assert (d.dealer, d.trump, d.phase, d.to_act) == (3, "C", BURY, 3)
    assert len(d.hands[3]) == 33 and len(d.hands[1]) == 25
    d.bury(3, d.hands[3][:8])
    assert d.phase == PLAY and d.to_act == 3  # first deal: no 炒底 after the burial


def test_first_deal_nobody_calls_seat_zero_deals_kitty_turned_jokers_skipped():
    d = stack("tractor-4p", kitty="HJ LJ 9C 3D", options=NO_REDEAL)
    draw_all(d)
    passes(d, CALLS)
    assert (d.dealer, d.trump, d.trump_source, d.to_act) == (0, "C", "kitty", 0)


def test_no_call_spades_option():
    d = stack("tractor-4p", kitty="9C", options={"no_call_trump": "spades", **NO_REDEAL})
    draw_all(d)
    passes(d, CALLS)
    assert (d.dealer, d.trump, d.trump_source) == (0, "S", "spades")


# --- later deals ---------------------------------------------------------------------------------


def later(front=None, kitty="", options=NO_REDEAL, dealer=1, levels=("5", "9"), **kw):
    return stack(
        "tractor-4p",
        front=front or {},
        kitty=kitty,
        drawer=dealer,
        levels=levels,
        dealer=dealer,
        first=False,
        deal_no=2,
        options=options,
        **kw,
    )


def test_later_deal_only_the_dealers_side_calls_during_the_deal():
    d = later({3: "9S LJ", 0: "5H HJ", 2: "5D HJ"})
    draw_until(d, 20)
    with pytest.raises(IllegalAction, match="dealer's side"):
        d.call(0, cards("5H HJ"))
    with pytest.raises(IllegalAction, match="dealer's side"):
        d.call(2, cards("5D HJ"))
    d.call(3, cards("9S LJ"))  # the dealer's partner
    draw_all(d)
    assert (d.dealer, d.trump, d.level, d.phase) == (1, "S", "9", BURY)


def test_later_deal_attacker_calls_at_the_end_and_becomes_dealer_at_his_level():
    d = later({0: "5H HJ", 2: "5C LJ"})
    draw_all(d)
    assert d.phase == CALLS and d.window == [2, 0] and d.to_act == 2
    d.pass_(2)
    d.call(0, cards("5H HJ"))
    assert (d.dealer, d.level, d.trump, d.phase, d.to_act) == (0, "5", "H", BURY, 0)


def test_later_deal_nobody_calls_dealer_stays_kitty_names_trump():
    d = later(kitty="LJ 4D")
    draw_all(d)
    passes(d, CALLS)
    assert (d.dealer, d.level, d.trump, d.to_act) == (1, "9", "D", 1)


def test_chaodi_overcaller_reburies_dealer_stays_and_leads():
    d = later({1: "9H HJ", 2: "9D 9D HJ", 0: "LJ LJ"})
    draw_until(d, 8)
    d.call(1, cards("9H HJ"))
    draw_all(d)
    assert d.phase == BURY and d.to_act == 1  # no overcall before the dealer buries
    with pytest.raises(IllegalAction, match="phase bury"):
        d.call(2, cards("9D 9D HJ"))
    buried1 = d.hands[1][:8]
    d.bury(1, buried1)
    assert d.phase == OVERCALL and d.window == [2, 3, 0]
    d.call(2, cards("9D 9D HJ"))
    assert d.phase == BURY and d.to_act == 2
    assert Counter(buried1) <= Counter(d.hands[2]) and len(d.hands[2]) == 33
    d.bury(2, d.hands[2][:8])
    assert d.window == [3, 0, 1]
    d.pass_(3)
    d.call(0, cards("LJ LJ"))  # several overcalls in a row
    d.bury(0, d.hands[0][:8])
    passes(d, OVERCALL)
    assert (d.dealer, d.trump, d.phase, d.to_act, d.kitty_owner) == (1, None, PLAY, 1, 0)


# --- redeal (暴动) ---------------------------------------------------------------------------------


def test_redeal_below_15_by_an_attacker_dealer_stays():
    d = stack("tractor-4p", front={0: "2S LJ"}, weak=(3,))
    draw_until(d, 8)
    d.call(0, cards("2S LJ"))
    draw_all(d)
    passes(d, CALLS)
    assert d.phase == REDEAL and d.window == [1, 3]
    assert points_of(d.hands[3]) < 15
    d.pass_(1)
    d.redeal(3)
    assert d.outcome == "redeal" and d.phase == DONE and d.to_act is None


def test_game_redeal_keeps_the_dealer_and_levels():
    g = Game("tractor-4p", {"redeal_below": 60}, seed=3)  # a high limit: redeals are common
    for _ in range(20):
        d = g.next_deal()
        while d.phase == DRAW:
            d.draw()
        passes(d, CALLS)
        dealer = d.dealer
        while d.phase == REDEAL and not d.can_redeal(d.to_act):
            d.pass_(d.to_act)
        if d.phase == REDEAL:
            d.redeal(d.to_act)
            g.record(d)
            assert g.dealer == dealer and g.levels == ("2", "2") and not g.first
            nxt = g.next_deal()
            assert nxt.setup.dealer == dealer and nxt.first_drawer == dealer
            return
        g.current = None  # not a redeal: try the next shuffle
        g._deals.pop()
    raise AssertionError("no redeal in 20 deals")


# --- failed throws, kitty multiplier --------------------------------------------------------------


def test_failed_throw_penalties_ten_each_capped_at_three_per_side():
    from engine.scoring import deal_result
    from engine.variants import make_variant

    v = make_variant("tractor-4p", {})
    r = deal_result(v, 60, 0, None, {"declarer": 5, "attackers": 0})
    assert r.total == 90
    r = deal_result(v, 60, 0, None, {"declarer": 0, "attackers": 4})
    assert r.total == 30
    r = deal_result(v, 20, 0, None, {"declarer": 0, "attackers": 3})
    assert r.total == 0
    off = make_variant("tractor-4p", {"throw_penalty": "none"})
    assert deal_result(off, 60, 0, None, {"declarer": 2, "attackers": 0}).total == 60


# --- result table and next dealer -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "winner", "gain"),
    [
        (0, "declarer", 3),
        (5, "declarer", 2),
        (35, "declarer", 2),
        (40, "declarer", 1),
        (75, "declarer", 1),
        (80, "attackers", 0),
        (115, "attackers", 0),
        (120, "attackers", 1),
        (155, "attackers", 1),
        (160, "attackers", 2),
        (195, "attackers", 2),
        (200, "attackers", 3),
        (235, "attackers", 3),
        (240, "attackers", 4),
        (280, "attackers", 5),
    ],
)
def test_result_table(points, winner, gain):
    from engine.scoring import deal_result
    from engine.variants import make_variant

    # totals above 200 come with a kitty bonus: 40 kitty points x 2
    kitty = 40 if points > 200 else 0
    v = make_variant("tractor-4p", {})
    mult = 2 if points <= 240 else 4
    r = deal_result(v, points - mult * kitty, kitty, mult if kitty else None)
    assert (r.winner, r.levels) == (winner, gain)


@pytest.mark.parametrize(
    ("points", "winner", "gain"),
    [
        (0, "declarer", 3),
        (75, "declarer", 2),
        (80, "declarer", 1),
        (155, "declarer", 1),
        (160, "attackers", 0),
        (235, "attackers", 0),
        (240, "attackers", 1),
        (320, "attackers", 2),
        (400, "attackers", 3),
    ],
)
def test_result_table_four_decks(points, winner, gain):
    from engine.scoring import deal_result
    from engine.variants import make_variant

    r = deal_result(make_variant("tractor-4p", {"decks": 4}), points, 0, None)
    assert (r.winner, r.levels) == (winner, gain)


def test_next_dealer_partner_or_next_seat_in_a_game():
    g = Game("tractor-4p", {"redeal_below": None}, seed=11)
    from engine.bots import make_bots, play_deal

    seen = set()
    for _ in range(12):
        if g.over:
            break
        d = g.next_deal()
        play_deal(d, make_bots("random", 4, 1))
        s = g.record(d)
        if s.outcome != "played":
            continue
        want = (d.dealer + 2) % 4 if s.winner == "declarer" else (d.dealer + 1) % 4
        assert g.dealer == want
        seen.add(s.winner)
        assert s.levels_after == g.levels
    assert seen


# --- 4 decks ----------------------------------------------------------------------------------------

FOUR = {"decks": 4}


def test_four_decks_all_dealt_no_kitty_54_each():
    d = new_deal("tractor-4p", FOUR, seed=2)
    while d.phase == DRAW:
        d.draw()
    assert [len(h) for h in d.hands] == [54] * 4 and d.kitty_cards == []


def test_four_decks_more_cards_wins_ties_to_the_earlier_first_deal_winner_deals():
    d = stack(
        "tractor-4p", front={1: "2H 2H", 2: "2S 2S", 3: "2C 2C 2C"}, options={**FOUR, **NO_REDEAL}
    )
    draw_until(d, 12)
    d.call(1, cards("2H 2H"))
    d.call(2, cards("2S 2S"))  # as many: the earlier stands
    assert d.book.caller == 1
    d.call(3, cards("2C 2C 2C"))
    draw_all(d)
    assert (d.dealer, d.trump, d.phase, d.to_act) == (3, "C", PLAY, 3)


def test_four_decks_no_self_overcall_and_hidden_until_the_end():
    d = stack("tractor-4p", front={1: "2H 2H 2H", 2: "2S"}, options={**FOUR, **NO_REDEAL})
    draw_until(d, 12)
    d.call(1, cards("2H"))
    d.call(1, cards("2H 2H 2H"))  # accepted without telling, but does not count (不能自反)
    d.call(2, cards("2S"))
    for s in (0, 2, 3):
        v = seat_view(d, s)
        assert all(c["seat"] == s for c in v["calls"])
        assert v["caller"] is None and v["trump"] is None
        assert all(
            e.get("cards", []) == [] for e in v["log"] if e["kind"] == "call" and e["seat"] != s
        )
    assert spectator_view(d)["calls"] == []
    draw_all(d)
    assert (d.dealer, d.trump) == (1, "H")
    assert len(seat_view(d, 0)["calls"]) == 3


def test_four_decks_nobody_calls_spades_seat_zero():
    d = stack("tractor-4p", options={**FOUR, **NO_REDEAL})
    draw_all(d)
    assert (d.dealer, d.trump, d.trump_source, d.phase) == (0, "S", "spades", PLAY)


def test_four_decks_quads_and_wide_tractors():
    from engine.combos import lead_components
    from engine.order import TrumpContext
    from engine.variants import make_variant

    ctx = TrumpContext(make_variant("tractor-4p", FOUR), "2", "H")
    comps = lead_components(cards("7S 7S 7S 7S 8S 8S 8S 8S"), ctx)
    assert len(comps) == 1 and comps[0].widths == (4, 4)
    comps = lead_components(cards("7S 7S 7S 7S"), ctx)
    assert len(comps) == 1


# --- views ------------------------------------------------------------------------------------------


def test_views_hide_other_hands_and_the_kitty_until_the_attackers_win_the_last_trick():
    from engine.bots import make_bots, play_deal

    for seed in range(30):
        d = new_deal("tractor-4p", NO_REDEAL, seed=seed)
        play_deal(d, make_bots("random", 4, seed))
        v = spectator_view(d)
        won_last = d.is_attacker(d.tricks[-1].winner)
        assert (v["kitty"]["cards"] is not None) == won_last
        assert d.kitty_revealed == won_last


def test_four_decks_hidden_call_does_not_show_who_called_in_the_log():
    d = stack("tractor-4p", front={1: "2H 2H"}, options={**FOUR, **NO_REDEAL})
    draw_until(d, 8)
    d.call(1, cards("2H 2H"))
    for view in [seat_view(d, s) for s in (0, 2, 3)] + [spectator_view(d)]:
        calls = [e for e in view["log"] if e["kind"] == "call"]
        assert calls == [{"kind": "call", "seat": None, "cards": []}]
    own = [e for e in seat_view(d, 1)["log"] if e["kind"] == "call"]
    assert own == [{"kind": "call", "seat": 1, "cards": ["2H", "2H"]}]
    draw_all(d)
    assert [e for e in seat_view(d, 0)["log"] if e["kind"] == "call"] == own


def test_turned_kitty_cards_are_public_when_nobody_calls():
    d = stack("tractor-4p", kitty="HJ LJ 9C 3D", options=NO_REDEAL)
    draw_all(d)
    assert seat_view(d, 2)["kitty"]["turned"] is None
    passes(d, CALLS)
    for view in [seat_view(d, s) for s in range(4)] + [spectator_view(d)]:
        assert view["kitty"]["turned"] == ["HJ", "LJ", "9C"]
    d = stack("tractor-4p", front={0: "2S LJ"}, options=NO_REDEAL)
    draw_until(d, 8)
    d.call(0, cards("2S LJ"))
    draw_all(d)
    passes(d, CALLS)
    assert spectator_view(d)["kitty"]["turned"] is None


RANK = "23456789TJQKA"


def lv(x):
    return RANK.index("T" if x == "10" else x)


@pytest.mark.parametrize("variant", ["tractor-4p", "one-twenty-6p"])
def test_game_ends_only_when_the_declarers_side_wins_at_a(variant):
    from engine.bots import make_bots, play_deal

    ended = 0
    for seed in range(6):
        g = Game(variant, {}, seed=seed)
        g.levels, g.first = ("A", "K"), False
        g.dealer = seed % (4 if variant == "tractor-4p" else 6)
        while not g.over and len(g.history) < 30:
            d = g.next_deal()
            before = g.levels
            play_deal(d, make_bots("random", d.n, d.setup.seed))
            s = g.record(d)
            if g.over:
                side = d.dealer % 2
                assert before[side] == "A" and s.winner == "declarer"
                assert g.passed_by == side
                ended += 1
                with pytest.raises(IllegalAction, match="over"):
                    g.next_deal()
            elif s.outcome == "played" and s.winner == "declarer":
                assert before[d.dealer % 2] != "A"
    assert ended


def test_must_play_levels_are_never_skipped():
    from engine.bots import make_bots, play_deal

    g = Game("tractor-4p", {"must_play_levels": ["5", "10", "A"]}, seed=2)
    while not g.over and len(g.history) < 60:
        d = g.next_deal()
        before = g.levels
        play_deal(d, make_bots("random", 4, d.setup.seed))
        g.record(d)
        for side in (0, 1):
            for stop in ("5", "10"):
                if lv(before[side]) < lv(stop):
                    assert lv(g.levels[side]) <= lv(stop)
            assert lv(g.levels[side]) >= lv(before[side])


def test_chaodi_deal_replays_from_setup_and_log():
    from engine.bots import make_bots, play_deal
    from engine.serialize import dumps, from_json, replay_setup

    d = later({1: "9H HJ", 2: "9D 9D HJ", 0: "LJ LJ"})
    draw_until(d, 8)
    d.call(1, cards("9H HJ"))
    draw_all(d)
    d.bury(1, d.hands[1][:8])
    d.call(2, cards("9D 9D HJ"))
    d.bury(2, d.hands[2][:8])
    d.pass_(3)
    d.call(0, cards("LJ LJ"))
    d.bury(0, d.hands[0][:8])
    passes(d, OVERCALL)
    mid = replay_setup(d.setup, [r.to_json() for r in d.log])
    assert mid.state_dict() == d.state_dict()
    play_deal(d, make_bots("random", 4, 3))
    assert from_json(dumps(d)).state_dict() == d.state_dict()
    assert replay_setup(d.setup, d.log).state_dict() == d.state_dict()


@pytest.mark.parametrize(
    ("option", "single", "pair"), [("by_shape", 2, 4), ("power", 2, 4), ("double", 2, 2)]
)
def test_kitty_bonus_only_when_attackers_win_the_last_trick_by_its_lead(option, single, pair):
    from engine.bots import make_bots, play_deal

    seen = Counter()
    for seed in range(60):
        d = new_deal("tractor-4p", {"redeal_below": None, "kitty_multiplier": option}, seed=seed)
        play_deal(d, make_bots("random", 4, seed))
        last = d.tricks[-1]
        if not d.is_attacker(last.winner):
            assert d.kitty_bonus is None and not d.kitty_revealed
            continue
        lead = last.plays[0][1]
        pts, mult = d.kitty_bonus
        assert pts == points_of(d.buried)
        if len(set(lead)) == len(lead):
            assert mult == single
            seen["single"] += 1
        elif len(lead) == 2:
            assert mult == pair
            seen["pair"] += 1
    assert seen["single"] > 5
