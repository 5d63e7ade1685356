"""Names in an imported tournament file get the forms' cleaning (``app.services.text``): control,
bidirectional and zero-width characters are refused with the JSON path in the error, on the
upload form and in ``flask tournament import``, and nothing is created; runs of spaces collapse
as they do when a director types a name."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import select

from app.extensions import db
from app.models import Entrant, EntrantPlayer, Tournament
from tests.security.security_world import SecurityWorld, build_world, logged_in, snapshot
from tests.security.test_security_import import EXAMPLE, _upload


@pytest.fixture
def world(app: Flask) -> SecurityWorld:
    return build_world(app)


def _doc(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    doc = copy.deepcopy(EXAMPLE)
    change(doc)
    return doc


def _rename_entrant(doc: dict[str, Any], i: int, new: str) -> None:
    old = doc["entrants"][i]["name"]
    doc["entrants"][i]["name"] = new
    for rnd in doc["played"]:
        for tab in rnd["tables"]:
            for key in ("sides", "players"):
                if key in tab:
                    tab[key] = [new if n == old else n for n in tab[key]]
            if tab.get("bye") == old:
                tab["bye"] = new


def _player(i: int, j: int, name: str) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["entrants"][i]["players"].__setitem__(j, name)


# (the change, the JSON path the error names)
BAD_NAMES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "right-to-left override in an entrant": (
        lambda d: _rename_entrant(d, 0, "Li \u202e& Zhang"),
        "entrants[0].name",
    ),
    "zero-width space in a player": (_player(1, 0, "Wang\u200bFang"), "entrants[1].players[0]"),
    "bell character in a player": (_player(2, 1, "Liu\x07Yang"), "entrants[2].players[1]"),
    "only zero-width joiners": (_player(0, 1, "\u200d\u200d"), "entrants[0].players[1]"),
    "isolate in the tournament name": (lambda d: d.update(name="Cup \u2066x\u2069"), "name"),
    "byte order mark in an entrant": (
        lambda d: _rename_entrant(d, 2, "\ufeffChen & Liu"),
        "entrants[2].name",
    ),
}


@pytest.mark.parametrize("what", list(BAD_NAMES))
def test_invisible_characters_are_refused_by_path(
    app: Flask, runner: FlaskCliRunner, tmp_path: Any, world: SecurityWorld, what: str
) -> None:
    change, path = BAD_NAMES[what]
    body = json.dumps(_doc(change)).encode()
    before = snapshot()
    client = logged_in(app, world.users["a_director"])
    r = _upload(client, world.a.club.slug, body)
    assert r.status_code == 422, (what, r.status_code)
    page = r.get_data(as_text=True)
    assert f"{path}: " in page and "invisible" in page, (what, page[-2000:])
    file = tmp_path / "t.json"
    file.write_bytes(body)
    result = runner.invoke(args=["tournament", "import", str(file)])
    assert result.exit_code == 1 and f"{path}: " in result.stderr, (what, result.output)
    assert snapshot() == before


def test_a_club_name_with_invisible_characters_is_refused_by_the_cli(
    app: Flask, runner: FlaskCliRunner, tmp_path: Any, world: SecurityWorld
) -> None:
    file = tmp_path / "t.json"
    file.write_text(json.dumps(dict(EXAMPLE, club="New\u200b Club")))
    before = snapshot()
    result = runner.invoke(args=["tournament", "import", str(file)])
    assert result.exit_code == 1 and "club: " in result.stderr, result.output
    assert snapshot() == before


def test_spaces_collapse_as_on_the_forms(app: Flask, world: SecurityWorld) -> None:
    def spaced(d: dict[str, Any]) -> None:
        _rename_entrant(d, 0, "  Li   &  Zhang ")
        d["entrants"][1]["players"][1] = "Zhao\u3000 Lei"  # an ideographic space too
        d["name"] = " Imported   Cup"

    client = logged_in(app, world.users["a_director"])
    r = _upload(client, world.a.club.slug, json.dumps(_doc(spaced)).encode())
    assert r.status_code == 303, r.get_data(as_text=True)[-3000:]
    db.session.expire_all()
    t = db.session.scalar(select(Tournament).where(Tournament.name == "Imported Cup"))
    assert t is not None
    names = set(db.session.scalars(select(Entrant.name).where(Entrant.tournament_id == t.id)))
    assert names == {"Li & Zhang", "Wang & Zhao", "Chen & Liu"}
    players = set(
        db.session.scalars(
            select(EntrantPlayer.name)
            .join(Entrant, Entrant.id == EntrantPlayer.entrant_id)
            .where(Entrant.tournament_id == t.id)
        )
    )
    assert "Zhao Lei" in players


def test_two_names_equal_once_cleaned_are_one_name(app: Flask, world: SecurityWorld) -> None:
    doc = _doc(lambda d: d["entrants"][1].update(name="Li  &  Zhang"))
    client = logged_in(app, world.users["a_director"])
    before = snapshot()
    r = _upload(client, world.a.club.slug, json.dumps(doc).encode())
    assert r.status_code == 422
    assert "entrants[1].name: " in r.get_data(as_text=True)
    assert snapshot() == before
