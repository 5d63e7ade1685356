"""Our own rule cases in the FORMAT.md form, run through the command like the shared examples."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

T = {"variant": "tractor-4p", "level": "2", "trump": "S"}
T7 = {"variant": "tractor-4p", "level": "7", "trump": "S"}
TA = {"variant": "tractor-4p", "level": "A", "trump": "H"}
T4 = {"variant": "tractor-4p", "level": "2", "trump": "S", "options": {"decks": 4}}
RF = {"variant": "red-five-5p", "level": "2", "trump": "S"}
RFD = {"variant": "red-five-5p", "level": "2", "trump": "D"}
S6 = {"variant": "one-twenty-6p", "level": "2", "trump": "S"}
NT = {"variant": "one-twenty-6p", "level": "7", "trump": None}

CASES = [
    # classify
    (
        T7,
        "classify",
        {"cards": ["AS", "AS", "7H", "7H", "7S", "7S"]},
        {"suit": "trump", "combo": "tractor", "width": 2, "length": 3},
    ),
    (T7, "classify", {"cards": ["7H", "7H", "7C", "7C"]}, {"suit": "trump", "combo": "throw"}),
    (
        TA,
        "classify",
        {"cards": ["KH", "KH", "AS", "AS", "AH", "AH", "LJ", "LJ"]},
        {"suit": "trump", "combo": "tractor", "width": 2, "length": 4},
    ),
    (
        NT,
        "classify",
        {"cards": ["7C", "7C", "LJ", "LJ"]},
        {"suit": "trump", "combo": "tractor", "width": 2, "length": 2},
    ),
    (
        RF,
        "classify",
        {"cards": ["3S", "3S", "LJ", "LJ"]},
        {"suit": "trump", "combo": "tractor", "width": 2, "length": 2},
    ),
    (
        RF,
        "classify",
        {"cards": ["3H", "3H", "4H", "4H"]},
        {"suit": "H", "combo": "tractor", "width": 2, "length": 2},
    ),
    (RFD, "classify", {"cards": ["3H", "3H", "4H", "4H"]}, {"suit": None, "combo": "invalid"}),
    (RF, "classify", {"cards": ["5H"]}, {"suit": "trump", "combo": "single"}),
    (RF, "classify", {"cards": ["5D", "5D"]}, {"suit": "D", "combo": "pair"}),
    (S6, "classify", {"cards": ["JC", "JC", "JC"]}, {"suit": "C", "combo": "triple"}),
    (
        S6,
        "classify",
        {"cards": ["JC", "JC", "JC", "QC", "QC", "QC", "KC", "KC", "KC"]},
        {"suit": "C", "combo": "tractor", "width": 3, "length": 3},
    ),
    (T4, "classify", {"cards": ["JC", "JC", "JC", "JC"]}, {"suit": "C", "combo": "quad"}),
    (T, "classify", {"cards": ["QS", "QS", "KS", "KS", "AS"]}, {"suit": "trump", "combo": "throw"}),
    (
        RF,
        "classify",
        {"cards": ["3D", "3D", "3D", "4D", "4D", "5D", "5D", "5D"]},
        {"suit": "D", "combo": "handled-tractor"},
    ),
    # trick
    (
        T,
        "trick",
        {
            "plays": [
                ["3H", "3H", "4H", "4H"],
                ["5S", "5S", "7S", "7S"],
                ["AH", "AH", "KH", "QH"],
                ["6S", "6S", "8S", "9S"],
            ]
        },
        {"winner": 0},
    ),
    (
        T,
        "trick",
        {
            "plays": [
                ["3H", "3H", "4H", "4H"],
                ["5S", "5S", "6S", "6S"],
                ["AH", "AH", "KH", "QH"],
                ["9S", "9S", "10S", "10S"],
            ]
        },
        {"winner": 3},
    ),
    (
        T,
        "trick",
        {
            "plays": [
                ["KH", "KH", "AH"],
                ["3S", "3S", "HJ"],
                ["4S", "4S", "5S"],
                ["9H", "9H", "10H"],
            ]
        },
        {"winner": 2},
    ),
    (
        S6,
        "trick",
        {
            "plays": [
                ["9D", "9D", "9D"],
                ["3S", "3S", "4S"],
                ["10D", "10D", "10D"],
                ["5S", "5S", "5S"],
                ["AD", "AD", "KD"],
                ["5C", "6C", "7C"],
            ]
        },
        {"winner": 3},
    ),
    (RF, "trick", {"plays": [["5H"], ["5H"], ["HJ"], ["5H"], ["3S"]]}, {"winner": 0}),
    (RF, "trick", {"plays": [["4C"], ["3C"], ["2H"], ["2D"], ["AC"]]}, {"winner": 1}),
    (NT, "trick", {"plays": [["AS"], ["7H"], ["7C"], ["LJ"], ["HJ"], ["2S"]]}, {"winner": 4}),
    # follow
    (
        T,
        "follow",
        {
            "lead": ["3H", "3H", "4H", "4H"],
            "hand": ["6H", "6H", "7H", "7H", "9H", "9H"],
            "play": ["6H", "6H", "9H", "9H"],
        },
        {"legal": False},
    ),
    (
        T,
        "follow",
        {
            "lead": ["3H", "3H", "4H", "4H"],
            "hand": ["6H", "6H", "8H", "8H", "9H"],
            "play": ["6H", "6H", "8H", "8H"],
        },
        {"legal": True},
    ),
    (
        S6,
        "follow",
        {"lead": ["9D", "9D", "9D"], "hand": ["3D", "3D", "3D", "4D"], "play": ["3D", "3D", "4D"]},
        {"legal": False},
    ),
    (
        S6,
        "follow",
        {
            "lead": ["9D", "9D", "9D", "10D", "10D", "10D"],
            "hand": ["3D", "3D", "3D", "6D", "6D", "8D", "8D", "KD"],
            "play": ["3D", "3D", "3D", "6D", "8D", "KD"],
        },
        {"legal": False},
    ),
    (
        RF,
        "follow",
        {
            "lead": ["9H", "9H", "10H", "10H"],
            "hand": ["4H", "4H", "6H", "6H", "8H", "8H"],
            "play": ["6H", "6H", "8H", "8H"],
        },
        {"legal": False},
    ),
    (T, "follow", {"lead": ["AH"], "hand": ["3S", "4D"], "play": ["3S"]}, {"legal": True}),
    # throw
    (
        T,
        "throw",
        {"cards": ["3H", "3H", "4H", "4H", "AH"], "others": [["KH", "KH"], [], []]},
        {"ok": True},
    ),
    (
        T,
        "throw",
        {"cards": ["3H", "3H", "4H", "4H", "AH"], "others": [["9H", "9H", "10H", "10H"]]},
        {"ok": False, "forced": ["3H", "3H", "4H", "4H"]},
    ),
    (
        S6,
        "throw",
        {"cards": ["9H", "9H", "AH"], "others": [["10H", "10H", "10H"]]},
        {"ok": False, "forced": ["9H", "9H"]},
    ),
    (
        T,
        "throw",
        {"cards": ["3H", "3H", "9H", "9H", "AH"], "others": [["10H", "10H"], ["5H", "5H"]]},
        {"ok": False, "forced": ["3H", "3H"]},
    ),
    (
        T,
        "throw",
        {"cards": ["QS", "QS", "KS", "KS", "AS"], "others": [["LJ"]]},
        {"ok": False, "forced": ["AS"]},
    ),
    # deal results via scoring
    (
        T,
        "deal_result",
        {
            "points": 60,
            "kitty": ["10C", "2D", "3D", "4D", "6D", "7D", "8D", "9D"],
            "last": ["QS", "QS", "KS", "KS", "AS"],
        },
        {"total": 140, "winner": "attackers", "levels": 1},
    ),
    (
        T,
        "deal_result",
        {"points": 0, "kitty": ["10C", "2D", "3D", "4D", "6D", "7D", "8D", "9D"], "last": None},
        {"total": 0, "winner": "declarer", "levels": 3},
    ),
]


def _run(cases):
    text = "".join(json.dumps(c) + "\n" for c in cases)
    proc = subprocess.run(
        [sys.executable, "-m", "engine.conformance", "-"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


FULL = [
    {"id": f"own-{i}-{query}", **base, "query": query, **fields, "expect": expect}
    for i, (base, query, fields, expect) in enumerate(CASES)
]


@pytest.fixture(scope="module")
def answers():
    out = _run(FULL)
    return {a["id"]: a for a in out}


@pytest.mark.parametrize("case", FULL, ids=[c["id"] for c in FULL])
def test_own_case(case, answers):
    got = answers[case["id"]]
    assert "error" not in got, got
    for key, want in case["expect"].items():
        assert got.get(key) == want, (key, got)
