"""A season's standings (A4 / Letter), with its chart of the season night by night."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reportlab.graphics import renderPDF

from .frame import _Frame, _new_canvas
from .layout import _clean, _page_size, _Pen
from .lists import _Cell, _draw_list, _ListCol
from .model import PrintError

SEASON_COLS = (
    _ListCol("名次", "Rank", 0.7, "right"),
    _ListCol("选手", "Player", 3.4),
    _ListCol("场次", "Nights", 0.9, "right"),
    _ListCol("得分", "Score", 1.1, "right"),
    _ListCol("级差", "Level diff.", 1.1, "right"),
)


@dataclass(frozen=True)
class SeasonStandings:
    """Rows as ``flask season standings --json`` prints them (with ``division``: grouped, a
    title row before each division); ``rule`` in words; ``chart`` an
    optional reportlab Drawing (app.charts.drawing) put under the table."""

    season: str
    club: str
    rule: str
    rows: tuple[Mapping[str, Any], ...]
    chart: Any = None


def season_standings(doc: SeasonStandings, page_size: str = "A4") -> bytes:
    if not isinstance(doc, SeasonStandings):
        raise PrintError(f"expected SeasonStandings, not {doc!r}")
    rows: list[list[_Cell]] = []
    heading: object = object()
    for n, row in enumerate(doc.rows, start=1):
        if not isinstance(row, Mapping):
            raise PrintError(f"season row {n} must be an object, not {row!r}")
        if "division" in row and row["division"] != heading:  # each division apart, titled
            heading = row["division"]
            name = _clean(heading, f"season row {n}: division") if heading else "无分级 No division"
            rows.append([("", ""), (f"【{name}】", ""), ("", ""), ("", ""), ("", "")])
        rank = row.get("rank")
        diff = int(row.get("level_diff", 0))
        rows.append(
            [
                ("–" if rank is None else str(rank), ""),
                (_clean(row.get("player", ""), f"season row {n}: player"), ""),
                (str(int(row.get("nights", 0))), ""),
                (_number(row.get("score", 0)), ""),
                (f"{diff:+d}" if diff else "0", ""),
            ]
        )
    season = _clean(doc.season, "season")
    subtitle = " · ".join(p for p in (_clean(doc.club, "club"), _clean(doc.rule, "rule")) if p)
    size = _page_size(page_size)
    c, buf = _new_canvas(size, f"赛季排名 Season standings · {season}")
    fr = _Frame(*size)

    def chart_after(y: float) -> float:
        d = doc.chart
        if d is None:
            return y
        scale = min(1.0, fr.inner / d.width)
        h = d.height * scale
        if y - h - 10 < fr.bottom:
            return y
        d.scale(scale, scale)
        renderPDF.draw(d, c, fr.left, y - h - 6)
        return y - h - 10

    _draw_list(
        _Pen(c),
        fr,
        ("赛季排名", "Season standings"),
        f"{season} · {subtitle}" if subtitle else season,
        SEASON_COLS,
        rows,
        f"赛季排名 Season standings · {season}",
        after=chart_after,
        big=True,
    )
    c.save()
    return buf.getvalue()


def _number(v: object) -> str:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise PrintError(f"a score must be a number, not {v!r}")
    return str(v) if isinstance(v, int) or not float(v).is_integer() else str(int(v))
