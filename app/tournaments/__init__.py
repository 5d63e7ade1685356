"""Tournaments: set up, entrants, rounds and seating, score sheets, standings, files, PDFs.

Also the ``flask tournament …`` command group (``import``, ``export``, ``standings``, ``sheets``,
``csv``), see ``cli.py``.
"""

from flask import Blueprint

bp = Blueprint("tournaments", __name__, cli_group="tournament")

from . import cli, demo, routes  # noqa: E402,F401
