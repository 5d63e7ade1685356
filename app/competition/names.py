"""How a typed name is cleaned, without any web framework: the forms (``app.services.text``) and
the tournament file (``tfile``) both use it, so a name means the same whichever way it came in."""

from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"\s+")


def normalize_name(value: str) -> str:
    """NFC, every run of white space (ideographic spaces too) one space, no space at the ends."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", value)).strip()


def name_match_key(value: str) -> str:
    """How two typed names are compared: NFKC (full-width letters and digits as ASCII, 兼容
    forms as their ordinary characters), without white space, case-blind: "王 伟" is "王伟",
    "ＡＮＮＡ Li" is "anna li"."""
    return "".join(unicodedata.normalize("NFKC", value).split()).casefold()


def has_invisible(name: str) -> bool:
    """Control, format (bidirectional overrides and isolates, zero-width spaces and joiners, the
    byte order mark), surrogate, private-use or unassigned characters: none belongs in a name."""
    return any(unicodedata.category(ch).startswith("C") for ch in name)
