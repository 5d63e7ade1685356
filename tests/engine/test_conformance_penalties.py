"""Competition penalties (RULES §7) through ``python -m engine.conformance``: our own
``deal_result`` cases in FORMAT.md's new form (penalties, levels_before, ten_per_card lists),
each with a hand-worked answer, and the engine's scoring API giving the same answers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import scoring
from engine.errors import EngineError
from engine.variants import make_variant

ROOT = Path(__file__).resolve().parents[2]
CASES_FILE = Path(__file__).with_name("conformance_penalties.jsonl")
CASES = [json.loads(line) for line in CASES_FILE.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def answers() -> dict[str, dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "engine.conformance", str(CASES_FILE)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["id"] for a in out] == [c["id"] for c in CASES]
    return {a["id"]: a for a in out}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_penalty_case(case: dict[str, Any], answers: dict[str, dict[str, Any]]) -> None:
    got = answers[case["id"]]
    if case.get("expect_error"):
        assert set(got) == {"id", "error"} and got["error"]
        return
    assert "error" not in got, got
    assert {k: got.get(k) for k in case["expect"]} == case["expect"]


def test_the_file_covers_every_kind_and_variant() -> None:
    kinds = {p["kind"] for c in CASES for p in c.get("penalties", [])}
    assert set(scoring.PENALTY_KINDS) <= kinds
    assert {c["variant"] for c in CASES} == {"tractor-4p", "red-five-5p", "one-twenty-6p"}
    assert len(CASES) >= 40


def test_an_ended_deal_needs_no_numbers_and_its_total_is_null() -> None:
    v = make_variant("tractor-4p")
    r = scoring.deal_result(v, None, None, None, penalties=[{"kind": "revoke", "side": "declarer"}])
    assert (r.total, r.winner, r.levels, r.ended_by) == (None, "attackers", 0, "revoke")
    with pytest.raises(EngineError):  # without a deal-ending penalty the numbers are needed
        scoring.deal_result(
            v, None, None, None, penalties=[{"kind": "takeback", "side": "declarer"}]
        )


def test_engine_api_levels_match_the_command() -> None:
    """next_levels on a result from deal_result: the same levels the conformance answer gives."""
    v = make_variant("tractor-4p", {"revoke_effect": "extra_level", "must_play_levels": ["5"]})
    r = scoring.deal_result(v, 60, 0, 0, penalties=[{"kind": "revoke", "side": "attackers"}])
    assert r.extra == (1, 0) and r.ended_by is None
    # the declarer side is side 1 here: the roles are mapped onto sides
    change = scoring.next_levels(("3", "4"), 1, r, (), v.must_play_levels)
    assert change.levels == ("3", "5") and not change.passed
    tb = scoring.deal_result(v, 165, 0, 0, penalties=[scoring.Penalty("takeback", "attackers")])
    assert tb.lost == (0, 1)
    assert scoring.next_levels(("9", "3"), 0, tb, (), ("A",)).levels == ("9", "4")


def test_passing_a_by_the_attackers_penalty_in_a_game_sense() -> None:
    v = make_variant("one-twenty-6p")
    r = scoring.deal_result(
        v, None, None, None, penalties=[{"kind": "miscount", "side": "attackers"}]
    )
    change = scoring.next_levels(("K", "A"), 1, r, [1], v.must_play_levels)
    # side 1 declared at A and won by the attackers' miscount: passed, even with its own misplay
    assert change.passed and change.levels == ("A", "A")


def test_red_five_penalties_are_zero_sum_and_outside_the_throw_cap() -> None:
    v = make_variant("red-five-5p")
    r = scoring.deal_result(
        v, 60, 0, 0, [1, 1, 1], dealer=0, friend=None, penalties=[{"kind": "revoke", "seat": 1}]
    )
    assert r.scores == [7, -13, 2, 2, 2] and sum(r.scores) == 0
    with pytest.raises(EngineError) as e:
        scoring.deal_result(
            v, 0, 0, 0, dealer=0, friend=1, penalties=[{"kind": "wrong_kitty", "seat": 2}]
        )
    assert e.value.code == "penalty.kitty_seat"


@pytest.mark.parametrize(
    ("penalties", "code"),
    [
        ("revoke", "penalties.type"),
        ([["revoke", "declarer"]], "penalty.item"),
        ([{"kind": "revoke", "side": "declarer", "why": "x"}], "penalty.fields"),
        ([{"kind": "slow", "side": "declarer"}], "penalty.kind"),
        ([{"kind": "revoke", "side": "north"}], "penalty.side"),
        ([{"kind": "wrong_kitty", "side": "attackers"}], "penalty.kitty_side"),
    ],
)
def test_bad_penalties_are_refused_with_a_code(penalties: Any, code: str) -> None:
    with pytest.raises(EngineError) as e:
        scoring.check_penalties(make_variant("tractor-4p"), penalties)
    assert e.value.code == code


def test_an_online_deal_charges_ten_per_card_taken_back() -> None:
    from engine.bots import make_bots
    from engine.bots import play_deal as play
    from engine.deal import new_deal

    for seed in range(200):
        d = new_deal("tractor-4p", {"throw_penalty": "ten_per_card", "redeal_below": None}, seed)
        play(d, make_bots("random", 4, seed))
        if d.outcome != "played" or not d.failed_throws:
            continue
        assert d.result is not None and d.dealer is not None
        taken = [
            len(r.cards) - len(r.played) for r in d.log if r.kind == "play" and r.played is not None
        ]
        assert taken == d.failed_throw_cards and all(n >= 1 for n in taken)
        sign = [1 if s % 2 == d.dealer % 2 else -1 for s in d.failed_throws]
        dec = [n for n, g in zip(taken, sign, strict=True) if g > 0][:3]
        att = [n for n, g in zip(taken, sign, strict=True) if g < 0][:3]
        bonus = d.kitty_bonus[0] * d.kitty_bonus[1] if d.kitty_bonus else 0
        want = max(0, d.attackers_points() + bonus + 10 * (sum(dec) - sum(att)))
        assert d.result.total == want
        if max(taken) > 1:
            return
    raise AssertionError("no failed throw of 2 or more cards in 200 random deals")
