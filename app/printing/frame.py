"""The page frame, footer, canvas, and the seat diagram of a table."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from .checks import _Table
from .layout import FONT, GREY, SHADE, _ensure_font, _Pen
from .words import _SIDE

# --------------------------------------------------------------------------------------------
# Page frame
# --------------------------------------------------------------------------------------------

MARGIN = 34.0


@dataclass
class _Frame:
    width: float
    height: float

    @property
    def left(self) -> float:
        return MARGIN

    @property
    def right(self) -> float:
        return self.width - MARGIN

    @property
    def top(self) -> float:
        return self.height - MARGIN

    @property
    def bottom(self) -> float:
        return MARGIN

    @property
    def inner(self) -> float:
        return self.width - 2 * MARGIN


def _footer(pen: _Pen, fr: _Frame, left: str, page: int, pages: int) -> None:
    y = fr.bottom - 14
    pen.fit(fr.left, y, fr.inner * 0.7, left, 7, color=GREY)
    pen.text(
        fr.right, y, f"第 {page} / {pages} 页  Page {page} of {pages}", 7, align="right", color=GREY
    )


def _new_canvas(size: tuple[float, float], title: str) -> tuple[Canvas, io.BytesIO]:
    _ensure_font()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=size, invariant=1, pageCompression=1, initialFontName=FONT)
    c.setTitle(title)
    c.setAuthor("Shengji club")
    c.setCreator("app.printing (reportlab)")
    return c, buf


# --------------------------------------------------------------------------------------------
# Seat diagram (score sheets and table cards)
# --------------------------------------------------------------------------------------------


def _seat_diagram(
    pen: _Pen,
    t: _Table,
    x: float,
    y_top: float,
    w: float,
    h: float,
    scale: float = 1.0,
    box_w: float = 80.0,
) -> None:
    """Seats around the table, counter-clockwise in play order from seat 1 at the bottom."""
    n = t.players
    bw, bh = box_w * scale, 31.0 * scale
    if w < 2 * bw + 60 * scale:
        bw = (w - 60 * scale) / 2
    cx, cy = x + w / 2, y_top - h / 2
    rx, ry = (w - bw) / 2, (h - bh) / 2
    # the table top
    c = pen.c
    c.setLineWidth(0.8)
    c.setFillColorRGB(*SHADE)
    tw, th = rx * 2 - bw - 8 * scale, ry * 2 - bh - 8 * scale
    if n == 4:
        c.roundRect(cx - tw / 2, cy - th / 2, tw, th, 6 * scale, stroke=1, fill=1)
    else:
        c.ellipse(cx - tw / 2, cy - th / 2, cx + tw / 2, cy + th / 2, stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    pen.text(cx, cy + 2 * scale, f"第 {t.table} 桌", 13 * scale, bold=True, align="center")
    pen.text(cx, cy - 9 * scale, f"Table {t.table}", 8 * scale, align="center")
    pen.text(cx, cy - 19 * scale, "↺ 出牌顺序 play order", 6 * scale, align="center", color=GREY)
    for seat in range(n):
        ang = math.radians(-90 + seat * 360 / n)
        sx, sy = cx + rx * math.cos(ang), cy + ry * math.sin(ang)
        bx, by = sx - bw / 2, sy + bh / 2
        fill = (1.0, 1.0, 1.0) if not t.fixed or seat % 2 == 0 else (0.96, 0.96, 0.96)
        pen.rect(bx, by, bw, bh, fill=fill, width=0.8)
        label = f"座{seat + 1} Seat {seat + 1}"
        if t.fixed:
            label += f" · {_SIDE[seat % 2]}"
        pen.fit(bx + 3 * scale, by - 9 * scale, bw - 6 * scale, label, 6.5 * scale, color=GREY)
        pen.block(
            bx + 2 * scale,
            by - 10 * scale,
            bw - 4 * scale,
            bh - 11 * scale,
            t.seats[seat],
            9.5 * scale,
            min_size=5,
            bold=True,
        )
