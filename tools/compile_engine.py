"""Build the optional compiled engine: the same typed modules compiled with mypyc.

The pure-Python engine (``engine/``) stays the reference; this is only an accelerator for long
self-play and arena runs. Run ``python tools/compile_engine.py`` (needs mypy, which brings mypyc,
a C compiler and the Python headers). It copies ``engine/*.py`` into ``build/mypyc/engine/`` and
compiles the rules modules there as extension modules beside their sources, so putting
``build/mypyc`` first on ``sys.path`` imports the compiled engine and the working tree is never
shadowed. ``python bench/engine_selfplay.py --compiled --against REV`` measures it, and
``make test-engine-compiled`` runs the engine tests against it.

The copy differs from the source in one way: the classes that code outside the compiled set
subclasses or copies (the bots, which ``mcbot.MCBot`` and the app extend; ``Deal``, which
``copy.copy`` clones) get ``@mypyc_attr(allow_interpreted_subclasses=True)``, so the pure
source imports nothing but the standard library.

A compiled module enforces its annotations: an argument of the wrong Python type raises
``TypeError`` where the pure engine raises its ``EngineError`` with a sentence, so the compiled
build is for trusted callers (bots, benchmarks), not for the app's untrusted input.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "mypyc"
# the hot rules modules, in import order; conformance, views, mcbot, arena... stay interpreted
COMPILED = (
    "cards",
    "draws",
    "variants",
    "order",
    "combos",
    "play",
    "calls",
    "scoring",
    "deal",
    "bots",
)
OPEN_CLASSES = {"deal": ("Deal",), "bots": ("RandomBot", "HeuristicBot")}
MARK = "@mypyc_attr(allow_interpreted_subclasses=True)\n"


def _open_classes(text: str, classes: tuple[str, ...]) -> str:
    for name in classes:
        text, n = re.subn(rf"^class {name}\b", MARK + f"class {name}", text, flags=re.M)
        if n != 1:
            raise SystemExit(f"error: class {name} not found once in the copy")
    # after the module's __future__ import, which must stay first
    head = "from __future__ import annotations\n"
    return text.replace(head, head + "\nfrom mypy_extensions import mypyc_attr\n", 1)


def main() -> int:
    start = time.perf_counter()
    if OUT.exists():
        shutil.rmtree(OUT)
    pkg = OUT / "engine"
    pkg.mkdir(parents=True)
    for src in sorted((ROOT / "engine").glob("*.py")):
        text = src.read_text(encoding="utf-8")
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
