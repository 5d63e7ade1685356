"""The deal machinery stays pure: standard library only, no clock, no global random generator."""

import json
import re
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
# every module of the engine, so a new one is covered without editing this list
MODULES = sorted(p.stem for p in ENGINE.glob("*.py") if p.stem != "__init__")


def test_importing_the_deal_modules_loads_no_app_framework():
    code = (
        "import sys, json; before = set(sys.modules); import engine; "
        + "; ".join(f"import engine.{m}" for m in MODULES)
        + "; print(json.dumps([sorted(sys.modules), sorted(set(sys.modules) - before)]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded, added = json.loads(out.stdout)
    bad = [m for m in loaded if m.split(".")[0] in {"flask", "sqlalchemy", "werkzeug", "app"}]
    assert bad == []
    # pure standard library: every other top-level module loaded is the stdlib's
    tops = {m.split(".")[0] for m in added} - {"engine"}
    assert tops - set(sys.stdlib_module_names) - set(sys.builtin_module_names) == set()


def test_the_module_list_is_the_whole_engine():
    assert len(MODULES) >= 15 and {"cards", "play", "deal", "conformance"} <= set(MODULES)


# The arena is a benchmark command (it times each bot's moves and gives the mc bot its clock);
# the rules, the bots and the search read no clock: a time box is a clock passed in.
CLOCK_READERS = {"arena", "hundred_arena"}  # 打百分's arena gives its mc bots the clock too


def test_no_clock_and_no_global_random():
    for m in MODULES:
        src = (ENGINE / f"{m}.py").read_text(encoding="utf-8")
        if m not in CLOCK_READERS:
            assert not re.search(r"^\s*(import time|from time|import datetime)", src, re.M), m
        # only seeded generators: random.Random(...), never random.random()/choice()/shuffle()
        calls = re.findall(r"\brandom\.(\w+)\(", src)
        assert set(calls) <= {"Random"}, (m, calls)


def test_same_seed_same_deal():
    from engine.bots import make_bots, play_deal
    from engine.deal import new_deal

    a = new_deal("one-twenty-6p", seed=42)
    b = new_deal("one-twenty-6p", seed=42)
    play_deal(a, make_bots("heuristic", 6, 1))
    play_deal(b, make_bots("heuristic", 6, 1))
    assert a.state_dict() == b.state_dict()
    assert [r.to_json() for r in a.log] == [r.to_json() for r in b.log]
    c = new_deal("one-twenty-6p", seed=43)
    assert c.pack != a.pack
