"""争上游's rule cases (``conformance_climbing.jsonl``: every sentence of CLIMBING.md §1, §3 and
§4 that a query can ask), run through ``python -m engine.conformance`` like the shared examples.
An expected ``{"error": true}`` means the case must be refused with a sentence."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    json.loads(line)
    for line in (Path(__file__).parent / "conformance_climbing.jsonl").read_text().splitlines()
    if line.strip()
]


@pytest.fixture(scope="module")
def answers() -> dict[str, dict]:
    text = "".join(json.dumps({k: v for k, v in c.items() if k != "expect"}) + "\n" for c in CASES)
    proc = subprocess.run(
        [sys.executable, "-m", "engine.conformance", "-"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["id"] for a in out] == [c["id"] for c in CASES]
    return {a["id"]: a for a in out}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_climbing_case(case: dict, answers: dict[str, dict]) -> None:
    got = answers[case["id"]]
    want = case["expect"]
    if want.get("error"):
        assert set(got) == {"id", "error"} and isinstance(got["error"], str) and got["error"]
        return
    assert "error" not in got, got
    assert {k: v for k, v in got.items() if k != "id"} == want


def test_only_a_straight_carries_a_length(answers: dict[str, dict]) -> None:
    for case in CASES:
        got = answers[case["id"]]
        if case["query"] == "classify" and "combo" in got:
            assert ("length" in got) == (got["combo"] == "straight"), got
