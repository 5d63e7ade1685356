"""Benchmark: illegal moves the bots attempt over many deals (goal: 0 in 100,000 deals).

Plays ``--deals`` complete deals (default 100,000) spread over the three variants in turn, each
with a seeded mix of bots (every seat random, every seat heuristic, or heuristic at the even
seats and random at the odd ones), options drawn among every option's choices (decks, triple
tractors, kitty multiplier, throw penalty, …) and setups (a game's first deal, or a later one
with random levels and dealer). Every move a bot makes is checked through the engine's public
validation before it is performed: ``verify_call`` / ``verify_pass`` / ``verify_redeal`` /
``verify_bury`` / ``verify_call_friend`` / ``verify_play`` on a *copy* of the bot's cards (a
copy is never vouched for, so the play gets the full proof a human's would). A refused move is
counted as illegal (the first few are printed with their code), replaced by a random bot's
checked move, and the deal goes on; a bot that raises instead of moving counts too.

Prints per variant the deals, their outcomes, the moves checked and the illegal ones, then the
wall and CPU time (``time.process_time``) and last

    legality deals=N moves=M illegal=K build=pure|compiled wall_s=W cpu_s=C

``--hundred`` checks the 打百分 family instead (its last line starts ``legality family=hundred``).
``--compiled`` runs the mypyc build of ``tools/compile_engine.py`` (``build/mypyc``); it takes
about half an hour of CPU on the pure engine, so run it niced: ``nice -n 19 .venv/bin/python
bench/engine_legality.py --compiled``. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ("tractor-4p", "red-five-5p", "one-twenty-6p")
MIXES = ("random", "heuristic", "mixed")
SHOWN = 10  # illegal moves printed in full


def _engine(compiled: bool, root: Path | None = None) -> Any:
    if root is None:
        root = ROOT / "build" / "mypyc" if compiled else ROOT
    if compiled and not list((root / "engine").glob("deal.*.so")):
        raise SystemExit(f"error: no compiled engine in {root}: run tools/compile_engine.py")
    sys.path.insert(0, str(root))
    import engine.bots
    import engine.deal
    import engine.errors
    import engine.variants

    return engine


def _build(eng: Any) -> str:
    files = (eng.deal.__file__, eng.bots.__file__)
    return "compiled" if all(not str(f).endswith(".py") for f in files) else "pure"


def _options(eng: Any, variant: str, rng: random.Random) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in eng.variants.option_names(variant):
        choices = eng.variants.option_spec(name).choices
        if choices:
            out[name] = rng.choice(choices)
    return out


def _setup(eng: Any, variant: str, seed: int, rng: random.Random) -> Any:
    options = _options(eng, variant, rng)
    n = eng.variants.make_variant(variant, options).players
    if rng.random() < 0.5:
        return eng.deal.DealSetup(variant, options, seed)
    ranks = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    levels = ("2", "2") if variant == "red-five-5p" else (rng.choice(ranks), rng.choice(ranks))
    dealer = rng.randrange(n)
    return eng.deal.DealSetup(variant, options, seed, levels, dealer, False, False, 2)


def _bots(eng: Any, mix: str, n: int, seed: int) -> list[Any]:
    random_bots = eng.bots.make_bots("random", n, seed)
    if mix == "random":
        return random_bots
    heuristic = eng.bots.make_bots("heuristic", n, seed)
    if mix == "heuristic":
        return heuristic
    return [heuristic[s] if s % 2 == 0 else random_bots[s] for s in range(n)]


class Checker:
    """Checks each move through the public ``verify_…`` methods before performing it."""

    def __init__(self, eng: Any) -> None:
        self.eng = eng
        self.moves = 0
        self.illegal = 0
        self.shown: list[str] = []

    def refuse(self, where: str, what: object, err: Exception) -> None:
        self.illegal += 1
        if len(self.shown) < SHOWN:
            code = getattr(err, "code", type(err).__name__)
            self.shown.append(f"  illegal: {where}: {what!r}: {code}: {err}")

    def check(self, deal: Any, action: Any) -> None:
        """Raise the engine's error when ``action`` is not legal now; change nothing."""
        self.moves += 1
        kind, seat = action[0], action[1]
        if kind == "play":
            deal.verify_play(seat, list(action[2]))
        elif kind == "call":
            deal.verify_call(seat, list(action[2]))
        elif kind == "pass":
            deal.verify_pass(seat)
        elif kind == "redeal":
            deal.verify_redeal(seat)
        elif kind == "bury":
            deal.verify_bury(seat, list(action[2]))
        elif kind == "friend":
            deal.verify_call_friend(seat, action[2])
        else:
            raise self.eng.errors.IllegalAction("action.unknown", got=repr(kind))

    def play(self, deal: Any, bots: list[Any], fallback: Any, where: str) -> None:
        EngineError = self.eng.errors.EngineError
        perform = self.eng.bots.perform
        action: Any
        while deal.outcome is None:
            if deal.phase == "draw":
                drew = deal.draw().seat
                if deal.can_call_now(drew):
                    call = bots[drew].on_draw(deal, drew)
                    if call is not None:
                        action = ("call", drew, call)
                        try:
                            self.check(deal, action)
                        except EngineError as e:
                            self.refuse(where, action, e)
                            continue
                        perform(deal, action)
                continue
            seat = deal.to_act
            action = f"seat {seat}'s move in {deal.phase} (the bot raised)"
            try:
                action = bots[seat].act(deal, seat)
                self.check(deal, action)
            except EngineError as e:
                self.refuse(where, action, e)
                action = fallback.act(deal, seat)
                self.check(deal, action)  # a refused fallback stops the run: it cannot go on
            perform(deal, action)


def hundred(deals: int, seed: int, build: str) -> int:
    """``--hundred``: the same check over the 打百分 family (``engine.hundred_bots.legality``:
    every variant and friend mode, open or hidden kitty, both stakes, random, heuristic and mixed
    bots, every move through the public ``verify_…`` methods before it is made)."""
    import engine.hundred_bots

    print(f"{build} engine ({engine.hundred_bots.__file__}), {deals} deals", flush=True)
    wall, cpu = time.perf_counter(), time.process_time()
    illegal, moves, per_mode = engine.hundred_bots.legality(deals, seed)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    for mode, n in per_mode.items():
        print(f"{mode}: {n} deals")
    print(
        f"legality family=hundred deals={deals} moves={moves} illegal={illegal} build={build} "
        f"wall_s={wall:.0f} cpu_s={cpu:.0f}"
    )
    return 0 if illegal == 0 else 1


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--compiled", action="store_true", help="the build/mypyc engine")
    p.add_argument("--root", type=Path, default=None, help="import the engine under ROOT")
    p.add_argument("--hundred", action="store_true", help="the 打百分 family instead")
    args = p.parse_args()
    eng = _engine(args.compiled, args.root)
    build = _build(eng)
    if args.hundred:
        return hundred(args.deals, args.seed, build)
    print(f"{build} engine ({eng.deal.__file__}), {args.deals} deals", flush=True)
    checker = Checker(eng)
    deals: Counter[str] = Counter()
    outcomes: dict[str, Counter[str]] = {v: Counter() for v in VARIANTS}
    moves: Counter[str] = Counter()
    illegal: Counter[str] = Counter()
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(args.deals):
        variant = VARIANTS[i % len(VARIANTS)]
        seed = args.seed * 1_000_003 + i
        rng = random.Random(seed)
        setup = _setup(eng, variant, seed, rng)
        deal = eng.deal.Deal(setup)
        mix = MIXES[(i // len(VARIANTS)) % len(MIXES)]
        before_moves, before_illegal = checker.moves, checker.illegal
        where = f"deal {i} ({variant}, seed {seed}, {mix} bots, {setup.options})"
        checker.play(deal, _bots(eng, mix, deal.n, seed), eng.bots.RandomBot(seed), where)
        deals[variant] += 1
        outcomes[variant][deal.outcome] += 1
        moves[variant] += checker.moves - before_moves
        illegal[variant] += checker.illegal - before_illegal
        if (i + 1) % 10_000 == 0:
            print(
                f"  {i + 1} deals, {checker.moves} moves, {checker.illegal} illegal, "
                f"{time.perf_counter() - wall:.0f} s wall, {time.process_time() - cpu:.0f} s CPU",
                flush=True,
            )
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    for line in checker.shown:
        print(line)
    for v in VARIANTS:
        outs = ", ".join(f"{k} {n}" for k, n in sorted(outcomes[v].items()))
        print(f"{v}: {deals[v]} deals ({outs}), {moves[v]} moves checked, {illegal[v]} illegal")
    print(
        f"legality deals={args.deals} moves={checker.moves} illegal={checker.illegal} "
        f"build={build} wall_s={wall:.1f} cpu_s={cpu:.1f}"
    )
    return 0 if checker.illegal == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
