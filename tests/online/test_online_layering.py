"""The online tables reach the engine through ``bridge``: the modules that play the game
(the bot loop, a seat's moves, the summary between deals, the state tokens, the director's
changes, the move clock) import nothing of the engine; only the bridge and a few modules that
read the engine's own data (card faces, refusal codes, the deal cache's replay, the bots'
choice, the discarded game's replay, failed throws, take-back penalties) do."""

from __future__ import annotations

import ast
from pathlib import Path

import app.services.online as online

PACKAGE = Path(online.__file__).parent
# the modules that may import the engine, and why (the bridge drives it; the others read it)
ENGINE_READERS = {
    "bridge",  # loads, steps, saves and views the deal: the one module that drives the engine
    "cache",  # rebuilds a deal from its log
    "botchoice",  # which engine bot plays a seat
    "cards",  # card faces and the deal's order of cards
    "refusals",  # the engine's refusal codes in words
    "throws",  # the engine's failed-throw records and their cost
    "guards",  # a discarded game's log replayed
    "takeback",  # the take-back penalty of RULES §7
    # 争上游's adapter: the bridge hands it the climbing deals to drive (one family, one adapter;
    # the bridge stays the entry point, see its docstring)
    "climbing_game",
    # 打百分's adapter (hundred-4p, forty-4p, hundred-3p), as 争上游's
    "hundred_game",
}


def _engine_imports(path: Path) -> list[str]:
    """The engine modules ``path`` imports at run time (an ``if TYPE_CHECKING:`` block is no
    import)."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and ast.unparse(child.test) == "TYPE_CHECKING":
                continue
            if isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                found.append(child.module)
            elif isinstance(child, ast.Import):
                found.extend(alias.name for alias in child.names)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return [m for m in found if m == "engine" or m.startswith("engine.")]


def test_only_the_bridge_drives_the_engine() -> None:
    importers = {p.stem for p in PACKAGE.glob("*.py") if _engine_imports(p)}
    assert "bridge" in importers
    assert importers <= ENGINE_READERS, importers - ENGINE_READERS
    for playing in (
        "advance",
        "moves",
        "between_deals",
        "tokens",
        "director",
        "clock",
        "deal_view",
    ):
        assert not _engine_imports(PACKAGE / f"{playing}.py"), playing
