"""打百分 rule cases (FORMAT.md, "The games of seed 001") through the real command: our own cases
in ``conformance_hundred.jsonl`` (every sentence of HUNDRED.md §1–§4 and §8 they can reach) and
the errors FORMAT.md asks for."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import hundred_rules as hr
from engine.cards import parse_card
from engine.errors import EngineError

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    json.loads(line)
    for line in (Path(__file__).parent / "conformance_hundred.jsonl").read_text().splitlines()
    if line.strip()
]


def run_cli(cases: list[dict]) -> list[dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "engine.conformance", "-"],
        input="".join(json.dumps(c) + "\n" for c in cases),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.fixture(scope="module")
def answers():
    got = run_cli(CASES)
    assert len(got) == len(CASES)
    return {a["id"]: a for a in got}


def test_the_cases_cover_every_query_and_variant():
    queries = {(c["variant"], c["query"]) for c in CASES}
    for v in ("hundred-4p", "forty-4p", "hundred-3p"):
        for q in ("classify", "trick", "follow", "deal_result"):
            assert (v, q) in queries, (v, q)
    assert ("hundred-3p", "auction") in queries and ("hundred-4p", "auction") in queries


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case, answers):
    got = answers[case["id"]]
    assert "error" not in got, got
    for key, want in case["expect"].items():
        assert got.get(key) == want, (key, got)


H4 = {"variant": "hundred-4p", "trump": "S"}
D4 = {"variant": "hundred-4p", "bid": 70, "points": 30, "last_won_by": "declarer", "declarer": 0}
KITTY = ["2C", "3C", "4C", "6C", "7C", "8C"]


@pytest.mark.parametrize(
    ("case", "needle"),
    [
        ({**H4, "query": "trick", "plays": [["AH"], ["2S", "3S"]]}, "cards"),
        ({**H4, "query": "trick", "plays": [["AH", "KH"], ["2S"]]}, "cards"),
        ({**H4, "query": "trick", "plays": [["AH"], ["AH"]]}, "copies"),
        ({**H4, "query": "trick", "plays": [["AH", "AD"], ["2S", "3S"]]}, "lead"),
        (
            {
                **H4,
                "query": "trick",
                "plays": [["AH"], ["3C"], ["4C"], ["5C"], ["6C"]],
            },
            "plays",
        ),
        (
            {**H4, "query": "follow", "lead": ["AH"], "hand": ["3H", "4H"], "play": ["3H", "4H"]},
            "cards",
        ),
        ({**H4, "query": "follow", "lead": ["AH", "KH"], "hand": ["3H"], "play": ["3H"]}, "cards"),
        ({**H4, "query": "follow", "lead": ["AH"], "hand": ["3H"], "play": ["4H"]}, "hand"),
        ({**H4, "query": "follow", "lead": ["AH"], "hand": ["AH", "3H"], "play": ["3H"]}, "copies"),
        (
            {
                **H4,
                "query": "follow",
                "lead": ["AH", "2D"],
                "hand": ["3H", "4H"],
                "play": ["3H", "4H"],
            },
            "lead",
        ),
        ({**H4, "query": "classify", "cards": ["AH", "AH"]}, "copies"),
        ({**H4, "query": "throw", "cards": ["AH", "KH"], "others": [["AH"]]}, "copies"),
        ({**H4, "query": "throw", "cards": ["AH", "KD"], "others": [["2H"]]}, "lead"),
        ({**H4, "query": "classify", "cards": ["1H"]}, "unknown card"),
        ({**H4, "query": "classify", "cards": []}, "empty"),
        ({**H4, "trump": None, "query": "classify", "cards": ["AH"]}, "trump"),
        ({**H4, "query": "classify", "cards": ["AH"], "options": {"friend": "open"}}, "friend"),
        ({**H4, "query": "classify", "cards": ["AH"], "options": {"decks": 2}}, "no option"),
        ({"variant": "forty-4p", "query": "auction", "first": 0, "bids": []}, "no bidding"),
        ({"variant": "hundred-4p", "query": "auction", "first": 4, "bids": []}, "seat"),
        ({"variant": "hundred-4p", "query": "auction", "first": 0, "bids": [{"seat": 0}]}, "bid 1"),
        (
            {
                "variant": "hundred-4p",
                "query": "auction",
                "first": 0,
                "bids": [{"seat": 0, "bid": "60"}],
            },
            "bid 1",
        ),
        ({**D4, "query": "deal_result", "friend": 0, "kitty": KITTY}, "friend"),
        (
            {**D4, "variant": "hundred-3p", "query": "deal_result", "friend": 1, "kitty": KITTY},
            "no friend",
        ),
        ({**D4, "variant": "forty-4p", "query": "deal_result", "kitty": KITTY}, "no bidding"),
        ({**D4, "query": "deal_result", "bid": 62, "friend": 2, "kitty": KITTY}, "bid"),
        ({**D4, "query": "deal_result", "points": 105, "friend": 2, "kitty": KITTY}, "points"),
        ({**D4, "query": "deal_result", "last_won_by": "attackers", "friend": 2}, "kitty"),
        (
            {**D4, "query": "deal_result", "last_won_by": "nobody", "friend": 2, "kitty": KITTY},
            "last_won_by",
        ),
        (
            {
                **D4,
                "query": "deal_result",
                "friend": 2,
                "kitty": KITTY,
                "penalties": [{"kind": "wrong_kitty", "side": "declarer"}],
            },
            "penalt",
        ),
        ({**D4, "query": "advance", "from": "2", "gain": 1}, "unknown query"),
    ],
)
def test_bad_cases_get_an_error_sentence(case, needle):
    (out,) = run_cli([{**case, "id": "bad"}])
    assert set(out) == {"id", "error"}, out
    assert needle.lower() in out["error"].lower(), out["error"]


def test_an_answer_that_needs_no_trump_is_given_without_one():
    out = run_cli(
        [
            {
                "id": "a",
                "variant": "hundred-4p",
                "query": "classify",
                "cards": ["9S", "9H", "9D", "9C"],
            },
            {"id": "b", "variant": "hundred-4p", "query": "classify", "cards": ["9S", "9H"]},
            {"id": "c", "variant": "hundred-4p", "query": "trick", "plays": [["9S"], ["9H"]]},
        ]
    )
    assert out[0] == {"id": "a", "suit": None, "combo": "horizontal"}
    assert out[1] == {"id": "b", "suit": None, "combo": "invalid"}
    assert "depends" in out[2]["error"]


def test_deal_result_without_declarer_gives_what_it_can():
    (out,) = run_cli([{**D4, "id": "x", "query": "deal_result", "declarer": None, "kitty": KITTY}])
    assert out == {"id": "x", "total": 30, "winner": "declarer", "units": 3, "ended_by": None}


def test_points_with_the_kitty_above_100_are_answered_in_a_case_and_refused_on_a_sheet():
    kitty = ["KS", "KH", "2C", "3C", "4C", "6C"]
    case = {**D4, "id": "x", "query": "deal_result", "points": 95, "friend": 2, "kitty": kitty}
    (out,) = run_cli([case])
    assert out["winner"] == "attackers" and out["total"] == 95
    variant = hr.make_hundred_variant("hundred-4p")
    with pytest.raises(EngineError) as info:
        hr.deal_outcome(
            variant,
            bid=70,
            points=95,
            kitty=[parse_card(c) for c in kitty],
            last_won_by="declarer",
            declarer=0,
            friend=2,
        )
    assert info.value.code == "hundred.kitty_points"


def test_a_throw_never_fails_in_this_family():
    case = {
        **H4,
        "id": "t",
        "query": "throw",
        "cards": ["2H", "3H", "5H"],
        "others": [["AH", "KH"]],
    }
    four = {**H4, "id": "h", "query": "throw", "cards": ["3S", "3H", "3D", "3C"], "others": []}
    assert run_cli([case, four]) == [{"id": "t", "ok": True}, {"id": "h", "ok": True}]
