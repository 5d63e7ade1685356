"""The search bot ``mc`` of 打百分 (``engine.hundred_mcbot``): every sampled world agrees with the
seat's view (cards played, hand sizes, voids, the dummy, the burial it saw, the friend card and
what is known of the friend, 40分下台's turned card) and the real deal is one such world; the
auction weighs the worlds; the bot reads nothing but the view; a fixed number of worlds per
move is repeatable; it plays only legal moves in every mode."""

from __future__ import annotations

import random

import pytest

from engine import hundred_rules as hr
from engine.cards import parse_card
from engine.hundred import DONE, PLAY, HundredDeal, HundredSetup, apply, hundred_seat_view
from engine.hundred_bots import MODES, HeuristicHundredBot, RandomHundredBot, check_action, perform
from engine.hundred_mcbot import (
    KITTY_SLOT,
    HundredMCBot,
    allowed_holders,
    auction_likelihood,
    bidding_strength,
    build_hundred_world,
    hidden_holders,
    read_hundred_view,
    sample_hundred_world,
    unknown_cards,
)
from engine.mcbot import DEFAULT_SAMPLES


def deal_at_play(i: int, plays: int, open_kitty: bool = False) -> HundredDeal | None:
    """Deal ``i`` of the modes (every friend mode, 40分下台, 3人百分) played by a mix of random
    and heuristic bots until ``plays`` cards-plays into the play phase (None: over before)."""
    variant, base = MODES[i % len(MODES)]
    options = dict(base)
    options["open_kitty"] = open_kitty
    n = 3 if variant == hr.HUNDRED_3P else 4
    declarer = None if variant != hr.FORTY_4P or i % 2 == 0 else i % 4  # first and later deals
    d = HundredDeal(HundredSetup(variant, options, i, i % n, declarer))
    bots = [(HeuristicHundredBot if (i + s) % 2 else RandomHundredBot)(i * 7 + s) for s in range(n)]
    done = 0
    while d.phase != DONE:
        if d.phase == PLAY:
            if done == plays:
                return d
            done += 1
        s = d.to_act
        assert s is not None
        perform(d, bots[s].act(d, s))
    return None


def _holder(d: HundredDeal, card: int) -> int:
    for h in range(4):
        if card in d.hands[h]:
            return h
    assert card in d.buried
    return KITTY_SLOT


def test_every_sampled_world_agrees_with_the_view_and_the_deal_is_one() -> None:
    checked = voids = friend_cards = 0
    for i in range(240):
        d = deal_at_play(i, random.Random(i).randrange(44), open_kitty=i % 5 == 0)
        if d is None:
            continue
        seat = d.to_act
        assert seat is not None
        view = hundred_seat_view(d, seat)
        k = read_hundred_view(view, d.setup.declarer is None)
        holders = hidden_holders(k)
        # what the seat knows holds in the real deal: every hidden card may be where it is
        for c in unknown_cards(k):
            assert _holder(d, c) in allowed_holders(k, c, holders), (i, c)
        for h in range(4):
            held = {hr.group(c, d.trump) for c in d.hands[h]} if d.trump is not None else set()
            assert not (k.voids[h] & held), (i, h)  # a void read from the view is real
        voids += sum(len(v) for v in k.voids)
        fc = k.friend_card
        friend_cards += fc is not None and fc in unknown_cards(k)
        rng = random.Random(i)
        for _ in range(4):
            hands, buried = sample_hundred_world(k, rng)
            assert sorted([c for h in hands for c in h] + buried + k.played) == list(range(54))
            assert [len(h) for h in hands] == [len(h) for h in d.hands]
            assert len(buried) == hr.KITTY
            for h, cs in k.own.items():
                assert sorted(hands[h]) == sorted(cs)
            if k.buried is not None:
                assert sorted(buried) == sorted(k.buried)
            for h in holders:
                for c in buried if h == KITTY_SLOT else hands[h]:
                    assert h in allowed_holders(k, c, holders)
            w = build_hundred_world(k, hands, buried)
            assert (w.to_act, w.turn_hand) == (d.to_act, d.turn_hand)
            assert w.playable_cards(seat) == d.playable_cards(seat)
            assert w.friend_revealed == d.friend_revealed
            assert w.seen_attackers_points(seat) == d.seen_attackers_points(seat)
            if k.friend is not None:
                assert w.friend == d.friend
            wv, dv = hundred_seat_view(w, seat), hundred_seat_view(d, seat)
            for key in ("hand", "dummy", "trick", "tricks", "won_points", "trump", "friend"):
                assert wv[key] == dv[key], key
        checked += 1
    assert checked > 150 and voids > 50 and friend_cards > 20


def test_the_friend_card_is_placed_as_the_mode_says() -> None:
    """Hidden friend, seen by an attacker who does not hold the card: it lies with one of the
    other two seats that are not the declarer, never with the declarer nor in the kitty; with
    the blind friend it may lie anywhere hidden (the kitty too) until it is played."""
    seen: dict[str, set[bool]] = {hr.HIDDEN: set(), hr.BLIND: set()}
    for i in range(400):
        mode_i = i % len(MODES)
        if MODES[mode_i][1].get("friend") not in (hr.HIDDEN, hr.BLIND):
            continue
        d = deal_at_play(i, 1 + i % 3)  # a seat after the declarer's lead
        if d is None or d.friend_card is None:
            continue
        seat = d.to_act
        assert seat is not None
        k = read_hundred_view(hundred_seat_view(d, seat))
        if seat == d.declarer or k.friend is not None or d.friend_card not in unknown_cards(k):
            continue
        mode = k.friend_mode
        rng = random.Random(i)
        for _ in range(20):
            hands, buried = sample_hundred_world(k, rng)
            holder = (
                KITTY_SLOT
                if d.friend_card in buried
                else next(h for h in range(4) if d.friend_card in hands[h])
            )
            if mode == hr.HIDDEN:
                assert holder not in (d.declarer, KITTY_SLOT, seat)
            seen[mode].add(holder == KITTY_SLOT or holder == d.declarer)
    assert seen[hr.HIDDEN] == {False}
    assert seen[hr.BLIND] == {False, True}


def test_a_horizontal_throw_shows_the_groups_a_follower_lacks() -> None:
    d = HundredDeal(HundredSetup(hr.HUNDRED_4P, {"friend": "fixed"}, 0, 0))
    d.phase, d.declarer, d.trump, d.kitty_taken = PLAY, 0, 0, True
    d.buried = [parse_card(c) for c in ("2C", "3C", "4C", "5C", "6C", "7C")]
    d.hands = [
        [parse_card(c) for c in ("9S", "9H", "9D", "9C", "AS", "KS")],
        [parse_card(c) for c in ("2S", "3H", "4H", "5H", "AH", "KH")],  # no D, no C
        [parse_card(c) for c in ("3S", "4S", "2D", "3D", "8C", "JC")],
        [parse_card(c) for c in ("5S", "6S", "4D", "5D", "9C", "QC")],
    ]
    d.leader = 0
    d.play(0, [parse_card(c) for c in ("9S", "9H", "9D", "9C")])
    d.play(1, [parse_card(c) for c in ("2S", "3H", "4H", "5H")])
    k = read_hundred_view(hundred_seat_view(d, 2))
    assert k.voids[1] == {parse_card("2D") // 13, parse_card("2C") // 13}  # D and C
    assert k.voids[0] == set() and k.voids[3] == set()


def test_the_auction_weighs_the_worlds() -> None:
    """A bid is likelier from a strong hand than from a weak one, a pass the other way round."""
    d = deal_at_play(2, 0)  # hidden friend
    assert d is not None and d.to_act is not None
    k = read_hundred_view(hundred_seat_view(d, d.to_act))
    strong = [parse_card(c) for c in ("HJ", "LJ", "AS", "KS", "QS", "JS", "TS", "9S")]
    weak = [parse_card(c) for c in ("2H", "3H", "4D", "6D", "7C", "8C", "2C", "3D")]
    other = next(s for s in range(4) if s not in (k.seat, k.declarer))

    def world(mine: list[int]) -> list[list[int]]:
        hands: list[list[int]] = [[] for _ in range(4)]
        hands[other] = mine
        return hands

    k.auction = [(other, 60)]
    assert auction_likelihood(k, world(strong), []) > 5 * auction_likelihood(k, world(weak), [])
    k.auction = [(other, None)]
    assert auction_likelihood(k, world(weak), []) > 5 * auction_likelihood(k, world(strong), [])


def test_a_bidder_gets_stronger_sampled_hands_than_one_who_passed() -> None:
    """The auction steers the sampling: the same view, one seat said to have bid 80 or to have
    passed at 60, gives that seat stronger hands on average in the first case."""
    d = deal_at_play(2, 1)  # hidden friend, the seat after the declarer's lead
    assert d is not None and d.to_act is not None
    k = read_hundred_view(hundred_seat_view(d, d.to_act))
    other = next(s for s in range(4) if s not in (k.seat, k.declarer))

    def mean_strength(auction: list[tuple[int, int | None]]) -> float:
        k.auction = auction
        rng = random.Random(1)
        hands = [sample_hundred_world(k, rng)[0][other] for _ in range(300)]
        return sum(bidding_strength(h) for h in hands) / len(hands)

    assert mean_strength([(other, 80)]) > mean_strength([(other, None)]) + 1.0


def _twin(d: HundredDeal) -> HundredDeal:
    twin = HundredDeal(d.setup)
    for act in d.log:
        apply(twin, act)
    return twin


def test_mc_reads_only_the_seat_view() -> None:
    """Two deals alike in everything the seat sees but with other hidden hands (a card swapped
    between two hidden hands of the same side of every void): mc decides the same in both,
    with the very same rollouts."""
    checked = 0
    for i in range(60):
        d = deal_at_play(i, 5)
        if d is None or d.to_act is None:
            continue
        seat = d.to_act
        view = hundred_seat_view(d, seat)
        k = read_hundred_view(view, d.setup.declarer is None)
        holders = [h for h in hidden_holders(k) if h != KITTY_SLOT]
        twin = _twin(d)
        swapped = False
        for a in holders:
            for b in holders:
                if a >= b or swapped:
                    continue
                ca = next((c for c in twin.hands[a] if b in allowed_holders(k, c, holders)), None)
                cb = next((c for c in twin.hands[b] if a in allowed_holders(k, c, holders)), None)
                if ca is None or cb is None or ca == d.friend_card or cb == d.friend_card:
                    continue
                twin.hands[a].remove(ca)
                twin.hands[a].append(cb)
                twin.hands[b].remove(cb)
                twin.hands[b].append(ca)
                swapped = True
        if not swapped:
            continue
        assert hundred_seat_view(twin, seat) == view
        one, two = HundredMCBot(5, samples=2), HundredMCBot(5, samples=2)
        assert one.act(d, seat) == two.act(twin, seat)
        assert one.last.means == two.last.means
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_a_fixed_number_of_worlds_is_repeatable_and_ignores_the_clock() -> None:
    class Clock:
        def __init__(self) -> None:
            self.t = 0.0

        def __call__(self) -> float:
            self.t += 10.0
            return self.t

    for i in range(30):
        d = deal_at_play(i, 2)
        if d is None or d.to_act is None:
            continue
        seat = d.to_act
        bot = HundredMCBot(3, time_per_move=0.001, samples=3, clock=Clock())
        play = bot.act(d, seat)
        if bot.last.candidates < 2:
            continue
        assert bot.last.worlds == 3 and bot.last.rollouts == 3 * bot.last.candidates
        again = HundredMCBot(3, samples=3)
        assert again.act(d, seat) == play and again.last.means == bot.last.means
        # a time box too small for one round: the heuristic's play, no world counted
        tiny = HundredMCBot(3, time_per_move=0.001, clock=Clock())
        assert sorted(tiny.act(d, seat)[2]) == sorted(HeuristicHundredBot(3).act(d, seat)[2])
        assert tiny.last.worlds == 0
        break
    else:
        raise AssertionError("no position with a choice")
    assert HundredMCBot(1).samples == DEFAULT_SAMPLES
    with pytest.raises(Exception, match="samples"):
        HundredMCBot(1, samples=0)


@pytest.mark.parametrize("i", range(len(MODES)))
def test_mc_plays_only_legal_moves_in_every_mode(i: int) -> None:
    variant, base = MODES[i]
    n = 3 if variant == hr.HUNDRED_3P else 4
    for seed in range(2):
        d = HundredDeal(HundredSetup(variant, dict(base), seed * 11 + i, seed % n))
        bots: list[RandomHundredBot] = [HeuristicHundredBot(seed + s) for s in range(n)]
        bots[seed % n] = HundredMCBot(seed, samples=2)
        bots[(seed + 1) % n] = HundredMCBot(seed + 1, samples=2)
        while d.phase != DONE:
            s = d.to_act
            assert s is not None
            action = bots[s].act(d, s)
            check_action(d, action)  # raises on an illegal move
            perform(d, action)
        assert d.result is not None
