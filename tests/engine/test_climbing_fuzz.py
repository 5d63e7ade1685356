"""Junk to every public function, class and method of the 争上游 modules gets an EngineError
(never IndexError, KeyError, TypeError…), on both engine builds, as ``test_engine_api_fuzz``
does for the trick games."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import random
from typing import Any

import pytest

from engine.climbing_bots import ClimbingRandomBot, make_bots, perform
from engine.climbing_deal import ClimbingDeal, ClimbingSetup
from engine.errors import EngineError
from engine.variants import make_variant
from tests.engine import test_engine_api_fuzz as fuzz
from tests.engine.test_engine_api_fuzz import JUNK, _targets

MODULES = ["climbing", "climbing_deal", "climbing_bots", "climbing_cases"]
# results the engine builds (store what they are given, like the records of test_engine_api_fuzz)
RECORDS = {"climbing_deal.ClimbingResult", "climbing.Shape"}
OPTIONS = [{}, {"players": 3}, {"players": 6, "decks": 2}, {"players": 5, "tribute": False}]


def _deal_in_progress(rng: random.Random) -> ClimbingDeal:
    n_opts = rng.choice(OPTIONS)
    players = n_opts.get("players", 4)
    later = rng.random() < 0.5
    setup = ClimbingSetup("climbing", n_opts, rng.randrange(1000))
    if later:
        setup = ClimbingSetup("climbing", n_opts, rng.randrange(1000), 2, 0, players - 1)
    deal = ClimbingDeal(setup)
    bots = make_bots("random", deal.n, rng.randrange(1000))
    for _ in range(rng.randrange(0, 200)):
        if deal.outcome is not None:
            break
        seat = deal.to_act
        if seat is None:
            deal.draw()
        else:
            perform(deal, bots[seat].act(deal, seat))
    return deal


def _well_formed(name: str, rng: random.Random) -> Any:
    if name == "variant":
        return make_variant("climbing", rng.choice(OPTIONS))
    if name == "deal":
        return _deal_in_progress(rng)
    if name in ("cards", "hand", "standing", "play"):
        return [rng.randrange(54) for _ in range(rng.randrange(0, 6))]
    if name in ("seat", "players", "decks"):
        return rng.randrange(-1, 7)
    if name == "card":
        return rng.randrange(-1, 55)
    if name == "out_order":
        return rng.sample(range(4), 4)
    return rng.choice(JUNK)


def _instance(cls: type, rng: random.Random) -> Any:
    if cls is ClimbingDeal:
        return _deal_in_progress(rng)
    if cls is ClimbingSetup:
        return ClimbingSetup()
    if issubclass(cls, ClimbingRandomBot):
        return cls(rng.randrange(100))
    return None


def test_the_records_check_nothing() -> None:
    cls = importlib.import_module("engine.climbing_deal").ClimbingResult
    assert dataclasses.is_dataclass(cls) and not hasattr(cls, "__post_init__")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_junk_arguments_raise_only_engine_errors(seed: int, monkeypatch) -> None:
    monkeypatch.setattr(fuzz, "MODULES", MODULES)
    targets = [t for t in _targets() if t[0] not in RECORDS]
    assert {name.split(".")[0] for name, _, _ in targets} == set(MODULES)
    rng = random.Random(seed)
    leaks: list[str] = []
    for name, f, cls in targets:
        params = [
            p
            for p in inspect.signature(f).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        if cls is not None:
            params = params[1:]
        for _ in range(12):
            obj = _instance(cls, rng) if cls is not None else None
            if cls is not None and obj is None:
                break
            args = []
            for p in params:
                if p.default is not p.empty and rng.random() < 0.5:
                    break
                args.append(_well_formed(p.name, rng) if rng.random() < 0.5 else rng.choice(JUNK))
            call = getattr(obj, f.__name__) if obj is not None else f
            try:
                call(*args)
            except EngineError:
                pass
            except Exception as e:  # noqa: BLE001 - the point is to catch anything else
                leaks.append(f"{name}{tuple(repr(a)[:30] for a in args)}: {type(e).__name__}: {e}")
    assert not leaks, "\n".join(leaks[:20])
