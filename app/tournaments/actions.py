"""A confirmed POST that calls one service: commit and flash on success, roll back and flash the
reason when the service refuses, then redirect (303)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import abort, flash, redirect
from flask.typing import ResponseReturnValue

from ..extensions import db
from ..services import ServiceError
from .forms import ConfirmForm

T = TypeVar("T")


def attempt(action: Callable[[], T]) -> tuple[bool, T | None]:
    """Run a service: on success commit, on refusal roll back and flash why."""
    try:
        result = action()
    except ServiceError as error:
        db.session.rollback()
        flash(error.message, "error")
        return False, None
    db.session.commit()
    return True, result


def confirmed(action: Callable[[], object], target: str, ok_message: str) -> ResponseReturnValue:
    """The confirm form's POST (CSRF checked) runs ``action``, then back to ``target``."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    ok, _result = attempt(action)
    if ok:
        flash(ok_message, "success")
    return redirect(target, 303)
