"""The standings of a tournament."""

from __future__ import annotations

from collections.abc import Mapping

from engine.hundred_rules import is_family as is_hundred
from engine.variants import CLIMBING, RED_FIVE

from .frame import _Frame, _new_canvas
from .layout import _clean, _page_size, _Pen
from .lists import _DEFAULT_STANDING_COLS, _STANDING_COLS, _Cell, _draw_list, _standing_cell
from .model import PrintError, Standings
from .words import PAPER_GAMES, _check_variant, _variant_label


def _kind(variant: str, doc: Standings) -> str:
    """The standings' columns: the variant's, and 打百分's by its event — a pair event's rows
    have match points (and 分差, ``unit_diff``), an individual event's have 积分."""
    if is_hundred(variant):
        pairs = any(isinstance(r, Mapping) and "match_points" in r for r in doc.rows)
        return "hundred-pairs" if pairs or variant == "forty-4p" else "hundred"
    return variant if variant in (RED_FIVE, CLIMBING) else "fixed"


def standings(doc: Standings, page_size: str = "A4") -> bytes:
    """Standings with the tie-break columns (see ``Standings``)."""
    if not isinstance(doc, Standings):
        raise PrintError(f"expected Standings, not {doc!r}")
    variant = _check_variant(doc.variant, PAPER_GAMES)
    default = _DEFAULT_STANDING_COLS[_kind(variant, doc)]
    keys = tuple(doc.columns) if doc.columns is not None else default
    for key in keys:
        if key not in default:
            raise PrintError(
                f"unknown standings column {key!r} for {variant}; the columns are"
                f" {', '.join(default)}"
            )
    if "entrant" not in keys:
        raise PrintError("standings need the entrant column")
    cols = [_STANDING_COLS[k] for k in keys]
    rows: list[list[_Cell]] = []
    for n, row in enumerate(doc.rows, start=1):
        if not isinstance(row, Mapping):
            raise PrintError(f"standings row {n} must be an object, not {row!r}")
        cells: list[_Cell] = []
        for key in keys:
            if key not in row:
                raise PrintError(f"standings row {n} has no {key!r}")
            text = _standing_cell(key, row[key], n)
            note = _clean(row.get("note", ""), f"standings row {n}: note")
            cells.append((text, note if key == "entrant" else ""))
        rows.append(cells)
    tournament = _clean(doc.tournament, "tournament")
    club = _clean(doc.club, "club")
    after = (
        f"第 {doc.after_round} 轮后 after round {doc.after_round}"
        if doc.after_round is not None
        else ""
    )
    subtitle = " · ".join(
        p for p in (tournament, club, _variant_label(variant), after, _clean(doc.date, "date")) if p
    )
    size = _page_size(page_size)
    c, buf = _new_canvas(size, "排名 Standings")
    _draw_list(
        _Pen(c),
        _Frame(*size),
        ("排名", "Standings"),
        subtitle,
        cols,
        rows,
        f"排名 Standings · {tournament}",
        big=True,
    )
    c.save()
    return buf.getvalue()
