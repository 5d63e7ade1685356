"""Table cards, with a QR code per seat for an online table, and for a paper table one QR code of
its score-entry page (the table-code page), so the players at the table enter their deals from a
phone without typing the code."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .checks import _check_table, _Table
from .frame import _Frame, _new_canvas, _seat_diagram
from .layout import GREY, _page_size, _Pen
from .model import PrintError, ScoreSheet, TableCard
from .words import _SIDE_LONG

# --------------------------------------------------------------------------------------------
# Table cards
# --------------------------------------------------------------------------------------------


def _draw_table_card(pen: _Pen, fr: _Frame, t: _Table, y_top: float, h: float) -> None:
    """One table card in the box from ``y_top`` down ``h`` points (a page or half a page). An
    online table's card also has a QR code per seat, under the seat diagram; a paper table's,
    the QR code of its score-entry page."""
    full = h > (fr.top - fr.bottom) * 0.75
    s = 1.0 if full else 0.72
    x, w = fr.left, fr.inner
    pen.rect(x, y_top, w, h, width=1.6)
    pen.fit(x + 14, y_top - 22 * s, w * 0.62, t.tournament, 14 * s, bold=True)
    if t.club:
        pen.fit(x + 14, y_top - 37 * s, w * 0.62, t.club, 9 * s, color=GREY)
    pen.text(x + w - 14, y_top - 22 * s, f"第 {t.round} 轮", 14 * s, bold=True, align="right")
    pen.text(x + w - 14, y_top - 37 * s, f"Round {t.round}", 10 * s, align="right")
    if t.date:
        pen.text(x + w - 14, y_top - 50 * s, t.date, 8 * s, align="right", color=GREY)
    # the number, as large as the box allows (smaller when the seats' QR codes need room)
    n_codes = len(t.links) or (1 if t.entry_url else 0)
    big = (210.0 if full else 105.0) * ((0.62 if full else 0.45) if n_codes else 1.0)
    label_y = y_top - (64 if full else 36)
    pen.text(x + w / 2, label_y, "桌号 Table", 18 * s, align="center", color=GREY)
    pen.fit(x + 20, label_y - 8 - big * 0.74, w - 40, str(t.table), big, bold=True, align="center")
    y = label_y - 16 - big * 0.74
    sides_h = (58 * s) if t.fixed else 0.0
    room = y - (y_top - h) - sides_h - 12 * s
    codes = None
    if n_codes:  # the codes take what they need, up to about half the room
        codes = _plan_codes(n_codes, w - 28, room * (0.52 if full else 0.45) - 10 * s, s)
        room -= codes.height + 10 * s
    dw = w - 30
    dh = min(room, dw * (0.7 if full else 0.42))
    _seat_diagram(
        pen,
        t,
        x + (w - dw) / 2,
        y - (room - dh) / 2,
        dw,
        dh,
        scale=1.75 if full else 1.15,
        box_w=96 if full else 90,
    )
    if codes is not None and t.links:
        _seat_codes(pen, t, codes, x + 14, y - room - 10 * s, w - 28, s)
    elif codes is not None:
        _entry_code(pen, t.entry_url, codes, x + 14, y - room - 10 * s, w - 28, s)
    y = (y_top - h) + sides_h + 6 * s
    if t.fixed:
        for side in (0, 1):
            seats = "·".join(str(i + 1) for i in range(side, t.players, 2))
            pen.text(x + 20, y - 16 * s, _SIDE_LONG[side], 13 * s, bold=True)
            pen.text(x + 20, y - 26 * s, f"座 {seats} seats", 7.5 * s, color=GREY)
            pen.fit(x + 20 + 70 * s, y - 17 * s, w - 40 - 70 * s, t.sides[side], 15 * s, bold=True)
            y -= 27 * s


@dataclass(frozen=True)
class _CodesPlan:
    side: float  # one code's width and height, quiet zone included
    per_row: int
    rows: int
    label_h: float
    gap: float

    @property
    def height(self) -> float:
        return self.rows * (self.side + self.label_h) + (self.rows - 1) * self.gap


def _plan_codes(n: int, w: float, h: float, s: float) -> _CodesPlan:
    """The seats' QR codes in a box ``w`` wide and at most ``h`` high: one row, or two when
    that makes them larger (at most 150 points a side)."""
    label_h, gap = 24 * s, 12 * s
    best: _CodesPlan | None = None
    for per_row in sorted({n, math.ceil(n / 2)}):
        rows = math.ceil(n / per_row)
        side = min(
            150 * s,
            (w - gap * (per_row - 1)) / per_row,
            (h - rows * label_h - (rows - 1) * gap) / rows,
        )
        if best is None or side > best.side:
            best = _CodesPlan(side, per_row, rows, label_h, gap)
    assert best is not None
    return best


def _seat_codes(
    pen: _Pen, t: _Table, plan: _CodesPlan, x: float, y_top: float, w: float, s: float
) -> None:
    """The seats' QR codes from ``y_top`` down, centred in ``w``; each labelled with its seat
    and who opens it (the member who logs in, or anyone who scans a guest's code)."""
    n, side, gap = t.players, plan.side, plan.gap
    for i, link in enumerate(t.links):
        r, col = divmod(i, plan.per_row)
        in_row = min(plan.per_row, n - r * plan.per_row)
        qx = x + (w - (in_row * side + (in_row - 1) * gap)) / 2 + col * (side + gap)
        qy = y_top - r * (side + plan.label_h + gap) - side
        pen.qr(link.url, qx, qy, side)
        pen.fit(
            qx - gap / 2,
            qy - 10 * s,
            side + gap,
            f"座{i + 1} Seat {i + 1} · {t.seats[i]}",
            8 * s,
            bold=True,
            align="center",
        )
        note = f"登录 log in: {link.member}" if link.member else "扫码入座 scan to play"
        pen.fit(qx - gap / 2, qy - 20 * s, side + gap, note, 6.5 * s, align="center", color=GREY)


def _entry_code(
    pen: _Pen, url: str, plan: _CodesPlan, x: float, y_top: float, w: float, s: float
) -> None:
    """A paper table's one QR code, of its score-entry page, centred in ``w`` from ``y_top``
    down, with what it is for in both languages."""
    side = plan.side
    qx, qy = x + (w - side) / 2, y_top - side
    pen.qr(url, qx, qy, side)
    label = "扫码记分 Scan to enter this table's scores"
    pen.fit(x, qy - 10 * s, w, label, 8 * s, bold=True, align="center")
    pen.fit(x, qy - 20 * s, w, url, 6.5 * s, align="center", color=GREY)


def table_cards(
    cards: Sequence[TableCard | ScoreSheet], page_size: str = "A4", per_page: int = 1
) -> bytes:
    """Table cards in table order: one per page, or two per page (``per_page=2``)."""
    if per_page not in (1, 2):
        raise PrintError(f"per_page must be 1 or 2, not {per_page!r}")
    tables = sorted(
        (_check_table(card, f"card {i + 1}") for i, card in enumerate(cards)),
        key=lambda t: t.table,
    )
    if not tables:
        raise PrintError("no table cards to print")
    size = _page_size(page_size)
    c, buf = _new_canvas(size, "桌卡 Table cards")
    pen, fr = _Pen(c), _Frame(*size)
    _draw_cards(pen, fr, tables, per_page)
    c.save()
    return buf.getvalue()


def _draw_cards(pen: _Pen, fr: _Frame, tables: Sequence[_Table], per_page: int) -> None:
    full = fr.top - fr.bottom
    if per_page == 1:
        for t in tables:
            _draw_table_card(pen, fr, t, fr.top, full)
            pen.c.showPage()
        return
    half = (full - 24) / 2
    for k in range(0, len(tables), 2):
        _draw_table_card(pen, fr, tables[k], fr.top, half)
        if k + 1 < len(tables):
            pen.c.setDash(4, 3)
            pen.line(fr.left - 20, fr.top - half - 12, fr.right + 20, fr.top - half - 12, 0.5)
            pen.c.setDash()
            _draw_table_card(pen, fr, tables[k + 1], fr.top - half - 24, half)
        pen.c.showPage()
