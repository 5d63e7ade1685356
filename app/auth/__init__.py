"""Accounts: register, log in, log out, change password."""

from flask import Blueprint

bp = Blueprint("auth", __name__, url_prefix="/account")

from . import routes  # noqa: E402,F401
