"""Logging out ends the session on the server: each login is a row of ``user_sessions`` named by
a random id in the signed cookie, checked on every request, deleted on logout. A copy of the
cookie (or a Flask-Login remember cookie) made before the logout no longer logs anyone in.
"Log out everywhere" on the account page ends all of the member's sessions and nobody else's;
a password change ends the others, as before."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from flask_login.utils import encode_cookie
from sqlalchemy import func, select

from app.extensions import db
from app.models import UserSession
from tests.conftest import DEFAULT_PASSWORD


def _logged_in(client: FlaskClient) -> bool:
    return client.get("/account/password").status_code == 200


def _sessions(user_id: int) -> int:
    db.session.expire_all()
    return (
        db.session.scalar(select(func.count(UserSession.id)).where(UserSession.user_id == user_id))
        or 0
    )


def _copy(app: Flask, client: FlaskClient) -> FlaskClient:
    """Another browser holding a copy of ``client``'s session cookie (a stolen cookie)."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    thief = app.test_client()
    thief.set_cookie("session", cookie.value)
    return thief


def _remember_cookie(app: Flask, client: FlaskClient) -> FlaskClient:
    """A browser with only the Flask-Login remember cookie this login would have had."""
    with client.session_transaction() as sess:
        identity = sess["_user_id"]
    with app.test_request_context():
        value = encode_cookie(str(identity))
    other = app.test_client()
    other.set_cookie(app.config.get("REMEMBER_COOKIE_NAME", "remember_token"), value)
    return other


def test_each_login_is_a_server_side_session(app: Flask, make_user, login) -> None:
    user = make_user("ann")
    laptop, phone = app.test_client(), app.test_client()
    login(laptop, user)
    login(phone, user)
    assert _sessions(user.id) == 2
    with laptop.session_transaction() as sess, phone.session_transaction() as other:
        assert sess["_user_id"].startswith(f"{user.id}:")
        assert sess["_user_id"] != other["_user_id"]  # one random id per login
    assert _logged_in(laptop) and _logged_in(phone)


def test_a_copied_session_cookie_dies_with_the_logout(app: Flask, make_user, login) -> None:
    user = make_user("ben")
    client = app.test_client()
    login(client, user)
    thief = _copy(app, client)
    assert _logged_in(thief)  # the copy works while the session lives (the test can fail)
    r = client.post("/account/logout")
    assert r.status_code == 302
    assert _sessions(user.id) == 0
    assert not _logged_in(client)
    assert not _logged_in(thief)


def test_a_remember_cookie_of_an_ended_session_does_not_log_in(
    app: Flask, make_user, login
) -> None:
    user = make_user("cat")
    client = app.test_client()
    login(client, user)
    assert _logged_in(_remember_cookie(app, client))  # valid while the session lives
    remembered = _remember_cookie(app, client)
    client.post("/account/logout")
    assert not _logged_in(remembered)
    assert _sessions(user.id) == 0


def test_logging_out_ends_only_that_session(app: Flask, make_user, login) -> None:
    user = make_user("dan")
    laptop, phone = app.test_client(), app.test_client()
    login(laptop, user)
    login(phone, user)
    laptop.post("/account/logout")
    assert not _logged_in(laptop)
    assert _logged_in(phone)
    assert _sessions(user.id) == 1


def test_log_out_everywhere(app: Flask, make_user, login) -> None:
    user, other = make_user("eve"), make_user("fay")
    laptop, phone, tablet = app.test_client(), app.test_client(), app.test_client()
    for c in (laptop, phone):
        login(c, user)
    login(tablet, other)
    thief = _copy(app, phone)
    remembered = _remember_cookie(app, phone)
    page = laptop.get("/account/password").get_data(as_text=True)
    assert 'action="/account/logout-everywhere"' in page and "Log out everywhere" in page
    r = laptop.post("/account/logout-everywhere")
    assert r.status_code == 302
    for c in (laptop, phone, thief, remembered):
        assert not _logged_in(c)
    assert _sessions(user.id) == 0
    assert _logged_in(tablet) and _sessions(other.id) == 1  # nobody else's session
    login(laptop, user)  # logging in again works
    assert _logged_in(laptop)


def test_log_out_everywhere_in_chinese(app: Flask, make_user, login) -> None:
    user = make_user("gus")
    client = app.test_client()
    login(client, user)
    client.post("/lang", data={"lang": "zh"})
    assert "退出所有设备" in client.get("/account/password").get_data(as_text=True)
    r = client.post("/account/logout-everywhere", follow_redirects=True)
    assert "已在所有设备上退出登录" in r.get_data(as_text=True)


def _token(client: FlaskClient) -> str:
    page = client.get("/account/login").get_data(as_text=True)
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page)
    assert token
    return token.group(1)


def test_log_out_everywhere_needs_a_login_and_the_csrf_token(csrf_app: Flask, make_user) -> None:
    user = make_user("hal")
    anonymous = csrf_app.test_client()
    r = anonymous.post("/account/logout-everywhere", data={"csrf_token": _token(anonymous)})
    assert r.status_code == 302 and "/account/login" in r.headers["Location"]
    client = csrf_app.test_client()
    r = client.post(
        "/account/login",
        data={"username": "hal", "password": DEFAULT_PASSWORD, "csrf_token": _token(client)},
    )
    assert r.status_code == 302
    r = client.post("/account/logout-everywhere")  # no token: refused, nothing ended
    assert r.status_code == 400
    assert _sessions(user.id) == 1 and _logged_in(client)


def test_password_change_still_ends_the_other_sessions(app: Flask, make_user, login) -> None:
    user = make_user("ivy")
    laptop, phone = app.test_client(), app.test_client()
    login(laptop, user)
    login(phone, user)
    remembered = _remember_cookie(app, phone)
    r = laptop.post(
        "/account/password",
        data={
            "current_password": DEFAULT_PASSWORD,
            "new_password": "a new secret 9",
            "confirm": "a new secret 9",
        },
    )
    assert r.status_code == 302
    assert _logged_in(laptop)
    assert not _logged_in(phone) and not _logged_in(remembered)
    assert _sessions(user.id) == 1
