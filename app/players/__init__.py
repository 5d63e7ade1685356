"""Player pages: a club member's tournaments, seasons, partners, matches and rating."""

from flask import Blueprint

bp = Blueprint("players", __name__)

from . import routes  # noqa: E402,F401
