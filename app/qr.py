"""QR codes of seat links, made in one place: the director's page shows them as inline SVG and
the printed table cards draw the same module matrix, so a page and a card never disagree."""

from __future__ import annotations

import segno
from markupsafe import Markup

ERROR_LEVEL = "m"  # 15 % of the code may be smudged or folded and it still reads
BORDER = 4  # the quiet zone around the code, in modules, as the QR standard asks


def make(url: str) -> segno.QRCode:
    """The QR code of ``url`` (the smallest version that holds it at level M)."""
    return segno.make(url, error=ERROR_LEVEL, micro=False)


def rows(url: str) -> list[list[bool]]:
    """The code's modules, top row first, ``True`` for dark, without the quiet zone."""
    return [[bool(m) for m in row] for row in make(url).matrix]


def svg(url: str, title: str) -> Markup:
    """The code as an inline ``<svg>`` that scales to its box (CSS sets the size), drawn on white
    so it reads in a dark page too."""
    code = make(url).svg_inline(
        omitsize=True,
        border=BORDER,
        light="#fff",
        dark="#000",
        svgclass="qr",
        lineclass="qr-dark",
        title=title,
    )
    return Markup(code)
