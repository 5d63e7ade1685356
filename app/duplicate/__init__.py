"""Duplicate events (复式): the club's events and a new one, an event's page (movement, boards,
standings with no peeking), a board's traveller typed in, and the printed hand records and
travellers (``routes``, ``forms``)."""

from flask import Blueprint

bp = Blueprint("duplicate", __name__)

from . import routes  # noqa: E402,F401
