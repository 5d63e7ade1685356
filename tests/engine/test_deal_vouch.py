"""The trusted path: a play a bot built from the deal's own rules (``Deal._vouch``) skips the
second proof inside ``play``; anything else a caller passes is verified in full."""

from __future__ import annotations

import copy

import pytest

from engine.bots import HeuristicBot, RandomBot, make_bots
from engine.deal import PLAY, Deal, DealSetup
from engine.errors import IllegalAction
from engine.serialize import replay_setup

VARIANTS = ("tractor-4p", "red-five-5p", "one-twenty-6p")


def to_play(variant: str, seed: int) -> tuple[Deal, list[RandomBot]]:
    """A deal of random bots run up to its first play."""
    deal = Deal(DealSetup(variant, {}, seed))
    bots = make_bots("random", deal.n, seed)
    while deal.phase != PLAY:
        if deal.phase == "draw":
            deal.draw()
            continue
        seat = deal.to_act
        assert seat is not None
        action = bots[seat].act(deal, seat)
        getattr(deal, {"pass": "pass_", "friend": "call_friend"}.get(action[0], action[0]))(
            *action[1:]
        )
    return deal, bots


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("kind", [RandomBot, HeuristicBot])
def test_every_vouched_play_is_legal_and_replays_through_the_checked_path(
    variant: str, kind: type[RandomBot]
) -> None:
    # every play a bot vouches for passes the full check, and the log replayed through the
    # public, fully checked play gives the same deal to the last card
    for seed in range(4):
        deal, _ = to_play(variant, seed)
        bots = [kind(seed * 10 + s) for s in range(deal.n)]
        while deal.outcome is None:
            seat = deal.to_act
            assert seat is not None
            cards = bots[seat].choose_play(deal, seat)
            deal.verify_play(seat, cards)
            deal.play(seat, cards)
        again = replay_setup(deal.setup, deal.log)
        assert again.state_dict() == deal.state_dict()
        assert again.result == deal.result


def illegal_follow(deal: Deal, seat: int) -> list[int]:
    """A play of the right count that breaks a rule (another suit while holding the led one)."""
    assert deal.trick is not None and deal.ctx is not None
    lead = deal.trick.plays[0][1]
    st = deal.ctx.suit_tab
    hand = deal.hands[seat]
    suit = [c for c in hand if st[c] == st[lead[0]]]
    other = [c for c in hand if st[c] != st[lead[0]]]
    if len(suit) < len(lead) or len(other) < len(lead):
        pytest.skip("this seat cannot break the follow rule here")
    return other[: len(lead)]


def first_follow(variant: str = "tractor-4p", seed: int = 1) -> tuple[Deal, list[RandomBot]]:
    deal, bots = to_play(variant, seed)
    seat = deal.to_act
    assert seat is not None
    deal.play(seat, bots[seat].choose_play(deal, seat))
    return deal, bots


def test_a_vouched_list_changed_afterwards_is_checked_again() -> None:
    deal, bots = first_follow()
    seat = deal.to_act
    assert seat is not None
    cards = bots[seat].choose_play(deal, seat)
    cards[:] = illegal_follow(deal, seat)
    before = deal.state_dict()
    with pytest.raises(IllegalAction) as err:
        deal.play(seat, cards)
    assert err.value.code == "follow.suit"
    assert deal.state_dict() == before


def test_a_vouch_holds_for_one_deal_one_seat_one_moment() -> None:
    deal, bots = first_follow()
    seat = deal.to_act
    assert seat is not None
    cards = bots[seat].choose_play(deal, seat)
    # another deal (a copy whose hands are then rigged) does not inherit the vouch
    twin = copy.copy(deal)
    twin.hands = [list(h) for h in deal.hands]
    bad = illegal_follow(deal, seat)
    twin.hands[seat] = bad + [c for c in twin.hands[seat] if c not in bad]
    deal._vouch(seat, bad)  # pretend: vouched on the original deal only
    with pytest.raises(IllegalAction):
        twin.play(seat, bad)
    # a seat that is not to act cannot be vouched for
    other = (seat + 1) % deal.n
    deal._vouch(other, deal.hands[other][:1])
    with pytest.raises(IllegalAction) as err:
        deal.play(other, deal.hands[other][:1])
    assert err.value.code == "turn.not_yours"
    # the vouch is for the moment it was made: after another play it counts no more
    deal._vouch(seat, cards)
    deal.play(seat, cards)
    nxt = deal.to_act
    assert nxt is not None
    bad = illegal_follow(deal, nxt)
    with pytest.raises(IllegalAction):
        deal.play(nxt, bad)
    # the vouched list turned into equal floats is refused as on the checked path
    cards = bots[nxt].choose_play(deal, nxt)
    cards[:] = [float(c) for c in cards]
    with pytest.raises(IllegalAction) as err:
        deal.play(nxt, cards)
    assert err.value.code == "card.invalid"
