"""Fill in a page's form as a browser would: read its fields (inputs, selects, textareas, with
the values the page gave them, hidden ones included), change some, send all.

    fields = form_fields(client.get(url).get_data(as_text=True), action=url)
    client.post(url, data=fields | {"r1t1_total": "40"})

``submit(client, url, changes)`` does both. A form's hidden fields carry what the page showed
(the version of a traveller line, a deal, an entrant), so tests that post through here are
checked as a browser's save is.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[tuple[str, dict[str, str]]] = []
        self._fields: dict[str, str] | None = None
        self._select: str | None = None
        self._select_first: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._fields = {}
            self.forms.append((a.get("action", ""), self._fields))
            return
        if self._fields is None:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("submit", "button", "image", "file"):
                return
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self._fields[name] = a.get("value", "on")
                return
            self._fields[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select, self._select_first = name, None
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            if self._select_first is None:
                self._select_first = value
                self._fields.setdefault(self._select, value)
            if "selected" in a:
                self._fields[self._select] = value
        elif tag == "textarea" and name:
            self._textarea = name
            self._fields[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._fields = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea is not None and self._fields is not None:
            self._fields[self._textarea] += data


def form_fields(html: str, action: str | None = None) -> dict[str, str]:
    """The fields of the page's first form whose action ends with ``action`` (None: the
    page's first form)."""
    parser = _Forms()
    parser.feed(html)
    for act, fields in parser.forms:
        if action is None or act.split("?")[0].endswith(action):
            return dict(fields)
    raise AssertionError(f"no form posting to {action!r} on the page")


def submit(client: Any, url: str, changes: dict[str, str], action: str | None = None) -> Any:
    """GET ``url``, fill its form (posting to ``action``, default ``url``) with ``changes``
    and POST it there; returns the response."""
    target = action or url
    fields = form_fields(client.get(url).get_data(as_text=True), action=target.split("?")[0])
    return client.post(target, data={**fields, **changes})
