"""Complete deals per second with random bots, per variant, on one core.

A complete deal runs from the shuffle to the score with bots making every decision, calls
included (a bot considers calling only when it draws a card). Run: ``python bench/engine_selfplay.py
[--seconds S]``; one line per variant ends in ``VARIANT: N deals/s`` (争上游 last, as
``climbing: N deals/s``). Targets: ≥150 deals/s for
tractor-4p, ≥60 for the 3-deck variants. ``--profile VARIANT`` prints a cProfile of that variant.

``--against REV`` compares with the engine of git revision ``REV``: it checks ``REV`` out in a
temporary ``git worktree add --detach``, then runs that engine and the current one alternately,
three times each (``--rounds``), every run in its own subprocess (so the two engines never share an
interpreter), each run playing the same ``--deals`` seeds of every variant. It prints the
medians per variant (deals/s by CPU time, ``time.process_time``, and by wall time) and last
``speedup_vs_REV tractor-4p=X red-five-5p=Y one-twenty-6p=Z`` (the ratio of the CPU-time
medians: on a shared machine CPU time is the steadier figure). Each run says which engine build
it imported: ``pure`` (the ``.py`` modules) or ``compiled`` (mypyc extension modules).
``--compiled`` makes "current" the compiled build of ``tools/compile_engine.py`` (``build/mypyc``,
built from the current tree); the revision ``REV`` is always its pure engine. ``--also
NAME=DIR`` (repeatable) adds another engine tree to the same alternation, e.g. a saved compiled
build of an earlier commit, and prints its medians and ``speedup_vs_REV`` line too, so a before
and an after are measured in one run.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = (("tractor-4p", {}), ("red-five-5p", {}), ("one-twenty-6p", {}))
ROUNDS = 3
COMPILED_ROOT = ROOT / "build" / "mypyc"


def _engine(root: Path = ROOT) -> Any:
    """Import the engine found under ``root`` (the current tree unless a worker says otherwise)."""
    sys.path.insert(0, str(root))
    import engine.bots
    import engine.deal

    return engine


def build_name(eng: Any) -> str:
    """``compiled`` when the rules modules are mypyc extension modules, else ``pure``."""
    files = [eng.deal.__file__, eng.bots.__file__]
    return "compiled" if any(not str(f).endswith(".py") for f in files) else "pure"


def run(variant: str, options: dict, seconds: float) -> tuple[int, float]:
    from engine.bots import make_bots, play_deal
    from engine.deal import Deal, DealSetup

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


def run_climbing(options: dict, seconds: float) -> tuple[int, float]:
    """争上游 (``engine.climbing_deal``): deals of a match at one table (tribute from the second
    deal on), random bots; not part of ``--against`` (older revisions have no climbing)."""
    from engine.climbing_bots import make_bots as climbing_bots
    from engine.climbing_bots import play_deal as play_climbing
    from engine.climbing_deal import ClimbingDeal, ClimbingSetup, next_setup

    start = time.perf_counter()
    n = 0
    setup = ClimbingSetup("climbing", options, 0)
    while True:
        deal = ClimbingDeal(setup)
        play_climbing(deal, climbing_bots("random", deal.n, n))
        n += 1
        setup = next_setup(deal, n)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and n >= 20:
            return n, elapsed


# 打百分 (engine.hundred): the simple run only, one line each
HUNDRED_VARIANTS = (("hundred-4p", {}), ("forty-4p", {}), ("hundred-3p", {}))


def run_hundred(variant: str, options: dict, seconds: float) -> tuple[int, float]:
    from engine.hundred import new_hundred_deal
    from engine.hundred_bots import make_hundred_bots, play_hundred_deal

    start = time.perf_counter()
    n = 0
    while True:
        deal = new_hundred_deal(variant, options, n)
        play_hundred_deal(deal, make_hundred_bots("random", deal.variant.players, n))
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and n >= 20:
            return n, elapsed


def run_fixed(eng: Any, variant: str, options: dict, deals: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) to play the deals of seeds ``0 .. deals-1``."""
    Deal, DealSetup = eng.deal.Deal, eng.deal.DealSetup
    make_bots, play_deal = eng.bots.make_bots, eng.bots.play_deal
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in range(deals):
        deal = Deal(DealSetup(variant, options, seed))
        play_deal(deal, make_bots("random", deal.n, seed))
    return time.perf_counter() - wall, time.process_time() - cpu


def verify_cost(variant: str, options: dict, deals: int = 30) -> float:
    """Mean microseconds of ``verify_play`` over every play of a few random deals."""
    from engine.bots import make_bots, perform
    from engine.deal import Deal, DealSetup

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


def worker(root: str, deals: int) -> None:
    """One run of ``--against``: every variant's fixed deals with the engine under ``root``."""
    eng = _engine(Path(root))
    run_fixed(eng, "tractor-4p", {}, 5)  # warm up
    out: dict[str, Any] = {"build": build_name(eng), "variants": {}}
    for variant, options in VARIANTS:
        wall, cpu = run_fixed(eng, variant, options, deals)
        out["variants"][variant] = {"wall": wall, "cpu": cpu}
    print(json.dumps(out))


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()


def against(
    rev: str,
    deals: int,
    compiled: bool = False,
    rounds: int = ROUNDS,
    also: dict[str, str] | None = None,
) -> None:
    current = COMPILED_ROOT if compiled else ROOT
    if compiled and not list((current / "engine").glob("deal.*.so")):
        raise SystemExit("error: no compiled engine in build/mypyc: run tools/compile_engine.py")
    sha = _git("rev-parse", "--short", rev)
    tmp = tempfile.mkdtemp(prefix="engine-bench-")
    where = os.path.join(tmp, "tree")
    _git("worktree", "add", "--detach", "--quiet", where, sha)
    try:
        sides = {rev: where, "current": str(current), **(also or {})}
        rates: dict[str, dict[str, list[tuple[float, float]]]] = {k: {} for k in sides}
        for r in range(rounds):
            for label, root in sides.items():
                proc = subprocess.run(
                    [sys.executable, __file__, "--worker", root, "--deals", str(deals)],
                    check=True,
                    capture_output=True,
                    text=True,
                )
                got = json.loads(proc.stdout.strip().splitlines()[-1])
                parts = []
                for variant, t in got["variants"].items():
                    cpu_rate, wall_rate = deals / t["cpu"], deals / t["wall"]
                    rates[label].setdefault(variant, []).append((cpu_rate, wall_rate))
                    parts.append(f"{variant} {cpu_rate:.0f}")
                name = f"{rev} ({sha})" if label == rev else label
                print(
                    f"run {r + 1}/{rounds} {name}, {got['build']} engine: "
                    f"{', '.join(parts)} deals/s (CPU)",
                    flush=True,
                )
        others = [label for label in sides if label not in (rev, "current")]
        speedups: dict[str, list[str]] = {label: [] for label in ["current", *others]}
        best = []
        for variant, _options in VARIANTS:
            med: dict[str, tuple[float, float]] = {}
            for label in sides:
                runs = rates[label][variant]
                med[label] = (
                    statistics.median(c for c, _w in runs),
                    statistics.median(w for _c, w in runs),
                )
            print(
                f"{variant}: median {med[rev][0]:.0f} deals/s CPU ({med[rev][1]:.0f} wall) "
                f"at {rev}, {med['current'][0]:.0f} deals/s CPU ({med['current'][1]:.0f} wall) "
                f"now, {deals} deals per run"
                + "".join(
                    f", {med[o][0]:.0f} deals/s CPU ({med[o][1]:.0f} wall) {o}" for o in others
                )
            )
            for label, out in speedups.items():
                out.append(f"{variant}={med[label][0] / med[rev][0]:.2f}")
            tops = [max(c for c, _w in rates[label][variant]) for label in (rev, "current")]
            best.append(f"{variant}={tops[1] / tops[0]:.2f}")
        # the ratio of the best runs: on a loaded machine the least disturbed run of each side
        print(f"best_run_speedup_vs_{rev} " + " ".join(best))
        for o in others:
            print(f"{o}_speedup_vs_{rev} " + " ".join(speedups[o]))
        print(f"speedup_vs_{rev} " + " ".join(speedups["current"]))
    finally:
        _git("worktree", "remove", "--force", where)
        os.rmdir(tmp)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--profile", default=None)
    p.add_argument("--against", default=None, metavar="REV")
    p.add_argument("--deals", type=int, default=150, help="deals per variant and run (--against)")
    p.add_argument("--rounds", type=int, default=ROUNDS, help="runs of each side (--against)")
    p.add_argument("--compiled", action="store_true", help="current = the build/mypyc engine")
    p.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="NAME=DIR",
        help="another engine tree in the same alternation (--against)",
    )
    p.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        worker(args.worker, args.deals)
        return
    if args.against:
        also = {}
        for item in args.also:
            name, sep, where = item.partition("=")
            if not sep or not name or name in ("current", args.against):
                raise SystemExit(f"error: --also takes NAME=DIR, got {item!r}")
            also[name] = str(Path(where).resolve())
        against(args.against, args.deals, args.compiled, max(1, args.rounds), also)
        return
    eng = _engine()
    print(f"{build_name(eng)} engine")
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
    for variant, options in HUNDRED_VARIANTS:
        n, elapsed = run_hundred(variant, options, args.seconds)
        print(
            f"{n} complete deals in {elapsed:.2f} s, random bots, {variant}: {n / elapsed:.0f} deals/s"
        )
    n, elapsed = run_climbing({}, args.seconds)
    print(
        f"{n} complete deals in {elapsed:.2f} s, random bots, climbing: {n / elapsed:.0f} deals/s"
    )


if __name__ == "__main__":
    main()
