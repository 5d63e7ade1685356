"""QR codes of seat links on web pages. The code itself is ``app.printing.qr_code`` (which the
printed table cards draw), so a page and a card never disagree."""

from __future__ import annotations

from markupsafe import Markup

from .printing import QR_BORDER, qr_code


def svg(url: str, title: str) -> Markup:
    """The code as an inline ``<svg>`` that scales to its box (CSS sets the size), drawn on white
    so it reads on a dark screen too."""
    code = qr_code(url).svg_inline(
        omitsize=True,
        border=QR_BORDER,
        light="#fff",
        dark="#000",
        svgclass="qr",
        lineclass="qr-dark",
        title=title,
    )
    return Markup(code)
