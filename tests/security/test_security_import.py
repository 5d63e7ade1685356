"""Hostile tournament files: deep nesting, numbers with thousands of digits, NaN, huge strings,
wrong types in every field, bytes that are not UTF-8. The upload form and ``flask tournament
import`` answer with a clear list of errors and create nothing; a request larger than
``MAX_CONTENT_LENGTH`` gets a friendly 413 page."""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from tests.competition.tfile_examples import EXAMPLE as DOCUMENTED
from tests.security.security_world import SecurityWorld, build_world, logged_in, snapshot

# the documented example, in club A's name
EXAMPLE: dict[str, Any] = {**DOCUMENTED, "club": "Club A", "name": "Imported Cup"}


def _wrong_everywhere(doc: Any, depth: int = 0) -> Any:
    """Each value replaced by one of another type (a string for a number, a list for a string,
    a number for a list …), alternating so every kind of mistake appears."""
    if isinstance(doc, dict):
        return {k: _wrong_everywhere(v, depth + 1) for k, v in doc.items()}
    if isinstance(doc, list):
        return {"not": "a list"} if depth % 2 else 17
    if isinstance(doc, bool) or doc is None:
        return "yes"
    if isinstance(doc, int | float):
        return [doc] if depth % 2 else str(doc)
    return {"text": doc} if depth % 2 else 42


def _deep(n: int) -> str:
    return '{"format": "shengji-tournament/1", "options": ' + "[" * n + "]" * n + "}"


def _huge_number() -> str:
    return json.dumps(dict(EXAMPLE, rounds=0)).replace('"rounds": 0', '"rounds": ' + "9" * 5000)


HOSTILE: dict[str, bytes] = {
    "deep nesting": _deep(100_000).encode(),
    "deep nesting, moderate": _deep(5_000).encode(),
    "5000-digit number": _huge_number().encode(),
    "huge numbers": json.dumps(
        dict(EXAMPLE, rounds=10**30, match={"deals": 10**18}, points={"win": 1e308})
    ).encode(),
    "NaN and Infinity": json.dumps(dict(EXAMPLE, rounds=float("nan"), points={"win": 1e999}))
    .replace("Infinity", "-Infinity")
    .encode(),
    "wrong types everywhere": json.dumps(_wrong_everywhere(EXAMPLE)).encode(),
    "a 3 MB name": json.dumps(dict(EXAMPLE, name="x" * 3_000_000)).encode(),
    "not UTF-8": b'{"name": "\xff\xfe"}',
    "not an object": b"[1, 2, 3]",
    "empty": b"",
    "just null": b"null",
    "many entrants": json.dumps(
        dict(EXAMPLE, entrants=[{"name": f"E{i}", "players": ["a", "b"]} for i in range(50_000)])
    ).encode(),
}


def _one(change: Any) -> bytes:
    doc = copy.deepcopy(EXAMPLE)
    change(doc)
    return json.dumps(doc).encode()


# One hostile value each, with the JSON path the error must name (they used to crash the import
# with an integer overflow in the database, or store names longer than their columns).
SINGLE: dict[str, tuple[bytes, str]] = {
    "rounds": (_one(lambda d: d.update(rounds=10**30)), "rounds"),
    "deals": (_one(lambda d: d.update(match={"deals": 10**6})), "match.deals"),
    "minutes": (_one(lambda d: d.update(match={"minutes": 10**30})), "match.minutes"),
    "win": (_one(lambda d: d.update(points={"win": 10**30, "draw": 1, "loss": 0})), "points.win"),
    "withdrawn": (
        _one(lambda d: d["entrants"][0].update(withdrawn_after=10**30)),
        "entrants[0].withdrawn_after",
    ),
    "table number": (
        _one(lambda d: d["played"][0]["tables"][0].update(table=10**30)),
        "played[0].tables[0].table",
    ),
    "club name": (_one(lambda d: d.update(club="c" * 100_000)), "club"),
    "player name": (
        _one(lambda d: d["entrants"][0].update(players=["p" * 100_000, "Zhang Min"])),
        "entrants[0].players[0]",
    ),
    "option": (_one(lambda d: d.update(options={"redeal_below": 10**30})), "options.redeal_below"),
}


@pytest.fixture
def world(app: Flask) -> SecurityWorld:
    return build_world(app)


def _upload(client: FlaskClient, slug: str, body: bytes) -> Any:
    return client.post(
        f"/clubs/{slug}/tournaments/import",
        data={"file": (io.BytesIO(body), "t.json")},
        content_type="multipart/form-data",
    )


def test_hostile_uploads_are_listed_errors_and_create_nothing(
    app: Flask, world: SecurityWorld
) -> None:
    client = logged_in(app, world.users["a_director"])
    before = snapshot()
    for what, body in HOSTILE.items():
        r = _upload(client, world.a.club.slug, body)
        assert r.status_code == 422, (what, r.status_code)
        page = r.get_data(as_text=True)
        assert 'class="errors"' in page or "error" in page, what
        assert "Traceback" not in page, what
    assert snapshot() == before
    # the sound file goes in, which proves the form was reachable all along
    r = _upload(client, world.a.club.slug, json.dumps(EXAMPLE).encode())
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]


@pytest.mark.parametrize("what", list(SINGLE))
def test_one_hostile_value_is_named_by_its_path(
    app: Flask, runner: FlaskCliRunner, tmp_path: Any, world: SecurityWorld, what: str
) -> None:
    body, path = SINGLE[what]
    before = snapshot()
    client = logged_in(app, world.users["a_director"])
    r = _upload(client, world.a.club.slug, body)
    assert r.status_code == 422, (what, r.status_code)
    assert f"{path}: " in r.get_data(as_text=True), what
    file = tmp_path / "t.json"
    file.write_bytes(body)
    r = runner.invoke(args=["tournament", "import", str(file)])
    assert r.exit_code == 1 and f"{path}: " in r.stderr, (what, r.output, r.exception)
    assert snapshot() == before


def test_wrong_types_are_listed_by_path(app: Flask, world: SecurityWorld) -> None:
    client = logged_in(app, world.users["a_director"])
    page = _upload(
        client, world.a.club.slug, json.dumps(_wrong_everywhere(EXAMPLE)).encode()
    ).get_data(as_text=True)
    for path in ("rounds", "entrants", "points.win", "match.deals"):
        assert path in page, (path, page[-3000:])


def test_hostile_files_through_the_cli(
    app: Flask, runner: FlaskCliRunner, tmp_path: Any, world: SecurityWorld
) -> None:
    before = snapshot()
    for i, (what, body) in enumerate(HOSTILE.items()):
        path = tmp_path / f"f{i}.json"
        path.write_bytes(body)
        r = runner.invoke(args=["tournament", "import", str(path)])
        assert r.exit_code == 1, (what, r.exit_code, r.output[-500:], r.exception)
        assert r.stderr.strip(), what
        assert "Traceback" not in r.stderr, what
    assert snapshot() == before


def test_too_large_a_request_gets_a_friendly_413(app: Flask, world: SecurityWorld) -> None:
    limit = app.config["MAX_CONTENT_LENGTH"]
    assert limit and limit <= 16 * 1024 * 1024
    client = logged_in(app, world.users["a_director"])
    before = snapshot()
    body = json.dumps(dict(EXAMPLE, name="x" * 10_000_000)).encode()
    r = _upload(client, world.a.club.slug, body)
    assert r.status_code == 413
    page = r.get_data(as_text=True)
    assert "too large" in page and "<html" in page.lower()
    r = client.post("/clubs/new", data={"name": "y" * (limit + 1)})
    assert r.status_code == 413
    assert snapshot() == before


def test_a_file_between_the_route_and_request_limits_is_refused_on_the_form(
    app: Flask, world: SecurityWorld
) -> None:
    client = logged_in(app, world.users["a_director"])
    doc = copy.deepcopy(EXAMPLE)
    doc["name"] = "z" * (5 * 1024 * 1024 + 10)
    r = _upload(client, world.a.club.slug, json.dumps(doc).encode())
    assert r.status_code in (413, 422)
    assert "too large" in r.get_data(as_text=True)
