"""Bots play complete deals (or games to A) against each other and print what happened.

    python -m engine.selfplay --variant tractor-4p --deals 10 --seed 1 [--bots heuristic]
                              [--log FILE] [--game] [--options JSON]

One line per deal: the declarer (dealer) seat, trump, level, the attackers' points, the result
and both sides' levels before -> after (red five: units and 积分); then totals. ``--log FILE`` writes every deal's setup and action log as
JSON lines, which ``engine.serialize.replay_setup`` reads back into the identical deals.
``--game`` plays games to A (up to ``--deals`` deals in all).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from .bots import make_bots, play_deal
from .deal import Deal, DealSetup
from .errors import EngineError
from .game import Game
from .hundred_rules import FAMILY_IDS
from .scoring import next_levels
from .variants import CLIMBING, VARIANT_IDS


def _trump(deal: Deal) -> str:
    if not deal.trump_set:
        return "-"
    return deal.trump or "NT"


def describe(deal: Deal) -> str:
    """One readable line for a finished deal."""
    head = f"deal {deal.setup.deal_no:>3} seed {deal.setup.seed}: "
    if deal.outcome != "played":
        who = f" (seat {deal.redeal_by})" if deal.redeal_by is not None else ""
        return head + f"{deal.outcome}{who}"
    r = deal.result
    assert r is not None
    parts = [f"declarer {deal.dealer}", f"trump {_trump(deal)}", f"level {deal.level}"]
    if deal.friend_card is not None or deal.variant.id == "red-five-5p":
        friend = f"friend {deal.friend if deal.friend is not None else 'none'}"
        if deal.friend_grabbed and deal.friend is not None:
            # 抢伴: the dealer side lost → 直搭, the dealer's and friend's changes are swapped
            friend += " (抢伴, " + ("直拼" if r.winner == "declarer" else "直搭: swapped") + ")"
        parts.append(friend)
    parts.append(f"points {r.total}")
    if deal.kitty_bonus:
        parts.append(f"(kitty {deal.kitty_bonus[0]}x{deal.kitty_bonus[1]})")
    if deal.failed_throws:
        parts.append(f"failed throws {deal.failed_throws}")
    if r.levels is not None:
        assert deal.dealer is not None
        side = deal.dealer % 2
        before = deal.setup.levels
        after = next_levels(before, side, r, deal.misplays(), deal.variant.must_play_levels)
        parts.append(
            f"-> {r.winner} +{r.levels}, levels {before[0]}:{before[1]} -> "
            f"{after.levels[0]}:{after.levels[1]}"
        )
    else:
        parts.append(f"-> {r.winner} {r.units} units, scores {r.scores}")
    return head + ", ".join(parts)


def _deals(args: argparse.Namespace, options: dict[str, Any]) -> Iterator[tuple[Deal, str]]:
    n = args.deals
    if args.game:
        done = 0
        g_seed = args.seed
        while done < n:
            game = Game(args.variant, options, g_seed)
            yield_game = f"game seed {g_seed}"
            while not game.over and done < n:
                deal = game.next_deal()
                play_deal(deal, make_bots(args.bots, deal.n, deal.setup.seed))
                game.record(deal)
                done += 1
                extra = ""
                if game.over:
                    extra = f"  side {game.passed_by} passes A: game over ({yield_game})"
                if deal.variant.id == "red-five-5p":
                    extra = f"  total 积分 {game.scores}"
                yield deal, extra
            g_seed += 1
        return
    for i in range(n):
        deal = Deal(DealSetup(args.variant, options, args.seed + i, deal_no=i + 1))
        play_deal(deal, make_bots(args.bots, deal.n, args.seed + i))
        yield deal, ""


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m engine.selfplay", description=__doc__)
    p.add_argument("--variant", required=True, choices=(*VARIANT_IDS, CLIMBING, *FAMILY_IDS))
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", choices=("random", "heuristic"), default="random")
    p.add_argument("--log", help="write each deal's setup and action log (JSON lines)")
    p.add_argument("--game", action="store_true", help="play games to A")
    p.add_argument("--options", default="{}", help="variant options as a JSON object")
    args = p.parse_args(argv)
    if args.deals < 1:
        p.error("--deals must be 1 or more")
    try:
        options = json.loads(args.options)
    except ValueError:
        p.error("--options must be a JSON object")
    if not isinstance(options, dict):
        p.error("--options must be a JSON object")
    if args.variant in FAMILY_IDS:  # 打百分 (engine.hundred_bots)
        from .hundred_bots import selfplay_main

        return selfplay_main(args.variant, options, args.deals, args.seed, args.bots, args.log)
    try:
        out = open(args.log, "w", encoding="utf-8") if args.log else None  # noqa: SIM115
    except OSError as e:
        print(f"error: cannot write the log {args.log}: {e.strerror or e}", file=sys.stderr)
        return 2
    if args.variant == CLIMBING:  # 争上游: its own deal and bots (engine.climbing_selfplay)
        from .climbing_selfplay import run as run_climbing

        try:
            return run_climbing(args.deals, args.seed, args.bots, args.game, options, out)
        finally:
            if out is not None:
                out.close()
    outcomes: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    points = 0
    played = 0
    try:
        for deal, extra in _deals(args, options):
            print(describe(deal) + extra)
            outcomes[deal.outcome or "?"] += 1
            if deal.result is not None:
                winners[deal.result.winner] += 1
                points += deal.result.total or 0
                played += 1
            if out is not None:
                rec = {"setup": deal.setup.to_json(), "log": [r.to_json() for r in deal.log]}
                out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        if out is not None:
            out.close()
    avg = points / played if played else 0
    print(
        f"total: {sum(outcomes.values())} deals ({dict(outcomes)}), won by declarer "
        f"{winners['declarer']}, by attackers {winners['attackers']}, "
        f"attackers' average {avg:.1f} points"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
