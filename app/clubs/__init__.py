"""Clubs: create, club page, members (add by name, roles, remove), invitation links."""

from flask import Blueprint

bp = Blueprint("clubs", __name__)

from . import routes  # noqa: E402,F401
