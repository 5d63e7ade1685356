"""Duplicate (复式) paper: the hand records of the boards, and the travellers.

* ``hand_records(doc)``: a page (or half a page, ``per_page=2``) per board: each seat's cards
  sorted by suit (trumps are not known before the calls), the kitty, the seat that draws
  first, and optionally the draw order (for clubs that deal by drawing). After the session the
  same pages carry every table's result and the bots' par for the board.
* ``travellers(doc)``: a slip per board (two to a page), a row per table that plays it, on
  which each table writes its result: the declaring side and the attackers' points (red five:
  each seat's 积分 change), and the initials of both sides.

Takes the plain dataclasses below (the tournament code maps boards and results into them) and
returns PDF bytes. Seats are numbered from 0 in the data and printed from 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.variants import RED_FIVE, make_variant

from .frame import _footer, _Frame, _new_canvas
from .layout import GREY, ROW_SHADE, SHADE, _clean, _page_size, _Pen, _wrap_items
from .model import PrintError
from .words import _SIDE, _SIDE_LONG, _card_text, _check_variant, _variant_label

_SUITS = (("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣"), ("J", "王"))


@dataclass(frozen=True)
class BoardResult:
    """One table's result on a board. Fixed sides: ``names`` (side 0, side 1), the declaring
    side, the attackers' total and side 0's value; red five: ``names`` by seat and each seat's
    积分 change in ``scores``. ``note``: e.g. the matchpoints and percentage."""

    table: int
    names: tuple[str, ...]
    declarer: int | None = None
    total: int | None = None
    value0: int | None = None
    scores: tuple[int, ...] | None = None
    note: str = ""


@dataclass(frozen=True)
class HandRecord:
    board: int
    hands: tuple[tuple[str, ...], ...]  # per seat, card strings ("10S", "HJ" …)
    kitty: tuple[str, ...]
    first_drawer: int
    level: str = "2"
    cut_card: str | None = None  # 120分: the card turned after the cut
    draws: tuple[str, ...] = ()  # the cards in draw order (from the first drawer on)
    par: float | None = None  # fixed sides: the bots' mean value for side 0
    par_scores: tuple[float, ...] | None = None  # red five: the bots' mean 积分 per seat
    par_plays: int = 0
    results: tuple[BoardResult, ...] = ()


@dataclass(frozen=True)
class HandRecords:
    event: str
    variant: str
    records: tuple[HandRecord, ...]
    club: str = ""
    date: str = ""
    show_draws: bool = False
    per_page: int = 1


@dataclass(frozen=True)
class TravellerRow:
    table: int
    round: int | None = None
    names: tuple[str, ...] = ()  # fixed sides: (side 0, side 1); red five: by seat


@dataclass(frozen=True)
class Travellers:
    event: str
    variant: str
    boards: tuple[tuple[int, tuple[TravellerRow, ...]], ...]  # (board, its tables)
    club: str = ""
    date: str = ""


# --- checks -------------------------------------------------------------------------------------


def _int(v: object, what: str, low: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise PrintError(f"{what} must be a whole number from {low}, not {v!r}")
    return v


def _players(variant: str) -> int:
    return make_variant(variant, {}).players


def _check_records(doc: HandRecords) -> tuple[str, int]:
    if not isinstance(doc, HandRecords):
        raise PrintError(f"expected HandRecords, not {doc!r}")
    variant = _check_variant(doc.variant)
    n = _players(variant)
    if doc.per_page not in (1, 2):
        raise PrintError(f"per_page must be 1 or 2, not {doc.per_page!r}")
    if not doc.records:
        raise PrintError("no boards to print")
    seen: set[int] = set()
    for r in doc.records:
        b = _int(r.board, "the board number", 1)
        if b in seen:
            raise PrintError(f"board {b} is given twice")
        seen.add(b)
        if len(r.hands) != n:
            raise PrintError(f"board {b} must give {n} hands, not {len(r.hands)}")
        if not 0 <= _int(r.first_drawer, f"board {b}: the first drawer") < n:
            raise PrintError(f"board {b}: the first drawer must be a seat from 0 to {n - 1}")
        for res in r.results:
            _int(res.table, f"board {b}: the table number", 1)
    return variant, n


# --- hand records -------------------------------------------------------------------------------


def _suit_lines(hand: Sequence[str]) -> list[tuple[str, str]]:
    by: dict[str, list[str]] = {s: [] for s, _ in _SUITS}
    for card in hand:
        c = _clean(card, "a card").upper()
        key = "J" if c in ("HJ", "LJ") else c[-1:]
        if key not in by:
            raise PrintError(f"unknown card {card!r}")
        by[key].append("大" if c == "HJ" else "小" if c == "LJ" else c[:-1])
    return [(sign, " ".join(by[s]) if by[s] else "—") for s, sign in _SUITS]


def _seat_label(variant: str, seat: int) -> str:
    label = f"座{seat + 1} Seat {seat + 1}"
    return label if variant == RED_FIVE else f"{label} · {_SIDE[seat % 2]}"


def _par_text(variant: str, r: HandRecord) -> str:
    if variant == RED_FIVE:
        if r.par_scores is None:
            return ""
        scores = "  ".join(f"座{i + 1} {s:+.1f}" for i, s in enumerate(r.par_scores))
        return f"电脑标准 Par ({r.par_plays} 次 plays): {scores}"
    if r.par is None:
        return ""
    return f"电脑标准 Par ({r.par_plays} 次 plays): 甲方 side A {r.par:+.1f}"


def _draw_record(
    pen: _Pen, fr: _Frame, variant: str, n: int, r: HandRecord, y_top: float, h: float, show: bool
) -> None:
    x, w = fr.left, fr.inner
    y = y_top
    pen.text(x, y - 16, f"第 {r.board} 副  Board {r.board}", 16, bold=True)
    facts = [_variant_label(variant), f"打 {r.level} level {r.level}"]
    facts.append(f"先摸 first to draw: 座{r.first_drawer + 1} Seat {r.first_drawer + 1}")
    if r.cut_card:
        facts.append(f"翻牌 cut card: {_card_text(r.cut_card)}")
    pen.fit(x + 150, y - 14, w - 150, "  ·  ".join(facts), 8, color=GREY, align="right")
    y -= 26
    # the hands: two columns of seat boxes
    cols = 2
    rows = -(-n // cols)
    size = 9.0 if h > 500 else 7.5
    line_h = size * 1.45
    # a suit of many cards may wrap inside its box: estimate the lines of each box
    box_w = (w - 8) / cols
    boxes = []
    for seat in range(n):
        lines: list[tuple[str, str]] = []
        for sign, cards in _suit_lines(r.hands[seat]):
            wrapped = _wrap_items(cards.split(" "), box_w - 30, size, sep=" ")
            for i, part in enumerate(wrapped or ["—"]):
                lines.append((sign if i == 0 else "", part))
        boxes.append(lines)
    box_h = max(len(b) for b in boxes) * line_h + 18
    for seat in range(n):
        col, row = seat % cols, seat // cols
        bx = x + col * (box_w + 8)
        by = y - row * (box_h + 6)
        fill = (1.0, 1.0, 1.0) if variant == RED_FIVE or seat % 2 == 0 else ROW_SHADE
        pen.rect(bx, by, box_w, box_h, fill=fill, width=0.7)
        pen.text(bx + 4, by - 10, _seat_label(variant, seat), 7, color=GREY)
        pen.text(
            bx + box_w - 4, by - 10, f"{len(r.hands[seat])} 张 cards", 7, color=GREY, align="right"
        )
        ly = by - 12 - line_h
        for sign, text in boxes[seat]:
            if sign:
                pen.text(bx + 6, ly, sign, size, bold=True)
            pen.text(bx + 22, ly, text, size)
            ly -= line_h
    y -= rows * (box_h + 6) + 4
    kitty = " ".join(_card_text(c) for c in r.kitty) if r.kitty else "无 none"
    for line in _wrap_items([f"底牌 Kitty ({len(r.kitty)}): {kitty}"], w, 8.5):
        pen.text(x, y - 9, line, 8.5)
        y -= 12
    if show and r.draws:
        pen.text(
            x,
            y - 9,
            f"摸牌顺序 Draw order (from seat {r.first_drawer + 1} round the table)",
            7.5,
            color=GREY,
        )
        y -= 11
        rounds = [
            f"{i // n + 1}: " + " ".join(_card_text(c) for c in r.draws[i : i + n])
            for i in range(0, len(r.draws), n)
        ]
        for line in _wrap_items(rounds, w, 6.5, sep="   "):
            pen.text(x, y - 8, line, 6.5)
            y -= 9
    par = _par_text(variant, r)
    if par:
        pen.text(x, y - 10, par, 8.5, bold=True)
        y -= 14
    if r.results:
        _draw_results(pen, x, w, y - 2, variant, n, r.results, y_top - h)


def _draw_results(
    pen: _Pen,
    x: float,
    w: float,
    y: float,
    variant: str,
    n: int,
    results: Sequence[BoardResult],
    bottom: float,
) -> None:
    if variant == RED_FIVE:
        heads = ["桌 Table"] + [f"座{i + 1}" for i in range(n)] + ["说明 Note"]
        weights = [0.7] + [1.6] * n + [1.6]
    else:
        heads = [
            "桌 Table",
            _SIDE_LONG[0],
            _SIDE_LONG[1],
            "庄 Declarer",
            "闲家得分 Attackers",
            "甲方值 Value A",
            "说明 Note",
        ]
        weights = [0.7, 2.2, 2.2, 1.0, 1.2, 1.1, 1.6]
    tw = sum(weights)
    widths = [w * k / tw for k in weights]
    row_h = 12.0 if variant != RED_FIVE else 20.0
    pen.rect(x, y, w, 13, fill=SHADE, width=0.5)
    cx = x
    for head, cw in zip(heads, widths, strict=True):
        pen.fit(cx + 2, y - 9.5, cw - 4, head, 7, bold=True)
        cx += cw
    y -= 13
    for res in sorted(results, key=lambda t: t.table):
        if y - row_h < bottom:
            pen.text(x, y - 9, "…", 8, color=GREY)
            return
        if variant == RED_FIVE:
            cells = [str(res.table)]
            for i in range(n):
                name = _clean(res.names[i], "a name") if i < len(res.names) else ""
                score = "" if res.scores is None else f"{res.scores[i]:+d}"
                cells.append(f"{name}\n{score}")
            cells.append(_clean(res.note, "a note"))
        else:
            names = [_clean(s, "a name") for s in res.names] + ["", ""]
            cells = [
                str(res.table),
                names[0],
                names[1],
                "" if res.declarer is None else _SIDE[res.declarer],
                "" if res.total is None else str(res.total),
                "" if res.value0 is None else f"{res.value0:+d}",
                _clean(res.note, "a note"),
            ]
        cx = x
        pen.line(x, y - row_h, x + w, y - row_h, width=0.3)
        for cell, cw in zip(cells, widths, strict=True):
            first, _, second = cell.partition("\n")
            pen.fit(cx + 2, y - 9, cw - 4, first, 7.5)
            if second:
                pen.fit(cx + 2, y - 17, cw - 4, second, 7.5, bold=True)
            cx += cw
        y -= row_h


def hand_records(doc: HandRecords, page_size: str = "A4") -> bytes:
    variant, n = _check_records(doc)
    event = _clean(doc.event, "event")
    club = _clean(doc.club, "club")
    date = _clean(doc.date, "date")
    size = _page_size(page_size)
    fr = _Frame(*size)
    c, buf = _new_canvas(size, f"牌例 Hand records · {event}")
    pen = _Pen(c)
    records = sorted(doc.records, key=lambda r: r.board)
    per = doc.per_page
    pages = -(-len(records) // per)
    head = " · ".join(p for p in (event, club, date) if p)
    for p in range(pages):
        top = fr.top
        pen.fit(fr.left, top - 8, fr.inner, f"牌例 Hand records · {head}", 8, color=GREY)
        avail = fr.top - fr.bottom - 16
        h = avail / per
        for i, r in enumerate(records[p * per : (p + 1) * per]):
            y = top - 16 - i * h
            if i:
                pen.line(fr.left, y + 4, fr.right, y + 4, width=0.4)
            _draw_record(pen, fr, variant, n, r, y, h - 8, doc.show_draws)
        _footer(pen, fr, f"牌例 Hand records · {event}", p + 1, pages)
        c.showPage()
    c.save()
    return buf.getvalue()


# --- travellers ---------------------------------------------------------------------------------


def _check_travellers(doc: Travellers) -> tuple[str, int]:
    if not isinstance(doc, Travellers):
        raise PrintError(f"expected Travellers, not {doc!r}")
    variant = _check_variant(doc.variant)
    if not doc.boards:
        raise PrintError("no boards to print travellers for")
    seen: set[int] = set()
    for b, rows in doc.boards:
        _int(b, "the board number", 1)
        if b in seen:
            raise PrintError(f"board {b} is given twice")
        seen.add(b)
        if not rows:
            raise PrintError(f"board {b} has no tables")
        for row in rows:
            _int(row.table, f"board {b}: the table number", 1)
    return variant, _players(variant)


def _draw_traveller(
    pen: _Pen,
    fr: _Frame,
    variant: str,
    n: int,
    board: int,
    rows: Sequence[TravellerRow],
    y_top: float,
    h: float,
    head: str,
) -> None:
    x, w = fr.left, fr.inner
    pen.text(x, y_top - 16, f"第 {board} 副  Board {board}", 15, bold=True)
    pen.text(x + w, y_top - 12, "记分条 Traveller", 11, bold=True, align="right")
    pen.fit(x, y_top - 28, w, head, 7.5, color=GREY)
    if variant == RED_FIVE:
        heads = ["桌 Table", "轮 Round"] + [f"座{i + 1} 积分" for i in range(n)] + ["签名 Initials"]
        weights = [0.8, 0.8] + [1.5] * n + [1.6]
        how = (
            "每座填本副积分变化（合计为 0） Each seat's 积分 change on the board (they add up to 0)"
        )
    else:
        heads = [
            "桌 Table",
            "轮 Round",
            _SIDE_LONG[0],
            _SIDE_LONG[1],
            "庄家方 Declarer 甲/乙",
            "闲家得分 Attackers' points",
            "签名 Initials",
        ]
        weights = [0.7, 0.7, 2.0, 2.0, 1.3, 1.5, 1.4]
        how = (
            "填庄家方和闲家得分（含抠底和罚分） The declaring side and the attackers' total "
            "(kitty and penalties included) · 复式牌不许暴动/拒打 No redeal or refusal"
        )
    pen.fit(x, y_top - 39, w, how, 7.5)
    tw = sum(weights)
    widths = [w * k / tw for k in weights]
    y = y_top - 46
    head_h = 22.0
    pen.rect(x, y, w, head_h, fill=SHADE, width=0.6)
    cx = x
    for text, cw in zip(heads, widths, strict=True):
        pen.block(cx + 2, y - 1, cw - 4, head_h - 2, text, 7.5, bold=True)
        cx += cw
    y -= head_h
    row_h = min(24.0, max(14.0, (h - 70) / max(1, len(rows))))
    for row in sorted(rows, key=lambda r: (r.round or 0, r.table)):
        if y - row_h < y_top - h:
            raise PrintError(f"board {board} has more tables than fit on its traveller")
        pen.rect(x, y, w, row_h, width=0.5)
        cx = x
        names = [_clean(s, "a name") for s in row.names]
        cells = [str(row.table), "" if row.round is None else str(row.round)]
        if variant != RED_FIVE:
            cells += (names + ["", ""])[:2]
        cells += [""] * (len(heads) - len(cells))
        for i, (cell, cw) in enumerate(zip(cells, widths, strict=True)):
            if i:
                pen.line(cx, y, cx, y - row_h, width=0.4)
            pen.fit(cx + 3, y - row_h / 2 - 3, cw - 6, cell, 8)
            cx += cw
        y -= row_h
    if variant == RED_FIVE and any(r.names for r in rows):
        # who sat where, under the slip (the 积分 boxes are for numbers)
        lines = [
            f"第 {r.table} 桌: "
            + ", ".join(f"座{i + 1} {_clean(s, 'a name')}" for i, s in enumerate(r.names))
            for r in rows
            if r.names
        ]
        for line in _wrap_items(lines, w, 6.5, sep="   "):
            if y - 10 < y_top - h:
                break
            pen.text(x, y - 9, line, 6.5, color=GREY)
            y -= 9


def event_line(doc: Any, variant: str) -> str:
    """The line under a slip's or card's title: the event, the club, the date, the game (the
    travellers' and the team scorecards'; ``doc`` has ``event``, ``club`` and ``date``)."""
    parts = (
        _clean(doc.event, "event"),
        _clean(doc.club, "club"),
        _clean(doc.date, "date"),
        _variant_label(variant),
    )
    return " · ".join(p for p in parts if p)


def travellers(doc: Travellers, page_size: str = "A4") -> bytes:
    variant, n = _check_travellers(doc)
    event = _clean(doc.event, "event")
    head = event_line(doc, variant)
    size = _page_size(page_size)
    fr = _Frame(*size)
    c, buf = _new_canvas(size, f"记分条 Travellers · {event}")
    pen = _Pen(c)
    boards = sorted(doc.boards, key=lambda b: b[0])
    per = 2 if all(len(rows) <= 12 for _, rows in boards) else 1
    pages = -(-len(boards) // per)
    avail = fr.top - fr.bottom
    for p in range(pages):
        for i, (b, rows) in enumerate(boards[p * per : (p + 1) * per]):
            y = fr.top - i * avail / per
            if i:
                pen.c.setDash(3, 3)
                pen.line(fr.left, y + 6, fr.right, y + 6, width=0.4)
                pen.c.setDash()
            _draw_traveller(pen, fr, variant, n, b, rows, y, avail / per - 12, head)
        _footer(pen, fr, f"记分条 Travellers · {event}", p + 1, pages)
        c.showPage()
    c.save()
    return buf.getvalue()
