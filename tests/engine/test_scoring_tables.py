"""engine.scoring: the examples of conformance/examples.jsonl as direct calls, and every table edge."""

from __future__ import annotations

import json

import pytest

from engine.cards import parse_cards, points_of
from engine.scoring import (
    ATTACKERS,
    DECLARER,
    advance,
    deal_result,
    kitty_multiplier,
)
from engine.variants import make_variant
from tests.shared_files import conformance_examples

EXAMPLES = conformance_examples()
TRACTOR = make_variant("tractor-4p")
TRACTOR4 = make_variant("tractor-4p", {"decks": 4})
RED = make_variant("red-five-5p")
ONE20 = make_variant("one-twenty-6p")


def _examples(query: str) -> list[dict]:
    if not EXAMPLES.exists():  # pragma: no cover - the shared folder is outside the repository
        pytest.skip("shared conformance examples not available")
    cases = [json.loads(line) for line in EXAMPLES.read_text().splitlines() if line.strip()]
    found = [c for c in cases if c["query"] == query]
    assert found, query
    return found


# The examples, written out as direct calls so they run even without the shared folder.
def test_examples_as_direct_calls() -> None:
    # ex-deal-keep-one: 75 points, attackers did not win the last trick
    assert deal_result(TRACTOR, 75, 30, None) == deal_result(TRACTOR, 75, 30, 0)
    r = deal_result(TRACTOR, 75, 30, None)
    assert (r.total, r.winner, r.levels) == (75, DECLARER, 1)
    # ex-deal-kitty-pair: 60 + 10 × 4 (a pair led to the last trick, by_shape)
    r = deal_result(TRACTOR, 60, 10, kitty_multiplier("by_shape", 2))
    assert (r.total, r.winner, r.levels) == (100, ATTACKERS, 0)
    # ex-deal-120-double: 235 + 5 × 2
    r = deal_result(ONE20, 235, 5, kitty_multiplier("double", 1))
    assert (r.total, r.winner, r.levels) == (245, ATTACKERS, 2)
    # ex-deal-red-five-friend
    r = deal_result(RED, 130, 0, None, dealer=0, friend=2)
    assert (r.total, r.winner, r.units, r.scores) == (130, ATTACKERS, 1, [-2, 1, -1, 1, 1])
    assert advance("9", 2) == ("J", False)
    assert advance("K", 3) == ("A", False)


@pytest.mark.parametrize("case", _examples("deal_result"), ids=lambda c: c["id"])
def test_examples_deal_result(case: dict) -> None:
    variant = make_variant(case["variant"], case.get("options"))
    kitty = points_of(parse_cards(case["kitty"]))
    mult = None
    if case["last"] is not None:
        # the examples' last leads are single components: their card count is the component size
        mult = kitty_multiplier(variant.options["kitty_multiplier"], len(case["last"]))
    r = deal_result(
        variant,
        case["points"],
        kitty,
        mult,
        case.get("failed_throws"),
        dealer=case.get("dealer"),
        friend=case.get("friend"),
    )
    for key, want in case["expect"].items():
        assert getattr(r, key) == want, key


@pytest.mark.parametrize("case", _examples("advance"), ids=lambda c: c["id"])
def test_examples_advance(case: dict) -> None:
    must = case.get("options", {}).get("must_play_levels", ["A"])
    to, passed = advance(case["from"], case["gain"], must)
    assert to == case["expect"]["to"]
    if "passed" in case["expect"]:
        assert passed == case["expect"]["passed"]


@pytest.mark.parametrize(
    ("points", "kitty", "mult", "total", "winner", "levels"),
    [
        (0, 0, None, 0, DECLARER, 3),
        (5, 0, None, 5, DECLARER, 2),
        (35, 0, None, 35, DECLARER, 2),
        (40, 0, None, 40, DECLARER, 1),
        (75, 0, None, 75, DECLARER, 1),
        (80, 0, None, 80, ATTACKERS, 0),
        (115, 0, None, 115, ATTACKERS, 0),
        (120, 0, None, 120, ATTACKERS, 1),
        (155, 0, None, 155, ATTACKERS, 1),
        (160, 0, None, 160, ATTACKERS, 2),
        (195, 0, None, 195, ATTACKERS, 2),
        (200, 0, None, 200, ATTACKERS, 3),
        (155, 40, 2, 235, ATTACKERS, 3),
        (160, 40, 2, 240, ATTACKERS, 4),
        (195, 5, 16, 275, ATTACKERS, 4),
        (120, 40, 4, 280, ATTACKERS, 5),
        (40, 40, 8, 360, ATTACKERS, 7),
    ],
)
def test_tractor_table_edges(
    points: int, kitty: int, mult: int | None, total: int, winner: str, levels: int
) -> None:
    r = deal_result(TRACTOR, points, kitty, mult)
    assert (r.total, r.winner, r.levels) == (total, winner, levels)


@pytest.mark.parametrize(
    ("total", "winner", "levels"),
    [
        (0, DECLARER, 3),
        (5, DECLARER, 2),
        (75, DECLARER, 2),
        (80, DECLARER, 1),
        (155, DECLARER, 1),
        (160, ATTACKERS, 0),
        (235, ATTACKERS, 0),
        (240, ATTACKERS, 1),
        (315, ATTACKERS, 1),
        (320, ATTACKERS, 2),
        (395, ATTACKERS, 2),
        (400, ATTACKERS, 3),
    ],
)
def test_tractor_four_decks_doubled_table(total: int, winner: str, levels: int) -> None:
    r = deal_result(TRACTOR4, total, 0, None)
    assert (r.total, r.winner, r.levels) == (total, winner, levels)


def test_tractor_four_decks_further_steps_of_80() -> None:
    # 400 points cannot be exceeded without a kitty; only penalties add: check the table directly
    from engine.scoring import tractor_table

    assert tractor_table(479, 4) == (ATTACKERS, 3)
    assert tractor_table(480, 4) == (ATTACKERS, 4)
    assert tractor_table(560, 4) == (ATTACKERS, 5)
    assert tractor_table(239, 2) == (ATTACKERS, 3)


@pytest.mark.parametrize(
    ("total", "winner", "levels"),
    [
        (0, DECLARER, 2),
        (55, DECLARER, 2),
        (60, DECLARER, 1),
        (115, DECLARER, 1),
        (120, ATTACKERS, 0),
        (175, ATTACKERS, 0),
        (180, ATTACKERS, 1),
        (235, ATTACKERS, 1),
        (240, ATTACKERS, 2),
        (300, ATTACKERS, 2),
    ],
)
def test_one_twenty_table_edges(total: int, winner: str, levels: int) -> None:
    r = deal_result(ONE20, total, 0, None)
    assert (r.total, r.winner, r.levels) == (total, winner, levels)


@pytest.mark.parametrize(
    ("total", "winner", "units"),
    [
        (0, DECLARER, 3),
        (5, DECLARER, 2),
        (55, DECLARER, 2),
        (60, DECLARER, 1),
        (115, DECLARER, 1),
        (120, ATTACKERS, 1),
        (175, ATTACKERS, 1),
        (180, ATTACKERS, 2),
        (235, ATTACKERS, 2),
        (240, ATTACKERS, 3),
        (295, ATTACKERS, 3),
        (300, ATTACKERS, 4),
    ],
)
def test_red_five_units_edges(total: int, winner: str, units: int) -> None:
    r = deal_result(RED, total, 0, None, dealer=1, friend=3)
    assert (r.total, r.winner, r.units) == (total, winner, units)
    sign = 1 if winner == DECLARER else -1
    assert r.scores == [-sign * units, 2 * sign * units, -sign * units, sign * units, -sign * units]
    assert sum(r.scores) == 0


def test_red_five_kitty_pushes_over_300() -> None:
    r = deal_result(RED, 290, 10, 2, dealer=4, friend=None)
    assert r.total == 310 and r.units == 4
    assert r.scores == [4, 4, 4, 4, -16]
