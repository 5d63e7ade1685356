"""The 打百分 deal as a state machine (HUNDRED.md §1, §3–§7): dealing, the auction as a phase,
kitty and burial, trump and friend card in each mode's order, 40分下台's turned card, 3人百分's
dummy, trick play, the result, what each seat's view shows, and replay of the log."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import hundred_rules as hr
from engine.cards import card_str, parse_card, points_of
from engine.errors import EngineError, IllegalAction
from engine.hundred import (
    AUCTION,
    BURY,
    DONE,
    DUMMY,
    FRIEND,
    PLAY,
    TRUMP_PHASE,
    Act,
    HundredDeal,
    HundredSetup,
    hundred_seat_view,
    hundred_spectator_view,
    new_hundred_deal,
    replay,
)
from engine.hundred_bots import (
    HeuristicHundredBot,
    RandomHundredBot,
    make_hundred_bots,
    perform,
    play_hundred_deal,
)

MODES = [("hundred-4p", {"friend": m}) for m in hr.FRIEND_MODES]
MODES += [("forty-4p", {}), ("hundred-3p", {})]
MODES += [("hundred-4p", {"open_kitty": True}), ("hundred-3p", {"open_kitty": True})]


def _auction_to(deal: HundredDeal, declarer: int, bid: int = 60) -> None:
    """Everyone passes but ``declarer``, who bids ``bid``."""
    while deal.phase == AUCTION:
        seat = deal.to_act
        assert seat is not None
        if seat == declarer and deal.legal_bids(seat) and deal.auction.bid is None:
            deal.bid_(seat, bid)
        else:
            deal.pass_(seat)


def _holder(deal: HundredDeal, card: int) -> int | None:
    return next((s for s in range(4) if card in deal.hands[s]), None)


@pytest.mark.parametrize(("variant", "options"), MODES)
def test_dealing_gives_twelve_each_and_a_kitty_of_six(variant, options):
    deal = new_hundred_deal(variant, options, seed=5)
    kitty_in_hand = 6 if deal.kitty_taken else 0
    counts = sorted(len(h) for h in deal.hands)
    assert counts == [12, 12, 12, 12 + kitty_in_hand]
    every = [c for h in deal.hands for c in h] + ([] if deal.kitty_taken else deal.kitty)
    assert sorted(every) == list(range(54))
    assert len(deal.kitty) == 6


def test_the_first_drawer_draws_first_and_the_seed_fixes_the_deal():
    a = new_hundred_deal("hundred-4p", {}, seed=9, first=2)
    b = new_hundred_deal("hundred-4p", {}, seed=9, first=2)
    c = new_hundred_deal("hundred-4p", {}, seed=10, first=2)
    assert a.hands == b.hands and a.hands != c.hands
    assert a.to_act == 2 and a.phase == AUCTION


def test_the_auction_is_a_phase_with_verify_can_do_and_records():
    deal = new_hundred_deal("hundred-4p", {}, seed=1, first=1)
    with pytest.raises(IllegalAction) as info:
        deal.verify_bid(0, 60)
    assert info.value.code == "turn.not_yours"
    assert not deal.can_bid(1, 62) and not deal.can_bid(1, 105)
    before = deal.state_dict()
    with pytest.raises(IllegalAction):
        deal.bid_(1, 55)
    assert deal.state_dict() == before and deal.log == []
    assert deal.legal_bids(1) == list(range(60, 105, 5))
    assert deal.bid_(1, 70) == Act("bid", 1, (), 70)
    assert deal.legal_bids(2) == [75, 80, 85, 90, 95, 100]
    assert not deal.can_bid(2, 70)
    deal.pass_(2)
    deal.pass_(3)
    assert deal.to_act == 0
    deal.bid_(0, 100)  # ends at once
    assert (deal.declarer, deal.bid, deal.phase) == (0, 100, BURY)
    assert [a.kind for a in deal.log] == ["bid", "pass", "pass", "bid"]
    assert len(deal.hands[0]) == 18
    assert not deal.can_pass(1)


def test_all_pass_the_first_drawer_declares_at_sixty():
    deal = new_hundred_deal("hundred-3p", {}, seed=3, first=2)
    for seat in (2, 0, 1):
        deal.pass_(seat)
    assert (deal.declarer, deal.bid, deal.phase) == (2, 60, BURY)


@pytest.mark.parametrize(
    ("options", "phases"),
    [
        ({"friend": "fixed"}, [BURY, TRUMP_PHASE, PLAY]),
        ({"friend": "shown"}, [BURY, TRUMP_PHASE, FRIEND, PLAY]),
        ({"friend": "hidden"}, [BURY, TRUMP_PHASE, FRIEND, PLAY]),
        ({"friend": "blind"}, [TRUMP_PHASE, FRIEND, BURY, PLAY]),
    ],
)
def test_each_mode_names_trump_and_friend_in_its_order(options, phases):
    deal = new_hundred_deal("hundred-4p", options, seed=4)
    _auction_to(deal, 0, 65)
    bot = HeuristicHundredBot(1)
    seen = []
    while deal.phase != PLAY:
        seen.append(deal.phase)
        perform(deal, bot.act(deal, 0))
    seen.append(deal.phase)
    assert seen == phases
    assert deal.to_act == 0 and len(deal.hands[0]) == 12  # the declarer leads


def test_the_friend_card_is_one_the_declarer_does_not_hold_nor_buried():
    deal = new_hundred_deal("hundred-4p", {"friend": "hidden"}, seed=2)
    _auction_to(deal, 0)
    buried = sorted(deal.hands[0])[:6]
    deal.bury(0, buried)
    deal.name_trump(0, "H")
    for card in (deal.hands[0][0], buried[0]):
        with pytest.raises(IllegalAction) as info:
            deal.verify_call_friend(0, card)
        assert info.value.code == "hundred.friend_card"
    other = deal.hands[2][0]
    deal.call_friend(0, card_str(other))
    assert deal.friend == 2 and not deal.friend_revealed


def test_blind_friend_in_the_kitty_plays_alone_and_only_the_declarer_knows():
    for seed in range(200):
        deal = new_hundred_deal("hundred-4p", {"friend": "blind"}, seed=seed)
        _auction_to(deal, 1)
        deal.name_trump(1, "S")
        card = deal.kitty[0]
        deal.call_friend(1, card)
        break
    assert deal.alone and deal.friend is None and deal.phase == BURY
    assert card in deal.hands[1]  # taken with the kitty
    assert hundred_seat_view(deal, 1)["alone"] is True
    for seat in (0, 2, 3):
        assert hundred_seat_view(deal, seat)["alone"] is None
    assert hundred_spectator_view(deal)["alone"] is None


def _to_play(variant, options, seed, declarer=0, trump="S"):
    deal = new_hundred_deal(variant, options, seed=seed)
    if deal.variant.bidding:
        _auction_to(deal, declarer)
    d = deal.declarer
    bot = HeuristicHundredBot(seed)
    while deal.phase != PLAY:
        if deal.phase == TRUMP_PHASE:
            deal.name_trump(d, trump)
        else:
            perform(deal, bot.act(deal, d))
    return deal


def test_a_hidden_friend_is_unknown_to_the_others_until_the_card_is_played():
    deal = _to_play("hundred-4p", {"friend": "hidden"}, seed=7)
    friend, card = deal.friend, deal.friend_card
    assert friend is not None
    for seat in range(4):
        view = hundred_seat_view(deal, seat)
        assert view["friend_card"] == card_str(card)
        assert view["friend"] == (friend if seat == friend else None)
    assert hundred_spectator_view(deal)["friend"] is None
    bots = make_hundred_bots("random", 4, 3)
    while card not in deal.played:
        seat = deal.to_act
        perform(deal, bots[seat].act(deal, seat))
    for seat in range(4):
        assert hundred_seat_view(deal, seat)["friend"] == friend
    assert hundred_spectator_view(deal)["friend"] == friend


def test_a_shown_friend_is_known_at_once():
    deal = _to_play("hundred-4p", {"friend": "shown"}, seed=7)
    assert all(hundred_seat_view(deal, s)["friend"] == deal.friend for s in range(4))


def test_a_hidden_friends_tricks_show_as_the_attackers_to_all_but_the_friend():
    for seed in range(50):
        deal = _to_play("hundred-4p", {"friend": "hidden"}, seed=seed)
        bots = make_hundred_bots("random", 4, seed)
        f = deal.friend
        while deal.phase == PLAY and deal.friend_card not in deal.played:
            if deal.won_points[f]:
                break
            seat = deal.to_act
            perform(deal, bots[seat].act(deal, seat))
        if deal.won_points[f] and not deal.friend_revealed:
            break
    else:
        pytest.fail("no deal where the hidden friend won points before being revealed")
    others = [s for s in range(4) if s not in (deal.declarer, f)]
    seen = hundred_seat_view(deal, others[0])["attackers_points"]
    assert seen == deal.won_points[f] + sum(deal.won_points[s] for s in others)
    assert hundred_seat_view(deal, f)["attackers_points"] == sum(deal.won_points[s] for s in others)


@pytest.mark.parametrize("open_kitty", [False, True])
def test_the_kitty_and_burial_are_seen_by_the_declarer_or_with_open_kitty_by_all(open_kitty):
    deal = new_hundred_deal("hundred-4p", {"open_kitty": open_kitty, "friend": "fixed"}, seed=8)
    _auction_to(deal, 3)
    kitty = sorted(card_str(c) for c in deal.kitty)
    buried = sorted(deal.hands[3])[:6]
    deal.bury(3, buried)
    for seat in range(4):
        view = hundred_seat_view(deal, seat)
        if seat == 3 or open_kitty:
            assert sorted(view["kitty"]) == kitty
            assert sorted(view["buried"]) == sorted(card_str(c) for c in buried)
            assert view["log"][-1]["cards"] is not None
        else:
            assert view["kitty"] is None and view["buried"] is None
            assert view["log"][-1] == {"kind": "bury", "seat": 3, "cards": None}
    spectator = hundred_spectator_view(deal)
    assert (spectator["kitty"] is None) is (not open_kitty)


def test_a_view_never_shows_another_seats_hand():
    deal = _to_play("hundred-4p", {}, seed=11)
    for seat in range(4):
        view = hundred_seat_view(deal, seat)
        text = repr(view)
        assert sorted(view["hand"]) == sorted(card_str(c) for c in deal.hands[seat])
        for other in range(4):
            if other != seat:
                hidden = [card_str(c) for c in deal.hands[other]]
                assert not any(f"'{c}'" in text for c in hidden if c != view["friend_card"])


def test_forty_the_turned_card_names_trump_and_its_drawer_declares():
    for seed in range(20):
        deal = new_hundred_deal("forty-4p", {}, seed=seed)
        assert deal.turned is not None and deal.turned < 52
        assert deal.trump == deal.turned // 13
        assert deal.turned in deal.hands[deal.declarer]
        assert deal.phase == BURY and len(deal.hands[deal.declarer]) == 18
        view = hundred_seat_view(deal, (deal.declarer + 1) % 4)
        assert view["turned"] == card_str(deal.turned) and view["bid"] is None
    later = new_hundred_deal("forty-4p", {}, seed=3, first=1, declarer=2)
    assert later.declarer == 2 and later.to_act == 2
    with pytest.raises(EngineError):
        new_hundred_deal("hundred-4p", {}, seed=3, declarer=2)


def test_forty_next_declarer_rotates_as_section_six_says():
    deals = []
    deal = new_hundred_deal("forty-4p", {}, seed=1)
    for i in range(30):
        play_hundred_deal(deal, make_hundred_bots("random", 4, i))
        deals.append(deal)
        deal = HundredDeal(deal.next_setup(100 + i))
    for a, b in zip(deals, deals[1:], strict=False):
        d = a.declarer
        if a.result.winner == "declarer":
            assert (b.declarer, b.setup.first) == ((d + 2) % 4, d)
        else:
            assert (b.declarer, b.setup.first) == ((d + 1) % 4, (d + 1) % 4)


def test_hundred_3p_the_declarer_plays_the_dummy_which_is_public_once_turned():
    deal = new_hundred_deal("hundred-3p", {}, seed=6, first=0)
    assert len(deal.hands[DUMMY]) == 12
    _auction_to(deal, 1)
    assert deal.declarer == 1
    deal.bury(1, sorted(deal.hands[1])[:6])
    assert all(hundred_seat_view(deal, s)["dummy"] is None for s in range(3))
    deal.name_trump(1, "D")
    assert deal.phase == PLAY
    dummy = sorted(card_str(c) for c in deal.hands[DUMMY])
    assert all(hundred_seat_view(deal, s)["dummy"] == dummy for s in range(3))
    assert deal.cycle == [1, 2, DUMMY, 0]
    bots = make_hundred_bots("random", 3, 1)
    deal.play(1, random_lead(deal, 1))
    seat = deal.to_act
    perform(deal, bots[seat].act(deal, seat))
    assert deal.turn_hand == DUMMY and deal.to_act == 1
    assert hundred_seat_view(deal, 1)["actions"] == ["play"]
    play = bots[1].act(deal, 1)[2]
    with pytest.raises(IllegalAction):
        deal.verify_play(0, play)  # seat 0 may not play the dummy's cards
    deal.play(1, play)
    assert all(c not in deal.hands[DUMMY] for c in play)
    play_hundred_deal(deal, bots)
    assert len(deal.result.scores) == 3
    dummy_points = deal.won_points[DUMMY]
    assert deal.attackers_points() == sum(deal.won_points[s] for s in (0, 2))
    assert (
        dummy_points + deal.won_points[1] + deal.attackers_points() + points_of(deal.buried) == 100
    )


def random_lead(deal, seat):
    return [sorted(deal.hands[seat])[0]]


def test_following_rules_are_enforced_in_play():
    deal = _to_play("hundred-4p", {"friend": "fixed"}, seed=12, trump="S")
    leader = deal.to_act
    t = deal.trump
    lead = next(c for c in deal.hands[leader] if hr.group(c, t) != hr.TRUMP)
    deal.play(leader, [lead])
    nxt = deal.to_act
    hand = deal.hands[nxt]
    suited = [c for c in hand if hr.group(c, t) == hr.group(lead, t)]
    other = [c for c in hand if hr.group(c, t) != hr.group(lead, t)]
    if suited and other:
        with pytest.raises(IllegalAction) as info:
            deal.play(nxt, [other[0]])
        assert info.value.code == "follow.suit"
        assert deal.playable_cards(nxt) == sorted(suited)
    with pytest.raises(IllegalAction) as info:
        deal.play(nxt, hand[:2])
    assert info.value.code == "follow.count"


def test_an_invalid_lead_is_refused():
    deal = _to_play("hundred-4p", {"friend": "fixed"}, seed=13, trump="S")
    seat = deal.to_act
    hand = deal.hands[seat]
    groups = {}
    for c in hand:
        groups.setdefault(hr.group(c, deal.trump), c)
    two = list(groups.values())[:2]
    with pytest.raises(IllegalAction) as info:
        deal.play(seat, two)
    assert info.value.code == "hundred.lead"


@pytest.mark.parametrize(("variant", "options"), MODES)
def test_the_result_counts_the_sides_as_they_end(variant, options):
    for seed in range(15):
        deal = new_hundred_deal(variant, options, seed=seed)
        play_hundred_deal(deal, make_hundred_bots("heuristic", deal.variant.players, seed))
        r = deal.result
        assert deal.phase == DONE and r is not None
        att = deal.attackers()
        points = sum(deal.won_points[s] for s in att)
        last = deal.tricks[-1][1]
        kou = last in att
        assert r.kou_di is kou
        assert r.total == points + (points_of(deal.buried) if kou else 0)
        if kou:
            assert r.winner == "attackers"
        elif deal.variant.bidding:
            assert (r.winner == "attackers") is (points > 100 - deal.bid)
        else:
            assert (r.winner == "attackers") is (points >= 40)
        assert sum(r.scores) == 0 or deal.variant.fixed_pairs
        assert sum(deal.won_points) + points_of(deal.buried) == 100


def test_setup_and_log_round_trip_through_json():
    deal = new_hundred_deal("hundred-4p", {"friend": "blind"}, seed=21)
    play_hundred_deal(deal, make_hundred_bots("heuristic", 4, 2))
    setup = HundredSetup.from_json(deal.setup.to_json())
    again = replay(setup, [a.to_json() for a in deal.log])
    assert again.state_dict() == deal.state_dict()
    bad = [a.to_json() for a in deal.log]
    bad[-1]["cards"] = ["HJ", "LJ"]
    with pytest.raises(EngineError) as info:
        replay(setup, bad)
    assert info.value.code == "log.action"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 10**6),
    kind=st.sampled_from(["random", "heuristic"]),
)
def test_every_offered_move_is_accepted_and_replay_gives_the_same_state(mode, seed, kind):
    variant, options = mode
    deal = new_hundred_deal(variant, options, seed=seed, first=seed % (3 if "3p" in variant else 4))
    bots = make_hundred_bots(kind, deal.variant.players, seed)
    while deal.phase != DONE:
        seat = deal.to_act
        for other in range(deal.variant.players):
            if other != seat:
                assert deal.actions(other) == []
        for b in deal.legal_bids(seat):
            assert deal.can_bid(seat, b)
        if deal.phase == PLAY and (not deal.trick or len(deal.trick[0][1]) == 1):
            for c in deal.playable_cards(seat):
                assert deal.can_play(seat, [c])
        action = bots[seat].act(deal, seat)
        if action[0] == "play":
            deal.verify_play(seat, action[2])
        perform(deal, action)
    again = replay(deal.setup, [a.to_json() for a in deal.log])
    assert again.state_dict() == deal.state_dict()


def test_bots_check_their_arguments():
    deal = new_hundred_deal("hundred-4p", {}, seed=1)
    with pytest.raises(EngineError):
        RandomHundredBot(1).act(deal, (deal.to_act + 1) % 4)
    with pytest.raises(EngineError):
        make_hundred_bots("mc", 4)
    with pytest.raises(EngineError):
        parse_card("ZZ")


def test_hundred_3p_the_dummy_is_hidden_before_it_is_turned_and_the_declarer_knows_its_side():
    deal = new_hundred_deal("hundred-3p", {}, seed=14)
    dummy = [card_str(c) for c in deal.hands[DUMMY]]
    for seat in range(3):
        text = repr(hundred_seat_view(deal, seat))
        assert not any(f"'{c}'" in text for c in dummy)
    deal = _to_play("hundred-4p", {"friend": "hidden"}, seed=15)
    assert hundred_seat_view(deal, deal.declarer)["alone"] is False
    assert hundred_seat_view(deal, deal.declarer)["friend"] is None


JUNK = [None, True, 1.5, "x", -1, 99, [], {}, ["ZZ"], [1.5], object()]


def test_every_deal_method_answers_junk_with_an_engine_error():
    deal = new_hundred_deal("hundred-4p", {"friend": "blind"}, seed=1)
    seat = deal.to_act
    for junk in JUNK:
        for call in (
            lambda j: deal.verify_bid(j, 60),
            lambda j: deal.verify_bid(seat, j),
            lambda j: deal.verify_pass(j),
            lambda j: deal.legal_bids(j),
            lambda j: deal.actions(j),
            lambda j: deal.playable_cards(j),
            lambda j: hundred_seat_view(deal, j),
            lambda j: hundred_spectator_view(j),
            lambda j: new_hundred_deal(j),
            lambda j: new_hundred_deal("hundred-4p", {"friend": j}),
            lambda j: new_hundred_deal("hundred-4p", {}, seed=j),
            lambda j: new_hundred_deal("hundred-4p", {}, seed=1, first=j),
            lambda j: HundredSetup.from_json(j),
            lambda j: Act.from_json(j),
            lambda j: replay(deal.setup, j),
        ):
            with contextlib.suppress(EngineError):  # anything else fails the test
                call(junk)
    _auction_to(deal, seat)
    for junk in JUNK:
        with pytest.raises(EngineError):
            deal.name_trump(seat, junk)
    deal.name_trump(seat, "S")
    for junk in JUNK:
        with pytest.raises(EngineError):
            deal.call_friend(seat, junk)
    deal.call_friend(seat, next(c for c in range(54) if c not in deal.hands[seat]))
    for junk in [*JUNK, ["AS"] * 6]:
        with pytest.raises(EngineError):
            deal.bury(seat, junk)
    deal.bury(seat, deal.hands[seat][:6])
    for junk in [*JUNK, [deal.hands[seat][0]] * 2]:
        with pytest.raises(EngineError):
            deal.play(seat, junk)
    assert deal.phase == PLAY and len(deal.log) > 0


def test_a_saved_deal_loads_back_and_a_tampered_one_is_refused():
    import json

    from engine.hundred import hundred_from_json, hundred_to_json

    deal = new_hundred_deal("hundred-3p", {"open_kitty": True}, seed=31, first=2)
    play_hundred_deal(deal, make_hundred_bots("heuristic", 3, 31))
    text = json.dumps(hundred_to_json(deal))
    again = hundred_from_json(json.loads(text))
    assert again.state_dict() == deal.state_dict()
    data = json.loads(text)
    data["result"]["winner"] = "attackers" if deal.result.winner == "declarer" else "declarer"
    with pytest.raises(EngineError) as info:
        hundred_from_json(data)
    assert info.value.code == "save.deal_state"
    with pytest.raises(EngineError):
        hundred_from_json({**json.loads(text), "schema": 9})


@pytest.mark.parametrize(("variant", "options"), MODES[:6])
def test_a_game_chains_deals_and_adds_up_the_scores(variant, options):
    from engine.hundred import HundredGame

    game = HundredGame(variant, options, seed=4)
    totals = [0] * game.variant.players
    for _ in range(8):
        deal = game.next_deal()
        with pytest.raises(EngineError):
            game.next_deal()
        with pytest.raises(EngineError):
            game.record(deal)  # not finished
        play_hundred_deal(deal, make_hundred_bots("random", game.variant.players, 4))
        game.record(deal)
        totals = [a + b for a, b in zip(totals, deal.result.scores, strict=True)]
        if len(game.deals) > 1:
            prev = game.deals[-2]
            assert deal.setup == prev.next_setup(deal.setup.seed)
    assert game.scores == totals
    if not game.variant.fixed_pairs:
        assert sum(game.scores) == 0
