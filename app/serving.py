"""Serving in production, behind gunicorn and possibly a proxy.

* **Fingerprinted static files.** ``url_for('static', filename=…)`` in templates gives
  ``/assets/<digest>/<filename>``, the digest being the file's content hash: such a URL never
  changes meaning, so it is cached for a year (``immutable``). A page still holding an old digest
  is redirected to the current file. ``/static/…`` keeps working with revalidation.
* **The database away.** When the database cannot be reached (a restart, a full disk, a network
  fault), a request answers a plain 503 page that needs no database, with ``Retry-After``; the
  connection pool checks connections before use, so the app recovers by itself when the database
  is back.
* **No traceback ever.** An unexpected error answers the generic 500 page (Flask's debugger is
  never on: ``make run`` and ``make serve`` do not enable it).
* **Behind a proxy.** ``TRUST_PROXY=1`` trusts one proxy's ``X-Forwarded-For``/``-Proto``
  (werkzeug's ProxyFix), so client addresses (login throttling) and ``https`` are right.
* **Templates compiled once.** Jinja keeps compiled templates on disk (its
  ``FileSystemBytecodeCache`` in its private per-user temporary folder), so a new worker, a
  restarted server or another process loads them instead of compiling each again: compiling
  the seat page's templates cost a worker about 50 ms apiece on its first requests. A changed
  template is compiled again (each entry is checked against its source's hash), and the
  entries' names carry the Jinja version and the environment's options they were compiled
  under.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Any

from flask import Flask, abort, g, redirect, render_template, send_from_directory, url_for
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import DBAPIError, OperationalError
from werkzeug.security import safe_join

ASSET_PATH = "/assets/<digest>/<path:filename>"
YEAR = 365 * 24 * 3600


class _Digests:
    """Content hashes of static files, recomputed when a file's size or time changes."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._cache: dict[str, tuple[int, int, str]] = {}

    def of(self, filename: str) -> str | None:
        path = safe_join(str(self.folder), filename)
        if path is None:
            return None
        try:
            st = os.stat(path)
        except OSError:
            return None
        hit = self._cache.get(filename)
        if hit is not None and hit[0] == st.st_mtime_ns and hit[1] == st.st_size:
            return hit[2]
        with open(path, "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()[:16]
        self._cache[filename] = (st.st_mtime_ns, st.st_size, digest)
        return digest


def _template_bytecode_cache(app: Flask) -> None:
    import jinja2
    from jinja2 import FileSystemBytecodeCache

    env = app.jinja_env
    compiled_under = repr(
        (
            jinja2.__version__,
            sorted(env.extensions),
            sorted((k, repr(v)) for k, v in app.jinja_options.items()),
            env.autoescape,
            getattr(env, "newstyle_gettext", None),
        )
    )
    digest = hashlib.sha256(compiled_under.encode()).hexdigest()[:12]
    env.bytecode_cache = FileSystemBytecodeCache(pattern=f"shengji-{digest}-%s.cache")


def init_app(app: Flask) -> None:
    assert app.static_folder is not None
    _template_bytecode_cache(app)
    digests = _Digests(Path(app.static_folder))
    app.extensions["asset_digests"] = digests

    def asset_url_for(endpoint: str, **values: Any) -> str:
        if endpoint == "static" and "filename" in values:
            digest = digests.of(values["filename"])
            if digest is not None:
                return url_for("assets", digest=digest, **values)
        return url_for(endpoint, **values)

    app.jinja_env.globals["url_for"] = asset_url_for

    @app.get(ASSET_PATH, endpoint="assets")
    def assets(digest: str, filename: str) -> ResponseReturnValue:
        current = digests.of(filename)
        if current is None:
            abort(404)
        if digest != current:  # a page from before a deploy: send it to today's file
            return redirect(url_for("assets", digest=current, filename=filename), 302)
        response = send_from_directory(app.static_folder or "", filename, max_age=YEAR)
        response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        return response

    @app.errorhandler(OperationalError)
    @app.errorhandler(DBAPIError)
    def database_away(_e: Exception) -> ResponseReturnValue:
        from .extensions import db, login_manager

        with contextlib.suppress(Exception):  # the connection is gone: nothing to roll back
            db.session.rollback()
        if "_login_user" not in g:
            # Flask-Login's template context loads the signed-in user from the database that
            # just failed (an error inside this handler would be a 500): the page needs nobody
            g._login_user = login_manager.anonymous_user()
        app.logger.warning("database unavailable: %s", type(_e).__name__)
        return render_template("errors/503.html"), 503, {"Retry-After": "5"}

    @app.errorhandler(500)
    def server_error(_e: Exception) -> ResponseReturnValue:
        return render_template("errors/500.html"), 500

    if app.config.get("TRUST_PROXY"):
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]
