"""Lists drawn as tables over pages (pairings, standings)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.variants import CLIMBING, RED_FIVE

from .checks import _Table
from .frame import _footer, _Frame
from .layout import GREY, ROW_SHADE, SHADE, _clean, _Pen, _width
from .model import PrintError
from .words import _SIDE_LONG, _signed

# --------------------------------------------------------------------------------------------
# Lists: pairings and standings
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _ListCol:
    zh: str
    en: str
    weight: float
    align: str = "left"


_Cell = tuple[str, str]  # main text, small second line ("" for none)


def _draw_list(
    pen: _Pen,
    fr: _Frame,
    title: tuple[str, str],
    subtitle: str,
    cols: Sequence[_ListCol],
    rows: Sequence[Sequence[_Cell]],
    foot: str,
    after: Callable[[float], float] | None = None,
    big: bool = False,
) -> int:
    """A paginated list with the column heads repeated on each page; returns pages drawn."""
    total_w = sum(c.weight for c in cols)
    widths = [fr.inner * c.weight / total_w for c in cols]
    main_size = 12.0 if big else 10.0
    row_hs = [
        (main_size * 2.05 + 8) if any(cell[1] for cell in row) else (main_size + 12) for row in rows
    ]
    head_block = 58.0
    col_head = 26.0
    avail = fr.top - fr.bottom - 6 - head_block - col_head
    pages: list[list[int]] = [[]]
    used = 0.0
    for i, rh in enumerate(row_hs):
        if used + rh > avail and pages[-1]:
            pages.append([])
            used = 0.0
        pages[-1].append(i)
        used += rh
    n_pages = len(pages)
    for p, idxs in enumerate(pages):
        y = fr.top
        pen.text(fr.left, y - 18, title[0], 18, bold=True)
        pen.text(fr.left + _width(title[0], 18) + 8, y - 18, title[1], 12)
        pen.fit(fr.left, y - 36, fr.inner, subtitle, 10, color=GREY)
        y -= head_block
        x = fr.left
        for c, w in zip(cols, widths, strict=True):
            pen.rect(x, y, w, col_head, fill=SHADE, width=0.7)
            ax = {"left": x + 5, "center": x + w / 2, "right": x + w - 5}[c.align]
            pen.text(ax, y - 11, c.zh, 8.5, bold=True, align=c.align)
            pen.text(ax, y - 21, c.en, 6.5, align=c.align, color=GREY)
            x += w
        y -= col_head
        for k, i in enumerate(idxs):
            rh = row_hs[i]
            if k % 2 == 1:
                pen.rect(fr.left, y, fr.inner, rh, fill=ROW_SHADE, stroke=False)
            pen.line(fr.left, y, fr.right, y, 0.4)
            pen.line(fr.left, y - rh, fr.right, y - rh, 0.4)
            x = fr.left
            for c, w, (main, sub) in zip(cols, widths, rows[i], strict=True):
                fx = x + 5
                base = y - main_size - 3 if sub else y - rh / 2 - main_size * 0.35
                pen.fit(fx, base, w - 10, main, main_size, bold=c.weight >= 2, align=c.align)
                if sub:
                    pen.fit(
                        fx,
                        base - main_size - 2,
                        w - 10,
                        sub,
                        main_size * 0.75,
                        align=c.align,
                        color=GREY,
                    )
                x += w
            y -= rh
        if after is not None and p == n_pages - 1:
            after(y)
        _footer(pen, fr, foot, p + 1, n_pages)
        pen.c.showPage()
    return n_pages


def _pairings_rows(tables: Sequence[_Table]) -> tuple[list[_ListCol], list[list[_Cell]]]:
    if not tables:
        return [_ListCol("桌", "Table", 0.6, "center")], []
    first = tables[0]
    cols = [_ListCol("桌", "Table", 0.6, "center")]
    rows: list[list[_Cell]] = []
    if first.fixed:
        n = first.players
        for side in (0, 1):
            seats = "·".join(str(i + 1) for i in range(side, n, 2))
            cols.append(_ListCol(_SIDE_LONG[side], f"seats {seats}", 4.0))
        for t in tables:
            row: list[_Cell] = [(str(t.table), "")]
            for side in (0, 1):
                players = " · ".join(t.seats[i] for i in range(side, t.players, 2))
                row.append((t.sides[side], players))
            rows.append(row)
    else:
        most = max(t.players for t in tables)  # 争上游: 3 to 6 a table
        for i in range(most):
            cols.append(_ListCol(f"座{i + 1}", f"Seat {i + 1}", 2.0))
        for t in tables:
            names = list(t.seats) + [""] * (most - t.players)
            rows.append([(str(t.table), "")] + [(name, "") for name in names])
    return cols, rows


_STANDING_COLS: dict[str, _ListCol] = {
    "rank": _ListCol("名次", "Rank", 0.7, "center"),
    "entrant": _ListCol("参赛者", "Entrant", 4.2),
    "played": _ListCol("场数", "Played", 0.9, "right"),
    "match_points": _ListCol("场分", "Match points", 1.2, "right"),
    "level_diff": _ListCol("级差", "Level diff.", 1.1, "right"),
    "opponents_points": _ListCol("对手分", "Opp. points", 1.2, "right"),
    "deals": _ListCol("局数", "Deals", 0.9, "right"),
    "score": _ListCol("积分", "Score", 1.1, "right"),
    "dealer_wins": _ListCol("庄胜", "Dealer wins", 1.2, "right"),
    "wins": _ListCol("上游", "Deals won", 1.2, "right"),
    "unit_diff": _ListCol("分差", "Units diff.", 1.1, "right"),
    "declarer_wins": _ListCol("庄家方胜", "Declarer side wins", 1.4, "right"),
}
_DEFAULT_STANDING_COLS = {
    "fixed": ("rank", "entrant", "played", "match_points", "level_diff", "opponents_points"),
    RED_FIVE: ("rank", "entrant", "deals", "score", "dealer_wins"),
    CLIMBING: ("rank", "entrant", "deals", "score", "wins"),
    # 打百分: pair events rank by match points then 分差, individual events by 积分
    "hundred-pairs": ("rank", "entrant", "played", "match_points", "unit_diff", "opponents_points"),
    "hundred": ("rank", "entrant", "deals", "score", "declarer_wins"),
}


def _standing_cell(key: str, value: Any, row_no: int) -> str:
    if key == "entrant":
        return _clean(value, f"standings row {row_no}: entrant")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PrintError(f"standings row {row_no}: {key} must be a number, not {value!r}")
    if key in ("level_diff", "unit_diff", "score"):
        return _signed(int(value)) if float(value).is_integer() else f"{value:+g}"
    return f"{value:g}" if isinstance(value, float) else str(value)
