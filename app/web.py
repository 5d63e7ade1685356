"""Small helpers shared by the views."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import flash, request
from flask_wtf import FlaskForm

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
