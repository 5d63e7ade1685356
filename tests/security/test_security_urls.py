"""Numbers in URLs: an id too large for any database integer (``/standings/99999999999999999999``)
is a plain 404 on every ``<int:…>`` route and every method, never a 500, and changes nothing.
The bound is what an INTEGER column holds on every database (32 bits on PostgreSQL, where a larger
parameter is an error; SQLite's driver refuses more than 63 bits); the largest such number still
reaches the view, which answers 404 for an id that does not exist."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.security.security_world import SecurityWorld, build_world, logged_in, snapshot

HUGE = ["99999999999999999999", str(2**63), str(2**63 - 1), str(2**31), "9" * 400, "9" * 5000]
LARGEST = str(2**31 - 1)


@pytest.fixture
def world(app: Flask) -> SecurityWorld:
    return build_world(app)


def _int_rules(app: Flask) -> list[tuple[str, str, list[str]]]:
    """(rule, method, int argument names) of every route with an ``<int:…>`` part."""
    out = []
    for rule in app.url_map.iter_rules():
        names = re.findall(r"<int:(\w+)>", rule.rule)
        if not names:
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            out.append((rule.rule, method, names))
    return out


def _url(rule: str, params: dict[str, object], replace: str, value: str) -> str:
    def fill(m: re.Match[str]) -> str:
        name = m.group(2)
        return value if name == replace else str(params[name])

    return re.sub(r"<(?:(\w+):)?(\w+)>", fill, rule)


def test_the_rules_are_found(app: Flask) -> None:
    rules = {r for r, _m, _n in _int_rules(app)}
    assert "/standings/<int:tid>" in rules
    assert len(rules) > 20


@pytest.mark.parametrize("value", [*HUGE, LARGEST])
def test_huge_ids_are_not_found(app: Flask, world: SecurityWorld, value: str) -> None:
    director = logged_in(app, world.users["a_owner"])  # may open every page of club A
    params = world.a.params()
    before = snapshot()
    checked = 0
    for rule, method, names in _int_rules(app):
        for name in names:
            url = _url(rule, params, name, value)
            r = director.open(url, method=method, data={})
            assert r.status_code == 404, (method, url, r.status_code)
            checked += 1
    assert checked > 30
    assert snapshot() == before
    # anonymous visitors get the same plain 404 on the members' standings
    anonymous = app.test_client()
    for path in (
        f"/standings/{value}",
        f"/standings/{value}/live",
        f"/standings/1/entrants/{value}",
    ):
        assert anonymous.get(path).status_code == 404, path


def test_real_ids_still_open(app: Flask, world: SecurityWorld) -> None:
    """The bound does not refuse real ids (the positive control of the test above)."""
    owner = logged_in(app, world.users["a_owner"])
    a = world.a
    assert owner.get(f"/clubs/{a.club.slug}/tournaments/{a.tournament.id}").status_code == 200
    assert owner.get(f"/standings/{a.tournament.id}").status_code == 200
    assert app.test_client().get(f"/p/{a.tournament.public_token}").status_code == 200
    sheet = f"/clubs/{a.club.slug}/tournaments/{a.tournament.id}/rounds/1/tables/{a.table.number}"
    assert owner.get(sheet).status_code == 200
    assert owner.get(sheet + "/deals/1").status_code == 200
