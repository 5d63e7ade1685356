"""Fill in translations: ``python tools/po_set.py FILE.json`` sets each msgid's Chinese msgstr
in app/translations/zh/LC_MESSAGES/messages.po (clearing the fuzzy flag) and lists the entries
still untranslated or fuzzy. FILE.json maps a msgid to its msgstr, or, for an ngettext entry, to
a list of forms. Run ``make i18n`` first (it adds the new msgids) and again after (it compiles).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

PO = Path(__file__).resolve().parent.parent / "app/translations/zh/LC_MESSAGES/messages.po"


def main(argv: list[str]) -> int:
    with PO.open("rb") as f:
        catalog = read_po(f, locale="zh")
    wanted: dict[str, str | list[str]] = {}
    for name in argv:
        wanted.update(json.loads(Path(name).read_text(encoding="utf-8")))
    missing = []
    for msgid, text in wanted.items():
        message = catalog.get(msgid)
        if message is None:
            # an ngettext entry is keyed by its singular
            message = next(
                (m for m in catalog if isinstance(m.id, tuple) and m.id[0] == msgid), None
            )
        if message is None:
            missing.append(msgid)
            continue
        if isinstance(message.id, tuple):  # ngettext: Chinese has one form; a list gives each
            message.string = tuple(text) if isinstance(text, list) else (text,)
        else:
            message.string = text if isinstance(text, str) else text[0]
        message.flags.discard("fuzzy")
    with PO.open("wb") as f:
        write_po(f, catalog, width=100, omit_header=False)
    for msgid in missing:
        print(f"not in the catalog: {msgid!r}")
    left: list[object] = [
        m.id
        for m in catalog
        if m.id and (m.fuzzy or not m.string or (isinstance(m.string, tuple) and not all(m.string)))
    ]
    for entry in left:
        print(f"still to translate: {entry!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
