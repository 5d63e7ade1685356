"""The arena: two bots play *duplicate pairs* and the table says which is stronger.

    python -m engine.arena --variant tractor-4p --a mc --b heuristic --deals 100 --seed 1
                           [--games] [--time-per-move MS] [--samples K] [--options JSON]

Each deal is played twice on the same cards (the same setup and seed) with the bots' seats
swapped: bot A sits at the even seats and B at the odd ones, then the other way round, so the
cards cancel out and what is left is play. Later-deal setups (``first=False``) with the dealer
turning round the table make the declarer the same seat in both deals of a pair (red five: the
previous dealer, since its calls choose the dealer).

Per variant it prints A's mean advantage per deal with a 95 % confidence interval over the
pairs — levels for the fixed-side variants (A's levels gained minus B's), 积分 per seat for
``red-five-5p`` — and the attackers'-points margin (the points A took attacking minus the points
B took attacking the same cards; red five: the card points A's seats won minus B's), the
leveling rate (deals in which a bot's side went up; red five: came out ahead), the p95 time
per move of each bot (CPU time of the thread, so other work on a shared machine does not
count), the illegal moves attempted (each replaced by a random legal move, and
counted), and last the line

    arena variant=V a=A b=B deals=N diff=D ci95=[L,U] move_p95_ms_a=X illegal=0

``--variant climbing`` (争上游, a game of individuals) plays each deal once with A at each seat
and B at the others instead (``engine.climbing_arena``), with the same last line: ``diff`` is
A's advantage in places (B's mean place minus A's).

``--variant hundred-4p``, ``forty-4p`` or ``hundred-3p`` (打百分, ``engine.hundred_arena``) plays
duplicate pairs of that family (``--options '{"friend": "fixed"}'`` and so on), A's advantage in
积分 per seat (fixed pairs: units), with the same last line; ``mc`` is ``HundredMCBot`` there.

``--games`` plays games instead (to A; red five: ``--game-deals`` deals, default 10) in
duplicate pairs on the same game seed and prints the games won by A with a Wilson interval.
Everything is deterministic by ``--seed`` except the ``mc`` bot's time box; ``--samples K``
gives it a fixed number of sampled worlds per move instead (repeatable).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bots import HeuristicBot, RandomBot, perform
from .deal import DRAW, PLAY, Deal, DealSetup
from .errors import EngineError
from .game import Game
from .hundred_rules import FAMILY_IDS
from .mcbot import MCBot
from .variants import ALL_VARIANT_IDS, CLIMBING, RED_FIVE, VARIANT_IDS, make_variant

BOT_NAMES = ("random", "heuristic", "mc")
Z95 = 1.959963984540054


def make_bot(
    name: str, seed: int, time_per_move_ms: float = 1000.0, samples: int | None = None
) -> RandomBot:
    """A bot by name: ``random``, ``heuristic`` or ``mc`` (time-boxed, or ``samples`` worlds)."""
    if name == "random":
        return RandomBot(seed)
    if name == "heuristic":
        return HeuristicBot(seed)
    if name == "mc":
        return MCBot(
            seed, time_per_move=time_per_move_ms / 1000.0, samples=samples, clock=time.thread_time
        )
    raise EngineError("bots.kind", got=repr(name))


# --- interval arithmetic --------------------------------------------------------------------


def mean_ci(xs: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its normal-approximation interval (sample standard deviation, n − 1);
    one value gives an interval of that value alone, none gives zeros."""
    n = len(xs)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = sum(xs) / n
    if n == 1:
        return m, m, m
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    h = z * math.sqrt(var / n)
    return m, m - h, m + h


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k`` of ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - h), min(1.0, centre + h)


def p95(xs: Sequence[float]) -> float:
    """The 95th percentile by nearest rank (0 for no values)."""
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[max(0, math.ceil(0.95 * len(s)) - 1)]


# --- playing ----------------------------------------------------------------------------------


@dataclass
class Tally:
    """Move times (seconds) and illegal moves, per bot (A and B)."""

    times: dict[str, list[float]] = field(default_factory=lambda: {"a": [], "b": []})
    illegal: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})


def play_seated(
    deal: Deal, bots: Sequence[RandomBot], owner: Sequence[str], tally: Tally, seed: int = 0
) -> Deal:
    """Play the deal to its end, ``owner[s]`` (``"a"`` or ``"b"``) naming whose bot sits at
    seat ``s``. Every play is timed; an illegal action is counted and replaced by a random
    legal one, so the deal always ends."""
    fallback = RandomBot(seed)
    while deal.outcome is None:
        if deal.phase == DRAW:
            drew = deal.draw().seat
            if deal.can_call_now(drew):
                call = bots[drew].on_draw(deal, drew)
                if call is not None:
                    try:
                        deal.call(drew, call)
                    except EngineError:
                        tally.illegal[owner[drew]] += 1
            continue
        seat = deal.to_act
        assert seat is not None
        move(deal, seat, bots[seat], fallback, perform, owner[seat], tally, deal.phase == PLAY)
    return deal


def move(
    deal: Any,
    seat: int,
    bot: Any,
    fallback: Any,
    apply: Callable[[Any, Any], object],
    who: str,
    tally: Tally,
    timed: bool,
) -> None:
    """``bot`` (``who``'s, ``"a"`` or ``"b"``) makes the move of ``seat``, applied by
    ``apply(deal, action)`` (the trick games' ``perform`` or 争上游's); its thinking time is
    counted when ``timed``, and an illegal action is counted and replaced by ``fallback``'s."""
    t0 = time.thread_time()
    try:
        action = bot.act(deal, seat)
    except EngineError:
        action = None
    if timed:
        tally.times[who].append(time.thread_time() - t0)
    try:
        if action is None:
            raise EngineError("bots.no_follow")
        apply(deal, action)
    except EngineError:
        tally.illegal[who] += 1
        apply(deal, fallback.act(deal, seat))


def owners(n: int, a_even: bool) -> list[str]:
    """Who sits where: A at the even seats (or the odd ones), B at the others."""
    return [("a" if (s % 2 == 0) == a_even else "b") for s in range(n)]


@dataclass
class DealScore:
    adv: float  # A's advantage in this deal: levels (A's gain − B's), or 积分 per seat
    margin: float  # points: + when A attacked (its points), − when B attacked
    a_up: bool  # A's side went up (red five: A's seats came out ahead)
    b_up: bool
    played: bool


def score_deal(deal: Deal, own: Sequence[str]) -> DealScore:
    """How the finished deal went for bot A, seated as ``own`` says."""
    r = deal.result
    if deal.outcome != "played" or r is None or deal.dealer is None:
        return DealScore(0.0, 0.0, False, False, False)
    n = deal.n
    if r.scores is not None:
        a = [r.scores[s] for s in range(n) if own[s] == "a"]
        b = [r.scores[s] for s in range(n) if own[s] == "b"]
        won_a = sum(deal.won[s] for s in range(n) if own[s] == "a")
        won_b = sum(deal.won[s] for s in range(n) if own[s] == "b")
        # per seat-deal: across a pair each bot sits once at every seat
        return DealScore((sum(a) - sum(b)) / n, float(won_a - won_b), sum(a) > 0, sum(b) > 0, True)
    dealer_side = deal.dealer % 2
    a_side = 0 if own[0] == "a" else 1
    winner_side = dealer_side if r.winner == "declarer" else 1 - dealer_side
    lv = r.levels or 0
    adv = float(lv if winner_side == a_side else -lv)
    a_attacks = a_side != dealer_side
    total = r.total or 0  # None only for a deal a penalty ended (never in self-play)
    margin = float(total if a_attacks else -total)
    up = lv > 0
    return DealScore(adv, margin, up and winner_side == a_side, up and winner_side != a_side, True)


Factory = Callable[[int], RandomBot]


def _seat_bots(n: int, own: Sequence[str], fa: Factory, fb: Factory, seed: int) -> list[RandomBot]:
    return [(fa if own[s] == "a" else fb)(seed * 16 + s) for s in range(n)]


def duplicate_pair(
    variant: str,
    options: dict[str, Any],
    seed: int,
    dealer: int,
    fa: Factory,
    fb: Factory,
    tally: Tally,
) -> tuple[DealScore, DealScore]:
    """One deal played twice on the same cards, the bots' seats swapped."""
    n = make_variant(variant, options).players
    setup = DealSetup(variant, options, seed, dealer=dealer, first=False)
    out = []
    for a_even in (True, False):
        own = owners(n, a_even)
        deal = Deal(setup)
        play_seated(deal, _seat_bots(n, own, fa, fb, seed), own, tally, seed)
        out.append(score_deal(deal, own))
    return out[0], out[1]


@dataclass
class GameScore:
    a_won: bool
    b_won: bool
    deals: list[DealScore]


def play_game(
    variant: str,
    options: dict[str, Any],
    seed: int,
    own: Sequence[str],
    fa: Factory,
    fb: Factory,
    tally: Tally,
    red_five_deals: int = 10,
    max_deals: int = 300,
) -> GameScore:
    """A game to A (red five: a number of deals, the higher 积分 total wins)."""
    g = Game(variant, options, seed)
    n = g.variant.players
    deals: list[DealScore] = []
    limit = red_five_deals if variant == RED_FIVE else max_deals
    while not g.over and len(deals) < limit:
        d = g.next_deal()
        play_seated(d, _seat_bots(n, own, fa, fb, d.setup.seed % 2**31), own, tally)
        g.record(d)
        deals.append(score_deal(d, own))
    if variant == RED_FIVE:
        a = sum(g.scores[s] for s in range(n) if own[s] == "a")
        b = sum(g.scores[s] for s in range(n) if own[s] == "b")
        return GameScore(a > b, b > a, deals)
    side = g.passed_by
    a_side = 0 if own[0] == "a" else 1
    return GameScore(side == a_side, side is not None and side != a_side, deals)


# --- the command ------------------------------------------------------------------------------


def _fmt(x: float) -> str:
    return f"{x:+.3f}"


def run_variant(args: argparse.Namespace, variant: str, options: dict[str, Any]) -> list[str]:
    """Play one variant's pairs and return the lines to print (the arena line last)."""
    if variant == CLIMBING:  # 争上游: each deal once per seat of A (engine.climbing_arena)
        from .climbing_arena import run as run_climbing

        return run_climbing(args.a, args.b, args.deals, args.seed, options)
    if variant in FAMILY_IDS:  # 打百分: duplicate pairs of its own deals (engine.hundred_arena)
        from .hundred_arena import run as run_hundred

        return run_hundred(
            variant,
            args.a,
            args.b,
            args.deals,
            args.seed,
            options,
            args.time_per_move,
            args.samples,
        )
    n = make_variant(variant, options).players
    tally = Tally()

    def fa(seed: int) -> RandomBot:
        return make_bot(args.a, seed, args.time_per_move, args.samples)

    def fb(seed: int) -> RandomBot:
        return make_bot(args.b, seed + 7, args.time_per_move, args.samples)

    rng = random.Random(args.seed)
    pair_adv: list[float] = []
    pair_margin: list[float] = []
    scores: list[DealScore] = []
    lines: list[str] = []
    if args.games:
        wins = losses = 0
        for _ in range(args.deals):
            gseed = rng.getrandbits(48)
            g1 = play_game(variant, options, gseed, owners(n, True), fa, fb, tally, args.game_deals)
            g2 = play_game(
                variant, options, gseed, owners(n, False), fa, fb, tally, args.game_deals
            )
            wins += g1.a_won + g2.a_won
            losses += g1.b_won + g2.b_won
            both = g1.deals + g2.deals
            scores.extend(both)
            pair_adv.append(sum(s.adv for s in both) / max(1, len(both)))
            pair_margin.append(sum(s.margin for s in both) / max(1, len(both)))
        games = 2 * args.deals
        lo, hi = wilson(wins, games)
        lines.append(
            f"games: {games} ({args.deals} duplicate pairs), won by A {wins}, by B {losses}, "
            f"A's win rate {wins / games:.3f} ci95=[{lo:.3f},{hi:.3f}] (Wilson)"
        )
    else:
        for i in range(args.deals):
            seed = rng.getrandbits(48)
            s1, s2 = duplicate_pair(variant, options, seed, i % n, fa, fb, tally)
            scores.extend((s1, s2))
            pair_adv.append((s1.adv + s2.adv) / 2)
            # fixed sides: A's points attacking minus B's on the same cards; red five: per deal
            pair_margin.append((s1.margin + s2.margin) / (2 if variant == RED_FIVE else 1))
    unit = "积分 per seat" if variant == RED_FIVE else "levels"
    m, lo, hi = mean_ci(pair_adv)
    mm, mlo, mhi = mean_ci(pair_margin)
    played = [s for s in scores if s.played]
    a_up = sum(s.a_up for s in played)
    b_up = sum(s.b_up for s in played)
    rate = "came out ahead" if variant == RED_FIVE else "went up"
    margin_what = (
        "card points won by A's seats minus B's, per deal"
        if variant == RED_FIVE
        else "attackers' points, A attacking minus B attacking the same cards"
    )
    if args.games and variant != RED_FIVE:
        margin_what = "attackers' points per deal, + when A attacked, − when B did"
    pa = p95(tally.times["a"]) * 1000
    pb = p95(tally.times["b"]) * 1000
    illegal = tally.illegal["a"] + tally.illegal["b"]
    lines += [
        f"variant {variant}: A={args.a} B={args.b}, {args.deals} duplicate pairs "
        f"({len(scores)} deals, {len(played)} played to the end)",
        f"  A's advantage per deal ({unit}): {_fmt(m)} ci95=[{lo:+.3f},{hi:+.3f}]",
        f"  margin ({margin_what}): {_fmt(mm)} ci95=[{mlo:+.2f},{mhi:+.2f}]",
        f"  leveling rate ({rate}): A {a_up / max(1, len(played)):.3f}, "
        f"B {b_up / max(1, len(played)):.3f}",
        f"  time per move p95: A {pa:.1f} ms, B {pb:.1f} ms "
        f"({len(tally.times['a'])} and {len(tally.times['b'])} plays)",
        f"  illegal moves attempted: A {tally.illegal['a']}, B {tally.illegal['b']}",
        f"arena variant={variant} a={args.a} b={args.b} deals={args.deals} diff={m:.3f} "
        f"ci95=[{lo:.3f},{hi:.3f}] move_p95_ms_a={pa:.1f} illegal={illegal}",
    ]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m engine.arena",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--variant",
        action="append",
        choices=ALL_VARIANT_IDS,
        help="repeat for several; default: the three trick games (climbing and 打百分's "
        "hundred-4p, forty-4p, hundred-3p: only by name)",
    )
    p.add_argument("--a", required=True, choices=BOT_NAMES)
    p.add_argument("--b", required=True, choices=BOT_NAMES)
    p.add_argument("--deals", type=int, default=100, help="duplicate pairs (--games: game pairs)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--games", action="store_true", help="play games to A instead of deals")
    p.add_argument("--game-deals", type=int, default=10, help="red five: deals in a game")
    p.add_argument(
        "--time-per-move",
        type=float,
        default=1000.0,
        help="mc's time box per move in milliseconds (default 1000)",
    )
    p.add_argument(
        "--samples",
        type=int,
        default=None,
        help="mc: this many sampled worlds per move instead of a time box",
    )
    p.add_argument("--options", default="{}", help="variant options as a JSON object")
    args = p.parse_args(argv)
    if args.deals < 1:
        p.error("--deals must be 1 or more")
    if args.time_per_move <= 0:
        p.error("--time-per-move must be more than 0")
    if args.samples is not None and args.samples < 1:
        p.error("--samples must be 1 or more")
    try:
        options = json.loads(args.options)
    except ValueError:
        p.error("--options must be a JSON object")
    if not isinstance(options, dict):
        p.error("--options must be a JSON object")
    variants = args.variant or list(VARIANT_IDS)
    if CLIMBING in variants:
        if args.games:
            p.error("climbing is played deal by deal: --games is for the trick games")
        if "mc" in (args.a, args.b):
            p.error(
                "climbing's bots are random and heuristic (mc plays the trick games and 打百分)"
            )
    if args.games and any(v in FAMILY_IDS for v in variants):
        p.error("打百分 is played deal by deal: --games is for the trick games")
    try:
        for v in variants:
            for line in run_variant(args, v, options):
                print(line, flush=True)
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
