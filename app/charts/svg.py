"""A chart as an SVG string for the pages (server-rendered, no script, text escaped)."""

from __future__ import annotations

from markupsafe import Markup, escape

from .scene import Chart

MARK_SHAPES = {
    "takeover": "M{x},{y} m-5,0 l5,-7 l5,7 z",  # a triangle: the other side comes to the stage
    "failed_throw": "M{x},{y} m-4,-4 l8,8 m0,-8 l-8,8",  # a cross
    "kitty": "M{x},{y} m-5,0 a5,5 0 1,0 10,0 a5,5 0 1,0 -10,0",  # a ring: 抠底
    "passed": "M{x},{y} m0,-7 l2,5 l5,0 l-4,3 l2,5 l-5,-3 l-5,3 l2,-5 l-4,-3 l5,0 z",  # a star
}


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def render(chart: Chart, label: str | None = None) -> Markup:
    """The SVG element (safe to put in a template as it is)."""
    c = chart
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {c.width} {c.height}" '
        f'class="chart" role="img" aria-label="{escape(label or c.title)}">',
        f"<title>{escape(c.title)}</title>",
        f'<text x="{c.left}" y="20" class="chart-title" font-size="14" font-weight="bold">'
        f"{escape(c.title)}</text>",
    ]
    x0, x1 = c.px(c.x_min), c.px(c.x_max)
    for value, text in c.y_ticks:
        y = c.py(value)
        out.append(
            f'<line x1="{_n(x0)}" y1="{_n(y)}" x2="{_n(x1)}" y2="{_n(y)}" stroke="#ddd" '
            'stroke-width="1"/>'
        )
        out.append(
            f'<text x="{_n(x0 - 6)}" y="{_n(y + 4)}" font-size="11" text-anchor="end" '
            f'fill="#555">{escape(text)}</text>'
        )
    base = c.height - c.bottom
    for value, text in c.x_labels:
        x = c.px(value)
        out.append(
            f'<text x="{_n(x)}" y="{_n(base + 16)}" font-size="11" text-anchor="middle" '
            f'fill="#555">{escape(text)}</text>'
        )
    for s in c.series:
        pts = c.path(s)
        if len(pts) >= 2:
            d = "M" + " L".join(f"{_n(x)},{_n(y)}" for x, y in pts)
            out.append(
                f'<path d="{d}" fill="none" stroke="{s.color}" stroke-width="2.5" '
                f'class="series" data-name="{escape(s.name)}" data-points="{len(s.points)}"/>'
            )
        for x, y in s.points:
            out.append(f'<circle cx="{_n(c.px(x))}" cy="{_n(c.py(y))}" r="2.5" fill="{s.color}"/>')
        for m in s.marks:
            shape = MARK_SHAPES.get(m.kind)
            if shape is None:
                continue
            d = shape.format(x=_n(c.px(m.x)), y=_n(c.py(m.y) - 8))
            fill = "none" if m.kind in ("failed_throw", "kitty") else s.color
            out.append(
                f'<path d="{d}" fill="{fill}" stroke="{s.color}" stroke-width="1.5" '
                f'class="mark mark-{m.kind}"><title>{escape(m.label)}</title></path>'
            )
    # legend: series, then marks
    lx, ly = c.left, c.height - 12
    for s in c.series:
        out.append(f'<rect x="{_n(lx)}" y="{_n(ly - 9)}" width="12" height="4" fill="{s.color}"/>')
        out.append(
            f'<text x="{_n(lx + 16)}" y="{_n(ly - 4)}" font-size="11">{escape(s.name)}</text>'
        )
        lx += c.legend_step(s.name)
    for kind, words in c.legend:
        shape = MARK_SHAPES.get(kind)
        if shape is None:
            continue
        d = shape.format(x=_n(lx + 5), y=_n(ly - 1))
        out.append(f'<path d="{d}" fill="none" stroke="#333" stroke-width="1.2"/>')
        out.append(
            f'<text x="{_n(lx + 14)}" y="{_n(ly - 4)}" font-size="11">{escape(words)}</text>'
        )
        lx += c.legend_step(words)
    out.append("</svg>")
    return Markup("".join(out))
