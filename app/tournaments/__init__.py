"""Tournaments: one blueprint ``bp`` whose views live in modules by concept:

* ``setup``: the club's tournaments, creating one, the tournament page, entrants, audit trail;
* ``substitutes``: recording and removing a substitute for a seat of an entrant;
* ``rounds``: seating, the round page, pairing again, swaps, closing and reopening;
* ``sheets``: score sheets of the director and by a table's code;
* ``standings``: the public standings, live partial and each entrant's history;
* ``files``: tournament file import/export, CSV and PDF downloads.

``lookup`` finds the rows a URL names, ``actions`` runs a confirmed POST, ``options`` shows and
parses the rule options, ``forms`` holds the forms. Also the ``flask tournament …`` command group
(``import``, ``export``, ``standings``, ``sheets``, ``csv``), see ``cli.py``.
"""

from flask import Blueprint

bp = Blueprint("tournaments", __name__, cli_group="tournament")

from . import cli, demo, files, rounds, setup, sheets, standings, substitutes  # noqa: E402,F401
