"""Independent audit cases (tests/engine/conformance_audit.jsonl), written by hand from RULES.md.

Every case runs through the real command; only the fields of `expect` are compared. An expected
`{"error": true}` means the answer must be an error sentence (and nothing else).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES_FILE = Path(__file__).with_name("conformance_audit.jsonl")
CASES = [json.loads(line) for line in CASES_FILE.read_text().splitlines() if line.strip()]


def run_cli(text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.conformance", "-"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


@pytest.fixture(scope="module")
def answers():
    text = "".join(json.dumps({k: v for k, v in c.items() if k != "expect"}) + "\n" for c in CASES)
    proc = run_cli(text)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["id"] for a in lines] == [c["id"] for c in CASES]
    return {a["id"]: a for a in lines}


def test_ids_unique():
    assert len({c["id"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_audit_case(case, answers):
    got = answers[case["id"]]
    if case["expect"].get("error"):
        assert set(got) == {"id", "error"}, got
        assert isinstance(got["error"], str) and got["error"], got
        return
    assert "error" not in got, got
    for key, want in case["expect"].items():
        assert got.get(key) == want, (key, got)


ODD_VALUES = [None, True, False, 0, -1, 7, 1.5, "", "x", [], {}, [[]], [1], ["AH"], 10**40]
BASE = {"variant": "tractor-4p", "level": "2", "trump": "S"}
GOOD = {
    "classify": {"cards": ["AH"]},
    "trick": {"plays": [["AH"], ["KH"]]},
    "follow": {"lead": ["AH"], "hand": ["3H"], "play": ["3H"]},
    "throw": {"cards": ["AH", "KH"], "others": [["QH"]]},
    "deal_result": {"points": 60, "kitty": [], "last": None},
    "advance": {"from": "3", "gain": 1},
    "declare": {"calls": [{"seat": 0, "cards": ["2H", "HJ"]}]},
}


def _odd_cases():
    out = []
    for variant in ("tractor-4p", "red-five-5p", "one-twenty-6p"):
        for query, good in GOOD.items():
            fields = [*good, "level", "trump", "variant", "options", "id"]
            if query == "deal_result":
                fields += ["dealer", "friend", "failed_throws"]
            if query == "declare":
                fields += ["deal", "dealer_side"]
            for field in fields:
                for v in ODD_VALUES:
                    case = {**BASE, "variant": variant, "id": "x", "query": query, **good}
                    case[field] = v
                    out.append(case)
            for v in ODD_VALUES:  # a call's seat and cards
                case = {**BASE, "variant": variant, "id": "x", "query": "declare"}
                case["calls"] = [{"seat": v, "cards": ["2H"]}, {"seat": 0, "cards": v}, v]
                out.append(case)
    return out


def test_odd_input_gets_one_json_answer_per_line_never_a_crash():
    cases = _odd_cases()
    text = "".join(json.dumps(c) + "\n" for c in cases)
    text += "[" * 50_000 + "]" * 50_000 + "\n" + '"a string"\n' + "123\n" + "null\n"
    text += json.dumps({**BASE, "id": "big", "query": "classify", "cards": ["AH"] * 100_000})
    proc = run_cli(text + "\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert len(lines) == len(cases) + 5
    for line in lines:
        out = json.loads(line)
        assert isinstance(out, dict) and "id" in out
        if "error" in out:
            assert set(out) == {"id", "error"} and isinstance(out["error"], str)
            assert "could not be answered" not in out["error"], out  # an unforeseen exception
    answers = [json.loads(line) for line in lines[: len(cases)]]
    for case, out in zip(cases, answers, strict=True):
        calls = case.get("calls")
        if isinstance(calls, list) and len(calls) == 3 and calls[0]["seat"] != 0:
            # a seat that is no seat (bool, negative, >= players, not a number) is an error
            assert "error" in out, (case, out)


def test_answers_without_fields_the_answer_does_not_need():
    cases = [
        # no trump, no level: a deal's result without a last lead does not depend on them
        {"id": "a", "variant": "tractor-4p", "query": "deal_result", "points": 70, "last": None},
        # the last lead reads the same under every trump and level
        {
            "id": "b",
            "variant": "tractor-4p",
            "query": "deal_result",
            "points": 60,
            "kitty": ["10C", "3C", "4C", "6C", "7C", "8C", "9C", "3D"],
            "last": ["AH", "AH"],
        },
        # but a tractor at level 2 is pairs at other levels: refused, naming the field
        {
            "id": "c",
            "variant": "tractor-4p",
            "query": "deal_result",
            "level": "2",
            "points": 60,
            "kitty": ["10C", "3C", "4C", "6C", "7C", "8C", "9C", "3D"],
            "last": ["2H", "2H", "2S", "2S"],
        },
        {"id": "d", "variant": "red-five-5p", "trump": "S", "query": "classify", "cards": ["5H"]},
        {"id": "e", "variant": "tractor-4p", "level": "2", "query": "classify", "cards": ["3H"]},
        {"id": "f", "variant": "one-twenty-6p", "query": "declare", "calls": []},
    ]
    proc = run_cli("".join(json.dumps(c) + "\n" for c in cases))
    a, b, c, d, e, f = [json.loads(line) for line in proc.stdout.splitlines()]
    assert a == {"id": "a", "total": 70, "winner": "declarer", "levels": 1, "ended_by": None}
    assert b == {"id": "b", "total": 100, "winner": "attackers", "levels": 0, "ended_by": None}
    assert "trump" in c["error"] and set(c) == {"id", "error"}
    assert d == {"id": "d", "suit": "trump", "combo": "single"}
    assert "trump" in e["error"]
    assert f == {"id": "f", "accepted": [], "caller": None, "trump": None}
