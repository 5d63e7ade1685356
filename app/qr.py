"""QR codes of seat links on web pages. The code itself is ``app.printing.qr_code`` (which the
printed table cards draw), so a page and a card never disagree. The page draws it as an inline
SVG from a template (templates/online/_seat_links.html), never from markup built here."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .printing import QR_BORDER, qr_code


@dataclass(frozen=True)
class QrSvg:
    """What an inline ``<svg>`` of a code needs: its width in modules (quiet zone included) and
    the path of its dark modules, one closed rectangle per run of dark modules in a row."""

    size: int
    path: str


@functools.lru_cache(maxsize=1024)  # a pure function of the text; a code costs ~7 ms to make
def svg(url: str) -> QrSvg:
    rows = qr_code(url).matrix
    runs = []
    for r, row in enumerate(rows):
        col, n = 0, len(row)
        while col < n:
            if not row[col]:
                col += 1
                continue
            end = col
            while end < n and row[end]:
                end += 1
            runs.append(f"M{QR_BORDER + col} {QR_BORDER + r}h{end - col}v1h-{end - col}z")
            col = end
    return QrSvg(len(rows) + 2 * QR_BORDER, "".join(runs))
