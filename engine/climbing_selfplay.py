"""``python -m engine.selfplay --variant climbing``: bots play 争上游 deals and a line per deal is
printed (who led and why, the tribute, the order of going out, the points). ``--game`` plays one
match at a table (the deals chained, so the tribute passes from the second deal on); without it
every deal is a first deal. ``--log FILE`` writes ``{"setup": …, "log": […]}`` per deal, which
``engine.climbing_deal.replay(line["setup"], line["log"])`` reads back.

``legality`` is the bots' legality check (``bench/climbing_legality.py`` and the engine tests run
it): matches at one table over every table size and option set, every move a bot makes checked
through the engine's public ``verify_*`` before it is performed."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from .cards import card_str
from .climbing_bots import (
    ClimbingHeuristicBot,
    ClimbingRandomBot,
    make_bots,
    perform,
    play_deal,
)
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


# --- the legality check -------------------------------------------------------------------------

LEGALITY_OPTIONS: tuple[dict[str, Any], ...] = (
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"players": 4, "decks": 2},
    {"players": 5, "decks": 2},
    {"players": 6, "decks": 2},
    {"players": 4, "tribute": False},
    {"players": 4, "place_points": [5, 2, 1, 0]},
)
MIXES: tuple[str, ...] = ("random", "heuristic", "mixed")


class IllegalBotMove(Exception):
    """A bot's move the engine refused: the seat, the action and the engine's error."""

    def __init__(self, seat: int, action: Any, error: EngineError) -> None:
        super().__init__(f"seat {seat} {action[0]} ({error.code}): {error}")
        self.seat = seat
        self.action = action
        self.error = error


@dataclass
class LegalityTally:
    deals: int = 0
    moves: int = 0
    tributes: int = 0  # deals with a tribute paid
    refused: int = 0  # deals with 抗贡


def mix_bots(mix: str, n: int, seed: int) -> list[ClimbingRandomBot]:
    """``random`` or ``heuristic`` at every seat, or ``mixed``: heuristic at the odd seats."""
    if mix != "mixed":
        return make_bots(mix, n, seed)
    return [(ClimbingHeuristicBot if s % 2 else ClimbingRandomBot)(seed * 10 + s) for s in range(n)]


def verify_action(deal: ClimbingDeal, action: Any) -> None:
    """The engine's public check of a bot action ``(kind, seat, *args)``: raises if illegal."""
    kind, seat = action[0], action[1]
    if kind == "play":
        deal.verify_play(seat, list(action[2]))
    elif kind == "pass":
        deal.verify_pass(seat)
    elif kind == "tribute":
        deal.verify_tribute(seat, action[2])
    elif kind == "return":
        deal.verify_give_back(seat, action[2])
    else:
        raise EngineError("action.unknown", got=repr(kind))


def play_verified(deal: ClimbingDeal, bots: Sequence[ClimbingRandomBot]) -> int:
    """Play ``deal`` to its end, checking every bot move before it is performed; the number of
    moves, or ``IllegalBotMove`` at the first refused one."""
    moves = 0
    while deal.outcome is None:
        if deal.phase == "draw":
            deal.draw()
            continue
        seat = deal.to_act
        assert seat is not None
        action = bots[seat].act(deal, seat)
        try:
            verify_action(deal, action)
        except EngineError as e:
            raise IllegalBotMove(seat, action, e) from e
        perform(deal, action)
        moves += 1
    return moves


def legality(
    deals: int,
    match: int = 20,
    seed: int = 0,
    options: Sequence[dict[str, Any]] = LEGALITY_OPTIONS,
    each: Callable[[ClimbingDeal], None] | None = None,
) -> LegalityTally:
    """Play ``deals`` deals in matches of ``match`` deals at one table (the tribute from each
    match's second deal), the matches going through every option set × bot mix in turn; every
    move checked (``IllegalBotMove`` at the first illegal one); ``each`` sees every finished
    deal. The same arguments play the same deals."""
    tally = LegalityTally()
    m = 0
    while tally.deals < deals:
        setup = ClimbingSetup(CLIMBING, options[(m // len(MIXES)) % len(options)], seed + m)
        mix = MIXES[m % len(MIXES)]
        for k in range(min(match, deals - tally.deals)):
            deal = ClimbingDeal(setup)
            tally.moves += play_verified(deal, mix_bots(mix, deal.n, (seed + m) * 100 + k))
            tally.deals += 1
            tally.tributes += deal.tribute_card is not None
            tally.refused += deal.refused
            if each is not None:
                each(deal)
            setup = next_setup(deal, setup.seed + 1000)
        m += 1
    return tally
