"""Configuration from the environment; SQLite WAL, busy timeout and BEGIN IMMEDIATE for writes."""

from __future__ import annotations

import stat

import pytest
from sqlalchemy import func, select, text

from app import create_app
from app.config import database_url
from app.db import write_transaction
from app.extensions import db
from app.models import User
from tests.conftest import app_config
from tests.sqlite_lock import write_lock_held


def test_secret_key_generated_once_and_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    cfg = {"INSTANCE_PATH": str(tmp_path / "inst"), "TESTING": True}
    first = create_app(dict(cfg))
    key_file = tmp_path / "inst" / "secret_key"
    assert key_file.exists()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    second = create_app(dict(cfg))
    assert first.secret_key == second.secret_key and len(str(first.secret_key)) >= 32
    assert (
        first.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'inst' / 'shengji.db'}"
    )


def test_environment_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    app = create_app({"INSTANCE_PATH": str(tmp_path / "inst")})
    assert app.secret_key == "from-env"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'env.db'}"
    assert not (tmp_path / "inst" / "secret_key").exists()
    assert app.config["WTF_CSRF_TIME_LIMIT"] is None


@pytest.mark.parametrize("scheme", ["postgres", "postgresql", "postgresql+psycopg"])
def test_postgres_urls_use_psycopg_3(monkeypatch, scheme):
    """Heroku-style postgres:// and a bare postgresql:// both get the driver we install."""
    monkeypatch.setenv("DATABASE_URL", f"{scheme}://u:p@db.example/shengji")
    assert database_url("/nowhere") == "postgresql+psycopg://u:p@db.example/shengji"


@pytest.mark.parametrize("url", ["bogus://x", "not a url", "mysq1://u:secret@h/db"])
def test_unusable_database_url_is_named_without_its_password(monkeypatch, url):
    monkeypatch.setenv("DATABASE_URL", url)
    with pytest.raises(ValueError) as err:
        database_url("/nowhere")
    message = str(err.value)
    assert message.startswith("DATABASE_URL is not a database URL this app can use")
    assert "sqlite:///" in message  # an example of a good one
    assert "secret" not in message


@pytest.mark.sqlite_only("PRAGMAs of SQLite itself")
def test_sqlite_runs_in_wal_with_busy_timeout(app):
    with db.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA busy_timeout")).scalar() == 15000
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1


@pytest.mark.sqlite_only(
    "SQLite's file lock; PostgreSQL locks rows (tests/app/test_app_concurrency.py)"
)
@pytest.mark.parametrize(("method", "immediate"), [("GET", False), ("POST", True)])
def test_write_requests_take_the_write_lock_at_begin(app, make_user, method, immediate):
    """A POST's first read already holds the write lock (read-then-write is safe across
    workers); a GET only reads and never blocks writers."""
    make_user("lock")
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    db.session.remove()
    with app.test_request_context("/", method=method):
        session = db.session()
        session.scalar(select(User.id))  # a read begins the transaction
        assert write_lock_held(path) is immediate
        session.rollback()
    assert write_lock_held(path) is False


@pytest.mark.sqlite_only("SQLite's file lock")
def test_write_transaction_outside_requests(app, make_user):
    make_user("cli")
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    db.session.remove()
    with write_transaction():
        db.session.scalar(select(User.id))
        assert write_lock_held(path)
        db.session.rollback()
    db.session.scalar(select(User.id))
    assert not write_lock_held(path)
    db.session.rollback()


def test_in_memory_database_also_works(tmp_path):
    app = create_app(app_config(SQLALCHEMY_DATABASE_URI="sqlite://"))
    with app.app_context():
        db.create_all()
        db.session.add(User(username="mem", display_name="Mem", password_hash="x"))
        db.session.commit()
        assert db.session.scalar(select(User.username)) == "mem"


def test_the_app_runs_on_the_database_of_its_test_id(app, db_backend):
    with db.engine.connect() as conn:
        assert conn.dialect.name == db_backend
        if db_backend == "postgresql":
            assert conn.execute(text("SELECT version()")).scalar().startswith("PostgreSQL ")
            assert app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql+psycopg://")


@pytest.mark.parametrize("run", [1, 2])
def test_every_app_test_starts_on_an_empty_database(app, make_user, make_club, run):
    """Twice in a row: what one test wrote is gone, and ids start at 1 again (PostgreSQL's
    tables are emptied between tests, not recreated)."""
    assert db.session.scalar(select(func.count(User.id))) == 0
    user = make_user(f"fresh{run}")
    club = make_club(owner=user)
    assert (user.id, club.id) == (1, 1)


def test_a_fixed_connection_pool_from_the_environment(monkeypatch):
    """gunicorn.conf.py sets DB_POOL_SIZE for gevent workers: the engine then keeps that many
    connections and opens no overflow ones (which it would close again after each burst)."""
    url = "postgresql+psycopg://u:p@127.0.0.1:1/none"  # never connected to
    monkeypatch.setenv("DB_POOL_SIZE", "7")
    app = create_app(app_config(SQLALCHEMY_DATABASE_URI=url))
    with app.app_context():
        pool = db.engine.pool
        assert (pool.size(), pool._max_overflow) == (7, 0)  # type: ignore[attr-defined]
    monkeypatch.delenv("DB_POOL_SIZE")
    app = create_app(app_config(SQLALCHEMY_DATABASE_URI=url))
    with app.app_context():  # SQLAlchemy's own: 5, and 10 more as needed
        assert (db.engine.pool.size(), db.engine.pool._max_overflow) == (5, 10)  # type: ignore[attr-defined]
