"""Small helpers shared by the views."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Flask, flash, make_response, render_template, request
from flask.sessions import SecureCookieSessionInterface
from flask.templating import Environment as FlaskEnvironment
from flask_wtf import FlaskForm
from itsdangerous import URLSafeTimedSerializer
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from werkzeug.routing import IntegerConverter, Map, ValidationError

from .services import ServiceError

# The largest number an integer column holds on every database here: ids and numbers are
# INTEGER columns, 32-bit on PostgreSQL (where a larger parameter is an error, not "no row"), and
# SQLite's driver refuses more than 63 bits. A larger number in a URL names nothing.
MAX_URL_INT = 2**31 - 1


class BoundedIntConverter(IntegerConverter):
    """``<int:…>`` bounded to what an integer column holds: beyond it the URL does not match (a
    404), on SQLite and PostgreSQL alike."""

    def __init__(
        self,
        map: Map,
        fixed_digits: int = 0,
        min: int | None = None,
        max: int | None = None,
        signed: bool = False,
    ) -> None:
        low = -MAX_URL_INT - 1 if signed else 0
        super().__init__(
            map,
            fixed_digits=fixed_digits,
            min=low if min is None else builtins.max(min, low),
            max=MAX_URL_INT if max is None else builtins.min(max, MAX_URL_INT),
            signed=signed,
        )

    def to_python(self, value: str) -> int:
        if len(value) > 100:  # Python refuses to parse more than 4300 digits (a 500)
            raise ValidationError()
        return super().to_python(value)  # type: ignore[no-any-return]


def safe_next_url(target: str | None) -> str | None:
    """``target`` if it is a path on this site (no scheme, no host, no ``//``), else None."""
    if not target or len(target) > 2000:
        return None
    if "\\" in target or any(ord(ch) < 32 for ch in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return None
    return target


def client_ip() -> str:
    """The client's address. Behind a proxy, wrap the app in werkzeug's ProxyFix."""
    return request.remote_addr or "unknown"


def show_service_error(form: FlaskForm | None, error: ServiceError) -> None:
    """Put the error on its form field when there is one, otherwise flash it."""
    if form is not None and error.field and error.field in form:
        field = form[error.field]
        field.errors = [*field.errors, error.message]  # type: ignore[list-item]
    else:
        flash(error.message, "error")


# Ids are 32-bit integer columns on PostgreSQL (SQLite stores any size).
def refuse_nul_characters() -> tuple[str, int] | None:
    """A NUL character in the path, query or form is refused with 400 before any view runs:
    no text column can hold one on PostgreSQL, and nobody types one."""
    values = [request.path]
    # without a content type werkzeug parses no form: a poll's GET builds no form parser
    forms = (request.args, request.form) if request.environ.get("CONTENT_TYPE") else (request.args,)
    for multi in forms:
        for key, value in multi.items(multi=True):
            values += (key, value)
    if any("\x00" in value for value in values):
        return render_template("errors/nul_character.html"), 400
    return None


F = TypeVar("F", bound=Callable[..., Any])


def no_store(view: F) -> F:
    """A live page (a seat's, a spectator's) and its poll are never kept by a browser or a proxy:
    a cached copy would show a stale table, or a hand to the next user of a shared device."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        response = make_response(view(*args, **kwargs))
        response.headers["Cache-Control"] = "no-store"
        return response

    return wrapper  # type: ignore[return-value]


CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; "
    "form-action 'self'"
)


def security_headers(config: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The headers every response carries (pages, fragments, PDFs, errors, and the seat poll's
    shortcut, ``app/poll_shortcut.py``), a view's own value winning."""
    pairs = [
        # Invitation links and table codes are in URLs: never send our URLs to other sites.
        ("Referrer-Policy", "same-origin"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ]
    if config.get("SESSION_COOKIE_SECURE"):
        pairs.append(("Strict-Transport-Security", "max-age=31536000"))
    return pairs


_DICT_ATTRIBUTES = frozenset(dir(dict))


class TemplateEnvironment(FlaskEnvironment):
    """Flask's template environment, with ``x.name`` on a plain dict read as its key first.

    Jinja reads ``x.name`` with ``getattr`` and, when that raises ``AttributeError``, with
    ``x["name"]``: on the dicts the pages pass (a card's face, a seat at the table) every such
    read raised and caught an exception, some two hundred times in a seat's partial. A name
    that is not an attribute of ``dict`` itself can only be a key, so it is looked up as one
    at once: the same answer as Jinja's, without the exception."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, its serializer built once per secret key instead of on
    every request (building one signs a test value: a poll spent more on that than on its
    query)."""

    _built: tuple[tuple[Any, ...], URLSafeTimedSerializer | None] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        key = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        built = self._built
        if built is None or built[0] != key:
            built = self._built = (key, super().get_signing_serializer(app))
        return built[1]


def install_template_gettext(app: Flask) -> None:
    """Templates' ``_()`` through the request's translations looked up once per request.

    Flask-Babel's own callables find the locale and the catalogue again on every call, through
    ``g``'s proxy each time: a seat's partial holds about forty strings, and that lookup cost
    it more than the strings. The catalogue is kept on the request's context beside the locale
    it was read for, so a locale changed meanwhile (``force_locale``) is still honoured.
    """
    from flask.globals import _cv_app
    from flask_babel import get_locale, get_translations

    def translations() -> Any:
        ctx = _cv_app.get(None)
        if ctx is None:
            return get_translations()
        babel_ctx = ctx.g.__dict__.get("_flask_babel")
        locale = getattr(babel_ctx, "babel_locale", None)
        kept = ctx.g.__dict__.get("_template_translations")
        if kept is None or locale is None or kept[0] is not locale:
            found = get_translations()
            locale = get_locale()  # read by get_translations: now kept on the context
            kept = ctx.g._template_translations = (locale, found)
        return kept[1]

    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
        newstyle=True,
    )

    @pass_context
    def gettext(__context: Context, __string: str, **variables: Any) -> str:
        """Jinja's newstyle ``gettext`` (``jinja2.ext._make_new_gettext``: Markup when
        autoescaping, always a format string) without its two extra ``Context.call``s and the
        ``_`` alias's lookup: a partial's forty strings spent more there than in the lookup."""
        catalogue = translations()
        autoescape = __context.eval_ctx.autoescape
        if autoescape and not variables:  # most strings: kept marked up per catalogue
            marked = catalogue.__dict__.setdefault("_template_markup", {})
            hit = marked.get(__string)
            if hit is not None:
                return hit  # type: ignore[no-any-return]
        rv = catalogue.ugettext(__string)
        if autoescape:
            rv = Markup(rv)
            if not variables and "%" not in rv:  # ``rv % {}`` would be rv itself
                marked[__string] = rv
                return rv  # type: ignore[no-any-return]
        return rv % variables  # type: ignore[no-any-return]

    app.jinja_env.globals.update(gettext=gettext, _=gettext)
