"""What the browser tests share: an app on a SQLite file of its own, served by Werkzeug in a daemon
thread on a free port; logging in; a newcomer's account and club made through the pages."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask
from playwright.sync_api import Page
from werkzeug.serving import make_server

from app import create_app
from app.extensions import db
from tests.conftest import DEFAULT_PASSWORD, app_config

NEWCOMER_PASSWORD = "a good password"


def sqlite_app(path: Path) -> Flask:
    """The app on the SQLite file ``path`` with its tables created; without a SERVER_NAME, so
    its links name the address the browser used."""
    config = app_config(SQLALCHEMY_DATABASE_URI=f"sqlite:///{path}")
    config.pop("SERVER_NAME")
    application = create_app(config)
    with application.app_context():
        db.create_all()
    return application


@contextmanager
def serving(application: Flask, dispose: bool = True) -> Iterator[str]:
    """The app served on a free loopback port, its base URL; afterwards the server stops and
    (``dispose``) the app's database connections are closed."""
    server = make_server("127.0.0.1", 0, application, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        if dispose:
            with application.app_context():
                db.engine.dispose()


def log_in(page: Page, base: str, username: str, password: str = DEFAULT_PASSWORD) -> None:
    """Log in through the login page, in whatever language the page speaks."""
    page.goto(base + "/account/login", wait_until="domcontentloaded")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/account/login" not in url)


def register_with_a_club(page: Page, base: str, username: str, name: str, club: str) -> None:
    """A newcomer registers (in English) and creates a club: the page is then the club's."""
    page.goto(base + "/account/register", wait_until="domcontentloaded")
    page.get_by_label("Login name").fill(username)
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Password", exact=True).fill(NEWCOMER_PASSWORD)
    page.get_by_label("Password again").fill(NEWCOMER_PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    page.get_by_role("link", name="Create a club").click()
    page.get_by_label("Club name").fill(club)
    page.get_by_role("button", name="Create").click()
