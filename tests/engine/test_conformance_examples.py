"""Every example of ../shared/conformance/examples.jsonl through the real command, plus bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.shared_files import conformance_examples

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = conformance_examples()


def run_cli(text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.conformance", "-"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def load_examples():
    if not EXAMPLES.exists():
        return []
    return [json.loads(line) for line in EXAMPLES.read_text().splitlines() if line.strip()]


_CASES = load_examples()


@pytest.fixture(scope="module")
def answers():
    text = "".join(json.dumps(c) + "\n" for c in _CASES)
    proc = run_cli(text)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(lines) == len(_CASES)
    return {a["id"]: a for a in lines}


@pytest.mark.skipif(not _CASES, reason="shared examples not present")
@pytest.mark.parametrize("case", _CASES, ids=[c["id"] for c in _CASES])
def test_example(case, answers):
    got = answers[case["id"]]
    assert "error" not in got, got
    for key, want in case["expect"].items():
        assert got.get(key) == want, (key, got)


def test_file_argument_and_order(tmp_path):
    cases = [
        {
            "id": "b",
            "variant": "tractor-4p",
            "level": "2",
            "trump": "S",
            "query": "trick",
            "plays": [["AH"], ["3S"], ["AC"], ["7H"]],
        },
        {
            "id": "a",
            "variant": "tractor-4p",
            "level": "2",
            "trump": "S",
            "query": "classify",
            "cards": ["AH"],
        },
    ]
    f = tmp_path / "cases.jsonl"
    f.write_text("\n".join(json.dumps(c) for c in cases) + "\n")
    proc = subprocess.run(
        [sys.executable, "-m", "engine.conformance", str(f)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert out == [{"id": "b", "winner": 1}, {"id": "a", "suit": "H", "combo": "single"}]


def test_not_json_lines_exits_2():
    proc = run_cli('{"id": "x", "query": "classify"}\nthis is not json\n')
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "line 2" in proc.stderr


BASE = {"variant": "tractor-4p", "level": "2", "trump": "S"}


@pytest.mark.parametrize(
    ("case", "needle"),
    [
        ({"query": "classify", "cards": ["ZZ"]}, "unknown card"),
        ({"query": "classify", "cards": ["AH", "AH", "AH"]}, "3 copies"),
        ({"query": "classify", "cards": []}, "empty"),
        ({"query": "trick", "plays": [["AH"], ["AH"], ["AH"]]}, "copies"),
        ({"query": "trick", "plays": [["AH", "AH"], ["3S"]]}, "cards"),
        ({"query": "follow", "lead": ["AH"], "hand": ["3H"], "play": ["4H"]}, "hand"),
        (
            {"query": "follow", "lead": ["AH", "AH"], "hand": ["AH", "3H"], "play": ["AH", "3H"]},
            "copies",
        ),
        ({"query": "follow", "lead": ["AH"], "hand": ["3H", "4H"], "play": ["3H", "4H"]}, "cards"),
        (
            {"query": "follow", "lead": ["AH", "AS"], "hand": ["3H", "4H"], "play": ["3H", "4H"]},
            "one suit",
        ),
        ({"query": "throw", "cards": ["AH", "KH"], "others": [["AH", "AH"]]}, "copies"),
        ({"query": "nonsense"}, "unknown query"),
        ({"query": "classify", "cards": ["AH"], "variant": "bridge"}, "unknown variant"),
        ({"query": "classify", "cards": ["AH"], "options": {"decks": 3}}, "decks"),
        ({"query": "classify", "cards": ["AH"], "options": {"colour": 1}}, "no option"),
        ({"query": "classify", "cards": ["AH"], "level": "1"}, "level"),
        ({"query": "classify", "cards": ["AH"], "trump": "X"}, "trump"),
        ({"query": "classify", "cards": "AH"}, "list"),
        ({"query": "deal_result", "points": 60, "kitty": ["ah"], "last": None}, "unknown card"),
        ({"query": "deal_result", "points": -5, "kitty": [], "last": None}, "points"),
        (
            {
                "query": "deal_result",
                "variant": "red-five-5p",
                "points": 60,
                "dealer": 0,
                "friend": 0,
                "kitty": ["2C", "3C", "4C", "6C", "7C", "8C", "9C"],
                "last": None,
            },
            "friend",
        ),
        (
            {
                "query": "declare",
                "calls": [
                    {"seat": 0, "cards": ["2H", "HJ"]},
                    {"seat": 1, "cards": ["2H", "2H", "HJ"]},
                ],
            },
            "copies",
        ),
    ],
)
def test_bad_cases_get_an_error_sentence(case, needle):
    full = {**BASE, "id": "bad", **case}
    proc = run_cli(json.dumps(full) + "\n")
    assert proc.returncode == 0, proc.stderr
    (out,) = [json.loads(line) for line in proc.stdout.splitlines()]
    assert out["id"] == "bad"
    assert set(out) == {"id", "error"}, out
    assert needle.lower() in out["error"].lower(), out["error"]


def test_non_object_line_and_missing_id():
    proc = run_cli('[1, 2]\n{"query": "classify", "variant": "tractor-4p"}\n')
    assert proc.returncode == 0
    a, b = [json.loads(line) for line in proc.stdout.splitlines()]
    assert a["id"] is None and "error" in a
    assert b["id"] is None and "id" in b["error"]


def test_same_card_shown_again_by_one_seat_counts_once():
    case = {
        **BASE,
        "id": "again",
        "query": "declare",
        "variant": "one-twenty-6p",
        "calls": [
            {"seat": 0, "cards": ["2C"]},
            {"seat": 1, "cards": ["2C", "2C"]},
            {"seat": 0, "cards": ["2C"]},
        ],
    }
    proc = run_cli(json.dumps(case) + "\n")
    (out,) = [json.loads(line) for line in proc.stdout.splitlines()]
    assert "error" not in out, out
    case["calls"].append({"seat": 2, "cards": ["2C"]})  # a fourth 2C among three decks
    proc = run_cli(json.dumps(case) + "\n")
    (out,) = [json.loads(line) for line in proc.stdout.splitlines()]
    assert "copies" in out["error"]


def test_deeply_nested_line_is_answered_not_a_crash():
    proc = run_cli("[" * 100_000 + "]" * 100_000 + "\n")
    assert proc.returncode == 0, proc.stderr
    (out,) = [json.loads(line) for line in proc.stdout.splitlines()]
    assert out["id"] is None and "error" in out


def test_missing_file_or_argument_exits_2(tmp_path):
    for args in ([str(tmp_path / "missing.jsonl")], []):
        proc = subprocess.run(
            [sys.executable, "-m", "engine.conformance", *args],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
        assert proc.returncode == 2 and proc.stdout == ""


def test_deal_result_answers_what_does_not_need_a_missing_field():
    """FORMAT.md: friend is null when the dealer played alone (absent reads the same); without a
    dealer the scores cannot be shared out but total, winner and units stand; a kitty of the
    wrong size still has its points."""
    rf = {
        **BASE,
        "variant": "red-five-5p",
        "query": "deal_result",
        "points": 60,
        "kitty": ["2C", "3C", "4C", "6C", "7C", "8C", "9C"],
        "last": None,
    }
    cases = [
        {**rf, "id": "alone", "dealer": 0},
        {**rf, "id": "nodealer"},
        {**BASE, "id": "short-kitty", "query": "deal_result", "points": 60, "kitty": ["AH"]},
    ]
    proc = run_cli("".join(json.dumps(c) + "\n" for c in cases))
    alone, nodealer, short = [json.loads(line) for line in proc.stdout.splitlines()]
    assert alone["scores"] == [4, -1, -1, -1, -1]
    assert nodealer == {"id": "nodealer", "total": 60, "winner": "declarer", "units": 1}
    assert short == {
        "id": "short-kitty",
        "total": 60,
        "winner": "declarer",
        "levels": 1,
        "ended_by": None,
    }
