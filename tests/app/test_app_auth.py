"""Accounts: registration input, login without enumeration, rate limit, sessions, next URLs."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from app.extensions import db
from app.models import LoginAttempt, User, utcnow
from app.web import safe_next_url
from tests.conftest import DEFAULT_PASSWORD

GOOD = {
    "username": "alice",
    "display_name": "Alice Wu",
    "password": "long enough pw",
    "confirm": "long enough pw",
}


def _users() -> int:
    return db.session.scalar(select(func.count(User.id))) or 0


def test_register_stores_argon2id_hash_and_logs_in(client):
    response = client.post("/account/register", data=GOOD)
    assert response.status_code == 302
    user = db.session.scalar(select(User).where(User.username == "alice"))
    assert user is not None
    assert user.password_hash.startswith("$argon2id$")
    assert "long enough pw" not in user.password_hash
    assert "Alice Wu" in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"username": ""}, "Please fill this in."),
        ({"username": "a b"}, "3 to 40 characters"),
        ({"username": "ab"}, "3 to 40 characters"),
        ({"display_name": "   "}, "Please fill this in."),
        ({"display_name": "x" * 81}, "At most 80 characters, please."),
        ({"display_name": "bad\u0007name"}, "invisible control characters"),
        ({"password": "short", "confirm": "short"}, "at least 8 characters"),
        ({"confirm": "something else"}, "The two passwords differ."),
    ],
)
def test_register_bad_input_shows_message_and_saves_nothing(client, changes, message):
    response = client.post("/account/register", data={**GOOD, **changes})
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert _users() == 0


def test_register_taken_name_case_insensitive(client, make_user):
    make_user("alice")
    response = client.post("/account/register", data={**GOOD, "username": "ALICE"})
    assert response.status_code == 422
    assert "This login name is taken" in response.get_data(as_text=True)
    assert _users() == 1


def test_login_unknown_user_and_wrong_password_look_the_same(client, make_user):
    make_user("bob")
    wrong = client.post("/account/login", data={"username": "bob", "password": "nope nope"})
    unknown = client.post("/account/login", data={"username": "nobody", "password": "nope nope"})
    assert wrong.status_code == unknown.status_code == 422
    body_wrong = wrong.get_data(as_text=True)
    body_unknown = unknown.get_data(as_text=True)
    assert "Wrong login name or password." in body_wrong
    assert _without_csrf(body_wrong).replace("bob", "X") == _without_csrf(body_unknown).replace(
        "nobody", "X"
    )


def _without_csrf(html: str) -> str:
    """CSRF tokens carry a timestamp, so two pages a second apart differ only there."""
    html = re.sub(r'name="csrf_token" value="[^"]*"', 'name="csrf_token" value=""', html)
    return re.sub(r'"X-CSRFToken": "[^"]*"', '"X-CSRFToken": ""', html)


def test_login_is_case_insensitive_and_records_attempts(client, make_user):
    make_user("carol")
    response = client.post(
        "/account/login", data={"username": " Carol ", "password": DEFAULT_PASSWORD}
    )
    assert response.status_code == 302
    attempt = db.session.scalar(select(LoginAttempt))
    assert attempt is not None and attempt.succeeded and attempt.username == "carol"


def test_login_rate_limited_per_name_same_message_for_unknown(app, client, make_user):
    make_user("dave")
    limit = app.config["LOGIN_MAX_FAILURES_PER_NAME"]
    for name in ("dave", "ghost"):
        for _ in range(limit):
            client.post("/account/login", data={"username": name, "password": "wrong pass"})
        # Even the right password is refused now (for dave); the same message for a ghost.
        blocked = client.post(
            "/account/login", data={"username": name, "password": DEFAULT_PASSWORD}
        )
        assert blocked.status_code == 422
        assert "Too many failed login attempts" in blocked.get_data(as_text=True)
    assert "Too many" not in client.get("/").get_data(as_text=True)


def test_rate_limit_expires_after_window(app, client, make_user):
    user = make_user("erin")
    limit = app.config["LOGIN_MAX_FAILURES_PER_NAME"]
    old = utcnow() - timedelta(seconds=app.config["LOGIN_WINDOW_SECONDS"] + 5)
    for _ in range(limit):
        db.session.add(LoginAttempt(username="erin", ip="127.0.0.1", created_at=old))
    db.session.commit()
    response = client.post(
        "/account/login", data={"username": user.username, "password": DEFAULT_PASSWORD}
    )
    assert response.status_code == 302


def test_rate_limited_per_address(app, client, make_user):
    app.config["LOGIN_MAX_NAMES_PER_IP"] = 3  # failures naming 3 accounts: a spray
    make_user("fred")
    for i in range(3):
        client.post("/account/login", data={"username": f"user{i}", "password": "wrong pass"})
    blocked = client.post("/account/login", data={"username": "fred", "password": DEFAULT_PASSWORD})
    assert "Too many failed login attempts" in blocked.get_data(as_text=True)
    other = client.post(
        "/account/login",
        data={"username": "fred", "password": DEFAULT_PASSWORD},
        environ_base={"REMOTE_ADDR": "10.0.0.9"},
    )
    assert other.status_code == 302


def test_login_gives_a_fresh_session(client, make_user):
    user = make_user("gina")
    with client.session_transaction() as sess:
        sess["planted"] = "attacker value"
        sess["lang"] = "zh"
    client.post("/account/login", data={"username": user.username, "password": DEFAULT_PASSWORD})
    with client.session_transaction() as sess:
        assert "planted" not in sess
        assert sess["lang"] == "zh"
        uid, _sep, session_id = sess["_user_id"].partition(":")
        assert uid == str(user.id) and len(session_id) >= 32  # the user and this login's id


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/clubs/new", "/clubs/new"),
        ("https://evil.example/x", "/"),
        ("//evil.example/x", "/"),
        ("/\\evil.example", "/"),
        ("javascript:alert(1)", "/"),
        ("", "/"),
    ],
)
def test_login_next_only_local(client, make_user, target, expected):
    user = make_user("hank")
    response = client.post(
        "/account/login",
        data={"username": user.username, "password": DEFAULT_PASSWORD, "next": target},
    )
    assert response.status_code == 302
    location = response.headers["Location"]
    assert location.removeprefix("http://localhost") == expected


def test_safe_next_url_rejects_control_characters():
    assert safe_next_url("/ok?x=1") == "/ok?x=1"
    assert safe_next_url("/\x00x") is None
    assert safe_next_url("/\t/evil.example") is None


def test_login_required_redirects_with_next(client):
    response = client.get("/clubs/new")
    assert response.status_code == 302
    assert "/account/login?next=/clubs/new" in response.headers["Location"]


def test_logout_needs_post_and_ends_session(client, make_user, login):
    user = make_user("ivy")
    login(client, user)
    assert client.get("/account/logout").status_code == 405
    client.post("/account/logout")
    assert client.get("/clubs/new").status_code == 302


def test_change_password_bad_inputs(client, make_user, login):
    user = make_user("jack")
    login(client, user)
    old_hash = user.password_hash
    cases = [
        ({"current_password": "wrong one", "new_password": "new secret 1"}, "not right"),
        ({"current_password": DEFAULT_PASSWORD, "new_password": "short"}, "at least 8"),
    ]
    for data, message in cases:
        data["confirm"] = data["new_password"]
        response = client.post("/account/password", data=data)
        assert response.status_code == 422
        assert message in response.get_data(as_text=True)
    response = client.post(
        "/account/password",
        data={"current_password": DEFAULT_PASSWORD, "new_password": "abcdefgh1", "confirm": "x"},
    )
    assert "The two passwords differ." in response.get_data(as_text=True)
    db.session.refresh(user)
    assert user.password_hash == old_hash


def test_change_password_ends_other_sessions(app, make_user, login):
    user = make_user("kate")
    phone, laptop = app.test_client(), app.test_client()
    login(phone, user)
    login(laptop, user)
    response = phone.post(
        "/account/password",
        data={
            "current_password": DEFAULT_PASSWORD,
            "new_password": "brand new pw",
            "confirm": "brand new pw",
        },
    )
    assert response.status_code == 302
    assert phone.get("/clubs/new").status_code == 200  # this session continues
    assert laptop.get("/clubs/new").status_code == 302  # the other one is logged out
    login(laptop, user, "brand new pw")


def test_password_page_requires_login(client):
    assert client.get("/account/password").status_code == 302


def test_htmx_request_of_anonymous_user_reloads_to_login(client, make_user, make_club):
    club = make_club(owner=make_user("own"), name="Hx")
    response = client.post(
        f"/clubs/{club.slug}/members",
        data={"display_name": "X"},
        headers={
            "HX-Request": "true",
            "HX-Current-URL": f"http://localhost/clubs/{club.slug}/members",
        },
    )
    assert response.status_code == 401
    assert response.headers["HX-Redirect"] == f"/account/login?next=/clubs/{club.slug}/members"


def test_invite_register_then_accept(app, client, make_user, make_club, login):
    """A newcomer follows an invite link, registers, and comes back to the invitation."""
    import re

    owner = make_user("boss")
    club = make_club(owner=owner, name="Invite Club")
    boss = app.test_client()
    login(boss, owner)
    page = boss.post(f"/clubs/{club.slug}/invites", data={"role": "player", "member_id": "0"})
    link = re.search(r'value="http://localhost(/invite/[^"]+)"', page.get_data(as_text=True))
    assert link
    landing = client.get(link.group(1)).get_data(as_text=True)
    register_url = re.search(r'href="(/account/register\?next=[^"]+)"', landing)
    assert register_url
    form_page = client.get(register_url.group(1).replace("&amp;", "&")).get_data(as_text=True)
    next_value = re.search(r'id="next" name="next" type="hidden" value="([^"]+)"', form_page)
    assert next_value and next_value.group(1) == link.group(1)
    response = client.post(
        "/account/register",
        data={**GOOD, "username": "newbie", "next": next_value.group(1)},
    )
    assert response.headers["Location"].removeprefix("http://localhost") == link.group(1)
    joined = client.post(link.group(1), data={"claim_member_id": "0", "display_name": "Newbie"})
    assert joined.status_code == 302
    assert "Invite Club" in client.get("/").get_data(as_text=True)
