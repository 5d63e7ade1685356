"""Fonts, page sizes, text wrapping and the pen that draws text and boxes."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from .codes import QR_BORDER, qr_code
from .model import PrintError

# --------------------------------------------------------------------------------------------
# Fonts, page sizes, text
# --------------------------------------------------------------------------------------------

FONT = "WQYMicroHei"
_FONT_FILES = (
    Path(__file__).resolve().parent.parent / "static" / "fonts" / "wqy-microhei.ttc",
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
)
_font_ready = False


def _ensure_font() -> None:
    global _font_ready
    if _font_ready:
        return
    for path in _FONT_FILES:
        if path.is_file():
            pdfmetrics.registerFont(TTFont(FONT, str(path), subfontIndex=0))
            _font_ready = True
            return
    raise PrintError(
        "the CJK font static/fonts/wqy-microhei.ttc is missing (it ships with the project; "
        "Debian's fonts-wqy-microhei package provides it too)"
    )


_PAGE_SIZES = {"A4": A4, "LETTER": LETTER}


def _page_size(name: str) -> tuple[float, float]:
    size = _PAGE_SIZES.get(str(name).upper())
    if size is None:
        raise PrintError(f"page size must be 'A4' or 'Letter', not {name!r}")
    return size


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _clean(text: object, what: str) -> str:
    """User text as it will be printed: control characters (newlines…) become spaces."""
    if not isinstance(text, str):
        raise PrintError(f"{what} must be text, not {text!r}")
    return _CONTROL.sub(" ", unicodedata.normalize("NFC", text)).strip()


def _width(text: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, FONT, size)


def _is_wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _wrap(text: str, width: float, size: float) -> list[str]:
    """Greedy line breaking: at spaces for Latin words, between any two CJK characters."""
    tokens = re.findall(r"\s+|[^\s]", text)
    # merge runs of non-wide, non-space characters into words
    words: list[str] = []
    for tok in tokens:
        if words and not tok.isspace() and not _is_wide(tok):
            last = words[-1]
            if last and not last[-1].isspace() and not _is_wide(last[-1]):
                words[-1] = last + tok
                continue
        words.append(tok)
    lines: list[str] = []
    line = ""
    for word in words:
        if word.isspace():
            if line:
                line += " "
            continue
        trial = line + word
        if not line or _width(trial, size) <= width:
            line = trial
            continue
        lines.append(line.rstrip())
        line = word
    if line.strip():
        lines.append(line.rstrip())
    # a single word longer than the line: cut it by characters
    out: list[str] = []
    for ln in lines:
        while _width(ln, size) > width and len(ln) > 1:
            cut = len(ln)
            while cut > 1 and _width(ln[:cut], size) > width:
                cut -= 1
            out.append(ln[:cut])
            ln = ln[cut:]
        out.append(ln)
    return out


def _wrap_items(items: Sequence[str], width: float, size: float, sep: str = "  ·  ") -> list[str]:
    """Lines of items joined by ``sep``, an item broken only when it is longer than a line."""
    lines: list[str] = []
    line = ""
    for item in items:
        trial = line + sep + item if line else item
        if _width(trial, size) <= width:
            line = trial
            continue
        if line:
            lines.append(line)
        parts = [item] if _width(item, size) <= width else _wrap(item, width, size)
        lines.extend(parts[:-1])
        line = parts[-1]
    if line:
        lines.append(line)
    return lines


GREY = (0.45, 0.45, 0.45)
LIGHT = (0.72, 0.72, 0.72)
SHADE = (0.93, 0.93, 0.93)
ROW_SHADE = (0.975, 0.975, 0.975)


class _Pen:
    """A canvas with the few text and box operations the layouts use (top-down helpers)."""

    def __init__(self, canvas: Canvas) -> None:
        self.c = canvas
        self.forms: set[str] = set()  # the QR codes already defined in this document

    def qr(self, url: str, x: float, y: float, size: float) -> None:
        """The QR code of ``url`` (with its quiet zone) in the square ``size`` wide whose
        lower-left corner is ``x, y``: one form per address, its dark modules as rectangles of
        one module's height (the matrix of ``qr_code``, which the web page draws too)."""
        rows = qr_code(url).matrix
        n = len(rows)
        total = n + 2 * QR_BORDER
        name = "qr" + hashlib.sha256(url.encode()).hexdigest()[:24]
        c = self.c
        if name not in self.forms:
            c.beginForm(name, 0, 0, total, total)
            c.setFillColorRGB(1, 1, 1)
            c.rect(0, 0, total, total, stroke=0, fill=1)
            c.setFillColorRGB(0, 0, 0)
            for r, row in enumerate(rows):
                y_row = total - QR_BORDER - r - 1
                col = 0
                while col < n:
                    if not row[col]:
                        col += 1
                        continue
                    end = col
                    while end < n and row[end]:
                        end += 1
                    c.rect(QR_BORDER + col, y_row, end - col, 1, stroke=0, fill=1)
                    col = end
            c.endForm()
            self.forms.add(name)
        c.saveState()
        c.translate(x, y)
        c.scale(size / total, size / total)
        c.doForm(name)
        c.restoreState()

    def text(
        self,
        x: float,
        y: float,
        s: str,
        size: float,
        *,
        bold: bool = False,
        align: str = "left",
        color: tuple[float, float, float] = (0, 0, 0),
    ) -> None:
        if not s:
            return
        c = self.c
        c.setFont(FONT, size)
        c.setFillColorRGB(*color)
        w = _width(s, size)
        if align == "center":
            x -= w / 2
        elif align == "right":
            x -= w
        if bold:
            c.setStrokeColorRGB(*color)
            c.setLineWidth(size * 0.035)
            c.drawString(x, y, s, mode=2)
            c.setStrokeColorRGB(0, 0, 0)
        else:
            c.drawString(x, y, s)
        c.setFillColorRGB(0, 0, 0)

    def fit(
        self,
        x: float,
        y: float,
        w: float,
        s: str,
        size: float,
        *,
        min_size: float = 5.5,
        bold: bool = False,
        align: str = "left",
        color: tuple[float, float, float] = (0, 0, 0),
    ) -> float:
        """One line in width ``w``: shrink down to ``min_size``, then cut with an ellipsis."""
        while size > min_size and _width(s, size) > w:
            size = max(min_size, size * 0.92)
        if _width(s, size) > w:
            while len(s) > 1 and _width(s + "…", size) > w:
                s = s[:-1]
            s += "…"
        ax = x + w / 2 if align == "center" else x + w if align == "right" else x
        self.text(ax, y, s, size, bold=bold, align=align, color=color)
        return size

    def block(
        self,
        x: float,
        y_top: float,
        w: float,
        h: float,
        s: str,
        size: float,
        *,
        min_size: float = 5.5,
        bold: bool = False,
        align: str = "center",
        valign: str = "middle",
        color: tuple[float, float, float] = (0, 0, 0),
        leading: float = 1.18,
    ) -> None:
        """Text in a box: one line if it fits (shrunk by up to a third), else wrapped lines,
        shrinking until they fit."""
        one_line = max(min_size, size * 0.68)
        if _width(s, one_line) <= w and one_line * leading <= h:
            while _width(s, size) > w:
                size *= 0.95
        while True:
            lines = [s] if _width(s, size) <= w else _wrap(s, w, size)
            total = len(lines) * size * leading
            if (total <= h and all(_width(ln, size) <= w for ln in lines)) or size <= min_size:
                break
            size = max(min_size, size * 0.92)
        max_lines = max(1, int(h // (size * leading)))
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            last = lines[-1]
            while len(last) > 1 and _width(last + "…", size) > w:
                last = last[:-1]
            lines[-1] = last + "…"
        total = len(lines) * size * leading
        y = y_top - size if valign == "top" else y_top - (h - total) / 2 - size * 0.95
        ax = x + w / 2 if align == "center" else x + w if align == "right" else x
        for ln in lines:
            self.text(ax, y, ln, size, bold=bold, align=align, color=color)
            y -= size * leading

    def rect(
        self,
        x: float,
        y_top: float,
        w: float,
        h: float,
        *,
        fill: tuple[float, float, float] | None = None,
        stroke: bool = True,
        width: float = 0.6,
    ) -> None:
        c = self.c
        c.setLineWidth(width)
        if fill is not None:
            c.setFillColorRGB(*fill)
        c.rect(x, y_top - h, w, h, stroke=1 if stroke else 0, fill=1 if fill is not None else 0)
        c.setFillColorRGB(0, 0, 0)

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 0.6) -> None:
        self.c.setLineWidth(width)
        self.c.line(x1, y1, x2, y2)
