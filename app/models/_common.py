"""Shared column helpers for the models."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """Naive UTC timestamp (stored the same way on SQLite and PostgreSQL)."""
    return datetime.now(UTC).replace(tzinfo=None)
