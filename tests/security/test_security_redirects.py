"""Open redirects: ``?next=`` (and the ``next`` form field) on login, registration and the
language switch, and htmx's ``HX-Current-URL`` behind the login redirect, never send anyone off
the site, however the address is disguised (scheme-relative, backslashes, tabs, ``user@host``,
``javascript:``); a page never echoes a foreign target into its form."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import DEFAULT_PASSWORD

EVIL_TARGETS = [
    "//evil.example",
    "//evil.example/clubs",
    "///evil.example",
    "////evil.example",
    "https://evil.example",
    "https:/evil.example",
    "https:evil.example",
    "http://localhost@evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    " //evil.example",
    "%2F%2Fevil.example",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
]


@pytest.mark.parametrize("target", EVIL_TARGETS)
def test_next_never_leaves_the_site(app: Flask, make_user, target: str) -> None:
    make_user("fay")
    client = app.test_client()

    def local(response: Any) -> None:
        assert response.status_code in (302, 303), response.status_code
        location = response.headers["Location"].removeprefix("http://localhost")
        assert location.startswith("/") and not location.startswith("//"), (target, location)
        assert "evil" not in location.split("?")[0], (target, location)

    r = client.post(
        "/account/login",
        data={"username": "fay", "password": DEFAULT_PASSWORD, "next": target},
    )
    local(r)
    local(client.get("/account/login", query_string={"next": target}))  # already logged in
    local(client.post("/lang", data={"lang": "zh", "next": target}))
    page = app.test_client().get("/account/login", query_string={"next": target})
    assert 'value="' + target + '"' not in page.get_data(as_text=True)
    r = app.test_client().post(
        "/account/register",
        data={
            "username": "fay2" + str(abs(hash(target)) % 1000),
            "display_name": "Fay",
            "password": DEFAULT_PASSWORD,
            "confirm": DEFAULT_PASSWORD,
            "next": target,
        },
    )
    local(r)


def test_htmx_login_redirect_ignores_a_foreign_current_url(client: FlaskClient) -> None:
    r = client.get(
        "/clubs/new",
        headers={"HX-Request": "true", "HX-Current-URL": "https://evil.example//evil.example/x"},
    )
    assert r.status_code == 401
    assert "evil" not in r.headers["HX-Redirect"]
