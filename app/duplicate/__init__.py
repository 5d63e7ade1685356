"""Duplicate events (复式): the club's events and a new one, an event's page (movement, boards,
standings with no peeking), a board's traveller typed in, and the printed hand records and
travellers (``routes``, ``forms``); the event file and CSV files, also as ``flask duplicate
import | export | csv`` (``cli``)."""

from flask import Blueprint

bp = Blueprint("duplicate", __name__)

from . import cli, routes  # noqa: E402,F401
