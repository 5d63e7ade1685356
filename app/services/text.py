"""Validation of names typed by people."""

from __future__ import annotations

import re
import unicodedata

from flask_babel import gettext as _

from ..competition.names import has_invisible, normalize_name
from . import ServiceError


def clean_name(value: str | None, field: str, max_length: int = 80) -> str:
    """Collapse spaces; refuse empty, too long, or control characters. Returns the name."""
    name = normalize_name(value or "")
    if not name:
        raise ServiceError(_("Please enter a name."), field)
    if len(name) > max_length:
        raise ServiceError(_("At most %(n)d characters, please.", n=max_length), field)
    if has_invisible(name):
        raise ServiceError(_("The name contains invisible control characters."), field)
    return name


def slugify(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return slug[:60] or "club"
