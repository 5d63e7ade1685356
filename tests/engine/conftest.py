"""The engine tests run against whichever engine build is imported: the pure modules (the
reference), or the optional mypyc build of ``tools/compile_engine.py`` when ``build/mypyc`` comes
first on the path (``make test-engine-compiled``). The header names the build.

A compiled module enforces its annotations: junk of the wrong Python type (a float card, a
text seat, a list for a level) raises ``TypeError`` before the engine's own check can answer
with its sentence, and ``True`` arrives as the number 1. The tests below feed exactly such junk,
so under the compiled build they are skipped with that reason; every other test runs on both.
"""

from __future__ import annotations

import pytest

import engine.deal

COMPILED = not engine.deal.__file__.endswith(".py")

WRONG_TYPE_TESTS = {
    "test_engine_api_fuzz.py::test_the_fuzz_reaches_every_module",
    "test_engine_api_fuzz.py::test_junk_arguments_raise_only_engine_errors",
    "test_engine_api_fuzz.py::test_no_silent_answer_for_a_non_card",
    "test_engine_api_fuzz.py::test_trump_context_refuses_non_cards",
    "test_engine_api_fuzz.py::test_unhashable_variant_and_options_get_an_error_sentence",
    "test_engine_error_codes.py::test_every_refusal_the_junk_fuzz_meets_has_json_params",
    "test_deal_game_serialize.py::test_bad_setups",
    "test_deal_game_serialize.py::test_bad_setup_shapes",
    "test_scoring_rules.py::test_advance_bad_input[bad2]",
    "test_scoring_rules.py::test_advance_bad_input[bad3]",
    "test_scoring_rules.py::test_advance_bad_input[bad4]",
    "test_scoring_rules.py::test_bad_numbers[args8-whole number]",
    "test_scoring_rules.py::test_bad_numbers[args9-whole number]",
}


def pytest_report_header() -> str:
    where = engine.deal.__file__
    return f"engine build: {'compiled' if COMPILED else 'pure'} ({where})"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if not COMPILED:
        return
    skip = pytest.mark.skip(
        reason="the compiled build raises TypeError for arguments of the wrong Python type"
    )
    for item in items:
        name = item.nodeid.split("/")[-1]
        if name in WRONG_TYPE_TESTS or name.split("[")[0] in WRONG_TYPE_TESTS:
            item.add_marker(skip)
