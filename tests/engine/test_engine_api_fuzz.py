"""Bad input to every public function of every engine module gets an EngineError.

Each public function, class and public method of the engine modules is called with random junk
arguments (mixed with well-formed ones, so the junk reaches past the first check) and must
either work or raise an ``EngineError`` subclass: never IndexError, KeyError, AttributeError,
TypeError, a hang or a silent answer for a non-card. Bounded: a few thousand calls, well under
a few seconds. It runs on both engine builds (``tests/engine/conftest.py``): the compiled one must
answer junk with the very same errors, so its public boundary takes untyped arguments
(``tools/compile_engine.py``) and a mypyc ``TypeError`` is a leak like any other.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine import scoring
from engine.bots import RandomBot, make_bots, perform
from engine.calls import CallBook
from engine.cards import card_points, card_str, is_joker
from engine.deal import Deal, DealSetup
from engine.errors import CardError, EngineError
from engine.game import Game
from engine.order import TrumpContext
from engine.variants import VARIANT_IDS, make_variant

MODULES = [
    "cards",
    "order",
    "combos",
    "play",
    "calls",
    "deal",
    "views",
    "serialize",
    "game",
    "bots",
    "scoring",
    "variants",
    "conformance",
]
# Documented as unchecked (a hot loop over numbers validated beforehand): garbage in, garbage out.
UNCHECKED = {"scoring.fixed_result_prechecked"}
# Entry points that read files or argv, tested in the conformance and self-play tests.
SKIPPED = {"conformance.main", "conformance.run"}
# The engine's result records: dataclasses the engine builds and callers read, which store what
# they are given and check nothing (no ``__post_init__``; test_records_check_nothing), so calling
# their constructors with junk cannot fail here. The compiled build's typed fields refuse a wrong
# type with mypyc's TypeError instead (engine/README.md). Their methods and ``from_json`` are fuzzed.
# The records callers build from their own data are checked: ``DealSetup`` (by ``Deal``) and
# ``TrumpContext`` stay in the fuzz.
RECORDS = {
    "calls.Call",
    "calls.CallShape",
    "combos.Classification",
    "combos.Component",
    "deal.Record",
    "deal.Trick",
    "play.ThrowCheck",
    "scoring.DealResult",
    "scoring.LevelChange",
    "scoring.Penalty",
    "variants.OptionSpec",
    "variants.Variant",
}

JUNK: list[Any] = [
    None,
    -1,
    0,
    1,
    3,
    7,
    54,
    10**30,
    -(10**30),
    1.5,
    float("nan"),
    True,
    "",
    "zz",
    "AS",
    "HJ",
    "10H",
    "\ufeffAS",
    "五",
    b"AS",
    [],
    [999],
    [-1],
    [0] * 30,
    ["AS", "zz"],
    [[1]],
    [None],
    {},
    {"a": 1},
    {"variant": "x"},
    (1, 2),
    object(),
    "tractor-4p",
    "red-five-5p",
    "one-twenty-6p",
    "S",
    "2",
    ["2", "2"],
    ("A", "K"),
    [0, 1, 2],
    [52, 53],
    {1, 2},
]


def _deal_in_progress(rng: random.Random, variant: str) -> Deal:
    """A deal some way in (drawing, calling, burying or playing), played by random bots."""
    deal = Deal(DealSetup(variant, {}, rng.randrange(1000)))
    bots = make_bots("random", deal.n, rng.randrange(1000))
    for _ in range(rng.randrange(0, 400)):
        if deal.outcome is not None:
            break
        seat = deal.to_act
        if seat is None:
            deal.draw()
        else:
            perform(deal, bots[seat].act(deal, seat))
    return deal


def _well_formed(name: str, rng: random.Random) -> Any:
    variant = rng.choice(VARIANT_IDS)
    if name == "ctx":
        return TrumpContext(make_variant(variant), "2", rng.choice("SHDC"))
    if name == "variant":
        return make_variant(variant)
    if name == "deal":
        return _deal_in_progress(rng, variant)
    if name in ("cards", "hand", "lead", "play"):
        return [rng.randrange(54) for _ in range(rng.randrange(0, 6))]
    if name == "seat":
        return rng.randrange(-1, 7)
    return rng.choice(JUNK)


def _instance(cls: type, rng: random.Random) -> Any:
    variant = rng.choice(VARIANT_IDS)
    if cls is Deal:
        return _deal_in_progress(rng, variant)
    if cls is Game:
        game = Game(variant, {}, rng.randrange(100))
        game.next_deal()
        return game
    if cls is CallBook:
        return CallBook(make_variant(variant), "2")
    if cls is TrumpContext:
        return TrumpContext(make_variant(variant), "2", "S")
    if cls is DealSetup:
        return DealSetup(variant)
    if issubclass(cls, RandomBot):
        return cls(rng.randrange(100))
    return None


def _targets() -> Iterator[tuple[str, Callable[..., Any], type | None]]:
    for m in MODULES:
        mod = importlib.import_module("engine." + m)
        for n, f in vars(mod).items():
            if n.startswith("_") or getattr(f, "__module__", None) != mod.__name__:
                continue
            # builtin functions and method descriptors: the compiled build's
            if inspect.isfunction(f) or inspect.isbuiltin(f):
                yield f"{m}.{n}", f, None
            elif inspect.isclass(f) and not issubclass(f, BaseException):
                if f"{m}.{n}" not in RECORDS:
                    yield f"{m}.{n}", f, None
                for mn, meth in vars(f).items():
                    if mn.startswith("_"):
                        continue
                    if isinstance(meth, staticmethod):
                        yield f"{m}.{n}.{mn}", meth.__func__, None
                    elif inspect.isfunction(meth) or inspect.ismethoddescriptor(meth):
                        yield f"{m}.{n}.{mn}", meth, f


TARGETS = [t for t in _targets() if t[0] not in UNCHECKED | SKIPPED]


def test_the_fuzz_reaches_every_module() -> None:
    reached = {name.split(".")[0] for name, _, _ in TARGETS}
    assert reached == set(MODULES)
    assert len(TARGETS) > 150


def test_records_check_nothing() -> None:
    # a record left out of the fuzz is a plain dataclass: a check added to one puts it back
    for name in RECORDS:
        m, n = name.split(".")
        cls = getattr(importlib.import_module("engine." + m), n)
        assert dataclasses.is_dataclass(cls) and not hasattr(cls, "__post_init__"), name


@pytest.mark.parametrize("seed", [0, 1])
def test_junk_arguments_raise_only_engine_errors(seed: int) -> None:
    rng = random.Random(seed)
    leaks: list[str] = []
    for name, f, cls in TARGETS:
        params = [
            p
            for p in inspect.signature(f).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        if cls is not None:
            params = params[1:]  # self
        for _ in range(12):
            obj = _instance(cls, rng) if cls is not None else None
            if cls is not None and obj is None:
                break  # a plain data class: its constructor is fuzzed instead
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


@pytest.mark.parametrize("fn", [card_str, card_points, is_joker])
@pytest.mark.parametrize("junk", [-1, 54, 10**30, 1.5, "AS", True, None])
def test_no_silent_answer_for_a_non_card(fn: Callable[[Any], Any], junk: Any) -> None:
    # -1 used to index from the end of a table and answer for the high joker
    with pytest.raises(CardError, match="not a card"):
        fn(junk)


def test_trump_context_refuses_non_cards() -> None:
    ctx = TrumpContext(make_variant("tractor-4p"), "2", "S")
    for junk in (-1, 54, "AS", 2.0):
        with pytest.raises(CardError):
            ctx.is_trump(junk)
        with pytest.raises(CardError):
            ctx.strength(junk)


def test_a_huge_kitty_component_is_refused_not_computed() -> None:
    # 2 ** (10 ** 30) would never finish
    with pytest.raises(EngineError, match="holds 1"):
        scoring.kitty_multiplier("power", 10**30)


def test_unhashable_variant_and_options_get_an_error_sentence() -> None:
    with pytest.raises(EngineError, match="unknown variant"):
        make_variant(["tractor-4p"])  # type: ignore[arg-type]
    with pytest.raises(EngineError, match="options must be an object"):
        make_variant("tractor-4p", 5)  # type: ignore[arg-type]
