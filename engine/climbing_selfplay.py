"""``python -m engine.selfplay --variant climbing``: bots play 争上游 deals and a line per deal is
printed (who led and why, the tribute, the order of going out, the points). ``--game`` plays one
match at a table (the deals chained, so the tribute passes from the second deal on); without it
every deal is a first deal. ``--log FILE`` writes ``{"setup": …, "log": […]}`` per deal, which
``engine.climbing_deal.replay(line["setup"], line["log"])`` reads back."""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any, TextIO

from .cards import card_str
from .climbing_bots import make_bots, play_deal
from .climbing_deal import ClimbingDeal, ClimbingSetup, next_setup
from .errors import EngineError
from .variants import CLIMBING


def describe(deal: ClimbingDeal) -> str:
    """One readable line for a finished deal."""
    r = deal.result
    assert r is not None
    s = deal.setup
    parts = [f"deal {s.deal_no:>3} seed {s.seed}:"]
    if deal.lead_by == "winner":
        assert deal.tribute_card is not None and deal.returned_card is not None
        parts.append(
            f"tribute {s.loser}->{s.winner} {card_str(deal.tribute_card)}, "
            f"back {card_str(deal.returned_card)}, seat {s.winner} leads;"
        )
    else:
        refused = f"抗贡 by seat {s.loser}, " if deal.refused else ""
        parts.append(
            f"{refused}turned {card_str(deal.turned)} to seat {deal.turned_seat}, who leads;"
        )
    parts.append(f"out {' '.join(str(x) for x in r.out_order)}, points {list(r.points)}")
    return " ".join(parts)


def run(
    deals: int, seed: int, bots: str, game: bool, options: dict[str, Any], log: TextIO | None
) -> int:
    totals: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    try:
        setup = ClimbingSetup(CLIMBING, options, seed)
        for i in range(deals):
            deal = ClimbingDeal(setup)
            play_deal(deal, make_bots(bots, deal.n, setup.seed))
            assert deal.result is not None
            print(describe(deal))
            for s, p in enumerate(deal.result.points):
                totals[s] += p
            wins[deal.result.winner] += 1
            if log is not None:
                rec = {"setup": deal.setup.to_json(), "log": [r.to_json() for r in deal.log]}
                log.write(json.dumps(rec, ensure_ascii=False) + "\n")
            if game:
                setup = next_setup(deal, seed + i + 1)
            else:
                setup = ClimbingSetup(CLIMBING, options, seed + i + 1, i + 2)
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    n = len(totals)
    print(
        f"total: {deals} deals, points by seat {[totals[s] for s in range(n)]}, "
        f"上游 by seat {[wins[s] for s in range(n)]}"
    )
    return 0
