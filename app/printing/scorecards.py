"""Duplicate team match scorecards (队式记分卡): a card per team match (two to a page), a row
per board of the match, on which the captains compare their two tables: side A's value at
each table, the difference for team A and the IMPs each way, then the match's IMP totals and
VPs (DUPLICATE.md). Printed blank for pencil, or filled with the results recorded so far.

Takes the plain dataclasses below and returns PDF bytes. A team match puts team A's first half
in side A (甲) at its first table and team B's second half in side A at its second table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.variants import RED_FIVE

from .frame import _footer, _Frame, _new_canvas
from .hand_records import event_line
from .layout import GREY, SHADE, _clean, _page_size, _Pen
from .model import PrintError
from .words import _SIDE_LONG, _check_variant


@dataclass(frozen=True)
class ScorecardBoard:
    board: int
    values: tuple[int | None, int | None] = (None, None)  # side A's value at each table
    imps: tuple[int, int] | None = None  # (team A, team B), once both tables have it


@dataclass(frozen=True)
class TeamScorecard:
    round: int
    match: int
    teams: tuple[str, str]  # (A, B)
    tables: tuple[int, int]  # the match's two table numbers
    halves: tuple[tuple[str, str], tuple[str, str]]  # (side A, side B) at each table
    boards: tuple[ScorecardBoard, ...]
    imps: tuple[int, int] | None = None  # the match's totals, once a board is in
    vps: tuple[float, float] | None = None  # once every board of the match is in


@dataclass(frozen=True)
class TeamScorecards:
    event: str
    variant: str
    cards: tuple[TeamScorecard, ...]
    club: str = ""
    date: str = ""


def _check(doc: TeamScorecards) -> str:
    if not isinstance(doc, TeamScorecards):
        raise PrintError(f"expected TeamScorecards, not {doc!r}")
    variant = _check_variant(doc.variant)
    if variant == RED_FIVE:
        raise PrintError("red five has no team matches")
    if not doc.cards:
        raise PrintError("no team matches to print scorecards for")
    seen: set[tuple[int, int]] = set()
    for card in doc.cards:
        key = (card.round, card.match)
        if key in seen:
            raise PrintError(f"round {card.round}, match {card.match} is given twice")
        seen.add(key)
        if not card.boards:
            raise PrintError(f"round {card.round}, match {card.match} has no boards")
        if len(card.teams) != 2 or len(card.tables) != 2 or len(card.halves) != 2:
            raise PrintError(f"round {card.round}, match {card.match}: two teams at two tables")
    return variant


def _signed(x: int | None) -> str:
    return "" if x is None else f"{x:+d}"


def _draw_card(
    pen: _Pen, fr: _Frame, card: TeamScorecard, y_top: float, h: float, head: str
) -> None:
    x, w = fr.left, fr.inner
    a, b = (_clean(t, "a team") for t in card.teams)
    pen.text(
        x,
        y_top - 16,
        f"第 {card.round} 轮 第 {card.match} 场  Round {card.round}, match {card.match}",
        13,
        bold=True,
    )
    pen.text(x + w, y_top - 12, "队式记分卡 Team match scorecard", 11, bold=True, align="right")
    pen.fit(x, y_top - 28, w, head, 7.5, color=GREY)
    pen.fit(x, y_top - 42, w, f"A: {a}  —  B: {b}", 11, bold=True)
    seats = "   ".join(
        f"第 {t} 桌 Table {t}: {_SIDE_LONG[0]} {_clean(s0, 'a name')} · {_SIDE_LONG[1]} {_clean(s1, 'a name')}"
        for t, (s0, s1) in zip(card.tables, card.halves, strict=True)
    )
    pen.fit(x, y_top - 54, w, seats, 7.5)
    how = (
        "每副填两桌甲方的分值；差 = 第一桌 − 第二桌（正数：A 队好），按 IMP 表换算 "
        "Side A's value at each table; difference = first table − second table (positive: "
        "team A did better), converted to IMPs"
    )
    pen.fit(x, y_top - 65, w, how, 7)
    t1, t2 = card.tables
    heads = [
        "副 Board",
        f"第 {t1} 桌甲方值 Table {t1} value A",
        f"第 {t2} 桌甲方值 Table {t2} value A",
        "差 Difference",
        "A 队 IMPs",
        "B 队 IMPs",
    ]
    weights = [0.8, 1.6, 1.6, 1.1, 1.0, 1.0]
    tw = sum(weights)
    widths = [w * k / tw for k in weights]
    y = y_top - 72
    head_h = 22.0
    pen.rect(x, y, w, head_h, fill=SHADE, width=0.6)
    cx = x
    for text, cw in zip(heads, widths, strict=True):
        pen.block(cx + 2, y - 1, cw - 4, head_h - 2, text, 7.5, bold=True)
        cx += cw
    y -= head_h
    rows: list[list[str]] = []
    for bd in sorted(card.boards, key=lambda r: r.board):
        v1, v2 = bd.values
        diff = None if v1 is None or v2 is None else v1 - v2
        rows.append(
            [
                str(bd.board),
                _signed(v1),
                _signed(v2),
                _signed(diff),
                "" if bd.imps is None else str(bd.imps[0]),
                "" if bd.imps is None else str(bd.imps[1]),
            ]
        )
    total = ["" if card.imps is None else str(card.imps[i]) for i in (0, 1)]
    rows.append(["合计 IMPs", "", "", "", *total])
    vps = ["" if card.vps is None else f"{card.vps[i]:.2f}" for i in (0, 1)]
    rows.append(["胜利分 VPs", "", "", "", *vps])
    row_h = min(20.0, max(13.0, (h - 110) / max(1, len(rows))))
    for i, cells in enumerate(rows):
        if y - row_h < y_top - h + 20:
            raise PrintError(
                f"round {card.round}, match {card.match} has more boards than fit on its card"
            )
        last = i >= len(rows) - 2
        pen.rect(x, y, w, row_h, fill=SHADE if last else None, width=0.5)
        cx = x
        for j, (cell, cw) in enumerate(zip(cells, widths, strict=True)):
            if j:
                pen.line(cx, y, cx, y - row_h, width=0.4)
            pen.fit(cx + 3, y - row_h / 2 - 3, cw - 6, cell, 8.5, bold=last)
            cx += cw
        y -= row_h
    pen.fit(x, y - 16, w, "队长签名 Captains' initials:  A ________    B ________", 8)


def team_scorecards(doc: TeamScorecards, page_size: str = "A4") -> bytes:
    variant = _check(doc)
    event = _clean(doc.event, "event")
    head = event_line(doc, variant)
    size = _page_size(page_size)
    fr = _Frame(*size)
    c, buf = _new_canvas(size, f"队式记分卡 Team match scorecards · {event}")
    pen = _Pen(c)
    cards: Sequence[TeamScorecard] = sorted(doc.cards, key=lambda k: (k.round, k.match))
    per = 2 if all(len(k.boards) <= 8 for k in cards) else 1
    pages = -(-len(cards) // per)
    avail = fr.top - fr.bottom
    for p in range(pages):
        for i, card in enumerate(cards[p * per : (p + 1) * per]):
            y = fr.top - i * avail / per
            if i:
                pen.c.setDash(3, 3)
                pen.line(fr.left, y + 6, fr.right, y + 6, width=0.4)
                pen.c.setDash()
            _draw_card(pen, fr, card, y, avail / per - 12, head)
        _footer(pen, fr, f"队式记分卡 Team match scorecards · {event}", p + 1, pages)
        c.showPage()
    c.save()
    return buf.getvalue()
