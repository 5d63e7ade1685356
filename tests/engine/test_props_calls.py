"""Properties of call sequences (replay_calls) over random input, for every variant."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.calls import call_shape, replay_calls
from engine.cards import HJ, LJ
from engine.variants import make_variant

VARIANTS = {
    "tractor-4p": make_variant("tractor-4p"),
    "tractor-4p/4": make_variant("tractor-4p", {"decks": 4}),
    "red-five-5p": make_variant("red-five-5p"),
    "one-twenty-6p": make_variant("one-twenty-6p"),
}
LEVEL_RANK = 5  # level "7"


@st.composite
def sequences(draw):
    key = draw(st.sampled_from(sorted(VARIANTS)))
    v = VARIANTS[key]
    level = "2" if v.id == "red-five-5p" else "7"
    rank = 0 if level == "2" else LEVEL_RANK
    pieces = [s * 13 + rank for s in range(4)] + [LJ, HJ]
    calls = []
    for _ in range(draw(st.integers(0, 7))):
        seat = draw(st.integers(0, v.players - 1))
        cards = draw(st.lists(st.sampled_from(pieces), min_size=1, max_size=min(3, v.decks)))
        ok = all(cards.count(c) <= v.decks for c in cards)
        if ok:
            calls.append((seat, cards))
    later = draw(st.booleans())
    side = [s for s in range(v.players) if s % 2 == 0] if later and v.id != "red-five-5p" else None
    return v, level, calls, (2 if side else 1), side


@settings(max_examples=300, deadline=None)
@given(sequences())
def test_call_sequences(case):
    v, level, calls, deal_no, side = case
    accepted, caller, trump = replay_calls(v, level, calls, deal_no, side)
    assert len(accepted) == len(calls)
    taken = [c for c, ok in zip(calls, accepted, strict=True) if ok]
    for _seat, cards in taken:
        assert not isinstance(call_shape(v, level, cards), str)  # only real calls stand
    if not taken:
        assert caller is None and trump is None
        return
    last_seat, last_cards = taken[-1]
    shape = call_shape(v, level, last_cards)
    assert caller == last_seat and trump == shape.suit
    shapes = [call_shape(v, level, c) for _, c in taken]
    if v.id == "red-five-5p":
        assert len(taken) == 1
    elif v.id == "tractor-4p":
        key = (lambda s: s.count) if v.decks == 4 else (lambda s: s.kind)
        assert all(key(a) < key(b) for a, b in zip(shapes, shapes[1:], strict=False))
        assert all(a[0] != b[0] for a, b in zip(taken, taken[1:], strict=False))
    else:
        assert all(a.count <= b.count for a, b in zip(shapes, shapes[1:], strict=False))
    if side is not None and v.id == "one-twenty-6p":
        assert all(s in side for s, _ in taken)
    if side is not None and v.id == "tractor-4p":
        assert taken[0][0] in side  # the other side may only overcall a standing call
