"""Deal audit, every variant: after the deal exactly one seat acts; verify_x, can_x and x agree;
an illegal action raises IllegalAction and changes nothing (state before == after)."""

import json
import random

import pytest

from engine.bots import make_bots, perform
from engine.deal import DONE, DRAW, Deal, DealSetup
from engine.errors import IllegalAction
from engine.views import seat_view, spectator_view

SETUPS = [
    ("tractor-4p", {}, {}),
    ("tractor-4p", {}, {"levels": ("7", "J"), "dealer": 1, "first": False}),
    ("tractor-4p", {"decks": 4}, {}),
    ("tractor-4p", {"decks": 4}, {"levels": ("3", "Q"), "dealer": 3, "first": False}),
    ("red-five-5p", {}, {"dealer": 2}),
    ("one-twenty-6p", {}, {}),
    ("one-twenty-6p", {}, {"levels": ("5", "9"), "dealer": 3, "first": False}),
    ("one-twenty-6p", {}, {"levels": ("9", "4"), "dealer": 1, "race": True}),
]
NAMES = ["call", "pass_", "redeal", "bury", "call_friend", "play"]


def state(d):
    return json.dumps(d.state_dict(), sort_keys=True)


@pytest.mark.parametrize(("k", "setup"), list(enumerate(SETUPS)))
def test_three_faces_agree_and_illegal_actions_change_nothing(k, setup):
    vid, opts, st = setup
    d = Deal(DealSetup(vid, opts, 100 + k, **st))
    bots = make_bots("heuristic" if k % 2 else "random", d.n, k)
    rng = random.Random(k)
    tried = 0
    while d.phase != DONE:
        for _ in range(2):
            s = rng.randrange(d.n)
            hand = d.hands[s]
            junk = rng.sample(hand, min(len(hand), rng.choice([1, 2, 3, 8]))) if hand else []
            name = rng.choice(NAMES)
            args = {
                "call": (s, junk),
                "pass_": (s,),
                "redeal": (s,),
                "bury": (s, junk),
                "call_friend": (s, junk[0] if junk else None),
                "play": (s, junk),
            }[name]
            base = name.rstrip("_")
            can = getattr(d, "can_" + base)(*args)
            try:
                getattr(d, "verify_" + base)(*args)
                verified = True
            except IllegalAction as e:
                verified = False
                assert str(e)  # a plain reason
            assert can == verified, (name, args)
            if not can:
                before = state(d)
                with pytest.raises(IllegalAction):
                    getattr(d, name)(*args)
                assert state(d) == before
                tried += 1
        if d.phase == DRAW:
            assert d.to_act is None
            s = d.draw().seat
            if d.can_call_now(s):
                c = bots[s].on_draw(d, s)
                if c is not None:
                    d.call(s, c)
            continue
        seat = d.to_act
        assert seat is not None
        for s in range(d.n):
            assert (d.actions(s) != []) == (s == seat), (s, d.phase)
        perform(d, bots[seat].act(d, seat))
        if len(d.log) % 11 == 0:
            for s in range(d.n):
                seat_view(d, s)
            spectator_view(d)
    assert d.to_act is None and tried > 50
