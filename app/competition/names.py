"""How a typed name is cleaned, without any web framework: the forms (``app.services.text``) and
the tournament file (``tfile``) both use it, so a name means the same whichever way it came in."""

from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"\s+")


def normalize_name(value: str) -> str:
    """NFC, every run of white space (ideographic spaces too) one space, no space at the ends."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", value)).strip()


def has_invisible(name: str) -> bool:
    """Control, format (bidirectional overrides and isolates, zero-width spaces and joiners, the
    byte order mark), surrogate, private-use or unassigned characters: none belongs in a name."""
    return any(unicodedata.category(ch).startswith("C") for ch in name)
