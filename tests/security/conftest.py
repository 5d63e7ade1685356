"""Every security test reads a live stream to its end: it ends at once here (a stream stays open
for minutes in a browser)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def short_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.services.live import streams

    monkeypatch.setattr(streams, "LIFETIME_S", 0.0)
