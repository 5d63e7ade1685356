"""The 打百分 arena in duplicate form: each deal is played twice on the same cards with the bots'
seats swapped, so each bot holds every seat; a deal is scored in 积分 per seat (fixed pairs:
units of A's side); the command prints the arena line of the other variants for hundred-4p,
forty-4p and hundred-3p, with mc on a fixed number of worlds too."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import hundred_rules as hr
from engine.arena import Tally, main, owners
from engine.hundred import HundredDeal, HundredSetup
from engine.hundred_arena import duplicate_pair, score_hundred
from engine.hundred_bots import HeuristicHundredBot, RandomHundredBot

LINE = (
    r"arena variant={v} a={a} b={b} deals={n} diff=-?\d+\.\d{{3}} "
    r"ci95=\[-?\d+\.\d{{3}},-?\d+\.\d{{3}}\] move_p95_ms_a=\d+\.\d illegal=0"
)


class _Noting:
    """A bot that notes each deal and seat it acts for, with its name."""

    def __init__(self, bot: RandomHundredBot, name: str, acts: list) -> None:
        self.bot, self.name, self.acts = bot, name, acts

    def act(self, deal: HundredDeal, seat: int) -> Any:
        self.acts.append((deal, self.name, seat))
        return self.bot.act(deal, seat)


@pytest.mark.parametrize(
    ("variant", "options"),
    [(hr.HUNDRED_4P, {"friend": "blind"}), (hr.FORTY_4P, {}), (hr.HUNDRED_3P, {})],
)
def test_a_pair_is_the_same_cards_with_the_seats_swapped(
    variant: str, options: dict[str, Any]
) -> None:
    acts: list[tuple[HundredDeal, str, int]] = []

    def fa(seed: int) -> Any:
        return _Noting(HeuristicHundredBot(seed), "a", acts)

    def fb(seed: int) -> Any:
        return _Noting(RandomHundredBot(seed), "b", acts)

    duplicate_pair(variant, options, 4242, 1, fa, fb, Tally())
    deals = list(dict.fromkeys(d for d, _, _ in acts))
    assert len(deals) == 2
    one, two = deals
    assert one.setup == two.setup  # the same seed: the same cards
    assert one.result is not None and two.result is not None
    n = one.variant.players
    seats = {(d is one, name, seat) for d, name, seat in acts}
    for seat in range(n):  # each bot holds every seat once over the pair
        assert {(first, name) for first, name, s in seats if s == seat} in (
            {(True, "a"), (False, "b")},
            {(True, "b"), (False, "a")},
        )
    assert owners(n, True) == ["a" if s % 2 == 0 else "b" for s in range(n)]
    assert HundredDeal(one.setup).hands == HundredDeal(two.setup).hands


def _finished(
    variant: str, options: dict[str, Any], scores: tuple[int, ...], declarer: int
) -> HundredDeal:
    d = HundredDeal(HundredSetup(variant, options))  # with the result score_hundred reads
    d.declarer = declarer
    d.result = hr.HundredResult(60, hr.ATTACKERS, 1, scores)
    return d


def test_a_deal_is_scored_per_seat_or_in_units_of_a_side() -> None:
    # fixed pairs: A's side (0, 2) lost 2 units each
    s = score_hundred(_finished(hr.FORTY_4P, {}, (-2, 2, -2, 2), 0), owners(4, True))
    assert (s.adv, s.a_ahead, s.b_ahead, s.a_declared, s.declarer_won) == (
        -2.0,
        False,
        True,
        True,
        False,
    )
    # one against three: the declarer (B's seat 1) lost 3, each of the others won 1
    s = score_hundred(_finished(hr.HUNDRED_4P, {}, (1, -3, 1, 1), 1), owners(4, True))
    assert s.adv == pytest.approx((2 - (-2)) / 4) and s.a_ahead and not s.a_declared
    # 3人百分, A at seat 1 only: the declarer (seat 1) won 2 units, the others lost 1 each
    s = score_hundred(_finished(hr.HUNDRED_3P, {}, (-1, 2, -1), 1), owners(3, False))
    assert s.adv == pytest.approx((2 - (-2)) / 3) and s.a_declared


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        (hr.HUNDRED_4P, None),
        (hr.HUNDRED_4P, '{"friend": "fixed"}'),
        (hr.FORTY_4P, None),
        (hr.HUNDRED_3P, None),
    ],
)
def test_the_arena_prints_its_line(
    variant: str, options: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--variant", variant, "--a", "heuristic", "--b", "random", "--deals", "3"]
    argv += ["--seed", "5"] + ([] if options is None else ["--options", options])
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert re.fullmatch(LINE.format(v=variant, a="heuristic", b="random", n=3), out[-1]), out[-1]
    unit = "units of A's side" if options or variant == hr.FORTY_4P else "积分 per seat"
    assert f"A's advantage per deal ({unit})" in out[1]
    assert main(argv) == 0
    again = capsys.readouterr().out.splitlines()
    assert again[:4] == out[:4]  # the same deals and results by seed (times aside)


def test_mc_plays_in_the_arena_on_a_fixed_number_of_worlds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--variant", hr.HUNDRED_3P, "--a", "mc", "--b", "heuristic", "--deals", "1"]
    assert main([*argv, "--seed", "3", "--samples", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert re.fullmatch(LINE.format(v=hr.HUNDRED_3P, a="mc", b="heuristic", n=1), out[-1])
    assert main([*argv, "--seed", "3", "--samples", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[:4] == out[:4]  # repeatable


def test_the_hundred_arena_refuses_games(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--variant", hr.FORTY_4P, "--a", "heuristic", "--b", "random", "--games"])
    assert e.value.code == 2
    assert "--games is for the trick games" in capsys.readouterr().err
    argv = ["--variant", hr.FORTY_4P, "--a", "heuristic", "--b", "random", "--deals", "1"]
    assert main([*argv, "--options", '{"friend": "fixed"}']) == 1  # not an option of 40分
    assert "error:" in capsys.readouterr().err
