"""CSRF on every POST of ``app.url_map``: without a token the request is refused (400) and no row
changes; an htmx request carrying the page's token in the ``X-CSRFToken`` header goes through.

The routes and their form data come from the access test's table of decisions (``EXPECT``), so
a new POST route is covered as soon as it is listed there (which that test enforces).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.security.security_world import SecurityWorld, build_world, logged_in, snapshot
from tests.security.test_security_access import BOUND, CLUB_ROLES, EXPECT, _url


@pytest.fixture
def world(app: Flask) -> SecurityWorld:
    return build_world(app)


def _clients(app: Flask, world: SecurityWorld) -> dict[str, FlaskClient]:
    """Who may use each kind of route: logged in while CSRF is still off (as the fixtures do)."""
    clients = {
        "public": app.test_client(),
        "code": app.test_client(),
        "seat": app.test_client(),
        "invite": logged_in(app, world.users["stranger"]),
        "login": logged_in(app, world.users["stranger"]),
    }
    owner = logged_in(app, world.users["a_owner"])
    for role in CLUB_ROLES:
        clients[role] = owner
    clients[BOUND] = owner  # the seat bound to the owner
    return clients


def _post_routes(app: Flask, world: SecurityWorld) -> list[tuple[str, str, Any]]:
    routes = []
    for endpoint, expect in EXPECT.items():
        if "POST" in expect.methods:
            url = _url(app, endpoint, world.a.params())
            routes.append((endpoint, url, lambda e=expect: e.data(world.a)))
    return routes


def _token(client: FlaskClient, url: str) -> str:
    page = client.get(url).get_data(as_text=True)
    match = re.search(r'"X-CSRFToken": "([^"]+)"', page)
    assert match, f"no htmx token on {url}"
    return match.group(1)


def test_every_post_without_a_token_is_refused_and_changes_nothing(
    app: Flask, world: SecurityWorld
) -> None:
    clients = _clients(app, world)
    app.config["WTF_CSRF_ENABLED"] = True
    before = snapshot()
    routes = _post_routes(app, world)
    assert len(routes) >= 30
    for endpoint, url, data in routes:
        client = clients[EXPECT[endpoint].access]
        r = client.post(url, data=data())
        assert r.status_code == 400, (endpoint, r.status_code)
        hx = client.post(url, data=data(), headers={"HX-Request": "true"})
        assert hx.status_code == 400, (endpoint, "htmx", hx.status_code)
        forged = client.post(
            url, data=data(), headers={"HX-Request": "true", "X-CSRFToken": "forged.token"}
        )
        assert forged.status_code == 400, (endpoint, "forged", forged.status_code)
    assert snapshot() == before
    # still logged in: the refusals did not end the sessions either
    assert clients["owner"].get(f"/clubs/{world.a.club.slug}").status_code == 200


def test_every_post_with_the_header_token_goes_through(app: Flask, world: SecurityWorld) -> None:
    clients = _clients(app, world)
    app.config["WTF_CSRF_ENABLED"] = True
    tokens = {
        kind: _token(client, f"/clubs/{world.a.club.slug}" if kind in CLUB_ROLES else "/")
        for kind, client in clients.items()
    }
    before = snapshot()
    for endpoint, url, data in _post_routes(app, world):
        if endpoint == "auth.logout":
            continue  # would end the session the next routes use: checked below
        kind = EXPECT[endpoint].access
        r = clients[kind].post(
            url, data=data(), headers={"HX-Request": "true", "X-CSRFToken": tokens[kind]}
        )
        assert r.status_code not in (400, 401, 403, 404, 500), (endpoint, r.status_code)
    assert snapshot() != before  # and these requests did change things
    owner = clients["owner"]
    r = owner.post("/account/logout", headers={"X-CSRFToken": tokens["owner"]})
    assert r.status_code == 302
    assert owner.get(f"/clubs/{world.a.club.slug}").status_code == 302  # logged out


def test_a_token_of_another_session_is_refused(app: Flask, world: SecurityWorld) -> None:
    mine = logged_in(app, world.users["a_owner"])
    attacker = logged_in(app, world.users["stranger"])
    app.config["WTF_CSRF_ENABLED"] = True
    foreign = _token(attacker, "/")
    before = snapshot()
    r = mine.post(
        f"/clubs/{world.a.club.slug}/members",
        data={"display_name": "Mallory", "role": "owner"},
        headers={"HX-Request": "true", "X-CSRFToken": foreign},
    )
    assert r.status_code == 400
    assert snapshot() == before
