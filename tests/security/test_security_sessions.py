"""Sessions and authentication: cookie flags, a fresh session on login (a planted cookie never
becomes a logged-in one), logout and password changes end sessions, private pages are not kept
in the browser's cache, the login limiter cannot be sidestepped,
and the answers do not tell which login names exist."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import DEFAULT_PASSWORD


def _cookie(client: FlaskClient, name: str = "session") -> str | None:
    cookie = client.get_cookie(name)
    return cookie.value if cookie else None


def _set_cookie_header(response: Any, name: str = "session") -> str:
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith(name + "="):
            return str(header)
    return ""


def _login_post(client: FlaskClient, username: str, password: str = DEFAULT_PASSWORD, **kw: Any):
    return client.post("/account/login", data={"username": username, "password": password}, **kw)


def _is_logged_in(client: FlaskClient) -> bool:
    r = client.get("/account/password")
    return r.status_code == 200


def test_session_cookie_flags(client: FlaskClient, make_user) -> None:
    make_user("ann")
    r = _login_post(client, "ann")
    header = _set_cookie_header(r).lower()
    assert "httponly" in header and "samesite=lax" in header, header
    assert "remember_token" not in " ".join(r.headers.getlist("Set-Cookie"))


def test_a_planted_session_cookie_never_becomes_logged_in(app: Flask, make_user) -> None:
    make_user("ben")
    attacker = app.test_client()
    attacker.get("/account/login")  # a session with a CSRF token, say
    with attacker.session_transaction() as sess:
        sess["planted"] = "x"
    planted = _cookie(attacker)
    assert planted
    victim = app.test_client()
    victim.set_cookie("session", planted)  # fixation: the victim is made to use it
    assert _login_post(victim, "ben").status_code == 302
    after = _cookie(victim)
    assert after and after != planted
    with victim.session_transaction() as sess:
        assert "planted" not in sess
    assert _is_logged_in(victim)
    assert not _is_logged_in(attacker)  # the attacker's copy is still anonymous


def test_logout_clears_the_session(app: Flask, make_user, login) -> None:
    user = make_user("cat")
    client = app.test_client()
    login(client, user)
    with client.session_transaction() as sess:
        sess["lang"] = "zh"
    r = client.post("/account/logout")
    assert r.status_code == 302
    with client.session_transaction() as sess:
        assert "_user_id" not in sess and "_fresh" not in sess
        assert set(sess) <= {"lang", "_flashes", "csrf_token"}, dict(sess)
        assert sess["lang"] == "zh"
    assert not _is_logged_in(client)


def test_private_pages_are_not_cached(app: Flask, make_user, login, make_club) -> None:
    user = make_user("dan")
    club = make_club(owner=user, name="Dan's club")
    client = app.test_client()
    login(client, user)
    r = client.get(f"/clubs/{club.slug}/members")
    assert r.status_code == 200
    assert "no-store" in r.headers.get("Cache-Control", "")
    static = client.get("/static/style.css")
    assert "no-store" not in static.headers.get("Cache-Control", "")


def test_password_change_ends_every_other_session(app: Flask, make_user, login) -> None:
    user = make_user("eve")
    laptop, phone = app.test_client(), app.test_client()
    login(laptop, user)
    login(phone, user)
    stolen = _cookie(phone)
    r = laptop.post(
        "/account/password",
        data={
            "current_password": DEFAULT_PASSWORD,
            "new_password": "a new secret 9",
            "confirm": "a new secret 9",
        },
    )
    assert r.status_code == 302
    assert _is_logged_in(laptop)
    assert not _is_logged_in(phone)
    thief = app.test_client()
    assert stolen
    thief.set_cookie("session", stolen)
    assert not _is_logged_in(thief)
    assert _login_post(app.test_client(), "eve").status_code == 422  # old password refused
    assert _login_post(app.test_client(), "eve", "a new secret 9").status_code == 302


def test_login_limiter_cannot_be_sidestepped(app: Flask, make_user) -> None:
    make_user("gus")
    client = app.test_client()
    limit = app.config["LOGIN_MAX_FAILURES_PER_NAME"]
    for i in range(limit):
        # another spelling of the same name, and a spoofed proxy header, count all the same
        name = ["gus", "GUS", " Gus ", "gUs"][i % 4]
        headers = {"X-Forwarded-For": f"10.0.0.{i}", "X-Real-IP": f"10.1.0.{i}"}
        assert _login_post(client, name, "wrong password", headers=headers).status_code == 422
    blocked = _login_post(client, "gus", headers={"X-Forwarded-For": "10.9.9.9"})
    assert blocked.status_code == 422
    assert "Too many failed login attempts" in blocked.get_data(as_text=True)


def test_answers_do_not_tell_which_names_exist(app: Flask, make_user) -> None:
    make_user("hal")
    limit = app.config["LOGIN_MAX_FAILURES_PER_NAME"]

    def body(name: str) -> str:
        page = _login_post(app.test_client(), name, "wrong password").get_data(as_text=True)
        page = re.sub(r'(value=|"X-CSRFToken": )"[^"]*"', "TOKEN", page)
        return page.replace(name, "NAME")

    assert body("hal") == body("nobody")
    for name in ("hal", "nobody"):
        for _ in range(limit):
            _login_post(app.test_client(), name, "wrong password")
    assert body("hal") == body("nobody")
    assert "Too many" in body("hal")
