"""Duplicate scoring exactly as DUPLICATE.md fixes it: values, IMPs (normalised to two decks
exactly), a team's board, VPs on the continuous scale, matchpoints across the field, and the
query command's behaviour (one answer per line, errors as sentences, exit codes)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.competition import duplicate as dup

ROOT = Path(__file__).resolve().parents[2]
T4 = dup.variant_of("tractor-4p")
T4x4 = dup.variant_of("tractor-4p", {"decks": 4})
S6 = dup.variant_of("one-twenty-6p")


def test_threshold_is_two_fifths_of_the_points():
    assert (dup.threshold(T4), dup.threshold(T4x4), dup.threshold(S6)) == (80, 160, 120)


@pytest.mark.parametrize(
    ("v", "declarer", "total", "expect"),
    [
        (T4, 0, 40, (40, -40)),  # the page's example, table 1
        (T4, 0, 90, (-10, 10)),  # table 2
        (T4, 1, 40, (-40, 40)),
        (T4, 1, 80, (0, 0)),  # a take-over at exactly H is worth 0
        (T4, 0, 0, (80, -80)),
        (T4, 0, 250, (-170, 170)),  # kitty bonus: totals can pass the card points
        (T4x4, 1, 200, (40, -40)),
        (S6, 0, 115, (5, -5)),
    ],
)
def test_value(v, declarer, total, expect):
    assert dup.value(v, declarer, total) == expect


@pytest.mark.parametrize(
    ("v", "diff", "imps"),
    [
        (T4, 0, 0),
        (T4, 5, 0),
        (T4, 10, 1),
        (T4, -19, -1),
        (T4, 20, 2),
        (T4, 50, 4),  # the page's example
        (T4, 59, 4),
        (T4, 60, 5),
        (T4, 100, 7),
        (T4, 159, 8),
        (T4, 160, 9),
        (T4, -200, -10),
        (T4, 500, 10),
        (S6, 15, 1),  # 15 × 200 / 300 is exactly 10
        (S6, 14, 0),
        (S6, -45, -3),
        (T4x4, 39, 1),  # 19.5
        (T4x4, 40, 2),
        (T4x4, 399, 9),
        (T4x4, 400, 10),
    ],
)
def test_imps(v, diff, imps):
    assert dup.imps_for(v, diff) == imps


def test_team_board_example():
    assert dup.team_board(T4, [{"declarer": 0, "total": 40}, {"declarer": 0, "total": 90}]) == (
        50,
        4,
    )
    # at table 2 side 1 declared: team A (side 0 at table 1) compares value[0] both times
    assert dup.team_board(T4, [{"declarer": 1, "total": 100}, {"declarer": 1, "total": 60}]) == (
        40,
        4,
    )


@pytest.mark.parametrize(
    ("boards", "imps", "expect"),
    [
        (4, 10, (16.73, 3.27)),  # the page's example
        (4, -10, (3.27, 16.73)),
        (4, 0, (10.0, 10.0)),
        (1, 1000, (20.0, 0.0)),
        (16, 0, (10.0, 10.0)),
    ],
)
def test_vp(boards, imps, expect):
    assert dup.vp(boards, imps) == expect


def test_vp_is_monotonic_and_sums_to_twenty():
    last = 10.0
    for m in range(0, 80):
        a, b = dup.vp(8, m)
        assert round(a + b, 2) == 20.0
        assert a >= last
        last = a
    assert dup.vp(4, 10, b_factor=20) < dup.vp(4, 10)


def test_matchpoints():
    assert dup.matchpoints([40, -10, 40, 5]) == ([5, 0, 5, 2], [83.33, 0.0, 83.33, 33.33])
    assert dup.matchpoints([7]) == ([0], [50.0])
    assert dup.matchpoints([1, 1]) == ([1, 1], [50.0, 50.0])
    mp, pct = dup.matchpoints([10, 20, 30])
    assert mp == [0, 2, 4] and pct == [0.0, 50.0, 100.0]
    # 2 / 6 = 33.333… and 4 / 6 = 66.666…: rounded at the end, halves up
    assert dup.matchpoints([1, 2, 2, 0])[1] == [33.33, 83.33, 83.33, 0.0]


def _run(lines: list[str]) -> tuple[int, list[dict]]:
    out = io.StringIO()
    rc = dup.run(io.StringIO("\n".join(lines) + "\n"), out)
    return rc, [json.loads(x) for x in out.getvalue().splitlines()]


def test_the_command_answers_every_line_in_order_and_never_crashes():
    rc, answers = _run(
        [
            '{"id": "a", "query": "value", "variant": "tractor-4p", "declarer": 0, "total": 40}',
            "",
            '{"id": "b", "query": "imps", "variant": "tractor-4p", "diff": 50}',
            '{"id": "c", "query": "vp", "boards": 0, "imps": 3}',
            '{"id": "d", "query": "value", "variant": "red-five-5p", "declarer": 0, "total": 5}',
            '{"id": "e", "query": "matchpoints", "values": []}',
            '{"id": "f", "query": "value", "variant": "tractor-4p", "options": {"decks": 9},'
            ' "declarer": 0, "total": 40}',
            '{"id": "g", "query": "value", "variant": "tractor-4p", "declarer": true, "total": 4}',
            '{"id": "h", "query": "imps", "variant": "tractor-4p", "diff": "50"}',
            '{"id": "i", "query": "team_board", "variant": "tractor-4p", "tables": [{}]}',
            '{"id": "j", "query": "vp", "boards": 4, "imps": 10, "b_factor": 0}',
            '{"id": "k"}',
            "[1, 2]",
            '{"id": "l", "query": "vp", "boards": 4, "imps": 1e400}',
        ]
    )
    assert rc == 0
    assert [a["id"] for a in answers] == list("abcdefghijk") + [None, "l"]
    assert answers[0] == {"id": "a", "value": [40, -40]}
    assert answers[1] == {"id": "b", "imps": 4}
    for a in answers[2:]:
        assert set(a) == {"id", "error"} and isinstance(a["error"], str) and a["error"]


def test_the_command_line(tmp_path):
    f = tmp_path / "cases.jsonl"
    f.write_text('\ufeff{"id": "x", "query": "vp", "boards": 4, "imps": 10}\n', encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "app.competition.duplicate", str(f)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0 and json.loads(r.stdout) == {"id": "x", "vp": [16.73, 3.27]}
    bad = subprocess.run(
        [sys.executable, "-m", "app.competition.duplicate", "-"],
        cwd=ROOT,
        input="not json\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout == "" and "not JSON" in bad.stderr
