"""The version of what a form showed, field by field: no lost updates.

A form that changes stored data sends back, in a hidden field, the ``version`` of the fields it
showed (each field's name and a short digest of its value). When it is saved, ``changes`` compares
that with the fields as stored now and says which were added, removed or changed since, so the
refusal (``check_seen``, a ``StaleError``) can say what changed, and nothing is saved. One helper
for every such form (season settings, members, pairings, visibility): each passes its fields as a
mapping of a short key (a field name, a member's id, a table's number) to a JSON-able value.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from . import StaleError

# a version is at most this long (a form with a few hundred fields); a longer one is not ours
MAX_LENGTH = 20000


def _digest(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def version(fields: Mapping[str, Any]) -> str:
    """``key:digest`` of every field, in the mapping's order, joined by ``.`` (keys are the
    caller's short names: letters, digits, ``_``)."""
    return ".".join(f"{key}:{_digest(value)}" for key, value in fields.items())


def _parse(seen: str) -> dict[str, str] | None:
    out: dict[str, str] = {}
    for part in seen.split(".") if seen else ():
        key, sep, digest = part.partition(":")
        if not sep or not key or key in out:
            return None
        out[key] = digest
    return out


@dataclass(frozen=True)
class Changes:
    """The keys added, removed and changed since a form was shown (in the fields' order)."""

    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed)

    @property
    def keys(self) -> tuple[str, ...]:
        """Every key that differs, changed ones first (what a refusal names)."""
        return (*self.changed, *self.added, *self.removed)


def changes(fields: Mapping[str, Any], seen: str | None) -> Changes:
    """What changed in ``fields`` since ``seen`` (their ``version`` then); nothing when the
    form did not say (``seen`` None: a script's request). An unreadable version changes all."""
    if seen is None:
        return Changes()
    shown = _parse(seen) if len(seen) <= MAX_LENGTH else None
    if shown is None:
        return Changes(changed=tuple(fields))
    now = {key: _digest(value) for key, value in fields.items()}
    return Changes(
        added=tuple(k for k in now if k not in shown),
        removed=tuple(k for k in shown if k not in now),
        changed=tuple(k for k in now if k in shown and shown[k] != now[k]),
    )


def check_seen(fields: Mapping[str, Any], seen: str | None, say: Callable[[Changes], str]) -> None:
    """Refuse (``StaleError``, nothing saved) a form shown before ``fields`` changed; ``say``
    words the refusal from the changes, in the reader's language."""
    found = changes(fields, seen)
    if found:
        raise StaleError(say(found))


def named(keys: Sequence[str], words: Mapping[str, Any]) -> str:
    """The changed keys in words (``words[key]``, a lazy string or a name), as a list in the
    reader's language ("name, players"; "名字、牌手")."""
    return _(", ").join(str(words.get(key, key)) for key in keys)


def seen_of(form: Mapping[str, str], name: str = "seen") -> str | None:
    """The version a posted form sent back (None when it sent none)."""
    raw = form.get(name)
    return None if raw is None else raw.strip()[:MAX_LENGTH]


__all__ = ["Changes", "changes", "check_seen", "named", "seen_of", "version"]
