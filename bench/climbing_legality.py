"""Benchmark: illegal moves the 争上游 bots attempt (goal: 0), as ``engine_legality.py`` does for
the trick games.

Plays ``--deals`` complete deals (default 10,000) in matches of 20 deals at one table (so the
tribute, its return and 抗贡 come up from each match's second deal), over every table size and
deck count, ``tribute: false`` and other place points, with every seat random, every seat
heuristic, or heuristic at the odd seats: ``engine.climbing_selfplay.legality``, which checks
every move through the public ``verify_play`` / ``verify_pass`` / ``verify_tribute`` /
``verify_give_back`` before it is performed; the first refused move is printed and ends the run
(exit 1). Prints last

    climbing_legality deals=N moves=M illegal=K build=pure|compiled cpu_s=C

``--compiled`` runs the mypyc build of ``tools/compile_engine.py`` (``build/mypyc``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--deals", type=int, default=10_000)
    p.add_argument("--compiled", action="store_true")
    args = p.parse_args()
    root = ROOT / "build" / "mypyc" if args.compiled else ROOT
    if args.compiled and not list((root / "engine").glob("climbing_deal.*.so")):
        raise SystemExit(f"error: no compiled engine in {root}: run tools/compile_engine.py")
    sys.path.insert(0, str(root))
    import engine.climbing_deal as mod
    from engine.climbing_selfplay import IllegalBotMove, legality

    build = "pure" if str(mod.__file__).endswith(".py") else "compiled"
    cpu = time.process_time()
    try:
        tally = legality(args.deals)
    except IllegalBotMove as e:
        print(f"illegal: {e}")
        return 1
    print(
        f"climbing_legality deals={tally.deals} moves={tally.moves} illegal=0 build={build} "
        f"cpu_s={time.process_time() - cpu:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
