"""The arena's interval arithmetic on known inputs, its scoring of a deal for bot A, and a short
run that prints the summary line (strength is a benchmark, not a test)."""

from __future__ import annotations

import math
import re

import pytest

from engine.arena import main, mean_ci, owners, p95, score_deal, wilson
from engine.deal import Deal
from engine.scoring import DealResult


def test_mean_ci_known_values() -> None:
    m, lo, hi = mean_ci([1, 2, 3, 4, 5])
    # sample sd sqrt(2.5); half-width 1.96 * sqrt(2.5 / 5)
    h = 1.959963984540054 * math.sqrt(0.5)
    assert m == 3 and lo == pytest.approx(3 - h) and hi == pytest.approx(3 + h)
    assert lo == pytest.approx(1.6141, abs=1e-4)
    assert mean_ci([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0)
    assert mean_ci([0.5]) == (0.5, 0.5, 0.5)
    assert mean_ci([]) == (0.0, 0.0, 0.0)


def test_wilson_known_values() -> None:
    lo, hi = wilson(8, 10)  # the textbook example: 0.490 .. 0.943
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_p95_nearest_rank() -> None:
    assert p95(list(range(1, 101))) == 95
    assert p95([3.0]) == 3.0 and p95([]) == 0.0
    assert p95([5, 1, 4, 2, 3]) == 5


def _done(variant: str, dealer: int, result: DealResult) -> Deal:
    from engine.deal import DealSetup

    d = Deal(DealSetup(variant, {}, 1, dealer=dealer, first=False))
    d.dealer, d.result, d.outcome = dealer, result, "played"
    return d


def test_score_deal_levels_and_margin() -> None:
    # A at the even seats declares (dealer 0) and wins 2 levels: A +2
    d = _done("tractor-4p", 0, DealResult(35, "declarer", 2))
    s = score_deal(d, owners(4, True))
    assert (s.adv, s.margin, s.a_up, s.b_up) == (2.0, -35.0, True, False)
    # the same deal with the seats swapped: B declared and won, A attacked with 35 points
    s = score_deal(d, owners(4, False))
    assert (s.adv, s.margin, s.a_up, s.b_up) == (-2.0, 35.0, False, True)
    # attackers take over without a level: nobody goes up
    s = score_deal(_done("one-twenty-6p", 1, DealResult(120, "attackers", 0)), owners(6, True))
    assert (s.adv, s.margin, s.a_up, s.b_up) == (0.0, 120.0, False, False)


def test_score_deal_red_five_per_seat() -> None:
    d = _done("red-five-5p", 0, DealResult(155, "attackers", None, 1, [1, -2, 1, 1, -1]))
    d.won = [0, 60, 40, 30, 25]
    s = score_deal(d, owners(5, True))  # A at 0, 2, 4: 1 + 1 - 1; B at 1, 3: -2 + 1
    assert s.adv == pytest.approx((1 - (-1)) / 5)
    assert s.margin == (0 + 40 + 25) - (60 + 30)


def test_short_arena_run_prints_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--variant", "tractor-4p", "--a", "mc", "--b", "heuristic", "--deals", "1"]
    assert main([*argv, "--seed", "2", "--time-per-move", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert re.fullmatch(
        r"arena variant=tractor-4p a=mc b=heuristic deals=1 diff=-?\d+\.\d{3} "
        r"ci95=\[-?\d+\.\d{3},-?\d+\.\d{3}\] move_p95_ms_a=\d+\.\d illegal=0",
        out[-1],
    ), out[-1]
    assert any("A's advantage per deal (levels)" in line for line in out)


def test_games_run_prints_the_win_rate(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--variant", "red-five-5p", "--a", "heuristic", "--b", "random", "--deals", "1"]
    assert main([*argv, "--games", "--game-deals", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert re.search(r"games: 2 \(1 duplicate pairs\), won by A \d, by B \d", out[0])
    assert "(Wilson)" in out[0]
    assert out[-1].startswith("arena variant=red-five-5p a=heuristic b=random deals=1 ")
