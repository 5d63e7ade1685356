"""Tournaments do not import the online tables: the tournament services ask and announce
through ``sheets.OnlineTables``, which ``online.guards`` answers (a one-way dependency: online
may import tournaments, never the reverse)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import app.services.online.guards as guards
from app.services.tournaments import sheets

TOURNAMENTS = Path(sheets.__file__).parent
MODULES = sorted(TOURNAMENTS.glob("*.py"))


def _imports(source: str) -> set[str]:
    """Every module ``source`` imports, at its top or inside a function, as written: relative
    ones with their leading dots ("..online", "..online.botchoice")."""
    tree = ast.parse(source)
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            out.add("." * node.level + (node.module or ""))
            if node.level and not node.module:  # "from .. import online"
                out.update("." * node.level + alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return out


def _online(module: str) -> bool:
    """An import of the online package: ``..online``/``..online.x`` from the tournaments'
    package, or ``app.services.online`` by its full name."""
    if module.startswith("..") and not module.startswith("..."):
        return module[2:].split(".")[0] == "online"
    return module == "app.services.online" or module.startswith("app.services.online.")


def test_the_check_sees_an_import_of_online() -> None:
    source = "from ..online import guards\ndef f():\n    from ..online.bridge import x\n"
    assert {m for m in _imports(source) if _online(m)} == {"..online", "..online.bridge"}
    assert {m for m in _imports("from .. import online, text\n") if _online(m)} == {"..online"}
    assert _online("app.services.online.seats") and _online("..online")
    assert not _online(".sheets") and not _online("...models") and not _online("..onlinex")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_tournaments_module_imports_the_online_tables(path: Path) -> None:
    found = _imports(path.read_text(encoding="utf-8"))
    assert not [m for m in found if _online(m)], f"{path.name} imports {sorted(found)}"


def test_the_online_tables_listen_to_the_tournaments() -> None:
    listener = sheets.online_tables()
    assert type(listener).__module__ == guards.__name__
    asked = {
        name
        for name, member in inspect.getmembers(sheets.OnlineTables, inspect.isfunction)
        if not name.startswith("_")
    }
    assert {"deal_in_play", "forfeit", "game_of", "discard", "seat_links"} <= asked
    assert asked <= set(dir(listener))
