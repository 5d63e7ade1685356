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
from .game import Game

SCHEMA = 1


def to_json(deal: Deal) -> dict[str, Any]:
    if not isinstance(deal, Deal):
        raise EngineError("save.deal_type", got=repr(deal))
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
        raise EngineError("log.type")
    return [r if isinstance(r, Record) else Record.from_json(r) for r in log]


def replay_setup(setup: DealSetup, log: Iterable[Any]) -> Deal:
    if isinstance(setup, dict):
        setup = DealSetup.from_json(setup)
    deal = Deal(setup)
    for i, rec in enumerate(_records(log)):
        try:
            apply(deal, rec)
        except EngineError as e:
            raise EngineError(
                "log.action", action=i + 1, kind=rec.kind, seat=rec.seat, cause=e.as_dict()
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
    if not isinstance(options, dict | None):
        raise EngineError("options.object", got=repr(options))
    if "levels" in setup and isinstance(setup["levels"], list):
        setup["levels"] = tuple(setup["levels"])
    return replay_setup(DealSetup(variant, dict(options or {}), seed, **setup), log)


def from_json(data: Any) -> Deal:
    """Load a deal written by ``to_json`` (a dict or its JSON text)."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except ValueError as e:
            raise EngineError("save.not_json", detail=str(e)) from None
    if not isinstance(data, dict):
        raise EngineError("save.deal_object")
    schema = data.get("schema")
    if schema != SCHEMA:
        raise EngineError("save.schema", got=repr(schema), schema=SCHEMA)
    if "setup" not in data or "log" not in data:
        raise EngineError("save.deal_fields")
    deal = replay_setup(DealSetup.from_json(data["setup"]), data["log"])
    state = data.get("state")
    if state is not None and state != deal.state_dict():
        raise EngineError("save.deal_state")
    return deal


def game_to_json(game: Game) -> dict[str, Any]:
    """A game: its rules, seed and every deal's log (the source of truth), plus its state."""
    if not isinstance(game, Game):
        raise EngineError("save.game_type", got=repr(game))
    return {
        "schema": SCHEMA,
        "game": {"variant": game.variant.id, "options": dict(game.options), "seed": game.seed},
        "deals": [[r.to_json() for r in d.log] for d in game.deals],
        "state": game.state_dict(),
    }


def game_from_json(data: Any) -> Game:
    """Replay a game written by ``game_to_json``: each deal's log in turn, each finished deal
    recorded; an unfinished last deal stays the current one."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except ValueError as e:
            raise EngineError("save.not_json", detail=str(e)) from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise EngineError("save.game_object", schema=SCHEMA)
    head = data.get("game")
    logs = data.get("deals")
    if not isinstance(head, dict) or not isinstance(logs, list):
        raise EngineError("save.game_fields")
    game = Game(head.get("variant", ""), head.get("options") or {}, head.get("seed", 0))
    for i, log in enumerate(logs):
        deal = game.next_deal()
        for j, rec in enumerate(_records(log)):
            try:
                apply(deal, rec)
            except EngineError as e:
                raise EngineError(
                    "save.game_action", deal=i + 1, action=j + 1, cause=e.as_dict()
                ) from e
        if deal.outcome is not None:
            game.record(deal)
        elif i != len(logs) - 1:
            raise EngineError("save.game_unfinished", deal=i + 1)
    state = data.get("state")
    if state is not None and state != game.state_dict():
        raise EngineError("save.game_state")
    return game
