"""Phone-sized pictures for a club's group chat (微信群): a night's or a season's standings and a
match's result, drawn as a narrow PDF page with the same pen and charts as the printed paper,
then rendered to PNG (pypdfium2). Three times the page's width in pixels: sharp on a phone."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.graphics import renderPDF
from reportlab.pdfgen.canvas import Canvas

from .layout import GREY, ROW_SHADE, _clean, _ensure_font, _Pen
from .model import PrintError

WIDTH = 360.0  # points: 1080 px at scale 3
MARGIN = 16.0
ROW = 24.0
SCALE = 3
MAX_ROWS = 40  # a longer list is cut with "…"


@dataclass(frozen=True)
class ImageRow:
    rank: str
    name: str
    value: str  # the main number (场分, 积分, score)
    extra: str = ""  # a second number (级差)


@dataclass(frozen=True)
class StandingsImage:
    title: str
    subtitle: str
    head: tuple[str, str, str, str]  # column words: rank, name, value, extra
    rows: tuple[ImageRow, ...]
    chart: Any = None  # a reportlab Drawing (app.charts.drawing)
    footer: str = ""


@dataclass(frozen=True)
class MatchImage:
    title: str
    subtitle: str
    sides: tuple[str, str]
    levels: tuple[str, str]
    result: str  # the result in words, e.g. "A 胜，级差 +3"
    chart: Any = None
    footer: str = ""


def _chart_height(chart: Any) -> float:
    if chart is None:
        return 0.0
    return float(chart.height) * (WIDTH - 2 * MARGIN) / float(chart.width) + 12


def _pdf(height: float, draw: Any) -> bytes:
    _ensure_font()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(WIDTH, height), invariant=True)
    c.setTitle("Shengji Club")
    pen = _Pen(c)
    c.setFillColorRGB(1, 1, 1)
    c.rect(0, 0, WIDTH, height, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    draw(pen, c, height)
    c.showPage()
    c.save()
    return buf.getvalue()


def _chart(c: Canvas, chart: Any, y_top: float) -> float:
    if chart is None:
        return y_top
    scale = (WIDTH - 2 * MARGIN) / float(chart.width)
    chart.scale(scale, scale)
    h = float(chart.height) * scale
    renderPDF.draw(chart, c, MARGIN, y_top - h - 4)
    return y_top - h - 12


def standings_pdf(img: StandingsImage) -> bytes:
    if not isinstance(img, StandingsImage):
        raise PrintError(f"expected StandingsImage, not {img!r}")
    rows = list(img.rows[:MAX_ROWS])
    cut = len(img.rows) > MAX_ROWS
    height = 96 + ROW * (len(rows) + 1 + cut) + _chart_height(img.chart) + 30

    def draw(pen: _Pen, c: Canvas, h: float) -> None:
        y = h - MARGIN - 18
        pen.fit(MARGIN, y, WIDTH - 2 * MARGIN, _clean(img.title, "title"), 18, bold=True)
        y -= 20
        pen.fit(MARGIN, y, WIDTH - 2 * MARGIN, _clean(img.subtitle, "subtitle"), 10, color=GREY)
        y -= 26
        cols = (MARGIN, MARGIN + 34, WIDTH - MARGIN - 80, WIDTH - MARGIN)
        for x, text, align in zip(cols, img.head, ("left", "left", "right", "right"), strict=True):
            pen.text(x, y, _clean(text, "head"), 9, color=GREY, align=align)
        y -= 8
        pen.line(MARGIN, y, WIDTH - MARGIN, y)
        for i, row in enumerate(rows):
            top = y
            if i % 2:
                pen.rect(MARGIN, top, WIDTH - 2 * MARGIN, ROW, fill=ROW_SHADE, stroke=False)
            base = top - ROW + 8
            pen.text(cols[0], base, _clean(row.rank, "rank"), 12, bold=True)
            pen.fit(cols[1], base, cols[2] - cols[1] - 56, _clean(row.name, "name"), 12)
            pen.text(cols[2], base, _clean(row.value, "value"), 12, bold=True, align="right")
            pen.text(cols[3], base, _clean(row.extra, "extra"), 11, align="right", color=GREY)
            y -= ROW
        if cut:
            pen.text(cols[1], y - ROW + 8, "…", 12)
            y -= ROW
        y = _chart(c, img.chart, y - 8)
        pen.fit(MARGIN, MARGIN, WIDTH - 2 * MARGIN, _clean(img.footer, "footer"), 8, color=GREY)

    return _pdf(height, draw)


def match_pdf(img: MatchImage) -> bytes:
    if not isinstance(img, MatchImage):
        raise PrintError(f"expected MatchImage, not {img!r}")
    height = 190 + _chart_height(img.chart) + 20

    def draw(pen: _Pen, c: Canvas, h: float) -> None:
        y = h - MARGIN - 18
        pen.fit(MARGIN, y, WIDTH - 2 * MARGIN, _clean(img.title, "title"), 18, bold=True)
        y -= 20
        pen.fit(MARGIN, y, WIDTH - 2 * MARGIN, _clean(img.subtitle, "subtitle"), 10, color=GREY)
        y -= 40
        half = (WIDTH - 2 * MARGIN) / 2
        for i in (0, 1):
            x = MARGIN + i * half
            pen.fit(x, y, half - 8, _clean(img.sides[i], "side"), 12, align="center")
            pen.text(
                x + half / 2, y - 34, _clean(img.levels[i], "level"), 30, bold=True, align="center"
            )
        y -= 62
        pen.fit(
            MARGIN,
            y,
            WIDTH - 2 * MARGIN,
            _clean(img.result, "result"),
            14,
            bold=True,
            align="center",
        )
        y = _chart(c, img.chart, y - 14)
        pen.fit(MARGIN, MARGIN, WIDTH - 2 * MARGIN, _clean(img.footer, "footer"), 8, color=GREY)

    return _pdf(height, draw)


def png(pdf: bytes, scale: int = SCALE) -> bytes:
    """The first page of a PDF as PNG bytes."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[0]
        image = page.render(scale=scale).to_pil()
        out = io.BytesIO()
        image.save(out, format="PNG", optimize=True)
        return out.getvalue()
    finally:
        doc.close()


def standings_png(img: StandingsImage) -> bytes:
    return png(standings_pdf(img))


def match_png(img: MatchImage) -> bytes:
    return png(match_pdf(img))


def rows_of(items: Sequence[tuple[Any, Any, Any, Any]]) -> tuple[ImageRow, ...]:
    return tuple(ImageRow(str(a), str(b), str(c), str(d)) for a, b, c, d in items)
