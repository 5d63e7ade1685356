"""Seasons of a club's league: the season pages (``routes``), their forms (``forms``) and the
``flask season …`` commands (``cli``: ``standings``, ``ratings``) and the downloads (``files``:
the season's standings as PDF, CSV and a phone-sized PNG)."""

from flask import Blueprint

bp = Blueprint("seasons", __name__, cli_group="season")

from . import cli, files, routes  # noqa: E402,F401
