"""Guessable passwords are refused (zxcvbn, score 3 or more): on registration (also the one an
invitation link leads to) and on a password change, with the reason in the reader's language —
never zxcvbn's own English words on the Chinese page — and nothing is saved. The tests' default
password and the demo's pass."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from app.demo import DEMO_PASSWORD
from app.extensions import db
from app.models import Member, User
from app.services.accounts import check_password_strength
from app.services.clubs import create_invite
from tests.conftest import DEFAULT_PASSWORD
from tests.security.db_snapshot import snapshot, unchanged

WEAK = ["password1", "qwertyuiop", "P@ssw0rd123", "aaaaaaaaaaaa", "abcdefgh1", "iloveyou2"]
# zxcvbn's English feedback: none of it may reach a page (it is not translated)
ZXCVBN_WORDS = [
    "common password",
    "easy to guess",
    "Add another word",
    "Avoid",
    "uppercase",
    "Uncommon words",
]
REASON = {"en": "too easy to guess", "zh": "太容易被猜到"}


def _users() -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count(User.id))) or 0


def _register(client: FlaskClient, password: str, username: str = "newbie", **kw: str):  # type: ignore[no-untyped-def]
    data = {
        "username": username,
        "display_name": "New Bie",
        "password": password,
        "confirm": password,
    }
    data.update(kw)
    return client.post("/account/register", data=data)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("password", WEAK)
def test_registration_refuses_guessable_passwords(client: FlaskClient, lang: str, password: str):
    client.post("/lang", data={"lang": lang})
    before = _users()
    with unchanged():
        r = _register(client, password)
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert REASON[lang] in page, page[-2000:]
    if lang == "zh":
        for words in ZXCVBN_WORDS:
            assert words not in page, words
    assert _users() == before


def test_the_reason_names_what_is_wrong(client: FlaskClient) -> None:
    cases = {
        "password1": "one of the most common passwords",
        "zxcvbnm,./": "keyboard",
        "aaaaaaaaaaaa": "Repeated",
        "abcdefgh1": "Sequences",
        "newbie2024": "login name or your name",
    }
    for password, words in cases.items():
        page = _register(client, password).get_data(as_text=True)
        assert words in page, (password, page[-1500:])
    client.post("/lang", data={"lang": "zh"})
    assert "最常见的密码" in _register(client, "password1").get_data(as_text=True)


def test_the_name_itself_is_a_weak_password(client: FlaskClient) -> None:
    r = _register(client, "zhou jielun 1", username="zhoujielun", display_name="Zhou Jielun")
    assert r.status_code == 422
    assert "login name or your name" in r.get_data(as_text=True)
    assert _users() == 0


def test_password_change_refuses_guessable_passwords(
    app: Flask, client: FlaskClient, make_user, login
) -> None:
    user = make_user("kim")
    login(client, user)
    client.post("/lang", data={"lang": "zh"})
    old = user.password_hash
    for password in WEAK:
        before = snapshot()
        r = client.post(
            "/account/password",
            data={
                "current_password": DEFAULT_PASSWORD,
                "new_password": password,
                "confirm": password,
            },
        )
        assert r.status_code == 422
        page = r.get_data(as_text=True)
        assert REASON["zh"] in page
        assert not any(w in page for w in ZXCVBN_WORDS)
        assert snapshot() == before
    db.session.expire_all()
    assert db.session.get(User, user.id).password_hash == old  # type: ignore[union-attr]


def test_the_invitation_path_refuses_them_too(
    app: Flask, client: FlaskClient, make_user, make_club
) -> None:
    owner = make_user("olga")
    club = make_club(owner=owner, name="Invite Club")
    _invite, token = create_invite(club, owner, "player")
    db.session.commit()
    invite_page = client.get(f"/invite/{token}").get_data(as_text=True)
    assert "/account/register?next=" in invite_page
    before_members = db.session.scalar(select(func.count(Member.id)))
    r = _register(client, "iloveyou2", next=f"/invite/{token}")
    assert r.status_code == 422 and REASON["en"] in r.get_data(as_text=True)
    assert _users() == 1
    assert db.session.scalar(select(func.count(Member.id))) == before_members
    # a good password goes through and lands on the invitation
    r = _register(client, "paper lantern festival", next=f"/invite/{token}")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/invite/{token}")


def test_known_good_passwords_pass(app: Flask) -> None:
    with app.test_request_context():
        for password in (DEFAULT_PASSWORD, DEMO_PASSWORD, "a good password", "brand new pw"):
            check_password_strength(password, user_inputs=["someone", "Some One"])
        check_password_strength(DEMO_PASSWORD, user_inputs=["demo", "Demo", "lihua", "emma"])


def test_long_passwords_are_checked_quickly(client: FlaskClient) -> None:
    """zxcvbn takes at most 72 characters: a long password is judged by its start, not refused."""
    r = _register(client, "river stone cloud " * 14)  # 252 characters
    assert r.status_code == 302
    assert _register(client, "a" * 200, username="second").status_code == 422
