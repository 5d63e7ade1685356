"""Small helpers shared by the views."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import flash, render_template, request
from flask_wtf import FlaskForm
from werkzeug.routing import IntegerConverter

from .services import ServiceError


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
MAX_ID = 2**31 - 1


class IdConverter(IntegerConverter):
    """``<int:…>`` in every route: a number beyond what an id column holds matches no route
    (404, as for any missing id) instead of reaching the database, which PostgreSQL refuses."""

    def __init__(self, map: object, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("max", MAX_ID)
        super().__init__(map, *args, **kwargs)  # type: ignore[arg-type]


def refuse_nul_characters() -> tuple[str, int] | None:
    """A NUL character in the path, query or form is refused with 400 before any view runs:
    no text column can hold one on PostgreSQL, and nobody types one."""
    values = [request.path]
    for multi in (request.args, request.form):
        for key, value in multi.items(multi=True):
            values += (key, value)
    if any("\x00" in value for value in values):
        return render_template("errors/nul_character.html"), 400
    return None
