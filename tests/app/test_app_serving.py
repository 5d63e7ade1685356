"""Serving: fingerprinted static files, security headers on every kind of response, a clean 503
while the database is away (and recovery without a restart), no traceback, Secure cookies behind
HTTPS, gunicorn's banner without a version, and its access log without secret links."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from app import create_app
from tests.app.served import free_port
from tests.conftest import app_config

ROOT = Path(__file__).resolve().parents[2]
HEADERS = (
    "Content-Security-Policy",
    "X-Content-Type-Options",
    "X-Frame-Options",
    "Referrer-Policy",
)


def _asset_urls(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/assets/[0-9a-f]{16}/[^"]+)"', html)


def test_pages_link_fingerprinted_assets_cached_for_a_year(client):
    html = client.get("/account/login").get_data(as_text=True)
    urls = _asset_urls(html)
    assert any(u.endswith("/style.css") for u in urls) and any(u.endswith("/app.js") for u in urls)
    assert "/static/" not in html
    r = client.get(urls[0])
    assert r.status_code == 200
    assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    for h in HEADERS:
        assert h in r.headers


def test_the_digest_is_the_content_hash_and_a_stale_one_redirects(client):
    import hashlib

    html = client.get("/account/login").get_data(as_text=True)
    css = next(u for u in _asset_urls(html) if u.endswith("/style.css"))
    digest = css.split("/")[2]
    assert digest == hashlib.sha256((ROOT / "static/style.css").read_bytes()).hexdigest()[:16]
    r = client.get("/assets/0000000000000000/style.css")
    assert r.status_code == 302 and r.headers["Location"].endswith(css)
    assert client.get("/assets/0000000000000000/nothing-here.css").status_code == 404
    assert client.get("/assets/0000000000000000/../app/config.py").status_code == 404


def test_a_new_worker_loads_the_compiled_templates_instead_of_compiling_them(tmp_path, monkeypatch):
    import jinja2

    def page(app) -> str:
        html = app.test_client().get("/account/login").get_data(as_text=True)
        return re.sub(r"[\w-]{20,}\.[\w-]+\.[\w-]+", "(CSRF token)", html)  # a new one each time

    first = create_app(app_config(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'a.db'}"))
    shown = page(first)  # compiles what it has not found compiled yet, and keeps it
    compiled: list[str | None] = []
    compile_source = jinja2.Environment.compile

    def counting(self, source, name=None, *args, **kwargs):
        compiled.append(name)
        return compile_source(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    second = create_app(app_config(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'b.db'}"))
    assert page(second) == shown
    assert compiled == []  # a fresh environment (a new worker): every template from the cache
    second.jinja_env.bytecode_cache = None
    third_env = second.jinja_env.overlay()  # the same templates without the cache compile
    third_env.get_template("auth/login.html")
    assert compiled == ["auth/login.html"]


def test_security_headers_on_errors_and_fragments(client):
    for path in ("/no/such/page", "/standings/1", "/static/style.css"):
        r = client.get(path)
        for h in HEADERS:
            assert h in r.headers, (path, h)


def test_an_unexpected_error_shows_the_generic_page_without_a_traceback(tmp_path):
    app = create_app(app_config(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'e.db'}"))
    app.config["TESTING"] = False  # as in production: errors are handled, not raised

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internal detail")

    r = app.test_client().get("/boom")
    body = r.get_data(as_text=True)
    assert r.status_code == 500
    assert "Something went wrong" in body
    assert "secret internal detail" not in body and "Traceback" not in body
    for h in HEADERS:
        assert h in r.headers


def test_database_away_answers_503_then_recovers_by_itself(tmp_path):
    from app.extensions import db
    from app.models import User
    from app.passwords import hash_password

    path = tmp_path / "away.db"
    app = create_app(app_config(SQLALCHEMY_DATABASE_URI=f"sqlite:///{path}"))
    app.config["TESTING"] = False
    with app.app_context():
        db.create_all()
        db.session.add(User(username="ann", display_name="Ann", password_hash=hash_password("x")))
        db.session.commit()
        db.engine.dispose()
    client = app.test_client()
    assert client.get("/account/login").status_code == 200
    moved = tmp_path / "moved.db"
    path.rename(moved)
    path.mkdir()  # the database file is now a folder: every connection fails
    try:
        with app.app_context():
            db.engine.dispose()
        r = client.post("/account/login", data={"username": "ann", "password": "x"})
        assert r.status_code == 503
        assert r.headers["Retry-After"] == "5"
        assert "cannot reach its database" in r.get_data(as_text=True)
        for h in HEADERS:
            assert h in r.headers
        zh = client.post(
            "/account/login",
            data={"username": "ann", "password": "x"},
            headers={"Accept-Language": "zh"},
        )
        assert zh.status_code == 503 and "数据库" in zh.get_data(as_text=True)
    finally:
        path.rmdir()
        moved.rename(path)
    r = client.post("/account/login", data={"username": "ann", "password": "x"})
    assert r.status_code == 302  # back without a restart


def test_a_logged_in_write_refused_by_a_locked_database_answers_503(tmp_path):
    """SQLite: another process holds the write lock beyond the busy timeout. The signed-in
    member's POST gets the 503 page too: rendering it must not load the member from the
    database that just refused (it used to answer 500)."""
    import sqlite3

    from app.extensions import db
    from app.models import User
    from app.passwords import hash_password

    path = tmp_path / "locked.db"
    app = create_app(
        app_config(SQLALCHEMY_DATABASE_URI=f"sqlite:///{path}", SQLITE_BUSY_TIMEOUT_MS=100)
    )
    app.config["TESTING"] = False
    with app.app_context():
        db.create_all()
        db.session.add(User(username="ann", display_name="Ann", password_hash=hash_password("x")))
        db.session.commit()
        db.engine.dispose()
    client = app.test_client()
    assert (
        client.post("/account/login", data={"username": "ann", "password": "x"}).status_code == 302
    )
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        r = client.post("/clubs/new", data={"name": "Locked Out Club"})
        assert r.status_code == 503, r.get_data(as_text=True)[:500]
        assert "cannot reach its database" in r.get_data(as_text=True)
        assert r.headers["Retry-After"] == "5"
        assert client.get("/account/password").status_code == 200  # reads go on (WAL)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    r = client.post("/clubs/new", data={"name": "Locked Out Club"})
    assert r.status_code in (302, 303)


def test_cookies_are_secure_when_served_over_https(tmp_path):
    app = create_app(
        app_config(
            SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 's.db'}",
            SESSION_COOKIE_SECURE=True,
        )
    )
    r = app.test_client().get("/account/login")
    cookie = r.headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie
    assert r.headers["Strict-Transport-Security"].startswith("max-age=")


def test_gunicorn_serves_with_the_documented_config_and_no_version_banner(tmp_path):
    port = free_port()
    db_url = f"sqlite:///{tmp_path / 'g.db'}"
    env = {"DATABASE_URL": db_url, "BIND": f"127.0.0.1:{port}", "WEB_WORKERS": "2"}
    import os

    full_env = {**os.environ, **env, "SECRET_KEY": "k"}
    subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"],
        cwd=ROOT,
        env=full_env,
        check=True,
        capture_output=True,
    )
    log = tmp_path / "gunicorn.log"
    out = log.open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"],
        cwd=ROOT,
        env=full_env,
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/account/login") as r:
                    server = r.headers["Server"]
                    body = r.read().decode()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail("gunicorn did not start")
                time.sleep(0.2)
        assert server == "shengji"  # no "gunicorn/23.0.0"
        asset = _asset_urls(body)[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{asset}") as r:
            assert "immutable" in r.headers["Cache-Control"]
            assert r.headers["Server"] == "shengji"
        for secret in ("/play/SeCrEtSeAt/poll?v=1", "/invite/SeCrEtInViTe", "/table/SeCrEtCoDe"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(f"http://127.0.0.1:{port}{secret}")
            assert refused.value.code == 404
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        out.close()
    # one access line per request: address, time, request line, status, bytes, milliseconds,
    # user agent; a secret link's or a table code's part of the path never reaches the log
    lines = log.read_text().splitlines()
    login = [line for line in lines if '"GET /account/login HTTP/1.1" 200 ' in line]
    assert login and re.match(
        r'127\.0\.0\.1 - - \[\d\d/\w{3}/\d{4}:[\d:]{8} [+-]\d{4}\] "GET /account/login HTTP/1\.1" '
        r'200 [1-9]\d* \d+\.\dms "Python-urllib/[\d.]+"$',
        login[0],
    ), login[0]
    assert any('"GET /play/***/poll?v=1 HTTP/1.1" 404 ' in line for line in lines)
    assert any('"GET /invite/*** HTTP/1.1" 404 ' in line for line in lines)
    assert any('"GET /table/*** HTTP/1.1" 404 ' in line for line in lines)
    assert "SeCrEt" not in log.read_text()
