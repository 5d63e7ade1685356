"""Browser tests: Debian's chromium driven by pytest-playwright (no browser download), against
the app served by Werkzeug in a daemon thread with a temporary SQLite file database."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.browser_helpers import serving, sqlite_app

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        pytest.fail(
            "Debian's chromium is missing: `make test` installs it (apt-get install chromium)"
        )
    return {**browser_type_launch_args, "executable_path": executable, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a running app with an empty database."""
    with serving(sqlite_app(tmp_path_factory.mktemp("live") / "live.db")) as base:
        yield base


# A busy two-core CI machine can take longer than Playwright's 5 s default for an htmx swap;
# the waits stay event-driven, only the ceiling is raised.
BROWSER_TIMEOUT_MS = 20_000


@pytest.fixture(autouse=True)
def _patient_waits(context: Any) -> Iterator[None]:
    from playwright.sync_api import expect

    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    expect.set_options(timeout=BROWSER_TIMEOUT_MS)
    yield
