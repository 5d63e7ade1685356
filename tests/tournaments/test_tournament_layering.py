"""The score sheets do not import the online tables: the sheet asks and announces through
``sheets.OnlineTables``, which ``online.guards`` answers (a one-way dependency)."""

from __future__ import annotations

import ast
from pathlib import Path

import app.services.online.guards as guards
from app.services.tournaments import sheets

SHEETS = Path(sheets.__file__)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            out.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return out


def test_the_sheets_import_nothing_of_the_online_tables() -> None:
    found = _imports(SHEETS)
    assert not [m for m in found if "online" in m], found


def test_the_online_tables_listen_to_the_sheets() -> None:
    listener = sheets._online_tables()
    assert type(listener).__module__ == guards.__name__
    assert {"deal_in_play", "forfeit"} <= set(dir(listener))
