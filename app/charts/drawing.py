"""A chart as a reportlab ``Drawing``: drawn into the PDFs and rendered to the phone-sized PNGs,
from the same scene as the SVG on the page."""

from __future__ import annotations

from reportlab.graphics.shapes import Circle, Drawing, Line, Path, PolyLine, Rect, String
from reportlab.lib.colors import HexColor

from .scene import Chart


def _font() -> str:
    from ..printing.layout import FONT, _ensure_font

    _ensure_font()
    return FONT


def render(chart: Chart, scale: float = 1.0) -> Drawing:
    c = chart
    font = _font()
    h = c.height
    d = Drawing(c.width * scale, c.height * scale)

    def Y(y: float) -> float:  # noqa: N802 - screen y (top 0) to reportlab's (bottom 0)
        return (h - y) * scale

    def X(x: float) -> float:  # noqa: N802
        return x * scale

    grey = HexColor("#dddddd")
    ink = HexColor("#555555")
    d.add(String(X(c.left), Y(20), c.title, fontName=font, fontSize=14 * scale))
    x0, x1 = c.px(c.x_min), c.px(c.x_max)
    for value, text in c.y_ticks:
        y = c.py(value)
        d.add(Line(X(x0), Y(y), X(x1), Y(y), strokeColor=grey, strokeWidth=1 * scale))
        d.add(
            String(
                X(x0 - 6),
                Y(y + 4),
                text,
                fontName=font,
                fontSize=11 * scale,
                textAnchor="end",
                fillColor=ink,
            )
        )
    base = c.height - c.bottom
    for value, text in c.x_labels:
        d.add(
            String(
                X(c.px(value)),
                Y(base + 16),
                text,
                fontName=font,
                fontSize=11 * scale,
                textAnchor="middle",
                fillColor=ink,
            )
        )
    for s in c.series:
        color = HexColor(s.color)
        pts = c.path(s)
        if len(pts) >= 2:
            flat: list[float] = []
            for x, y in pts:
                flat += [X(x), Y(y)]
            d.add(PolyLine(flat, strokeColor=color, strokeWidth=2.5 * scale))
        for x, y in s.points:
            d.add(Circle(X(c.px(x)), Y(c.py(y)), 2.5 * scale, fillColor=color, strokeColor=color))
        for m in s.marks:
            mx, my = X(c.px(m.x)), Y(c.py(m.y) - 8)
            d.add(_mark(m.kind, mx, my, color, scale))
    lx, ly = float(c.left), float(c.height - 12)
    for s in c.series:
        d.add(
            Rect(
                X(lx),
                Y(ly - 5),
                12 * scale,
                4 * scale,
                fillColor=HexColor(s.color),
                strokeColor=None,
            )
        )
        d.add(String(X(lx + 16), Y(ly - 4), s.name, fontName=font, fontSize=11 * scale))
        lx += c.legend_step(s.name)
    for kind, words in c.legend:
        d.add(_mark(kind, X(lx + 5), Y(ly - 1), HexColor("#333333"), scale))
        d.add(String(X(lx + 14), Y(ly - 4), words, fontName=font, fontSize=11 * scale))
        lx += c.legend_step(words)
    return d


def _mark(kind: str, x: float, y: float, color: object, scale: float) -> object:
    s = scale
    p = Path(strokeColor=color, strokeWidth=1.5 * s, fillColor=None)
    if kind == "takeover":
        p.fillColor = color
        p.moveTo(x - 5 * s, y)
        p.lineTo(x, y + 7 * s)
        p.lineTo(x + 5 * s, y)
        p.closePath()
    elif kind == "failed_throw":
        p.moveTo(x - 4 * s, y + 4 * s)
        p.lineTo(x + 4 * s, y - 4 * s)
        p.moveTo(x + 4 * s, y + 4 * s)
        p.lineTo(x - 4 * s, y - 4 * s)
    elif kind == "kitty":
        return Circle(x, y, 5 * s, strokeColor=color, strokeWidth=1.5 * s, fillColor=None)
    else:  # passed: a star
        p.fillColor = color
        for i, (dx, dy) in enumerate(
            [
                (0, 7),
                (2, 2),
                (7, 2),
                (3, -1),
                (5, -6),
                (0, -3),
                (-5, -6),
                (-3, -1),
                (-7, 2),
                (-2, 2),
            ]
        ):
            (p.moveTo if i == 0 else p.lineTo)(x + dx * s, y + dy * s)
        p.closePath()
    return p
