"""QR codes of seat links and score-entry pages (segno): one code for the page and the paper."""

from __future__ import annotations

import segno

# --------------------------------------------------------------------------------------------
# QR codes of seat links (the web page's come from here too: app/qr.py)
# --------------------------------------------------------------------------------------------

QR_ERROR = "m"  # 15 % of a code may be smudged or folded and it still reads
QR_BORDER = 4  # the quiet zone around a code, in modules, as the QR standard asks


def qr_code(url: str) -> segno.QRCode:
    """The QR code of ``url``: the smallest version that holds it at level M (or better)."""
    return segno.make(url, error=QR_ERROR, micro=False)
