"""Benchmark: standings and next-round pairing of a 200-entrant, 9-round Swiss tractor-4p event.

The tournament is generated deterministically (seeded) through the project's own Swiss pairing,
with 8 deals per match drawn at random and the declarer following the sheet (the winner of a deal
declares the next; passing A ends the match). Prints ``standings: N ms`` and
``pairing next round: N ms`` (medians of a few runs). ``--red-five`` measures a red five event
of as many players (re-seating, 8 deals per table) instead, and also prints the repeated
tablemate pairs of each round.

    .venv/bin/python bench/standings_pairing.py [--entrants 200] [--rounds 9] [--deals 8]
    .venv/bin/python bench/standings_pairing.py --red-five [--entrants 25 --rounds 6]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.competition.model import Deal, Entrant, FailedThrows, MatchSpec, Round, Tournament  # noqa: E402
from app.competition.pairing import pair_next_round  # noqa: E402
from app.competition.standings import standings_json  # noqa: E402
from engine.scoring import deal_result, next_levels  # noqa: E402
from engine.variants import make_variant  # noqa: E402


def random_match(rng: random.Random, deals: int) -> tuple[Deal, ...]:
    variant = make_variant("tractor-4p")
    levels = ("2", "2")
    declarer = rng.randrange(2)
    out: list[Deal] = []
    for _ in range(deals):
        points = 5 * rng.randrange(0, 33)
        kitty = 5 * rng.randrange(0, 9)
        mult = rng.choice((0, 0, 0, 2, 4, 8))
        thrown = FailedThrows(rng.choice((0, 0, 0, 1)), rng.choice((0, 0, 0, 1)))
        deal = Deal(
            points=points,
            kitty=kitty,
            trump=rng.choice(("S", "H", "D", "C", None)),
            declarer=declarer,
            multiplier=mult,
            failed_throws=thrown if thrown else None,
            level=levels[declarer],
        )
        r = deal_result(variant, points, kitty, mult, deal.engine_failed_throws())
        change = next_levels(levels, declarer, r, (), variant.must_play_levels)
        out.append(deal)
        if change.passed:
            break
        levels = change.levels
        declarer = declarer if r.winner == "declarer" else 1 - declarer
    return tuple(out)


def build(entrants: int, rounds: int, deals: int, seed: int) -> Tournament:
    rng = random.Random(seed)
    t = Tournament(
        club="Bench Club",
        name="Bench Swiss",
        variant="tractor-4p",
        pairing="swiss",
        rounds=rounds + 1,
        match=MatchSpec(deals=deals),
        entrants=tuple(
            Entrant(f"Pair {i:03d}", (f"P{i:03d}a", f"P{i:03d}b")) for i in range(entrants)
        ),
    )
    for _ in range(rounds):
        plan = pair_next_round(t)
        tables = tuple(
            tab if tab.bye else replace(tab, deals=random_match(rng, deals)) for tab in plan.tables
        )
        t = replace(t, played=(*t.played, Round(plan.round, tables)))
    return t


def random_red_five(rng: random.Random, deals: int) -> tuple[Deal, ...]:
    out = []
    for _ in range(deals):
        dealer = rng.randrange(5)
        friend = rng.choice([None, *(x for x in range(5) if x != dealer)])
        out.append(
            Deal(
                points=5 * rng.randrange(0, 61),
                kitty=5 * rng.randrange(0, 9),
                trump=rng.choice(("S", "H", "D", "C")),
                dealer=dealer,
                friend=friend,
                multiplier=rng.choice((0, 0, 0, 2, 4)),
                failed_throws=rng.choice(((), (), (), (rng.randrange(5),))) or None,
            )
        )
    return tuple(out)


def build_red_five(players: int, rounds: int, deals: int, seed: int) -> Tournament:
    rng = random.Random(seed)
    t = Tournament(
        club="Bench Club",
        name="Bench Red Five",
        variant="red-five-5p",
        pairing="reseat",
        rounds=rounds + 1,
        match=MatchSpec(deals=deals),
        entrants=tuple(Entrant(f"P{i:03d}", (f"P{i:03d}",)) for i in range(players)),
    )
    for _ in range(rounds):
        plan = pair_next_round(t)
        tables = tuple(
            tab if tab.bye else replace(tab, deals=random_red_five(rng, deals))
            for tab in plan.tables
        )
        t = replace(t, played=(*t.played, Round(plan.round, tables)))
    return t


def repeats_per_round(t: Tournament) -> list[int]:
    met: set[frozenset[str]] = set()
    out = []
    for rnd in t.played:
        pairs = [
            frozenset((a, b))
            for tab in rnd.tables
            for i, a in enumerate(tab.players or ())
            for b in (tab.players or ())[i + 1 :]
        ]
        out.append(sum(p in met for p in pairs))
        met.update(pairs)
    return out


def median_ms(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entrants", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--red-five", action="store_true", help="a red five re-seating event")
    args = ap.parse_args()
    t0 = time.perf_counter()
    make = build_red_five if args.red_five else build
    t = make(args.entrants, args.rounds, args.deals, args.seed)
    built = (time.perf_counter() - t0) * 1000
    n_deals = sum(len(tab.deals) for r in t.played for tab in r.tables)
    print(
        f"built {args.entrants} entrants × {args.rounds} rounds ({n_deals} deals) "
        f"in {built:.0f} ms (pairing each round included)"
    )
    print(f"standings: {median_ms(lambda: standings_json(t), args.runs):.1f} ms")
    print(f"pairing next round: {median_ms(lambda: pair_next_round(t), args.runs):.1f} ms")
    if args.red_five:
        print(f"repeated tablemate pairs per round: {repeats_per_round(t)}")


if __name__ == "__main__":
    main()
