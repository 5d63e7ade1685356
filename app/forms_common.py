"""Messages shared by the forms of several blueprints."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms.fields.choices import SelectChoice

REQUIRED = _l("Please fill this in.")
TOO_LONG = _l("At most %(max)d characters, please.")


def choices(pairs: Iterable[tuple[Any, Any]]) -> list[SelectChoice]:
    """``SelectField``/``RadioField`` choices from (value, label) pairs (WTForms ≥ 3.3 style)."""
    return [SelectChoice(value, label) for value, label in pairs]
