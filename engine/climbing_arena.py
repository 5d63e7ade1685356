"""``python -m engine.arena --variant climbing``: the arena in duplicate form for 争上游, a game
of individuals.

Each deal is played ``n`` times on the same cards (the same setup and seed), once with bot A at
each seat and bot B at the others (``seatings``): over a deal every bot sits in every seat, so
the cards and the seats cancel out and what is left is play. The deals are later deals of a
match (``deal_no`` 2, 3, …, so the first drawer goes round the table) with a winner and a loser
drawn at random, so the tribute and its return are played too (unless ``tribute`` is off).

A deal's score is A's advantage in places: the mean place of B's seats minus A's place (+ when
A goes out earlier), averaged over the deal's ``n`` seatings; the arena prints its mean with a
95 % interval over the deals, A's mean place (a seat among bots of one kind averages
``(n + 1) / 2``), A's advantage in points by place (when ``place_points`` is not the default,
which is the places again), how often each bot went out first (上游),
the p95 time per play, the illegal moves attempted (each replaced by a random legal move and
counted), and last the line

    arena variant=climbing a=A b=B deals=N diff=D ci95=[L,U] move_p95_ms_a=X illegal=0

Deterministic by ``--seed``. Bots: ``random`` and ``heuristic`` (``engine.climbing_bots``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .arena import Tally, mean_ci, move, p95
from .climbing_bots import ClimbingHeuristicBot, ClimbingRandomBot, perform
from .climbing_deal import DRAW, PLAY, ClimbingDeal, ClimbingSetup
from .errors import EngineError
from .variants import CLIMBING, make_variant

BOT_NAMES = ("random", "heuristic")

ClimbingFactory = Callable[[int], ClimbingRandomBot]


def make_climbing_bot(name: str, seed: int) -> ClimbingRandomBot:
    """A 争上游 bot by name: ``random`` or ``heuristic``."""
    if name == "random":
        return ClimbingRandomBot(seed)
    if name == "heuristic":
        return ClimbingHeuristicBot(seed)
    raise EngineError("bots.kind", got=repr(name))


def seatings(n: int) -> list[list[str]]:
    """Who sits where in each play of a deal: in the ``r``-th, A at seat ``r`` and B at every
    other seat (``"a"``/``"b"`` per seat), so over the ``n`` plays each bot holds every seat."""
    return [["a" if s == r else "b" for s in range(n)] for r in range(n)]


def play_seated(
    deal: ClimbingDeal,
    bots: Sequence[ClimbingRandomBot],
    owner: Sequence[str],
    tally: Tally,
    seed: int = 0,
) -> ClimbingDeal:
    """Play the deal to its end, ``owner[s]`` naming whose bot sits at seat ``s``. Every play
    and pass is timed (the tribute and its return are not); an illegal action is counted and
    replaced by a random legal one (``arena.move``)."""
    fallback = ClimbingRandomBot(seed)
    while deal.outcome is None:
        if deal.phase == DRAW:
            deal.draw()
            continue
        seat = deal.to_act
        assert seat is not None
        move(deal, seat, bots[seat], fallback, perform, owner[seat], tally, deal.phase == PLAY)
    return deal


@dataclass
class SeatingScore:
    """One play of a deal, from A's seat: its place and points, B's seats' mean of both."""

    a_place: float
    b_place: float
    a_points: float
    b_points: float
    a_first: bool  # A went out first (上游)
    b_first: bool


def score_seating(deal: ClimbingDeal, own: Sequence[str]) -> SeatingScore:
    """How the finished deal went for bot A, seated as ``own`` says."""
    r = deal.result
    assert r is not None
    a = [s for s in range(deal.n) if own[s] == "a"]
    b = [s for s in range(deal.n) if own[s] == "b"]
    return SeatingScore(
        sum(r.places[s] for s in a) / len(a),
        sum(r.places[s] for s in b) / len(b),
        sum(r.points[s] for s in a) / len(a),
        sum(r.points[s] for s in b) / len(b),
        own[r.winner] == "a",
        own[r.winner] == "b",
    )


def rotated_deal(
    setup: ClimbingSetup, fa: ClimbingFactory, fb: ClimbingFactory, tally: Tally
) -> list[tuple[list[str], ClimbingDeal]]:
    """The deal of ``setup`` played once per seating (``seatings``), each on the same cards:
    the seating and the finished deal of each play."""
    n = make_variant(CLIMBING, setup.options).players
    out = []
    for own in seatings(n):
        bots = [(fa if own[s] == "a" else fb)(setup.seed * 16 + s) for s in range(n)]
        deal = play_seated(ClimbingDeal(setup), bots, own, tally, setup.seed)
        out.append((own, deal))
    return out


def _fmt(x: float) -> str:
    return f"{x:+.3f}"


def run(a: str, b: str, deals: int, seed: int, options: dict[str, Any]) -> list[str]:
    """Play ``deals`` deals in duplicate form and return the lines to print (the line last)."""
    fa_name, fb_name = a, b

    def fa(s: int) -> ClimbingRandomBot:
        return make_climbing_bot(fa_name, s)

    def fb(s: int) -> ClimbingRandomBot:
        return make_climbing_bot(fb_name, s + 7)

    n = make_variant(CLIMBING, options).players
    tally = Tally()
    rng = random.Random(seed)
    adv: list[float] = []  # per deal: B's mean place − A's, over the seatings
    points: list[float] = []  # per deal: A's points by place − B's mean
    a_place: list[float] = []
    plays: list[SeatingScore] = []
    for i in range(deals):
        winner, loser = rng.sample(range(n), 2)
        setup = ClimbingSetup(
            CLIMBING, dict(options), rng.getrandbits(48), i + 2, winner=winner, loser=loser
        )
        scores = [score_seating(d, own) for own, d in rotated_deal(setup, fa, fb, tally)]
        plays.extend(scores)
        adv.append(sum(s.b_place - s.a_place for s in scores) / len(scores))
        points.append(sum(s.a_points - s.b_points for s in scores) / len(scores))
        a_place.append(sum(s.a_place for s in scores) / len(scores))
    m, lo, hi = mean_ci(adv)
    pm, plo, phi = mean_ci(points)
    am, alo, ahi = mean_ci(a_place)
    a_first = sum(s.a_first for s in plays) / len(plays)
    # B holds n − 1 seats of each play: its rate per seat
    b_first = sum(s.b_first for s in plays) / len(plays) / (n - 1)
    pa = p95(tally.times["a"]) * 1000
    pb = p95(tally.times["b"]) * 1000
    illegal = tally.illegal["a"] + tally.illegal["b"]
    lines = [
        f"variant {CLIMBING}: A={a} B={b}, {n} players, {deals} deals in duplicate form "
        f"({len(plays)} plays: A at each seat in turn, B at the others)",
        f"  A's advantage per deal (places, B's mean place minus A's): {_fmt(m)} "
        f"ci95=[{lo:+.3f},{hi:+.3f}]",
        f"  A's mean place: {am:.3f} of {n} ci95=[{alo:.3f},{ahi:.3f}] "
        f"(a seat among bots of one kind: {(n + 1) / 2:.1f})",
    ]
    if options.get("place_points") is not None:  # the default n − 1 … 0 is the places again
        lines.append(
            f"  points by place, A's minus B's mean: {_fmt(pm)} ci95=[{plo:+.3f},{phi:+.3f}]"
        )
    return lines + [
        f"  first out (上游) per seat and play: A {a_first:.3f}, B {b_first:.3f}",
        f"  time per move p95: A {pa:.1f} ms, B {pb:.1f} ms "
        f"({len(tally.times['a'])} and {len(tally.times['b'])} moves)",
        f"  illegal moves attempted: A {tally.illegal['a']}, B {tally.illegal['b']}",
        f"arena variant={CLIMBING} a={a} b={b} deals={deals} diff={m:.3f} "
        f"ci95=[{lo:.3f},{hi:.3f}] move_p95_ms_a={pa:.1f} illegal={illegal}",
    ]
