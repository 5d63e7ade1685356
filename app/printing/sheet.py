"""The score sheet (记分表): blank or filled, per variant."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.hundred_rules import is_family as is_hundred
from engine.hundred_rules import make_hundred_variant
from engine.variants import CLIMBING, RED_FIVE, TRACTOR, make_variant

from .checks import _check_deal, _check_level, _check_table, _Table
from .frame import _footer, _Frame, _new_canvas, _seat_diagram
from .layout import GREY, LIGHT, ROW_SHADE, SHADE, _clean, _page_size, _Pen, _width, _wrap_items
from .model import (
    ClimbingDeal,
    Deal,
    FixedDeal,
    HundredDeal,
    PrintError,
    RedFiveDeal,
    ScoreSheet,
)
from .words import (
    _SIDE,
    _SIDE_LONG,
    _SUIT_SIGNS,
    _card_text,
    _match_kind,
    _match_words,
    _option_words,
    _penalty_catalogue,
    _penalty_cell,
    _preset_words,
    _signed,
    _trump_text,
    _variant_label,
)

# --------------------------------------------------------------------------------------------
# Score sheet
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Col:
    key: str
    zh: str
    en: str
    weight: float
    hint: str = ""  # light text in an empty cell, to circle or fill in


def _climbing_columns(t: _Table, options: Mapping[str, Any]) -> list[_Col]:
    """争上游: each seat's place, the tribute paid before the deal (when the rules pay one),
    take-backs, then each seat's points by place (printed on a filled sheet, worked out by hand
    on a blank one)."""
    n = t.players
    cols = [_Col("no", "局", "No.", 0.5)]
    cols += [_Col(f"place{i}", f"座{i + 1} 名次", t.seats[i], 1.0) for i in range(n)]
    if options.get("tribute", True):
        cols += [
            _Col("tr_from", "进贡 从座", "Tribute from", 0.8, "座"),
            _Col("tr_to", "给座", "to seat", 0.65, "座"),
            _Col("tr_card", "贡牌", "Card", 0.85),
        ]
    cols.append(_Col("pen", "罚则", "Penalties", 0.9, "悔牌 座"))
    cols += [_Col(f"p{i}", f"座{i + 1} 得分", "Points", 0.75) for i in range(n)]
    return cols


def _hundred_columns(t: _Table, options: Mapping[str, Any]) -> list[_Col]:
    """打百分 (HUNDRED.md §8): the declarer's seat, the bid (40分下台: the turned card), trump,
    the friend card and the friend (friend modes), the attackers' points, 抠底, the buried cards'
    points, penalties, the result, then each seat's units (a pair event: each side's)."""
    cols = [_Col("no", "局", "No.", 0.5), _Col("decl", "庄家", "Declarer", 0.7, "座")]
    if t.variant == "forty-4p":
        cols.append(_Col("bid", "翻牌", "Turned", 0.8))
    else:
        cols.append(_Col("bid", "叫分", "Bid", 0.7))
    cols.append(_Col("trump", "主", "Trump", 0.95, "♠ ♥ ♦ ♣"))
    if options.get("friend", "fixed") != "fixed" and t.variant == "hundred-4p":
        cols += [
            _Col("card", "叫牌", "Friend card", 0.8),
            _Col("friend", "朋友", "Friend", 0.75, "座 / 独"),
        ]
    cols += [
        _Col("points", "闲家得分", "Points", 0.85),
        _Col("koudi", "抠底", "Last trick", 0.65, "是 / 否"),
        _Col("kitty", "底分", "Buried", 0.65),
        _Col("pen", "罚则", "Penalties", 0.95, "庄     闲"),
        _Col("result", "结果", "Result", 1.0, "庄 · 闲  分"),
    ]
    if t.fixed:
        cols += [_Col(f"s{i}", f"{_SIDE[i]} 分", "Units", 0.8) for i in range(2)]
    else:
        cols += [_Col(f"s{i}", f"座{i + 1}", t.seats[i], 0.8) for i in range(t.players)]
    return cols


def _hundred_cells(d: HundredDeal, pairs: bool) -> dict[str, str]:
    cells = {
        "decl": str(d.declarer + 1),
        "bid": _card_text(d.turned) if d.turned else ("" if d.bid is None else str(d.bid)),
        "trump": _SUIT_SIGNS[d.trump],
        "card": _card_text(d.friend_card) if d.friend_card else "",
        "friend": "独 alone" if d.friend is None else str(d.friend + 1),
        "points": "—" if d.points is None else str(d.points),
        "koudi": "是 yes" if d.kou_di else "",
        "kitty": "" if d.kitty is None else str(d.kitty),
        "pen": _penalty_cell(d.penalties, d.warnings, fixed=True),
    }
    if d.winner is not None and d.units is not None:
        cells["result"] = f"{'庄' if d.winner == 'declarer' else '闲'} {d.units}"
    if d.scores is not None:
        shown = d.scores[:2] if pairs else d.scores
        for i, v in enumerate(shown):
            cells[f"s{i}"] = _signed(v)
    return cells


def _sheet_columns(t: _Table, options: Mapping[str, Any]) -> list[_Col]:
    if is_hundred(t.variant):
        return _hundred_columns(t, options)
    if t.variant == CLIMBING:
        return _climbing_columns(t, options)
    if t.variant == RED_FIVE:
        cols = [
            _Col("no", "局", "No.", 0.55),
            _Col("dealer", "庄家", "Dealer", 0.75),
            _Col("card", "叫牌", "Called", 0.8),
            _Col("friend", "伴", "Friend", 0.75),
            _Col("trump", "主", "Trump", 0.95, "♠ ♥ ♦ ♣"),
            _Col("points", "得分", "Points", 0.8),
            _Col("kitty", "底分×倍", "Kitty×", 0.95, "×"),
            _Col("total", "合计", "Total", 0.8),
            _Col("units", "级数", "Units", 0.9, "庄 · 闲"),
        ]
        cols += [_Col(f"s{i}", f"座{i + 1}", t.seats[i], 0.95) for i in range(5)]
        cols.append(_Col("throws", "甩牌失败", "Failed thr.", 0.95))
        cols.append(_Col("pen", "罚则", "Penalties", 1.2, "座"))
        return cols
    cols = [
        _Col("no", "局", "No.", 0.5),
        _Col("decl", "庄家方", "Declarer", 0.95, "甲A  乙B"),
        _Col("trump", "主", "Trump", 1.05, "♠ ♥ ♦ ♣ 无"),
        _Col("level", "级", "Level", 0.65),
        _Col("points", "得分", "Points", 0.8),
    ]
    if t.variant != TRACTOR or options.get("decks", 2) != 4:
        cols.append(_Col("kitty", "底分×倍", "Kitty × mult.", 1.05, "×"))
    if t.variant == TRACTOR:
        cols.append(_Col("throws", "甩牌失败", "Failed throws", 1.0, "庄     闲"))
    else:
        cols.append(_Col("misplays", "吃苍蝇", "Misplays", 1.0, "甲     乙"))
    cols += [
        _Col("pen", "罚则", "Penalties", 1.2, "庄     闲"),
        _Col("total", "合计", "Total", 0.75),
        _Col("change", "升级", "Level change", 1.15),
        _Col("new0", "甲A 级", "new level", 0.75),
        _Col("new1", "乙B 级", "new level", 0.75),
    ]
    return cols


def _fixed_cells(d: FixedDeal) -> dict[str, str]:
    cells = {
        "decl": _SIDE[d.declarer],
        "trump": _trump_text(d.trump),
        "level": d.level,
        "points": str(d.points),
        "kitty": (f"{d.kitty} × {d.multiplier}" if d.multiplier else str(d.kitty)),
        "total": "" if d.total is None else str(d.total),
    }
    dt, at = d.failed_throws
    cells["throws"] = f"{dt}  /  {at}" if dt or at else ""
    cells["misplays"] = " ".join(_SIDE[s] for s in d.misplays)
    cells["pen"] = _penalty_cell(d.penalties, d.warnings, fixed=True)
    if d.winner is not None:
        change = _SIDE[d.winner]
        if d.winner != d.declarer:
            change += " 上台"
        if d.gain is not None and (d.gain or d.winner == d.declarer):
            change += f" +{d.gain}"
        if d.passed_a:
            change += " 过A"
        cells["change"] = change
    if d.levels is not None:
        cells["new0"], cells["new1"] = d.levels
    return cells


def _red_five_cells(d: RedFiveDeal) -> dict[str, str]:
    cells = {
        "dealer": str(d.dealer + 1),
        "card": _card_text(d.called_card) if d.called_card else "",
        "friend": "独 alone" if d.friend is None else str(d.friend + 1),
        "trump": _SUIT_SIGNS[d.trump],
        "points": str(d.points),
        "kitty": (f"{d.kitty} × {d.multiplier}" if d.multiplier else str(d.kitty)),
        "total": "" if d.total is None else str(d.total),
        "throws": ",".join(str(s + 1) for s in d.failed_throws),
        "pen": _penalty_cell(d.penalties, d.warnings, fixed=False),
    }
    if d.friend_grabbed:
        cells["friend"] += " 抢伴"
    if d.units is not None and d.dealer_side_won is not None:
        cells["units"] = ("庄 " if d.dealer_side_won else "闲 ") + str(d.units)
    if d.scores is not None:
        for i, v in enumerate(d.scores):
            cells[f"s{i}"] = _signed(v)
    return cells


def _climbing_cells(d: ClimbingDeal) -> dict[str, str]:
    cells = {f"place{i}": str(p) for i, p in enumerate(d.places)}
    if d.tribute is not None:
        giver, receiver, card = d.tribute
        cells["tr_from"] = str(giver + 1)
        cells["tr_to"] = str(receiver + 1)
        cells["tr_card"] = _card_text(card)
    else:
        cells["tr_from"] = cells["tr_to"] = cells["tr_card"] = "—"
    cells["pen"] = _penalty_cell(d.penalties, d.warnings, fixed=False)
    if d.scores is not None:
        for i, v in enumerate(d.scores):
            cells[f"p{i}"] = str(v)
    return cells


def _deal_cells(d: Deal, t: _Table) -> dict[str, str]:
    if isinstance(d, HundredDeal):
        return _hundred_cells(d, t.fixed)
    if isinstance(d, ClimbingDeal):
        return _climbing_cells(d)
    if isinstance(d, RedFiveDeal):
        return _red_five_cells(d)
    return _fixed_cells(d)


def _rules_line(variant: str, options: Mapping[str, Any]) -> list[str]:
    """The rules in force on the sheet: the options, then the penalty catalogue."""
    return _option_words(variant, options) + _penalty_catalogue(variant, options)


ROW_H = 20.0
MAX_ROW_H = 27.0
MIN_ROW_H = 17.0
HEAD_H = 27.0


@dataclass(frozen=True)
class _SheetPlan:
    rows_per_page: tuple[int, ...]

    @property
    def pages(self) -> int:
        return len(self.rows_per_page)


class _SheetLayout:
    """Geometry of one score sheet: heights of its parts for a page size."""

    def __init__(
        self,
        t: _Table,
        fr: _Frame,
        options: Mapping[str, Any],
        preset: str = "",
        match: Mapping[str, Any] | None = None,
    ) -> None:
        self.t = t
        self.fr = fr
        self.options = options
        self.option_words = _preset_words(preset, match or {}) + _rules_line(t.variant, options)
        self.rules_lines = _wrap_items(self.option_words, fr.inner - 70, 7.2)
        self.title_h = 44.0
        self.info_h = 30.0
        self.rules_h = 8.0 + len(self.rules_lines) * 9.0
        self.seats_h = 168.0 if t.players == 6 else 150.0
        self.first_head = self.title_h + self.info_h + 6 + self.rules_h + 8 + self.seats_h + 10
        self.cont_head = 52.0
        self.end_h = 96.0 if t.fixed else 86.0  # final line / total row + signatures
        self.body = fr.top - fr.bottom - 6

    def avail(self, first: bool, last: bool) -> float:
        """Height left for deal rows on a page."""
        avail = self.body - (self.first_head if first else self.cont_head) - HEAD_H
        return avail - self.end_h if last else avail

    def capacity(self, first: bool, last: bool) -> int:
        return max(1, int(self.avail(first, last) // ROW_H))

    def plan(self, rows: int) -> _SheetPlan:
        """Rows per page; the signatures go on the last page, which holds at least one row."""
        pages: list[int] = []
        remaining = rows
        first = True
        while True:
            if remaining <= self.capacity(first, True):
                pages.append(remaining)
                return _SheetPlan(tuple(pages))
            take = min(self.capacity(first, False), remaining - 1)
            pages.append(take)
            remaining -= take
            first = False

    def fill_pages(self, rows: int) -> int:
        """The smallest number of rows ≥ ``rows`` that fills every page it needs."""
        if rows <= self.capacity(True, True):
            return self.capacity(True, True)
        total = self.capacity(True, False)
        while True:
            if rows - total <= self.capacity(False, True):
                return total + self.capacity(False, True)
            total += self.capacity(False, False)


def _planned_rows(layout: _SheetLayout, match: Mapping[str, Any], recorded: int) -> int:
    """Deal rows to print: n for ``deals: n``; for a time limit (a deal takes at least about
    5 minutes) or a game to A (rarely under 25 deals), whole pages."""
    kind, n = _match_kind(match)
    if kind == "deals":
        return max(n, recorded)
    target = max(math.ceil(n / 5) if kind == "minutes" else 25, recorded)
    if target * MIN_ROW_H <= layout.avail(True, True):
        return max(target, layout.capacity(True, True))
    return layout.fill_pages(target)


@dataclass(frozen=True)
class _Sheet:
    t: _Table
    options: dict[str, Any]
    match: Mapping[str, Any]
    start_levels: tuple[str, str]
    deals: tuple[Deal, ...]
    filled: bool
    entry_code: str
    finished: bool
    preset: str = ""


def _check_sheet(sheet: ScoreSheet, filled: bool) -> _Sheet:
    if not isinstance(sheet, ScoreSheet):
        raise PrintError(f"expected a ScoreSheet, not {sheet!r}")
    where = f"table {sheet.table}"
    t = _check_table(sheet, where)
    try:
        if is_hundred(t.variant):
            rules = make_hundred_variant(t.variant, sheet.options)
            options = dict(rules.options)
            if rules.fixed_pairs != t.fixed:
                raise PrintError(
                    f"{where}: {t.variant} with these options is played by "
                    + (
                        "two pairs: give the sides"
                        if rules.fixed_pairs
                        else "individuals: no sides"
                    )
                )
        else:
            options = dict(make_variant(t.variant, sheet.options).options)
    except EngineError as exc:
        raise PrintError(f"{where}: {exc}") from exc
    _match_kind(sheet.match)
    if len(sheet.start_levels) != 2:
        raise PrintError(f"{where}: start_levels must be the two sides' levels")
    start = (
        _check_level(sheet.start_levels[0], f"{where}: start level"),
        _check_level(sheet.start_levels[1], f"{where}: start level"),
    )
    for i, deal in enumerate(sheet.deals):
        _check_deal(deal, t.variant, i, where, t.players)
    return _Sheet(
        t,
        options,
        sheet.match,
        start,
        tuple(sheet.deals) if filled else (),
        filled,
        _clean(sheet.entry_code, f"{where}: entry code"),
        bool(sheet.finished),
        _clean(sheet.preset, f"{where}: preset"),
    )


def _draw_sheet(pen: _Pen, fr: _Frame, s: _Sheet) -> int:
    """Draw one score sheet (one or more pages, each ended); returns the number of pages."""
    t = s.t
    layout = _SheetLayout(t, fr, s.options, s.preset, s.match)
    cols = _sheet_columns(t, s.options)
    total_w = sum(col.weight for col in cols)
    widths = [fr.inner * col.weight / total_w for col in cols]
    rows = _planned_rows(layout, s.match, len(s.deals))
    if rows * MIN_ROW_H <= layout.avail(True, True):  # one page, rows as tall as it allows
        plan = _SheetPlan((rows,))
        row_h = min(MAX_ROW_H, layout.avail(True, True) / rows)
    else:
        plan = layout.plan(rows)
        row_h = ROW_H
    cells = [_deal_cells(d, t) for d in s.deals]
    foot = (
        f"记分表 Score sheet · {t.tournament} · 第 {t.round} 轮 Round {t.round}"
        f" · 第 {t.table} 桌 Table {t.table}"
    )
    row_no = 0
    for page, count in enumerate(plan.rows_per_page):
        first, last = page == 0, page == plan.pages - 1
        y = fr.top
        y = _sheet_head(pen, fr, s, layout) if first else _sheet_cont_head(pen, fr, s)
        y = _sheet_table_head(pen, fr, cols, widths, y)
        for _ in range(count):
            x = fr.left
            values = cells[row_no] if row_no < len(cells) else {}
            if row_no % 2 == 1:
                pen.rect(fr.left, y, fr.inner, row_h, fill=ROW_SHADE, stroke=False)
            base = y - row_h / 2 - 3.2
            for col, w in zip(cols, widths, strict=True):
                pen.rect(x, y, w, row_h, width=0.5)
                if col.key == "no":
                    pen.text(x + w / 2, base, str(row_no + 1), 8.5, align="center")
                elif col.key in values and values[col.key]:
                    pen.fit(x + 2, base, w - 4, values[col.key], 9.5, align="center")
                elif row_no == 0 and col.key.startswith("tr_") and not cells:
                    pen.fit(x + 2, base, w - 4, "—", 8, align="center", color=LIGHT)
                elif col.hint and row_no >= len(cells):
                    pen.fit(x + 2, base, w - 4, col.hint, 6.5, align="center", color=LIGHT)
                x += w
            y -= row_h
            row_no += 1
        if last:
            _sheet_end(pen, fr, s, cols, widths, y)
        _footer(pen, fr, foot, page + 1, plan.pages)
        pen.c.showPage()
    return plan.pages


def _sheet_head(pen: _Pen, fr: _Frame, s: _Sheet, layout: _SheetLayout) -> float:
    t = s.t
    y = fr.top
    # title band: title left, table number box right
    box_w = 170.0 if s.entry_code else 118.0
    pen.text(fr.left, y - 20, "记分表", 20, bold=True)
    pen.text(fr.left + _width("记分表", 20) + 8, y - 20, "Score sheet", 13)
    pen.fit(fr.left, y - 38, fr.inner - box_w - 10, t.tournament, 12.5, bold=True)
    bx = fr.right - box_w
    pen.rect(bx, y, box_w, 44, width=1.4)
    pen.text(bx + 7, y - 12, "桌号 Table", 7.5, color=GREY)
    pen.fit(fr.right - 78, y - 38, 70, str(t.table), 26, bold=True, align="right")
    if s.entry_code:
        pen.text(bx + 7, y - 27, "录入码 Entry code", 6.5, color=GREY)
        pen.fit(bx + 7, y - 38, box_w - 90, s.entry_code, 9.5, bold=True)
    y -= layout.title_h + 4
    # info cells
    info = [
        ("俱乐部 Club", t.club, 2.2),
        ("轮次 Round", str(t.round), 0.8),
        ("玩法 Variant", _variant_label(t.variant), 2.1),
        ("赛制 Match", _match_words(s.match), 1.4),
        ("日期 Date", t.date, 1.1),
    ]
    tw = sum(i[2] for i in info)
    x = fr.left
    for label, value, weight in info:
        w = fr.inner * weight / tw
        pen.rect(x, y, w, layout.info_h, width=0.6)
        pen.text(x + 3, y - 8.5, label, 6.5, color=GREY)
        pen.fit(x + 3, y - 24, w - 6, value, 10.5, bold=True)
        x += w
    y -= layout.info_h + 6
    # rules in force
    pen.rect(fr.left, y, fr.inner, layout.rules_h, width=0.6)
    pen.text(fr.left + 4, y - 10, "规则 Rules", 7.5, bold=True)
    ly = y - 10
    for line in layout.rules_lines:
        pen.text(fr.left + 64, ly, line, 7.2)
        ly -= 9.0
    y -= layout.rules_h + 8
    # seats: diagram left, entrants right
    dw = 292.0
    _seat_diagram(pen, t, fr.left, y, dw, layout.seats_h)
    bx, bw = fr.left + dw + 10, fr.inner - dw - 10
    if t.fixed:
        half = (layout.seats_h - 6) / 2
        for side in (0, 1):
            top = y - side * (half + 6)
            pen.rect(bx, top, bw, half, width=0.8, fill=(1, 1, 1) if side == 0 else (0.96,) * 3)
            seats = " · ".join(str(i + 1) for i in range(side, t.players, 2))
            pen.text(bx + 5, top - 12, _SIDE_LONG[side], 9.5, bold=True)
            pen.fit(bx + 50, top - 12, bw - 55, f"座 {seats} Seats {seats}", 7, color=GREY)
            pen.block(bx + 5, top - 16, bw - 10, 17, t.sides[side], 11, bold=True, align="left")
            names = " · ".join(t.seats[i] for i in range(side, t.players, 2))
            pen.block(bx + 5, top - 34, bw - 10, half - 58, names, 8, align="left", valign="top")
            if is_hundred(t.variant):  # no levels: units by the bid, 分差 breaks ties
                continue
            pen.text(bx + 5, top - half + 9, "起始级 Start level", 7.5, color=GREY)
            lx = bx + bw - 42
            pen.rect(lx, top - half + 24, 36, 20, width=0.8)
            pen.text(lx + 18, top - half + 9, s.start_levels[side], 12, bold=True, align="center")
    else:
        h = layout.seats_h
        pen.rect(bx, y, bw, h, width=0.8)
        pen.text(bx + 5, y - 12, "座位 Seats", 9.5, bold=True)
        ly = y - 28
        for i, name in enumerate(t.seats):
            pen.text(bx + 5, ly, f"座{i + 1}", 8.5, color=GREY)
            pen.fit(bx + 32, ly, bw - 38, name, 10, bold=True)
            ly -= 19
        if t.variant == CLIMBING:
            note = "按名次得分排名，再比上游次数 Players rank by points by place, then deals won (上游)"
        elif is_hundred(t.variant):
            note = (
                "按积分排名，再比庄家方胜局 Players rank by 积分, then deals won as declarer's side"
            )
        else:
            note = "级数固定打 2，按积分排名 Level stays 2; players rank by 积分 (score)"
        pen.block(
            bx + 5,
            ly + 4,
            bw - 10,
            22,
            note,
            7,
            align="left",
            valign="top",
            color=GREY,
        )
    return y - layout.seats_h - 10


def _sheet_cont_head(pen: _Pen, fr: _Frame, s: _Sheet) -> float:
    t = s.t
    y = fr.top
    pen.text(fr.left, y - 16, "记分表（续）", 15, bold=True)
    pen.text(fr.left + _width("记分表（续）", 15) + 6, y - 16, "Score sheet, continued", 10)
    pen.text(
        fr.right,
        y - 16,
        f"第 {t.table} 桌 Table {t.table} · 第 {t.round} 轮 Round {t.round}",
        11,
        bold=True,
        align="right",
    )
    if t.fixed:
        legend = f"甲A = {t.sides[0]}    乙B = {t.sides[1]}"
    else:
        legend = "    ".join(f"座{i + 1} {n}" for i, n in enumerate(t.seats))
    pen.fit(fr.left, y - 32, fr.inner, t.tournament, 9, color=GREY)
    pen.fit(fr.left, y - 45, fr.inner, legend, 9)
    return y - 52


def _sheet_table_head(
    pen: _Pen, fr: _Frame, cols: list[_Col], widths: list[float], y: float
) -> float:
    x = fr.left
    for col, w in zip(cols, widths, strict=True):
        pen.rect(x, y, w, HEAD_H, fill=SHADE, width=0.7)
        pen.fit(x + 1.5, y - 11, w - 3, col.zh, 8.5, bold=True, align="center")
        pen.fit(x + 1.5, y - 21.5, w - 3, col.en, 6.3, align="center", color=GREY)
        x += w
    return y - HEAD_H


def _sheet_end(
    pen: _Pen, fr: _Frame, s: _Sheet, cols: list[_Col], widths: list[float], y: float
) -> None:
    t = s.t
    y -= 8
    if t.fixed and not is_hundred(t.variant):
        final = ("", "")
        passed = False
        if s.deals:
            last = s.deals[-1]
            assert isinstance(last, FixedDeal)
            final = last.levels or ("", "")
            passed = last.passed_a
        kind, n = _match_kind(s.match)
        done = passed or s.finished or (kind == "deals" and len(s.deals) >= n)
        if s.deals and not done:  # an unfinished match: the levels so far
            pen.text(fr.left, y - 8, f"第 {len(s.deals)} 局后", 8.5, bold=True)
            pen.text(fr.left, y - 17, f"after deal {len(s.deals)}", 6.5, color=GREY)
        else:
            pen.text(fr.left, y - 13, "终局 Final", 9.5, bold=True)
        x = fr.left + 62
        for side in (0, 1):
            pen.text(x, y - 13, f"{_SIDE[side]} 级 level", 8.5)
            pen.rect(x + 62, y - 1, 34, 18, width=0.8)
            pen.text(x + 79, y - 13, final[side], 11, bold=True, align="center")
            x += 112
        pen.text(x, y - 13, "过A passed A:", 8.5)
        pen.rect(x + 58, y - 4, 11, 11, width=0.8)
        if passed:
            pen.text(x + 63.5, y - 13, "✓", 9, align="center")
        pen.text(x + 82, y - 13, "胜方 Winner:", 8.5)
        pen.line(x + 136, y - 15, fr.right, y - 15, 0.5)
        y -= 26
        labels = [
            "甲方队长签名 Captain, side A",
            "乙方队长签名 Captain, side B",
            "裁判签名 Table director",
        ]
    else:
        # total row of the five seats' score changes
        x = fr.left
        sums: dict[str, str] = {}
        climbing = t.variant == CLIMBING
        sum_key = "p" if climbing else "s"
        scored = [
            d.scores for d in s.deals if isinstance(d, (RedFiveDeal, ClimbingDeal, HundredDeal))
        ]
        if s.deals and len(scored) == len(s.deals) and all(scored):
            for i in range(2 if t.fixed else t.players):  # 打百分's pairs: sides A and B
                total = sum(sc[i] for sc in scored if sc)
                sums[f"{sum_key}{i}"] = str(total) if climbing else _signed(total)
        y += 8
        label_w = 0.0
        for col, w in zip(cols, widths, strict=True):
            if col.key.startswith(sum_key) and col.key[1:].isdigit():
                pen.rect(x, y, w, ROW_H, width=0.9, fill=SHADE)
                pen.fit(
                    x + 2,
                    y - ROW_H + 6,
                    w - 4,
                    sums.get(col.key, ""),
                    10,
                    bold=True,
                    align="center",
                )
            elif col.key == "throws":
                pass
            else:
                label_w += w
            x += w
        pen.rect(fr.left, y, label_w, ROW_H, width=0.9, fill=SHADE)
        pen.text(
            fr.left + label_w - 6,
            y - ROW_H + 6.5,
            "得分合计 Points total"
            if climbing
            else ("分数合计 Units total" if t.fixed else "积分合计 Score total"),
            9,
            bold=True,
            align="right",
        )
        y -= ROW_H + 12
        labels = [f"座{i + 1} 签名 Seat {i + 1}" for i in range(t.players)] + ["裁判 Director"]
        if t.fixed:  # 打百分's pairs
            labels = [
                "甲方队长签名 Captain, side A",
                "乙方队长签名 Captain, side B",
                "裁判签名 Table director",
            ]
    n = len(labels)
    gap = 8.0
    w = (fr.inner - gap * (n - 1)) / n
    h = 52.0
    x = fr.left
    for label in labels:
        pen.rect(x, y, w, h, width=0.8)
        pen.fit(x + 4, y - 10, w - 8, label, 7.5, color=GREY)
        x += w + gap


def score_sheet(sheet: ScoreSheet, filled: bool = False, page_size: str = "A4") -> bytes:
    """A table's 记分表; ``filled`` prints the recorded deals in the rows (else blank rows)."""
    checked = _check_sheet(sheet, filled)
    size = _page_size(page_size)
    c, buf = _new_canvas(size, f"记分表 Score sheet - table {checked.t.table}")
    _draw_sheet(_Pen(c), _Frame(*size), checked)
    c.save()
    return buf.getvalue()
