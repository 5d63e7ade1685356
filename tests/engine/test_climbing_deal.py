"""争上游's deal (CLIMBING.md §2–§4): the draw and the turned card, rounds of plays and passes,
going out and the lead passing on, the end with one seat left, tribute, its return and 抗贡,
the views and the replayable log."""

from __future__ import annotations

import json

import pytest

from engine.cards import card_str, full_pack, parse_card, parse_cards
from engine.climbing import place_points
from engine.climbing_bots import make_bots, play_deal
from engine.climbing_deal import (
    ClimbingDeal,
    ClimbingSetup,
    new_deal,
    next_setup,
    replay,
    seat_view,
    spectator_view,
)
from engine.errors import EngineError, IllegalAction, OptionError


def drawn(deal: ClimbingDeal) -> ClimbingDeal:
    while deal.phase == "draw":
        deal.draw()
    return deal


def stacked(want: dict[int, list[str]], players: int = 4, decks: int = 1, deal_no: int = 1):
    """A pack dealing ``want[seat]`` (among others) to each seat named."""
    pack = full_pack(decks)
    n = len(pack)
    first = (deal_no - 1) % players
    slots = {s: [i for i in range(n) if (first + i) % players == s] for s in range(players)}
    out: list[int | None] = [None] * n
    for seat, cards in want.items():
        for i, c in zip(slots[seat], parse_cards(cards), strict=False):
            out[i] = c
            pack.remove(c)
    rest = iter(pack)
    return tuple(c if c is not None else next(rest) for c in out)


def small_table(seed: int, hands: list[list[str]], players: int = 4) -> ClimbingDeal:
    """A dealt deal whose hands are replaced by short ones (the round and lead rules do not
    depend on the hand sizes); the turned card's drawer leads."""
    d = drawn(new_deal({"players": players}, seed=seed))
    for s, h in enumerate(hands):
        d.hands[s][:] = parse_cards(h)
    return d


def test_every_card_is_dealt_and_the_first_drawers_hold_one_more():
    d = drawn(new_deal({}, seed=1))
    assert [len(h) for h in d.hands] == [14, 14, 13, 13]
    assert sorted(c for h in d.hands for c in h) == full_pack(1)
    d2 = drawn(new_deal({}, seed=1, deal_no=2, winner=0, loser=3))
    assert d2.first_drawer == 1
    assert len(d2.hands[1]) == 14 and len(d2.hands[0]) == 13
    five = drawn(new_deal({"players": 5}, seed=2))
    assert sorted(len(h) for h in five.hands) == [10, 11, 11, 11, 11]
    six = drawn(new_deal({"players": 6, "decks": 2}, seed=2))
    assert [len(h) for h in six.hands] == [18] * 6
    three = drawn(new_deal({"players": 3}, seed=2))
    assert [len(h) for h in three.hands] == [18, 18, 18]


def test_whoever_draws_the_turned_card_leads_first_with_any_play():
    for seed in range(8):
        d = new_deal({}, seed=seed)
        assert d.to_act is None and d.actions(0) == []
        drawn(d)
        assert d.phase == "play" and d.lead_by == "turned"
        assert d.to_act == d.turned_seat
        assert d.turned in d.hands[d.turned_seat]
        assert d.pack[d.turned_at] == d.turned
        assert d.actions(d.turned_seat) == ["play"]


def test_the_leader_cannot_pass_and_an_illegal_action_changes_nothing():
    d = small_table(0, [["3S", "4S"], ["5S", "6S"], ["7S", "8S"], ["9S", "10S"]])
    lead = d.to_act
    assert lead == 2
    with pytest.raises(IllegalAction) as e:
        d.pass_(lead)
    assert e.value.code == "climb.lead_pass"
    before = (json.dumps(d.state_dict()), len(d.log))
    for bad, code in (
        (["7S", "8S"], "climb.no_play"),
        (["3S"], "card.not_in_hand"),
        ([], "play.empty"),
    ):
        with pytest.raises(EngineError) as e2:
            d.play(lead, bad)
        assert e2.value.code == code
    with pytest.raises(IllegalAction) as e3:
        d.play(3, ["9S"])
    assert e3.value.code == "turn.not_yours"
    assert (json.dumps(d.state_dict()), len(d.log)) == before


def test_a_play_beats_only_a_higher_one_of_the_same_kind_and_size():
    d = small_table(
        0,
        [["3S", "3H", "KD"], ["4S", "5S", "6S", "AS"], ["8S", "8H", "JC"], ["9S", "9H", "2D"]],
    )
    assert d.to_act == 2
    d.play(2, ["8S", "8H"])
    assert d.can_pass(3)
    for bad, code in (
        (["2D"], "climb.same_kind"),
        (["9S", "9H", "2D"], "climb.no_play"),
    ):
        with pytest.raises(IllegalAction) as e:
            d.play(3, bad)
        assert e.value.code == code
    d.play(3, ["9S", "9H"])
    with pytest.raises(IllegalAction) as e2:
        d.play(0, ["3S", "3H"])
    assert e2.value.code == "climb.not_higher"
    assert d.legal_plays(0) == []  # nothing of seat 0 beats a pair of nines
    assert d.playable_cards(0) == []
    d.pass_(0)
    assert d.legal_plays(1) == []
    d.pass_(1)
    d.pass_(2)
    # every other player passed in a row: seat 3 starts a new round with any play
    assert d.standing is None and d.to_act == 3 and d.leader == 3
    assert d.actions(3) == ["play"]
    d.play(3, ["2D"])  # his last card: seat 3 goes out
    assert d.out == [3] and d.playable_cards(0) == []
    d.pass_(0)
    d.pass_(1)
    d.pass_(2)
    assert d.to_act == 0 and d.standing is None  # the lead passes on to the next still in


def test_a_pass_does_not_stop_a_later_play_in_the_same_round():
    d = small_table(
        0,
        [["3S", "9C", "QD"], ["4S", "10C", "KD"], ["5S", "8D", "JS"], ["6S", "7D", "AD"]],
    )
    d.play(2, ["5S"])
    d.pass_(3)  # seat 3 passes on the 5...
    d.play(0, ["9C"])
    d.pass_(1)
    d.play(2, ["JS"])
    d.play(3, ["AD"])  # ...and still plays later in the same round
    assert d.standing == (3, (parse_card("AD"),))
    assert len(d.rounds) == 0 and [m[1] is None for m in d.round] == [
        False,
        True,
        False,
        True,
        False,
        False,
    ]
    d.pass_(0)
    d.pass_(1)
    assert d.to_act == 2  # not yet: seat 2 has not passed since the ace
    d.pass_(2)
    assert d.to_act == 3 and len(d.rounds) == 1


def test_going_out_passes_the_lead_to_the_next_player_still_in():
    d = small_table(0, [["3S", "4S"], ["5S", "6S"], ["KS"], ["9S", "10S"]])
    d.play(2, ["KS"])  # seat 2 plays his last card and goes out
    assert d.out == [2]
    assert d.to_act == 3
    assert not d.still_in(2)
    d.pass_(3)
    d.pass_(0)
    assert d.to_act == 1  # seat 2 is skipped
    d.pass_(1)
    # everyone still in passed: the round would be seat 2's to lead; the next still in leads
    assert d.standing is None and d.to_act == 3 and d.leader == 3
    d.play(3, ["9S"])
    assert not d.can_play(0, ["3S"]) and not d.can_play(0, ["3S", "4S"])
    d.pass_(0)
    assert d.to_act == 1


def test_the_deal_ends_with_one_player_left_who_is_the_loser():
    d = small_table(0, [["3S", "4S"], ["5S"], ["KS"], ["9S"]])
    d.play(2, ["KS"])
    d.pass_(3)
    d.pass_(0)
    d.pass_(1)
    assert d.to_act == 3
    d.play(3, ["9S"])  # out second
    assert d.out == [2, 3] and d.to_act == 0
    d.pass_(0)
    d.pass_(1)  # seat 3 is out: the lead goes to seat 0
    assert d.to_act == 0
    d.play(0, ["4S"])
    d.play(1, ["5S"])  # out third: one player left
    assert d.phase == "done" and d.outcome == "played" and d.to_act is None
    r = d.result
    assert r is not None
    assert r.out_order == (2, 3, 1, 0)
    assert r.places == (4, 3, 1, 2)
    assert r.points == (0, 1, 3, 2)
    assert (r.winner, r.loser) == (2, 0)
    assert sum(r.points) == sum(place_points(d.variant))
    with pytest.raises(IllegalAction):
        d.play(0, ["3S"])


def test_place_points_option_scores_the_deal():
    d = drawn(new_deal({"players": 3, "place_points": [5, 2, 0]}, seed=4))
    d.hands[0][:] = parse_cards(["3S"])
    d.hands[1][:] = parse_cards(["4S"])
    d.hands[2][:] = parse_cards(["5S", "6S"])
    s = d.to_act
    assert s is not None
    while d.phase != "done":
        seat = d.to_act
        assert seat is not None
        plays = d.legal_plays(seat)
        if plays:
            d.play(seat, plays[-1])
        else:
            d.pass_(seat)
    assert d.result is not None and sum(d.result.points) == 7
    assert sorted(d.result.points) == [0, 2, 5]


def test_options_are_checked():
    for bad in (
        {"players": 7},
        {"players": 2},
        {"decks": 3},
        {"tribute": "yes"},
        {"place_points": [3, 2, 1]},
        {"place_points": [0, 1, 2, 3]},
        {"level": "2"},
    ):
        with pytest.raises(OptionError):
            new_deal(bad, seed=1)
    with pytest.raises(EngineError) as e:
        new_deal({}, seed=1, winner=0, loser=0)
    assert e.value.code == "climb.setup_places"
    with pytest.raises(EngineError):
        new_deal({}, seed=1, winner=0)


def later(want: dict[int, list[str]], options: dict | None = None, seed: int = 5, **kw):
    opts = {"players": 4, **(options or {})}
    pack = stacked(want, opts["players"], opts.get("decks", 1), deal_no=2)
    return drawn(
        ClimbingDeal(ClimbingSetup("climbing", opts, seed, 2, kw.get("winner", 1), 3, pack))
    )


def test_the_loser_gives_his_highest_card_and_the_winner_gives_one_back_and_leads():
    d = later({3: ["2S", "2H", "KS"], 1: ["3C"]})
    assert d.phase == "tribute" and d.to_act == 3
    assert d.actions(3) == ["tribute"] and d.actions(1) == []
    with pytest.raises(IllegalAction) as e:
        d.tribute(3, "KS")
    assert e.value.code == "climb.tribute_highest"
    with pytest.raises(IllegalAction):
        d.give_back(1, "3C")
    d.tribute(3, "2H")  # any copy of the highest rank
    assert parse_card("2H") in d.hands[1] and parse_card("2H") not in d.hands[3]
    assert d.phase == "return" and d.to_act == 1
    d.give_back(1, "3C")
    assert parse_card("3C") in d.hands[3]
    assert d.phase == "play" and d.to_act == 1 and d.lead_by == "winner"
    assert [len(h) for h in d.hands] == [13, 14, 14, 13]  # one card each way


def test_the_tribute_goes_to_the_previous_winner_whatever_his_seat():
    d = later({3: ["HJ"], 0: ["3C"]}, winner=0)
    d.tribute(3, "HJ")
    d.give_back(0, "HJ")  # any card, even the one just taken
    assert d.to_act == 0 and parse_card("HJ") in d.hands[3]


def test_both_jokers_refuse_the_tribute_with_one_deck():
    d = later({3: ["HJ", "LJ"]})
    assert d.refused and d.phase == "play" and d.lead_by == "turned"
    assert d.to_act == d.turned_seat
    with pytest.raises(IllegalAction) as e:
        d.tribute(3, "HJ")
    assert e.value.code == "climb.phase_tribute"


def test_two_high_jokers_refuse_the_tribute_with_two_decks_but_not_hj_and_lj():
    two = {"players": 6, "decks": 2}
    d = later({3: ["HJ", "HJ"]}, two)
    assert d.refused and d.to_act == d.turned_seat
    d2 = later({3: ["HJ", "LJ", "LJ"], 1: ["HJ"]}, two)
    assert not d2.refused and d2.phase == "tribute"
    assert d2.tribute_rank() == 14
    d2.tribute(3, "HJ")


def test_without_the_tribute_option_the_turned_card_decides_every_deal():
    d = later({3: ["2S"]}, {"tribute": False})
    assert d.phase == "play" and not d.tribute_due and d.to_act == d.turned_seat


def test_a_later_deal_follows_from_the_finished_one():
    d = drawn(new_deal({}, seed=9))
    play_deal(d, make_bots("random", 4, 9))
    s = next_setup(d, 10)
    assert (s.deal_no, s.winner, s.loser) == (2, d.result.winner, d.result.loser)
    d2 = drawn(ClimbingDeal(s))
    assert d2.phase in ("tribute", "play")
    with pytest.raises(IllegalAction):
        next_setup(d2, 11)


def test_a_seat_sees_its_own_hand_and_the_other_seats_card_counts():
    d = later({3: ["2S", "2H"], 1: ["3C"]})
    d.tribute(3, "2S")
    for seat in range(4):
        v = seat_view(d, seat)
        json.dumps(v)
        assert sorted(parse_cards(v["hand"])) == sorted(d.hands[seat])
        assert v["hand_sizes"] == [len(h) for h in d.hands]
        for rec in v["log"]:
            if rec["kind"] == "draw":
                assert ("cards" in rec) == (rec["seat"] == seat)
            if rec["kind"] == "tribute":
                assert rec["cards"] == (["2S"] if seat in (1, 3) else [])
        assert v["tribute"]["card"] == ("2S" if seat in (1, 3) else None)
        text = json.dumps({k: v[k] for k in v if k not in ("hand", "playable", "log")})
        others = {c for s in range(4) if s != seat for c in d.hands[s]}
        # nothing but the public table: no card of another hand (seat 3 gave the 2S to seat 1)
        leaked = [card_str(c) for c in others if f'"{card_str(c)}"' in text]
        assert leaked == (["2S"] if seat == 3 else [])
    spec = spectator_view(d)
    assert spec["hand"] is None and spec["tribute"]["card"] is None
    assert all("cards" not in r or not r["cards"] for r in spec["log"])


def test_the_hand_is_shown_in_climbing_order():
    d = small_table(0, [["2S", "3S", "HJ", "AS", "10D"], ["4S"], ["5S"], ["6S"]])
    assert seat_view(d, 0)["hand"] == ["3S", "10D", "AS", "2S", "HJ"]


def test_a_replayed_log_gives_the_same_state_and_a_wrong_log_is_refused():
    d = ClimbingDeal(ClimbingSetup("climbing", {"players": 5}, 21, 3, 2, 4))
    play_deal(d, make_bots("heuristic", 5, 21))
    log = [r.to_json() for r in d.log]
    again = replay(json.loads(json.dumps(d.setup.to_json())), json.loads(json.dumps(log)))
    assert again.state_dict() == d.state_dict()
    bad = list(log)
    i = next(k for k, r in enumerate(bad) if r["kind"] == "play")
    bad[i] = {**bad[i], "seat": (bad[i]["seat"] + 1) % 5}
    with pytest.raises(EngineError) as e:
        replay(d.setup, bad)
    assert e.value.code == "log.action" and e.value.params["action"] == i + 1
    with pytest.raises(EngineError):
        replay(d.setup, [{"kind": "bury", "seat": 0}])


def _heuristic_move(hands: list[list[str]], standing: list[str] | None) -> tuple:
    """The heuristic bot's move for the seat after the turned card's drawer, with the drawer's
    ``standing`` play on the table (``None``: the drawer's seat leads)."""
    from engine.climbing_bots import ClimbingHeuristicBot

    d = small_table(0, hands)
    lead = d.to_act
    assert lead == 2
    if standing is None:
        return ClimbingHeuristicBot(1).act(d, 2)
    d.hands[2].extend(parse_cards(standing))
    d.play(2, standing)
    return ClimbingHeuristicBot(1).act(d, 3)


BIG = ["3C", "4C", "6C", "8C", "10C", "QC", "KC"]


def test_the_heuristic_bot_goes_out_when_it_can():
    move = _heuristic_move([BIG, BIG[:5], BIG, ["9S", "9H"]], ["8S", "8H"])
    assert move[0] == "play" and sorted(move[2]) == sorted(parse_cards(["9S", "9H"]))


def test_the_heuristic_bot_keeps_straights_and_pairs_together():
    hand = ["6S", "7S", "8S", "9S", "JH", "JD", "AC"]
    move = _heuristic_move([BIG, BIG[:5], BIG, hand], ["5H"])
    assert move[0] == "play" and move[2] == parse_cards(["AC"])  # the single, not a piece
    lead = _heuristic_move([BIG, BIG[:5], ["3S", "4H", "5D", "9C", "9S"], BIG], None)
    assert lead[0] == "play" and sorted(lead[2]) == sorted(parse_cards(["3S", "4H", "5D"]))


def test_the_heuristic_bot_passes_rather_than_break_a_combination():
    hand = ["6S", "7S", "8S", "9S", "JH", "JD"]
    move = _heuristic_move([BIG, BIG[:5], BIG, hand], ["5H"])
    assert move == ("pass", 3)
    # unless a player still in could go out with one more card
    move = _heuristic_move([BIG, ["2S"], BIG, hand], ["5H"])
    assert move[0] == "play" and move[2] == parse_cards(["6S"])
