"""Shared fixtures and factory helpers for app tests (reused by every feature's tests).

Fixtures: ``app`` (an empty database per test, CSRF off, fast password hashing), ``client``,
``runner``, ``csrf_app``/``csrf_client`` (the same app with CSRF on), ``empty_database_url``
(a database without tables, for migration tests).

Every test that uses ``app`` (or ``empty_database_url``) runs once per database of ``--db``
(default ``sqlite,postgresql``; ids end in ``[sqlite]`` / ``[postgresql]``): SQLite in a copy of
a file made with the tables once per process; PostgreSQL on a throwaway server the session
starts itself (``tests/pg_server.py``), its tables created once and emptied between tests
(every row deleted, every id sequence restarted: each test starts as on a new database).
``@pytest.mark.sqlite_only("why")`` keeps a test on SQLite, ``@pytest.mark.postgresql_only("why")``
on PostgreSQL. A browser test runs on SQLite alone unless marked
``@pytest.mark.every_database("why")`` (what it clicks through differs by database). Without
PostgreSQL's binaries the postgresql tests are skipped with the reason; with ``CI=true`` they
fail instead, so CI never passes on SQLite alone.
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
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

if TYPE_CHECKING:
    from app.models import Club, Member, User
    from tests.pg_server import PgServer

# The app is imported inside the fixtures, so a broken app never stops the engine's tests.


def _remember_url_builders() -> None:
    """Every test builds its own app, and most of ``create_app``'s 90 ms went into Werkzeug
    compiling each of ~150 URL rules' two builder functions (Python source made and compiled at
    every ``Map.add``). A builder's code depends only on its rule's parsed parts and defaults
    (it reaches its converters through the rule it is bound to), so the tests compile each once
    per process: ``create_app`` takes some 13 ms from the second app on. Werkzeug's private
    method; if it is not there as expected, nothing is changed."""
    from werkzeug.routing import rules

    compile_builder = getattr(rules.Rule, "_compile_builder", None)
    if compile_builder is None or getattr(compile_builder, "remembered", False):
        return
    built: dict[tuple[Any, ...], Any] = {}

    def remembered(self: Any, append_unknown: bool = True) -> Any:
        trace = getattr(self, "_trace", None)
        if trace is None:
            return compile_builder(self, append_unknown)
        defaults = tuple(sorted((k, repr(v)) for k, v in (self.defaults or {}).items()))
        key = (self.rule, tuple(trace), defaults, append_unknown)
        builder = built.get(key)
        if builder is None:
            builder = built[key] = compile_builder(self, append_unknown)
        return builder

    remembered.remembered = True  # type: ignore[attr-defined]
    rules.Rule._compile_builder = remembered  # type: ignore[method-assign]


_remember_url_builders()

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
        "DRAW_SEED": 20261201,  # a first-round draw (the seat form's default) is the same on every run
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
        # the body is read inside the request's own context (a streamed one, a live page's
        # server-sent events, could not be read after it: tests that read a stream as it
        # comes use a plain client in a thread of their own)
        kwargs.setdefault("buffered", True)
        try:
            return contextvars.Context().run(super().open, *args, **kwargs)
        finally:
            self._depth -= 1
            db.session.rollback()


DATABASES = ("sqlite", "postgresql")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--db",
        default="sqlite,postgresql",
        help="databases the app tests run on, comma-separated: sqlite, postgresql "
        "(default: both; PostgreSQL is a throwaway server the tests start themselves)",
    )


def _databases(config: pytest.Config) -> list[str]:
    chosen = [name.strip() for name in str(config.getoption("--db")).split(",") if name.strip()]
    unknown = sorted(set(chosen) - set(DATABASES))
    if unknown or not chosen:
        raise pytest.UsageError(f"--db takes sqlite and/or postgresql, not {','.join(unknown)!r}")
    return chosen


def pytest_configure(config: pytest.Config) -> None:
    _databases(config)  # a typo in --db stops the run before anything is collected


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_backend" not in metafunc.fixturenames:
        return
    names = _databases(metafunc.config)
    if metafunc.definition.get_closest_marker("sqlite_only"):
        names = [name for name in names if name == "sqlite"]
    if metafunc.definition.get_closest_marker("postgresql_only"):
        names = [name for name in names if name == "postgresql"]
    if metafunc.definition.get_closest_marker(
        "browser"
    ) and not metafunc.definition.get_closest_marker("every_database"):
        # a flow clicked through in Chromium is the same flow on either database (the app
        # tests run each request on both): SQLite, `make run`'s, unless --db leaves it out
        names = [name for name in names if name == "sqlite"] or names[:1]
    metafunc.parametrize("db_backend", names, indirect=True)


@pytest.fixture
def db_backend(request: pytest.FixtureRequest) -> str:
    """``sqlite`` or ``postgresql``: the database this run of the test uses."""
    return str(request.param)


class PgDatabases:
    """The session's PostgreSQL server: one database with the app's tables for ``app``, and
    empty databases made on request."""

    def __init__(self, server: PgServer) -> None:
        import psycopg

        self.server = server
        self.admin = psycopg.connect(_plain(server.url("postgres")), autocommit=True)
        self.admin.execute("CREATE DATABASE app_tests")
        self.url = server.url("app_tests")
        self._count = 0
        self._empty = ""
        self._conn: Any = None

    def create_tables(self) -> None:
        """The models' tables, once per session (``app`` then only empties them)."""
        import psycopg
        from sqlalchemy import create_engine

        from app import models  # noqa: F401  (every table in the metadata)
        from app.extensions import db

        engine = create_engine(self.url)
        db.metadata.create_all(engine)
        engine.dispose()
        self._conn = psycopg.connect(_plain(self.url), autocommit=True)
        sequences = self._conn.execute(
            "SELECT quote_ident(relname) FROM pg_class WHERE relkind = 'S'"
        ).fetchall()
        # DELETE, children first, and sequences back to 1: on tables this small it is 4-5
        # times faster than TRUNCATE … RESTART IDENTITY (measured: 23 ms against 111 ms)
        self._empty = "; ".join(
            [f'DELETE FROM "{table.name}"' for table in reversed(db.metadata.sorted_tables)]
            + [f"ALTER SEQUENCE {name} RESTART" for (name,) in sequences]
        )

    def empty_tables(self) -> None:
        """Every row gone and every id sequence back at 1, as in a new database."""
        if self._conn is None:
            self.create_tables()
        # Connections a test left open (a second app, a thread) could hold locks the DELETEs
        # wait for; end them, and never wait long.
        self._conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        self._conn.execute("SET lock_timeout = '10s'")
        self._conn.execute(self._empty)

    def reconnect(self) -> None:
        """New connections after the server was halted and resumed (``PgServer.halt``)."""
        import psycopg

        self.admin = psycopg.connect(_plain(self.server.url("postgres")), autocommit=True)
        if self._conn is not None:
            self._conn = psycopg.connect(_plain(self.url), autocommit=True)

    def new_database(self) -> str:
        self._count += 1
        name = f"empty_{self._count}"
        self.admin.execute(f"CREATE DATABASE {name}")
        return name

    def drop_database(self, name: str) -> None:
        self.admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self.admin.close()


def _plain(url: str) -> str:
    """A libpq URL (psycopg.connect) from an SQLAlchemy one."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


_PG_SKIPPED = pytest.StashKey[str]()


@pytest.fixture(scope="session")
def postgresql(request: pytest.FixtureRequest) -> Iterator[PgDatabases]:
    """A PostgreSQL server of our own for this session (started on first use)."""
    from tests.pg_server import PgUnavailable, start_server

    missing = None
    try:
        server = start_server()
    except PgUnavailable as error:
        missing = str(error)
    if missing is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI requires PostgreSQL and it is missing: {missing}", pytrace=False)
        reason = f"PostgreSQL tests NOT RUN: {missing}"
        request.config.stash[_PG_SKIPPED] = reason
        pytest.skip(reason)
    # PgStartFailed (binaries there, server broken) is an error everywhere, never a skip.
    try:
        databases = PgDatabases(server)
        yield databases
        databases.close()
        request.config.stash[_PG_CPU] = server.cpu_seconds()
    finally:
        server.stop()


_PG_CPU = pytest.StashKey[float | None]()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Under pytest-xdist a worker hands what the summary says to the controlling process."""
    out = getattr(session.config, "workeroutput", None)
    if out is not None:
        out["pg_skipped"] = session.config.stash.get(_PG_SKIPPED, None)
        out["pg_cpu"] = session.config.stash.get(_PG_CPU, None)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """The controlling process (pytest-xdist): a worker's loud skip, its server's CPU time."""
    out = getattr(node, "workeroutput", {})
    config = node.config
    if out.get("pg_skipped"):
        config.stash[_PG_SKIPPED] = out["pg_skipped"]
    if out.get("pg_cpu") is not None:
        config.stash[_PG_CPU] = (config.stash.get(_PG_CPU, None) or 0.0) + out["pg_cpu"]


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    reason = config.stash.get(_PG_SKIPPED, None)
    if reason:
        terminalreporter.write_sep("!", reason, red=True, bold=True)
    cpu = config.stash.get(_PG_CPU, None)
    if cpu is not None:  # the tests' own process does not count the server's work
        terminalreporter.write_line(f"PostgreSQL test servers: {cpu:.1f} s of CPU time")


def _build(config: dict[str, Any]) -> Iterator[Flask]:
    """The app in its context, on a database that already has its tables."""
    from app import create_app
    from app.extensions import db

    application = create_app(config)
    application.test_client_class = IsolatedClient
    with application.app_context():
        yield application
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="session")
def sqlite_tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file with the models' tables and nothing else, made once per process: each
    test's ``app`` starts on a copy of it (creating the ~40 tables took 25 ms a test, dropping
    them 13 ms; copying the file takes about one)."""
    from sqlalchemy import create_engine

    from app import models  # noqa: F401  (every table in the metadata)
    from app.extensions import db

    path = tmp_path_factory.mktemp("sqlite-tables") / "tables.db"
    engine = create_engine(f"sqlite:///{path}")
    db.metadata.create_all(engine)
    engine.dispose()
    return path


@pytest.fixture
def app(db_backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    if db_backend == "sqlite":
        path = tmp_path / "app.db"
        shutil.copyfile(request.getfixturevalue("sqlite_tables"), path)
        yield from _build(app_config(SQLALCHEMY_DATABASE_URI=f"sqlite:///{path}"))
        for leftover in tmp_path.glob("app.db*"):  # the database, its -wal and -shm files
            leftover.unlink()
        return
    pg: PgDatabases = request.getfixturevalue("postgresql")
    pg.empty_tables()
    yield from _build(app_config(SQLALCHEMY_DATABASE_URI=pg.url))


@pytest.fixture
def empty_database_url(
    db_backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[str]:
    """The URL of a database with no tables at all (migration tests)."""
    if db_backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    pg: PgDatabases = request.getfixturevalue("postgresql")
    name = pg.new_database()
    try:
        yield pg.server.url(name)
    finally:
        pg.drop_database(name)


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
