"""The migrations produce exactly the models' schema, and `flask db upgrade` works from empty,
on SQLite and on PostgreSQL (``empty_database_url`` is a database of each without tables)."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect

from app import create_app
from app.extensions import db
from tests.conftest import app_config


def _diffs(app):
    with app.app_context(), db.engine.connect() as conn:
        ctx = MigrationContext.configure(
            conn, opts={"compare_type": True, "compare_server_default": True}
        )
        return compare_metadata(ctx, db.metadata)


def test_upgrade_on_empty_db_matches_models(empty_database_url):
    app = create_app(app_config(SQLALCHEMY_DATABASE_URI=empty_database_url))
    with app.app_context():
        upgrade()
        tables = set(inspect(db.engine).get_table_names())
    assert {"users", "clubs", "members", "invites", "login_attempts"} <= tables
    assert _diffs(app) == []


def test_downgrade_to_base_and_back(empty_database_url):
    app = create_app(app_config(SQLALCHEMY_DATABASE_URI=empty_database_url))
    with app.app_context():
        upgrade()
        downgrade(revision="base")
        assert set(inspect(db.engine).get_table_names()) == {"alembic_version"}
        upgrade()
    assert _diffs(app) == []


def test_cli_upgrade_and_demo(empty_database_url, tmp_path, monkeypatch):
    """As deployed: the database comes from DATABASE_URL (postgresql+psycopg://… on PostgreSQL)."""
    monkeypatch.setenv("DATABASE_URL", empty_database_url)
    config = app_config(INSTANCE_PATH=str(tmp_path / "instance"))
    del config["SQLALCHEMY_DATABASE_URI"]
    app = create_app(config)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == empty_database_url
    runner = app.test_cli_runner()
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(args=["demo", "--if-empty"])
    assert result.exit_code == 0, result.output
    assert "shengji-demo" in result.output
    again = runner.invoke(args=["demo", "--if-empty"])
    assert again.exit_code == 0
    assert "not loaded" in again.output
    forced = runner.invoke(args=["demo"])
    assert forced.exit_code != 0
    assert "exists already" in forced.output


def test_comparison_notices_a_missing_index(empty_database_url):
    """The schema comparison above can fail: drop an index and it reports the difference."""
    app = create_app(app_config(SQLALCHEMY_DATABASE_URI=empty_database_url))
    with app.app_context():
        upgrade()
        with db.engine.begin() as conn:
            conn.exec_driver_sql("DROP INDEX ix_members_club_id")
    diffs = _diffs(app)
    assert any(d[0] == "add_index" for d in diffs), diffs
