"""A round's print pack: pairings, table cards and score sheets in one PDF."""

from __future__ import annotations

from .cards import _draw_table_card
from .frame import _Frame, _new_canvas
from .layout import _page_size, _Pen
from .model import PrintError, RoundPack
from .pairings import _check_round, _draw_pairings
from .sheet import _check_sheet, _draw_sheet


def print_pack(
    rnd: RoundPack,
    page_size: str = "A4",
    filled: bool = False,
    with_pairings: bool = True,
    with_cards: bool = True,
) -> bytes:
    """A round's whole pack in one PDF: the pairings list, then per table (in table order) its
    table card and its score sheet (``filled``: with the recorded deals)."""
    tables, byes = _check_round(rnd)
    sheets = sorted((_check_sheet(s, filled) for s in rnd.sheets), key=lambda s: s.t.table)
    if not sheets:
        raise PrintError(f"round {rnd.round} has no tables to print")
    size = _page_size(page_size)
    c, buf = _new_canvas(size, f"第 {rnd.round} 轮 Round {rnd.round} print pack")
    pen, fr = _Pen(c), _Frame(*size)
    if with_pairings:
        _draw_pairings(pen, fr, rnd, tables, byes)
    for s in sheets:
        if with_cards:
            _draw_table_card(pen, fr, s.t, fr.top, fr.top - fr.bottom)
            c.showPage()
        _draw_sheet(pen, fr, s)
    c.save()
    return buf.getvalue()
