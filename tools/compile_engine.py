"""Build the optional compiled engine: the same typed modules compiled with mypyc.

The pure-Python engine (``engine/``) stays the reference; this is only an accelerator for long
self-play and arena runs. Run ``python tools/compile_engine.py`` (needs mypy, which brings mypyc,
a C compiler and the Python headers). It copies ``engine/*.py`` into ``build/mypyc/engine/`` and
compiles the rules modules there as extension modules beside their sources, so putting
``build/mypyc`` first on ``sys.path`` imports the compiled engine and the working tree is never
shadowed. ``python bench/engine_selfplay.py --compiled --against REV`` measures it, and
``make test-engine-compiled`` (part of ``make test``) runs the engine tests against it.

The copy differs from the source in two ways, both made here so that the pure source imports
nothing but the standard library and keeps its real annotations:

- The classes that code outside the compiled set subclasses or copies (the bots, which
  ``mcbot.MCBot`` and the app extend; ``Deal``, which ``copy.copy`` clones) get
  ``@mypyc_attr(allow_interpreted_subclasses=True)``.
- The public boundary is untyped: a compiled function checks its annotated argument types on
  entry and would raise mypyc's ``TypeError`` (and turn ``True`` into 1) before the engine's own
  check could answer, so every parameter of the public functions and methods (and the fields of
  ``DealSetup`` and ``TrumpContext``'s arguments) is annotated ``Any`` in the copy. The wrong
  type then reaches the same checks as in the pure engine and gets the same ``EngineError``,
  code and sentence (``tests/engine/test_engine_api_fuzz.py`` runs on both builds). The private
  helpers stay typed: the public functions check before they call them.

The one difference left: the result records (``Component``, ``Record``, ``DealResult``…, plain
dataclasses the engine builds) store whatever their constructor is given in the pure engine,
while the compiled ones refuse a field of the wrong type with ``TypeError``.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "mypyc"
# the hot rules modules, in import order; conformance, views, mcbot, arena... stay interpreted
COMPILED = (
    "cards",
    "draws",
    "records",
    "variants",
    "order",
    "combos",
    "play",
    "calls",
    "scoring",
    "deal",
    "bots",
    "climbing",
    "climbing_deal",
    "climbing_bots",
    # 打百分
    "hundred_rules",
    "hundred",
    "hundred_bots",
)
OPEN_CLASSES = {"deal": ("Deal",), "bots": ("RandomBot", "HeuristicBot")}
OPEN_CLASSES |= {
    "hundred": ("HundredDeal",),
    "hundred_bots": ("RandomHundredBot", "HeuristicHundredBot"),
}
MARK = "@mypyc_attr(allow_interpreted_subclasses=True)\n"
# records callers build from their own data, checked by the engine (``Deal`` checks its setup,
# ``TrumpContext`` its arguments in ``__post_init__``): the fields the constructor takes are the
# boundary too, so a wrong type reaches the engine's check
BOUNDARY_RECORDS = {
    "deal": ("DealSetup",),
    "order": ("TrumpContext",),
    "climbing_deal": ("ClimbingSetup",),
    "hundred": ("HundredSetup",),
}
ANY = "_BoundaryAny"
# internal modules, documented as taking trusted arguments (the engine's own chance steps)
INTERNAL = {"draws"}


def _public(name: str) -> bool:
    return not name.startswith("_") or name == "__init__"


def _computed(value: ast.expr | None) -> bool:
    """A dataclass field the constructor does not take (``field(init=False)``)."""
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "field"
        and any(
            k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
            for k in value.keywords
        )
    )


def _boundary_annotations(tree: ast.Module, records: tuple[str, ...]) -> list[ast.expr]:
    """The annotations of the public boundary: every parameter of the module's public functions
    and of the public methods (and ``__init__``) of its public classes, but ``self``/``cls``;
    the fields of ``records``."""
    found: list[ast.expr] = []

    def params(fn: ast.FunctionDef, method: bool) -> None:
        a = fn.args
        plain = [*a.posonlyargs, *a.args]
        static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list)
        if method and not static:
            plain = plain[1:]
        for arg in [*plain, *a.kwonlyargs, a.vararg, a.kwarg]:
            if arg is not None and arg.annotation is not None:
                found.append(arg.annotation)

    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and _public(node.name):
            params(node, method=False)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and _public(item.name):
                    params(item, method=True)
                elif (
                    isinstance(item, ast.AnnAssign)
                    and node.name in records
                    and not _computed(item.value)
                ):
                    found.append(item.annotation)
    return found


def _untyped_boundary(text: str, records: tuple[str, ...] = ()) -> str:
    """``text`` with the public boundary's annotations replaced by ``Any``.

    A compiled function checks its annotated argument types on entry and raises mypyc's
    ``TypeError``; with ``Any`` there it checks nothing, so the wrong type reaches the very
    checks the pure engine runs (the same source) and gets the same ``EngineError``, and
    ``True`` stays a bool instead of arriving as the number 1. The pure source keeps the real
    annotations, which ``mypy engine app`` checks callers against; inside, every value is
    checked (or narrowed) before a typed internal gets it, so nothing else changes.
    """
    data = text.encode("utf-8")
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    spans = []
    for ann in _boundary_annotations(ast.parse(text), records):
        assert ann.end_lineno is not None and ann.end_col_offset is not None
        spans.append(
            (
                starts[ann.lineno - 1] + ann.col_offset,
                starts[ann.end_lineno - 1] + ann.end_col_offset,
            )
        )
    for a, b in sorted(spans, reverse=True):
        data = data[:a] + ANY.encode() + data[b:]
    out = data.decode("utf-8")
    head = "from __future__ import annotations\n"
    if head not in out:
        raise SystemExit("error: a compiled module lacks its __future__ import")
    return out.replace(head, head + f"\nfrom typing import Any as {ANY}\n", 1)


def _open_classes(text: str, classes: tuple[str, ...]) -> str:
    for name in classes:
        text, n = re.subn(rf"^class {name}\b", MARK + f"class {name}", text, flags=re.M)
        if n != 1:
            raise SystemExit(f"error: class {name} not found once in the copy")
    # after the module's __future__ import, which must stay first
    head = "from __future__ import annotations\n"
    return text.replace(head, head + "\nfrom mypy_extensions import mypyc_attr\n", 1)


def missing_tools() -> list[str]:
    """What this machine lacks to compile: a C compiler, the Python headers, mypyc, setuptools."""
    missing = []
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        missing.append(f"a C compiler ({cc}; Debian: gcc)")
    include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(include, "Python.h")):
        missing.append(f"the Python headers ({include}/Python.h; Debian's python3: python3-dev)")
    for module, package in (("mypyc", "mypy"), ("setuptools", "setuptools")):
        if importlib.util.find_spec(module) is None:
            missing.append(f"{module} (pip install {package})")
    return missing


def main() -> int:
    start = time.perf_counter()
    missing = missing_tools()
    if missing:
        # loud, never a silent fallback to the pure engine: `make test` fails here
        print("error: cannot compile the engine, missing " + "; ".join(missing), file=sys.stderr)
        print("(`make system-deps` installs gcc and python3-dev on Debian)", file=sys.stderr)
        return 1
    if OUT.exists():
        shutil.rmtree(OUT)
    pkg = OUT / "engine"
    pkg.mkdir(parents=True)
    for src in sorted((ROOT / "engine").glob("*.py")):
        text = src.read_text(encoding="utf-8")
        if src.stem in COMPILED and src.stem not in INTERNAL:
            text = _untyped_boundary(text, BOUNDARY_RECORDS.get(src.stem, ()))
        if src.stem in OPEN_CLASSES:
            text = _open_classes(text, OPEN_CLASSES[src.stem])
        (pkg / src.name).write_text(text, encoding="utf-8")
    cmd = [sys.executable, "-m", "mypyc", *(f"engine/{m}.py" for m in COMPILED)]
    proc = subprocess.run(cmd, cwd=OUT, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
        print("error: mypyc failed (output above)", file=sys.stderr)
        return 1
    built = sorted(p.name for p in pkg.glob("*.so"))
    print(
        f"compiled {len(built)} engine modules into {OUT.relative_to(ROOT)} "
        f"in {time.perf_counter() - start:.0f} s"
    )
    return 0 if len(built) == len(COMPILED) else 1


if __name__ == "__main__":
    sys.exit(main())
