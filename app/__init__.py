"""The Flask application: ``create_app()`` builds it (``flask --app app …`` finds it).

Layout: extensions in ``extensions.py``, models in ``models/``, business operations in
``services/``, permission checks in ``permissions.py``, one blueprint package per feature
(``auth``, ``clubs``, ``main``) with ``routes.py`` and ``forms.py``. Templates and static files
live at the project root (``templates/``, ``static/``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response, render_template, request, session
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from . import config as app_config
from .db import configure_postgresql, configure_sqlite
from .extensions import babel, csrf, db, htmx, login_manager, migrate

ROOT = Path(__file__).resolve().parent.parent

# Blueprints, registered in this order. Add yours here (see README, CONTRIBUTING).
MAX_REQUEST_BYTES = 6 * 1024 * 1024

BLUEPRINTS: tuple[str, ...] = (
    "app.main",
    "app.auth",
    "app.clubs",
    "app.tournaments",
    "app.online",
    "app.seasons",
    "app.players",
    "app.duplicate",
)


def select_locale() -> str:
    supported = app_config.SUPPORTED_LOCALES
    chosen = session.get("lang")
    if chosen in supported:
        return str(chosen)
    return request.accept_languages.best_match(supported) or "en"


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. ``config`` overrides settings (tests pass their database and keys)."""
    config = dict(config or {})
    instance_path = config.pop("INSTANCE_PATH", None) or str(ROOT / "instance")
    app = Flask(
        __name__,
        instance_path=instance_path,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    from .web import TemplateEnvironment

    app.jinja_environment = TemplateEnvironment  # before anything builds app.jinja_env
    app.config.update(app_config.defaults())
    app.config.update(config)
    if app.config.get("MAX_CONTENT_LENGTH") is None:
        # No request body beyond this (the largest is a tournament file upload, 5 MB).
        app.config["MAX_CONTENT_LENGTH"] = MAX_REQUEST_BYTES
    if not app.config.get("SQLALCHEMY_DATABASE_URI"):
        os.makedirs(app.instance_path, exist_ok=True)
        app.config["SQLALCHEMY_DATABASE_URI"] = app_config.database_url(app.instance_path)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = app_config.secret_key(app.instance_path)
    # A server database may restart. A pooled connection is not tested before each use (a
    # "pre-ping" was a round trip more on every request, a poll's third): a connection found
    # cut on use ends that request with the 503 page, and SQLAlchemy then replaces every
    # connection of the pool made before it, so the next requests reconnect by themselves.
    # No connection is kept past five minutes (a firewall or a proxy may cut idle ones).
    if not str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("sqlite"):
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {
            "pool_recycle": 300,
            **app_config.pool_options(),
            **app.config["SQLALCHEMY_ENGINE_OPTIONS"],
        }

    from .web import BoundedIntConverter, SessionInterface

    app.url_map.converters["int"] = BoundedIntConverter  # before any route uses it
    app.session_interface = SessionInterface()
    _init_extensions(app)
    from .web import refuse_nul_characters

    app.before_request(refuse_nul_characters)
    for name in BLUEPRINTS:
        module = __import__(name, fromlist=["bp"])
        app.register_blueprint(module.bp)
    _register_error_handlers(app)
    _register_template_globals(app)
    _register_security_headers(app)
    from . import poll_shortcut

    poll_shortcut.install(app)  # the live pages' unchanged polls, in front of Flask
    from . import serving

    serving.init_app(app)

    from .cli import register_cli

    register_cli(app)
    return app


def _init_extensions(app: Flask) -> None:
    from . import models  # noqa: F401  (every model known to SQLAlchemy and Alembic)

    db.init_app(app)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            configure_sqlite(db.engine, app.config["SQLITE_BUSY_TIMEOUT_MS"])
        elif db.engine.dialect.name == "postgresql":
            configure_postgresql(db.engine)
        from .services.live import bus

        bus.init_app(app, db.engine)  # announces the online tables each commit changed
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    from .web import install_template_gettext

    install_template_gettext(app)
    htmx.init_app(app)
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    login_manager.login_message = _l("Please log in to see this page.")
    login_manager.login_message_category = "info"

    @login_manager.unauthorized_handler
    def unauthorized() -> Any:
        from flask import flash, redirect, url_for

        from .web import safe_next_url

        target = request.full_path.rstrip("?") if request.method == "GET" else None
        if htmx:  # an htmx request would swap the login page into a fragment: reload instead
            target = safe_next_url(
                request.headers.get("HX-Current-URL", "").partition(request.host_url.rstrip("/"))[2]
                or None
            )
            response = Response(status=401)
            response.headers["HX-Redirect"] = url_for("auth.login", next=target)
            return response
        flash(str(login_manager.login_message), "info")
        return redirect(url_for("auth.login", next=target))

    @login_manager.user_loader
    def load_user(user_id: str) -> models.User | None:
        from .services.sessions import load_session_user

        return load_session_user(user_id)  # None once that login has ended


def _register_error_handlers(app: Flask) -> None:
    @app.errorhandler(403)
    def forbidden(_e: Exception) -> tuple[str, int]:
        return render_template("errors/403.html"), 403

    @app.errorhandler(404)
    def not_found(_e: Exception) -> tuple[str, int]:
        return render_template("errors/404.html"), 404

    @app.errorhandler(413)
    def too_large(_e: Exception) -> tuple[str, int]:
        return render_template("errors/413.html"), 413

    @app.errorhandler(429)
    def too_many(_e: Exception) -> tuple[str, int]:
        return render_template("errors/429.html"), 429

    @app.errorhandler(CSRFError)
    def csrf_failed(_e: CSRFError) -> tuple[str, int]:
        return render_template("errors/csrf.html"), 400

    @app.errorhandler(IntegrityError)
    @app.errorhandler(StaleDataError)
    def write_conflict(error: Exception) -> tuple[str, int]:
        # Two requests wrote the same thing at once (on PostgreSQL both may pass a check such
        # as "is this name free?"; the database refuses the second write): nothing is saved.
        db.session.rollback()
        app.logger.warning("write refused by the database: %s", error)
        return render_template("errors/conflict.html"), 409


def _register_security_headers(app: Flask) -> None:
    @app.after_request
    def security_headers(response: Response) -> Response:
        from flask_login import current_user

        from .web import security_headers as every_response_headers

        headers = response.headers
        present = {name.lower() for name, _value in headers.items()}
        for name, value in every_response_headers(app.config):
            if name.lower() not in present:  # a view's own value wins
                headers.add(name, value)
        # A club laptop is shared: pages seen while logged in stay out of the browser's cache
        # (the back button after logging out shows nothing private). Static files keep theirs.
        # (a live page and its poll say no-store already: they need not load the user for it)
        if (
            "Cache-Control" not in headers
            and request.endpoint not in ("static", "assets")
            and _logged_in(current_user)
        ):
            headers["Cache-Control"] = "private, no-store"
        return response


def _logged_in(user: Any) -> bool:
    """Whether the request is logged in; False when the user cannot be loaded (database away)."""
    try:
        return bool(user.is_authenticated)
    except Exception:  # noqa: BLE001 - an error page must still get its headers
        return False


def _register_template_globals(app: Flask) -> None:
    from .clubs.forms import ROLE_LABELS

    def role_label(role: str) -> str:
        return str(ROLE_LABELS.get(role, role))

    from .competition.names import sorted_names
    from .qr import svg as qr_svg_data

    # ``names|name_order``: a list of names in the app's one name order (pinyin, Latin among)
    app.jinja_env.filters["name_order"] = lambda names: sorted_names(names or (), str)

    @app.context_processor
    def inject() -> dict[str, Any]:
        return {
            "qr": qr_svg_data,
            "role_label": role_label,
            "current_locale": str(get_locale() or "en"),
            "locale_names": {"zh": "中文", "en": "English"},
        }
