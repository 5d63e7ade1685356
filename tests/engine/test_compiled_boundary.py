"""The compiled copy's untyped public boundary (``tools/compile_engine.py``), read without compiling.

mypyc checks a compiled function's annotated argument types on entry, before the engine's own
check could answer; the copy therefore annotates the public parameters ``Any`` and keeps every
private helper typed. Whether both builds then answer junk alike is the API fuzz's business
(``test_engine_api_fuzz.py``, run on both builds by ``make test``); this shows what the copy is.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("compile_engine", ROOT / "tools/compile_engine.py")
assert _spec is not None and _spec.loader is not None
compile_engine = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compile_engine)
ANY = compile_engine.ANY


def _copy(module: str) -> dict[str, ast.AST]:
    text = (ROOT / "engine" / f"{module}.py").read_text(encoding="utf-8")
    records = compile_engine.BOUNDARY_RECORDS.get(module, ())
    tree = ast.parse(compile_engine._untyped_boundary(text, records))
    out: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            out[node.name] = node
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    out[f"{node.name}.{item.name}"] = item
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    out[f"{node.name}.{item.target.id}"] = item
    return out


def _params(fn: ast.AST) -> dict[str, str]:
    assert isinstance(fn, ast.FunctionDef)
    a = fn.args
    return {p.arg: ast.unparse(p.annotation) for p in [*a.args, *a.kwonlyargs] if p.annotation}


def test_public_parameters_are_untyped_and_private_helpers_stay_typed() -> None:
    deal = _copy("deal")
    assert _params(deal["Deal.play"]) == {"seat": ANY, "cards": ANY}
    assert _params(deal["Deal.__init__"]) == {"setup": ANY}
    assert _params(deal["new_deal"]) == {"variant": ANY, "options": ANY, "seed": ANY}
    assert _params(deal["Deal._play"])["seat"] == "int"  # trusted internals keep their types
    fn = deal["Deal.play"]
    assert isinstance(fn, ast.FunctionDef) and ast.unparse(fn.returns) == "Record"  # type: ignore[arg-type]
    cards = _copy("cards")
    assert _params(cards["card_str"]) == {"card": ANY}
    assert _params(cards["_iter_cards"]) == {"cards": "object"}


def test_records_callers_build_take_any_field_but_their_computed_tables_stay_typed() -> None:
    setup = _copy("deal")
    assert all(
        ast.unparse(setup[f"DealSetup.{f}"].annotation) == ANY  # type: ignore[attr-defined]
        for f in ("variant", "options", "seed", "levels", "dealer", "pack")
    )
    order = _copy("order")
    assert ast.unparse(order["TrumpContext.level"].annotation) == ANY  # type: ignore[attr-defined]
    tab = order["TrumpContext.suit_tab"]
    assert ast.unparse(tab.annotation) == "tuple[int, ...]"  # type: ignore[attr-defined]
    record = _copy("deal")["Record.kind"]
    assert ast.unparse(record.annotation) == "str"  # type: ignore[attr-defined]


def test_the_internal_chance_module_is_not_rewritten() -> None:
    assert "draws" in compile_engine.COMPILED and "draws" in compile_engine.INTERNAL
