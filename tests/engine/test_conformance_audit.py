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
