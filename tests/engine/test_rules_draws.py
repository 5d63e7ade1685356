"""engine.draws draws exactly what random.Random's methods draw: the deal's shuffle and the bots'
choices do not change with it, and the generator ends in the same state."""

from __future__ import annotations

import random

import pytest

from engine import draws


@pytest.mark.parametrize("seed", range(40))
def test_each_draw_matches_random_and_leaves_the_same_state(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for size in (1, 2, 5, 22, 33, 108, 162):
        pack, same = list(range(size)), list(range(size))
        draws.shuffle(ours, pack)
        theirs.shuffle(same)
        assert pack == same
        assert draws.choice(ours, pack) == theirs.choice(same)
        assert draws.randint(ours, 2, size + 2) == theirs.randint(2, size + 2)
        for k in {0, 1, 3, 6, 8, min(size, 25), size}:
            if k <= size:
                assert draws.sample(ours, pack, k) == theirs.sample(same, k)
        assert draws.below(ours, size) == theirs._randbelow(size)
    assert ours.getstate() == theirs.getstate()


def test_the_same_refusals_as_random() -> None:
    rng = random.Random(0)
    with pytest.raises(IndexError):
        draws.choice(rng, [])
    with pytest.raises(ValueError):
        draws.sample(rng, [1, 2], 3)
    with pytest.raises(ValueError):
        draws.randint(rng, 3, 2)
