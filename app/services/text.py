"""Validation of names typed by people."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import TypeVar

from flask_babel import gettext as _

from ..competition.names import has_invisible, normalize_name
from . import ServiceError

_SPACES = re.compile(r"\s+")
T = TypeVar("T")


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


def name_key(name: str, locale: str | None = None) -> tuple[str, str]:
    """How names sort for a reader: in the Chinese interface by pinyin (李 among the L's, 张
    among the Z's, with Latin names in the same alphabet), otherwise case-blind; the name itself
    breaks ties so the order is total."""
    if locale == "zh":
        from pypinyin import lazy_pinyin

        spoken = " ".join(lazy_pinyin(name)).casefold()
        return (spoken, name)
    return (name.casefold(), name)


def sorted_names(items: list[T], name: Callable[[T], str], locale: str | None) -> list[T]:
    return sorted(items, key=lambda item: name_key(name(item), locale))
