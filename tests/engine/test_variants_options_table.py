"""Every option of RULES.md's "Options at a glance" is exposed for the right variants with the
table's default, takes each listed value, and a whole deal plays with every value."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.bots import make_bots, play_deal
from engine.deal import new_deal
from engine.variants import VARIANT_IDS, default_options, make_variant, option_names
from tests.shared_files import rules_md

RULES = rules_md()

# The table of RULES.md as data: option -> (values to try, default per variant)
TABLE: dict[str, tuple[list[Any], dict[str, Any]]] = {
    "decks": ([2, 4], {"tractor-4p": 2}),
    "triple_tractors": (
        [True, False],
        {"red-five-5p": True, "one-twenty-6p": True, "tractor-4p": True},
    ),
    "kitty_multiplier": (
        ["by_shape", "power", "double"],
        {"tractor-4p": "by_shape", "red-five-5p": "by_shape", "one-twenty-6p": "double"},
    ),
    "throw_penalty": (
        ["ten_per_attempt", "ten_per_card", "none"],
        {"tractor-4p": "ten_per_attempt"},
    ),
    "no_call_trump": (["kitty", "spades"], {"tractor-4p": "kitty"}),
    "redeal_below": ([None, 0, 15, 40], {"tractor-4p": 15}),
    "refuse_below": ([None, 0, 20, 40], {"one-twenty-6p": 20}),
    "score_table": (["units60"], {"red-five-5p": "units60"}),
    "must_play_levels": (
        [["A"], ["5", "10", "K", "A"]],
        {"tractor-4p": ["A"], "one-twenty-6p": ["A"]},
    ),
}

# RULES.md §7: the competition penalty options, in their own table
PENALTY_TABLE: dict[str, tuple[list[Any], dict[str, Any]]] = {
    "revoke_effect": (
        ["ends_deal", "extra_level"],
        {"tractor-4p": "ends_deal", "one-twenty-6p": "extra_level"},
    ),
    "takeback_effect": (
        ["level", "warning"],
        {"tractor-4p": "level", "red-five-5p": "level", "one-twenty-6p": "level"},
    ),
    "strikes_lose_match": ([None, 1, 3], {"tractor-4p": None, "one-twenty-6p": None}),
}
ALL_OPTIONS = {**TABLE, **PENALTY_TABLE}


@pytest.mark.skipif(
    not RULES.exists(), reason="../shared/rules/RULES.md is not beside this checkout"
)
def test_rules_md_lists_exactly_these_options() -> None:
    text = RULES.read_text(encoding="utf-8")
    glance = text.split("## Options at a glance", 1)[1].split("\n## ", 1)[0]
    names = set(re.findall(r"^\| `(\w+)` \|", glance, flags=re.M))
    assert names == set(TABLE)
    section7 = text.split("## 7.", 1)[1].split("\n## ", 1)[0]
    assert set(re.findall(r"^\| `(\w+)` \|", section7, flags=re.M)) == set(PENALTY_TABLE)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_defaults_follow_the_table(variant: str) -> None:
    want = {name: d[variant] for name, (_, d) in ALL_OPTIONS.items() if variant in d}
    assert set(option_names(variant)) == set(want)
    assert default_options(variant) == want
    assert dict(make_variant(variant).options) == want
    if variant == "tractor-4p":  # with 4 decks nobody calling makes spades trump
        assert make_variant(variant, {"decks": 4}).options["no_call_trump"] == "spades"


CASES = [
    (variant, name, value)
    for name, (values, defaults) in ALL_OPTIONS.items()
    for variant in defaults
    for value in values
]


@pytest.mark.parametrize(("variant", "name", "value"), CASES)
def test_every_value_plays_a_whole_deal(variant: str, name: str, value: Any) -> None:
    deal = new_deal(variant, {name: value}, seed=11)
    assert deal.variant.options[name] == value
    play_deal(deal, make_bots("random", deal.n, 11))
    assert deal.outcome in ("played", "redeal", "refused")
