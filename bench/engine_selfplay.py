"""Complete deals per second with random bots, per variant, on one core.

A complete deal runs from the shuffle to the score with bots making every decision, calls
included (a bot considers calling only when it draws a card). Run: ``python bench/engine_selfplay.py
[--seconds S]``; one line per variant ends in ``VARIANT: N deals/s``. Targets: ≥150 deals/s for
tractor-4p, ≥60 for the 3-deck variants. ``--profile VARIANT`` prints a cProfile of that variant.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import make_bots, perform, play_deal  # noqa: E402
from engine.deal import Deal, DealSetup  # noqa: E402

VARIANTS = (("tractor-4p", {}), ("red-five-5p", {}), ("one-twenty-6p", {}))


def run(variant: str, options: dict, seconds: float) -> tuple[int, float]:
    start = time.perf_counter()
    n = 0
    seed = 0
    while True:
        deal = Deal(DealSetup(variant, options, seed))
        play_deal(deal, make_bots("random", deal.n, seed))
        n += 1
        seed += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and n >= 20:
            return n, elapsed


def verify_cost(variant: str, options: dict, deals: int = 30) -> float:
    """Mean microseconds of ``verify_play`` over every play of a few random deals."""
    total = 0.0
    count = 0
    for seed in range(deals):
        deal = Deal(DealSetup(variant, options, 10_000 + seed))
        bots = make_bots("random", deal.n, seed)
        while deal.outcome is None:
            if deal.phase == "draw":
                deal.draw()
                continue
            seat = deal.to_act
            assert seat is not None
            action = bots[seat].act(deal, seat)
            if action[0] == "play":
                t = time.perf_counter()
                deal.verify_play(seat, action[2])
                total += time.perf_counter() - t
                count += 1
            perform(deal, action)
    return total / max(count, 1) * 1e6


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--profile", default=None)
    args = p.parse_args()
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run(args.profile, {}, args.seconds)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
        return
    run("tractor-4p", {}, 0.3)  # warm up
    for variant, options in VARIANTS:
        n, elapsed = run(variant, options, args.seconds)
        us = verify_cost(variant, options)
        print(
            f"{n} complete deals in {elapsed:.2f} s, random bots, verify_play {us:.0f} µs, "
            f"{variant}: {n / elapsed:.0f} deals/s"
        )


if __name__ == "__main__":
    main()
