"""Benchmark: illegal moves the 争上游 bots attempt (goal: 0), as ``engine_legality.py`` does for
the trick games.

Plays ``--deals`` complete deals (default 10,000) in matches of 20 deals at one table (so the
tribute, its return and 抗贡 come up from each match's second deal), over every table size and
deck count and ``tribute: false``, with every seat random, every seat heuristic, or heuristic at
the odd seats. Every move is checked through the public ``verify_play`` / ``verify_pass`` /
``verify_tribute`` / ``verify_give_back`` on a copy of the bot's cards before it is performed;
the first refused move is printed and ends the run (exit 1). Prints last

    climbing_legality deals=N moves=M illegal=K build=pure|compiled cpu_s=C

``--compiled`` runs the mypyc build of ``tools/compile_engine.py`` (``build/mypyc``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OPTIONS: list[dict[str, Any]] = [
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"players": 4, "decks": 2},
    {"players": 5, "decks": 2},
    {"players": 6, "decks": 2},
    {"players": 4, "tribute": False},
]
MATCH = 20


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
    from engine.climbing_bots import ClimbingHeuristicBot, make_bots, perform
    from engine.climbing_deal import ClimbingDeal, ClimbingSetup, next_setup
    from engine.errors import EngineError

    build = "pure" if str(mod.__file__).endswith(".py") else "compiled"
    deals = moves = 0
    cpu = time.process_time()
    match = 0
    while deals < args.deals:
        options = OPTIONS[match % len(OPTIONS)]
        kind = ("random", "heuristic", "mixed")[match % 3]
        setup = ClimbingSetup("climbing", options, match)
        for k in range(min(MATCH, args.deals - deals)):
            deal = ClimbingDeal(setup)
            bots = make_bots("random" if kind == "mixed" else kind, deal.n, match * 50 + k)
            if kind == "mixed":
                bots = [ClimbingHeuristicBot(s) if s % 2 else b for s, b in enumerate(bots)]
            while deal.outcome is None:
                if deal.phase == "draw":
                    deal.draw()
                    continue
                seat = deal.to_act
                assert seat is not None
                action = bots[seat].act(deal, seat)
                try:
                    if action[0] == "play":
                        deal.verify_play(seat, list(action[2]))
                    elif action[0] == "pass":
                        deal.verify_pass(seat)
                    elif action[0] == "tribute":
                        deal.verify_tribute(seat, action[2])
                    else:
                        deal.verify_give_back(seat, action[2])
                except EngineError as e:
                    print(f"illegal: seat {seat} {action[0]} ({e.code}): {e}")
                    return 1
                perform(deal, action)
                moves += 1
            deals += 1
            setup = next_setup(deal, setup.seed + 1000)
        match += 1
    print(
        f"climbing_legality deals={deals} moves={moves} illegal=0 build={build} "
        f"cpu_s={time.process_time() - cpu:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
