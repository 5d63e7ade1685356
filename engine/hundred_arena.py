"""``python -m engine.arena --variant hundred-4p|forty-4p|hundred-3p``: the arena in duplicate
form for the 打百分 family.

Each deal is played twice on the same cards (the same setup and seed) with the bots' seats
swapped, as in the trick arena: bot A at the even seats and B at the odd ones, then the other
way round, so over a pair each bot holds every seat (``hundred-3p``: A at seats 0 and 2, then
at seat 1). The deals are later deals, the first drawer (40分下台: the declarer too) going round
the table; the auction, trump, the friend card and the burial are the bots' own.

A deal's score is A's advantage in 积分 per seat: the 积分 of A's seats minus B's, over the
players (fixed pairs, ``hundred-4p`` fixed and ``forty-4p``: the units A's side won, + or −).
The arena prints its mean over the pairs with a 95 % interval, how often A's and B's seats came
out ahead, how often a deal's declarer was A's and won, the p95 time per play, the illegal
moves attempted (each replaced by a random legal move and counted), and last the line

    arena variant=V a=A b=B deals=N diff=D ci95=[L,U] move_p95_ms_a=X illegal=0

Deterministic by ``--seed`` except the ``mc`` bot's time box (``--samples K`` is repeatable).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import hundred_rules as hr
from .arena import Tally, mean_ci, move, owners, p95
from .errors import EngineError
from .hundred import DONE, PLAY, HundredDeal, HundredSetup
from .hundred_bots import HeuristicHundredBot, RandomHundredBot, perform
from .hundred_mcbot import HundredMCBot

HundredFactory = Callable[[int], RandomHundredBot]


def make_hundred_bot(
    name: str, seed: int, time_per_move_ms: float = 1000.0, samples: int | None = None
) -> RandomHundredBot:
    """A 打百分 bot by name: ``random``, ``heuristic`` or ``mc`` (time-boxed on this thread's
    CPU time, or ``samples`` worlds per move)."""
    if name == "random":
        return RandomHundredBot(seed)
    if name == "heuristic":
        return HeuristicHundredBot(seed)
    if name == "mc":
        return HundredMCBot(
            seed, time_per_move=time_per_move_ms / 1000.0, samples=samples, clock=time.thread_time
        )
    raise EngineError("bots.kind", got=repr(name))


def play_seated(
    deal: HundredDeal,
    bots: Sequence[RandomHundredBot],
    owner: Sequence[str],
    tally: Tally,
    seed: int = 0,
) -> HundredDeal:
    """Play the deal to its end, ``owner[s]`` naming whose bot sits at seat ``s``. Every play
    is timed (the auction, trump, friend card and burial are not); an illegal action is
    counted and replaced by a random legal one (``arena.move``)."""
    fallback = RandomHundredBot(seed)
    while deal.phase != DONE:
        seat = deal.to_act
        assert seat is not None
        move(deal, seat, bots[seat], fallback, perform, owner[seat], tally, deal.phase == PLAY)
    return deal


@dataclass
class HundredScore:
    """One play of a deal, from A's side."""

    adv: float  # 积分 of A's seats minus B's, per seat (fixed pairs: A's side's units)
    a_ahead: bool  # A's seats came out ahead
    b_ahead: bool
    a_declared: bool  # the declarer was A's
    declarer_won: bool


def score_hundred(deal: HundredDeal, own: Sequence[str]) -> HundredScore:
    """How the finished deal went for bot A, seated as ``own`` says."""
    r = deal.result
    assert r is not None and r.scores is not None and deal.declarer is not None
    n = deal.variant.players
    a = sum(r.scores[s] for s in range(n) if own[s] == "a")
    b = sum(r.scores[s] for s in range(n) if own[s] == "b")
    # fixed pairs: each seat of a side scores its side's units, so (a − b) / 4 is A's units
    return HundredScore(
        (a - b) / n, a > 0, b > 0, own[deal.declarer] == "a", r.winner == hr.DECLARER
    )


def duplicate_pair(
    variant: str,
    options: dict[str, Any],
    seed: int,
    first: int,
    fa: HundredFactory,
    fb: HundredFactory,
    tally: Tally,
) -> tuple[HundredScore, HundredScore]:
    """One deal played twice on the same cards, the bots' seats swapped."""
    v = hr.make_hundred_variant(variant, options)
    n = v.players
    declarer = None if v.bidding else first  # 40分下台: a later deal's declarer
    setup = HundredSetup(variant, dict(options), seed, first, declarer)
    out = []
    for a_even in (True, False):
        own = owners(n, a_even)
        bots = [(fa if own[s] == "a" else fb)(seed * 16 + s) for s in range(n)]
        deal = play_seated(HundredDeal(setup), bots, own, tally, seed)
        out.append(score_hundred(deal, own))
    return out[0], out[1]


def _fmt(x: float) -> str:
    return f"{x:+.3f}"


def run(
    variant: str,
    a: str,
    b: str,
    deals: int,
    seed: int,
    options: dict[str, Any],
    time_per_move_ms: float = 1000.0,
    samples: int | None = None,
) -> list[str]:
    """Play ``deals`` duplicate pairs and return the lines to print (the arena line last)."""
    v = hr.make_hundred_variant(variant, options)
    n = v.players

    def fa(s: int) -> RandomHundredBot:
        return make_hundred_bot(a, s, time_per_move_ms, samples)

    def fb(s: int) -> RandomHundredBot:
        return make_hundred_bot(b, s + 7, time_per_move_ms, samples)

    tally = Tally()
    rng = random.Random(seed)
    pair_adv: list[float] = []
    scores: list[HundredScore] = []
    for i in range(deals):
        s1, s2 = duplicate_pair(variant, options, rng.getrandbits(48), i % n, fa, fb, tally)
        scores += [s1, s2]
        pair_adv.append((s1.adv + s2.adv) / 2)
    m, lo, hi = mean_ci(pair_adv)
    unit = "units of A's side" if v.fixed_pairs else "积分 per seat"
    total = len(scores)
    a_ahead = sum(s.a_ahead for s in scores) / total
    b_ahead = sum(s.b_ahead for s in scores) / total
    by_a = [s for s in scores if s.a_declared]
    by_b = [s for s in scores if not s.a_declared]
    won_a = sum(s.declarer_won for s in by_a) / max(1, len(by_a))
    won_b = sum(s.declarer_won for s in by_b) / max(1, len(by_b))
    pa = p95(tally.times["a"]) * 1000
    pb = p95(tally.times["b"]) * 1000
    illegal = tally.illegal["a"] + tally.illegal["b"]
    shown = ", ".join(f"{k}={val}" for k, val in v.options.items())
    return [
        f"variant {variant} ({shown}): A={a} B={b}, {deals} duplicate pairs ({total} deals)",
        f"  A's advantage per deal ({unit}): {_fmt(m)} ci95=[{lo:+.3f},{hi:+.3f}]",
        f"  came out ahead: A's seats {a_ahead:.3f}, B's {b_ahead:.3f}",
        f"  declared and won: A {won_a:.3f} of {len(by_a)}, B {won_b:.3f} of {len(by_b)}",
        f"  time per move p95: A {pa:.1f} ms, B {pb:.1f} ms "
        f"({len(tally.times['a'])} and {len(tally.times['b'])} plays)",
        f"  illegal moves attempted: A {tally.illegal['a']}, B {tally.illegal['b']}",
        f"arena variant={variant} a={a} b={b} deals={deals} diff={m:.3f} "
        f"ci95=[{lo:.3f},{hi:.3f}] move_p95_ms_a={pa:.1f} illegal={illegal}",
    ]
