"""A deal as JSON, and replay: rules + seed + action log rebuild the identical state.

``to_json(deal)`` writes ``{"schema": 1, "setup": …, "log": […], "state": …}``: the setup and the
log are the source of truth, the state a cache. ``from_json`` replays the log and refuses a
snapshot whose state does not match it. ``replay(variant, options, seed, log)`` rebuilds a deal
from its parts; the log is a list of records or of their JSON form.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .deal import Deal, DealSetup, Record, apply
from .errors import EngineError

SCHEMA = 1


def to_json(deal: Deal) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "setup": deal.setup.to_json(),
        "log": [r.to_json() for r in deal.log],
        "state": deal.state_dict(),
    }


def dumps(deal: Deal) -> str:
    return json.dumps(to_json(deal), ensure_ascii=False, sort_keys=True)


def _records(log: Iterable[Any]) -> list[Record]:
    if isinstance(log, str | bytes | dict) or not isinstance(log, Iterable):
        raise EngineError("an action log is a list of actions")
    return [r if isinstance(r, Record) else Record.from_json(r) for r in log]


def replay_setup(setup: DealSetup, log: Iterable[Any]) -> Deal:
    deal = Deal(setup)
    for i, rec in enumerate(_records(log)):
        try:
            apply(deal, rec)
        except EngineError as e:
            raise EngineError(
                f"action {i + 1} of the log ({rec.kind} by seat {rec.seat}): {e}"
            ) from e
    return deal


def replay(
    variant: str,
    options: dict[str, Any] | None,
    seed: int,
    log: Iterable[Any],
    **setup: Any,
) -> Deal:
    """Rebuild a deal: ``setup`` takes the other ``DealSetup`` fields (levels, dealer, first,
    race, deal_no) for later deals."""
    if "levels" in setup:
        setup["levels"] = tuple(setup["levels"])
    return replay_setup(DealSetup(variant, dict(options or {}), seed, **setup), log)


def from_json(data: Any) -> Deal:
    """Load a deal written by ``to_json`` (a dict or its JSON text)."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except ValueError as e:
            raise EngineError(f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise EngineError("a saved deal is a JSON object")
    schema = data.get("schema")
    if schema != SCHEMA:
        raise EngineError(f"unknown schema {schema!r}; this engine reads schema {SCHEMA}")
    if "setup" not in data or "log" not in data:
        raise EngineError("a saved deal has a setup and a log")
    deal = replay_setup(DealSetup.from_json(data["setup"]), data["log"])
    state = data.get("state")
    if state is not None and state != deal.state_dict():
        raise EngineError("the saved state does not match what its log replays to")
    return deal
