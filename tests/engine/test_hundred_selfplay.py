"""Self-play of the 打百分 family: bots' moves are legal in every variant and mode, and the
command line plays and logs deals that replay to the same state."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.hundred import HundredSetup, replay
from engine.hundred_bots import MODES, legality

ROOT = Path(__file__).resolve().parents[2]


def test_no_illegal_move_in_hundreds_of_deals_over_every_mode():
    illegal, moves, per_mode = legality(360, seed=7)
    assert illegal == 0
    assert moves > 360 * 40
    assert len(per_mode) == len(MODES) and all(n == 60 for n in per_mode.values())


def test_selfplay_command_plays_and_logs_replayable_deals(tmp_path):
    log = tmp_path / "deals.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "engine.selfplay", "--variant", "hundred-4p", "--deals", "4"]
        + ["--seed", "3", "--bots", "heuristic", "--options", '{"friend": "hidden"}']
        + ["--log", str(log)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 5 and lines[-1].startswith("total: 4 deals")
    assert all("bid" in line and "friend" in line for line in lines[:4])
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 4
    for rec in records:
        deal = replay(HundredSetup.from_json(rec["setup"]), rec["log"])
        assert deal.phase == "done" and deal.result is not None


def test_selfplay_of_the_dummy_and_the_turned_card():
    for variant in ("hundred-3p", "forty-4p"):
        proc = subprocess.run(
            [sys.executable, "-m", "engine.selfplay", "--variant", variant, "--deals", "3"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        first = proc.stdout.splitlines()[0]
        assert ("turned" in first) is (variant == "forty-4p")
        if variant == "hundred-3p":
            assert first.count(",") >= 4 and "scores [" in first
            assert len(json.loads(first.split("scores ")[1])) == 3
