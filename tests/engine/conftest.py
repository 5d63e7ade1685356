"""The engine tests run against whichever engine build is imported: the pure modules (the
reference), or the optional mypyc build of ``tools/compile_engine.py`` when ``build/mypyc`` comes
first on the path (``make test`` runs this directory on both: ``make test-engine-compiled``).
The header and the summary name the build; ``ENGINE_BUILD=compiled`` (or ``pure``) makes the
run stop at once when another build was imported, so a path mistake cannot silently test the
pure engine twice.

Every test runs on both and must pass on both: the compiled build's public boundary takes
untyped arguments, so junk of the wrong Python type (a float card, a text seat, a list for a
level, ``True`` for a number) reaches the engine's own checks and gets the same ``EngineError``
with the same code and sentence, never mypyc's ``TypeError``.
"""

from __future__ import annotations

import os

import pytest

import engine.bots
import engine.deal

COMPILED = not engine.deal.__file__.endswith(".py")
BUILD = "compiled" if COMPILED else "pure"


def _where() -> str:
    return f"engine build: {BUILD} ({engine.deal.__file__})"


def pytest_configure(config: pytest.Config) -> None:
    want = os.environ.get("ENGINE_BUILD")
    mixed = engine.bots.__file__.endswith(".py") == COMPILED
    if mixed or (want and want != BUILD):
        raise pytest.UsageError(f"ENGINE_BUILD={want} but {_where()}, bots {engine.bots.__file__}")


def pytest_report_header() -> str:
    return _where()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(_where())
