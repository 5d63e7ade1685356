"""The season pages of a club (list, create, a season's standings and ratings)."""

from __future__ import annotations

from . import bp  # noqa: F401
