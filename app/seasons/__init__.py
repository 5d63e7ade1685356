"""Seasons of a club's league: the season pages (``routes``), their forms (``forms``) and the
``flask season …`` commands (``cli``: ``standings``, ``ratings``)."""

from flask import Blueprint

bp = Blueprint("seasons", __name__, cli_group="season")

from . import cli, routes  # noqa: E402,F401
