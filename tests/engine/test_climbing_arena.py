"""The 争上游 arena in duplicate form: each deal is played once with bot A at each seat on the
same cards, every bot sits in every seat, the places are compared for A, and the command prints
the arena line of the other variants."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from engine.arena import Tally, main
from engine.climbing_arena import rotated_deal, score_seating, seatings
from engine.climbing_bots import ClimbingHeuristicBot, ClimbingRandomBot
from engine.climbing_deal import ClimbingDeal, ClimbingResult, ClimbingSetup


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_over_the_seatings_every_bot_holds_every_seat(n: int) -> None:
    rows = seatings(n)
    assert len(rows) == n
    assert all(row.count("a") == 1 and len(row) == n for row in rows)
    for seat in range(n):
        column = Counter(row[seat] for row in rows)
        assert column == {"a": 1, "b": n - 1}


class _Noting:
    """A bot that notes every seat it acts for, with its name and the deal (a wrapper, not a
    subclass: the compiled build's climbing bots are closed to interpreted subclasses)."""

    def __init__(self, bot: ClimbingRandomBot, name: str, acts: set) -> None:
        self.bot, self.name, self.acts = bot, name, acts

    def act(self, deal: ClimbingDeal, seat: int) -> Any:
        self.acts.add((id(deal), self.name, seat))
        return self.bot.act(deal, seat)


@pytest.mark.parametrize(
    ("options", "winner", "loser"), [({}, 1, 3), ({"players": 5, "tribute": False}, 0, 4)]
)
def test_each_deal_is_played_on_the_same_cards_with_a_at_every_seat(
    options: dict[str, Any], winner: int, loser: int
) -> None:
    setup = ClimbingSetup("climbing", options, 12345, 2, winner=winner, loser=loser)
    acts: set[tuple[int, str, int]] = set()

    def fa(seed: int) -> Any:
        return _Noting(ClimbingHeuristicBot(seed), "a", acts)

    def fb(seed: int) -> Any:
        return _Noting(ClimbingRandomBot(seed), "b", acts)

    played = rotated_deal(setup, fa, fb, Tally())
    n = len(played)
    assert n == ClimbingDeal(setup).n
    draws = {tuple((r.seat, r.cards) for r in d.log if r.kind == "draw") for _, d in played}
    assert len(draws) == 1  # the same cards to the same seats in every play
    assert {tuple(d.pack) for _, d in played} == {tuple(ClimbingDeal(setup).pack)}
    for r, (own, deal) in enumerate(played):
        assert own == seatings(n)[r]
        assert deal.result is not None and sorted(deal.result.places) == list(range(1, n + 1))
        acted = {(name, seat) for d, name, seat in acts if d == id(deal)}
        # every seat acts in the first round; A's bot at seat r, B's at the others
        assert acted == {("a" if s == r else "b", s) for s in range(n)}
    a_seats = {seat for _, name, seat in acts if name == "a"}
    b_seats = {seat for _, name, seat in acts if name == "b"}
    assert a_seats == b_seats == set(range(n))


def test_a_seating_is_scored_by_places_and_points() -> None:
    deal = ClimbingDeal(ClimbingSetup("climbing", {}, 1))
    # out first seat 2 (A), then 0, 3, and seat 1 last; default points 3, 2, 1, 0
    deal.result = ClimbingResult((2, 0, 3, 1), (2, 4, 1, 3), (2, 0, 3, 1))
    s = score_seating(deal, ["b", "b", "a", "b"])
    assert (s.a_place, s.b_place) == (1, (2 + 4 + 3) / 3)
    assert (s.a_points, s.b_points) == (3, (2 + 0 + 1) / 3)
    assert (s.a_first, s.b_first) == (True, False)
    s = score_seating(deal, ["b", "a", "b", "b"])  # A last
    assert (s.a_place, s.b_place, s.a_first, s.b_first) == (4, 2, False, True)


def test_the_climbing_arena_prints_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--variant", "climbing", "--a", "heuristic", "--b", "random", "--deals", "3"]
    assert main([*argv, "--seed", "2", "--options", '{"players": 5}']) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "variant climbing: A=heuristic B=random, 5 players, 3 deals in duplicate form "
        "(15 plays: A at each seat in turn, B at the others)"
    )
    assert re.fullmatch(
        r"arena variant=climbing a=heuristic b=random deals=3 diff=-?\d+\.\d{3} "
        r"ci95=\[-?\d+\.\d{3},-?\d+\.\d{3}\] move_p95_ms_a=\d+\.\d illegal=0",
        out[-1],
    ), out[-1]
    diff = re.search(r"diff=(-?[\d.]+)", out[-1])
    mean_place = re.search(r"A's mean place: ([\d.]+) of 5", out[2])
    assert diff and mean_place
    # B's seats share the places A did not take: B's mean place is (15 − A's) / 4
    a = float(mean_place.group(1))
    assert float(diff.group(1)) == pytest.approx((15 - a) / 4 - a, abs=2e-3)
    assert main([*argv, "--seed", "2", "--options", '{"players": 5}']) == 0
    again = capsys.readouterr().out.splitlines()
    assert again[:4] == out[:4]  # the same deals and places by seed (times aside)
    assert not any("points by place" in line for line in out)  # the default: the places again
    points = '{"players": 5, "place_points": [10, 5, 2, 1, 0]}'
    assert main([*argv, "--seed", "2", "--options", points]) == 0
    scored = capsys.readouterr().out.splitlines()
    assert scored[:3] == out[:3]  # points by place change no play
    assert re.fullmatch(
        r"  points by place, A's minus B's mean: [+-]\d+\.\d{3} ci95=\[[+-][\d.]+,[+-][\d.]+\]",
        scored[3],
    ), scored[3]


def test_the_climbing_arena_refuses_what_it_cannot_play(
    capsys: pytest.CaptureFixture[str],
) -> None:
    base = ["--variant", "climbing", "--deals", "1"]
    for extra in (["--a", "mc", "--b", "random"], ["--a", "heuristic", "--b", "random", "--games"]):
        with pytest.raises(SystemExit) as e:
            main([*base, *extra])
        assert e.value.code == 2
    assert "--games is for the trick games" in capsys.readouterr().err
    assert main([*base, "--a", "random", "--b", "random", "--options", '{"players": 7}']) == 1
    assert "error:" in capsys.readouterr().err
