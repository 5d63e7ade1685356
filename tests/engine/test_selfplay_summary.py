"""Self-play's per-deal line names the declarer, trump, points, result and the levels (before ->
after, with 120分 misplays); red five shows units and 积分; the last line totals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.selfplay import main


@pytest.mark.parametrize("variant", ["tractor-4p", "one-twenty-6p", "red-five-5p"])
def test_summary_lines(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--variant", variant, "--deals", "3", "--seed", "3", "--bots", "heuristic"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4 and lines[-1].startswith("total: 3 deals")
    for line in lines[:-1]:
        if "redeal" in line or "refused" in line:
            continue
        assert re.search(r"declarer \d, trump (NT|[SHDC]), level \w+, ", line), line
        assert re.search(r"points \d+", line), line
        if variant == "red-five-5p":
            assert re.search(r"-> (declarer|attackers) \d units, scores \[", line), line
        else:
            m = re.search(
                r"-> (declarer|attackers) \+(\d), levels (\w+):(\w+) -> (\w+):(\w+)$", line
            )
            assert m, line
            assert m.group(3, 4) == ("2", "2")  # separate first deals
            assert m.group(5, 6) != ("2", "2") or m.group(2) == "0"


def test_misplays_move_the_other_side_in_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    # seed 17 of a 120分 game: deal 4's only failed throw (seat 0, side 0) moves side 1 from 3 to 4
    assert main(["--variant", "one-twenty-6p", "--deals", "4", "--seed", "17", "--game"]) == 0
    line = capsys.readouterr().out.splitlines()[3]
    assert "failed throws [0]" in line and "-> attackers +0, levels 6:3 -> 6:4" in line


def test_unwritable_log_is_an_error_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = f"{tmp_path}/no/such/dir/log.jsonl"
    assert main(["--variant", "tractor-4p", "--deals", "1", "--log", where]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot write the log") and "Traceback" not in err


def test_bad_options_are_an_error_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--variant", "tractor-4p", "--deals", "1", "--options", '{"decks": 3}']) == 1
    assert "option decks takes one of 2, 4, not 3" in capsys.readouterr().err
