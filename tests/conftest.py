"""Shared fixtures and factory helpers for app tests (reused by every feature's tests).

Fixtures: ``app`` (fresh SQLite file database per test, CSRF off, fast password hashing),
``client``, ``runner``, ``csrf_app``/``csrf_client`` (the same app with CSRF on).
Helpers: the fixtures ``make_user``, ``make_club``, ``make_member`` and ``login`` return these
functions (they need the ``app`` fixture's context); ``app_config(**overrides)`` and
``DEFAULT_PASSWORD`` can be imported: ``from tests.conftest import app_config``.

    user = make_user("alice")                              # password: DEFAULT_PASSWORD
    club = make_club(owner=user, name="Alice's club")
    member = make_member(club, "Bob", role="director", user=None | bob)
    login(client, user)                                   # logs the client in, asserts success
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

if TYPE_CHECKING:
    from app.models import Club, Member, User

# The app is imported inside the fixtures, so a broken app never stops the engine's tests.

DEFAULT_PASSWORD = "correct horse battery"


def app_config(**overrides: Any) -> dict[str, Any]:
    cfg: dict[str, Any] = {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "SQLALCHEMY_DATABASE_URI": "sqlite://",
        "WTF_CSRF_ENABLED": False,
        "PASSWORD_HASH_PROFILE": "fast",
        "SERVER_NAME": "localhost",
        "ONLINE_SEED_BASE": 20261129,  # online tables shuffle the same way on every run
    }
    cfg.update(overrides)
    return cfg


class IsolatedClient(FlaskClient):
    """Each request runs in its own app context (own ``g``, own database session), as in
    production, even though the test itself holds the fixture's app context. The test's session
    is rolled back around each request so what the test reads afterwards is fresh."""

    _depth = 0

    def open(self, *args: Any, **kwargs: Any) -> Any:
        if self._depth:  # a redirect being followed: already inside the isolated context
            return super().open(*args, **kwargs)
        from app.extensions import db

        db.session.rollback()
        self._depth += 1
        try:
            return contextvars.Context().run(super().open, *args, **kwargs)
        finally:
            self._depth -= 1
            db.session.rollback()


def _build(config: dict[str, Any]) -> Iterator[Flask]:
    from app import create_app
    from app.extensions import db

    application = create_app(config)
    application.test_client_class = IsolatedClient
    with application.app_context():
        db.create_all()
        yield application
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    yield from _build(app_config(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'app.db'}"))


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def csrf_app(app: Flask) -> Flask:
    """The ``app`` with CSRF protection on (as in production)."""
    app.config["WTF_CSRF_ENABLED"] = True
    return app


@pytest.fixture
def csrf_client(csrf_app: Flask) -> FlaskClient:
    return csrf_app.test_client()


def _make_user(
    username: str, display_name: str | None = None, password: str = DEFAULT_PASSWORD
) -> User:
    from app.extensions import db
    from app.models import User
    from app.passwords import hash_password

    user = User(
        username=username.lower(),
        display_name=display_name or username.title(),
        password_hash=hash_password(password),
    )
    db.session.add(user)
    db.session.commit()
    return user


def _make_club(owner: User | None = None, name: str = "Test Club", slug: str | None = None) -> Club:
    from app.extensions import db
    from app.models import Club, Member
    from app.services.clubs import unique_slug

    club = Club(name=name, slug=slug or unique_slug(name))
    db.session.add(club)
    if owner is not None:
        db.session.add(Member(club=club, user=owner, display_name=owner.display_name, role="owner"))
    db.session.commit()
    return club


def _make_member(
    club: Club, display_name: str, role: str = "player", user: User | None = None
) -> Member:
    from app.extensions import db
    from app.models import Member

    member = Member(club=club, display_name=display_name, role=role, user=user)
    db.session.add(member)
    db.session.commit()
    return member


def _login(client: FlaskClient, user: User, password: str = DEFAULT_PASSWORD) -> None:
    response = client.post("/account/login", data={"username": user.username, "password": password})
    assert response.status_code == 302, response.get_data(as_text=True)


@pytest.fixture
def make_user(app: Flask) -> Callable[..., User]:
    return _make_user


@pytest.fixture
def make_club(app: Flask) -> Callable[..., Club]:
    return _make_club


@pytest.fixture
def make_member(app: Flask) -> Callable[..., Member]:
    return _make_member


@pytest.fixture
def login() -> Callable[..., None]:
    return _login
