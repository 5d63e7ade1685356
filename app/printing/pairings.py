"""The pairings of a round."""

from __future__ import annotations

from .checks import _check_int, _check_table, _Table
from .frame import _Frame, _new_canvas
from .layout import _clean, _page_size, _Pen
from .lists import _draw_list, _pairings_rows
from .model import PrintError, RoundPack
from .words import PAPER_GAMES, _check_variant, _variant_label


def _check_round(rnd: RoundPack) -> tuple[list[_Table], list[str]]:
    if not isinstance(rnd, RoundPack):
        raise PrintError(f"expected a RoundPack, not {rnd!r}")
    _check_variant(rnd.variant, PAPER_GAMES)
    _check_int(rnd.round, "round", 1)
    tables = []
    seen: set[int] = set()
    for i, sheet in enumerate(rnd.sheets):
        t = _check_table(sheet, f"sheet {i + 1}")
        if t.variant != rnd.variant or t.round != rnd.round:
            raise PrintError(
                f"table {t.table}: its variant/round ({t.variant}, {t.round}) differ from the"
                f" round's ({rnd.variant}, {rnd.round})"
            )
        if t.table in seen:
            raise PrintError(f"table {t.table} appears twice in round {rnd.round}")
        seen.add(t.table)
        tables.append(t)
    byes = [_clean(b, "bye") for b in rnd.byes]
    return sorted(tables, key=lambda t: t.table), byes


def _draw_pairings(
    pen: _Pen, fr: _Frame, rnd: RoundPack, tables: list[_Table], byes: list[str]
) -> int:
    cols, rows = _pairings_rows(tables)
    tournament = _clean(rnd.tournament, "tournament")
    club = _clean(rnd.club, "club")
    date = _clean(rnd.date, "date")
    subtitle = " · ".join(
        p
        for p in (
            tournament,
            club,
            f"第 {rnd.round} 轮 Round {rnd.round}",
            _variant_label(rnd.variant),
            date,
        )
        if p
    )

    def after(y: float) -> float:
        if byes:
            pen.block(
                fr.left,
                y - 8,
                fr.inner,
                40,
                "轮空 Bye: " + " · ".join(byes),
                10.5,
                align="left",
                valign="top",
            )
        return y

    return _draw_list(
        pen,
        fr,
        (f"第 {rnd.round} 轮对阵", f"Pairings, round {rnd.round}"),
        subtitle,
        cols,
        rows,
        f"对阵 Pairings · {tournament} · 第 {rnd.round} 轮 Round {rnd.round}",
        after,
        big=True,
    )


def pairings(rnd: RoundPack, page_size: str = "A4") -> bytes:
    """A round's pairings list (tables in order, players by seat, byes)."""
    tables, byes = _check_round(rnd)
    size = _page_size(page_size)
    c, buf = _new_canvas(size, f"对阵 Pairings - round {rnd.round}")
    _draw_pairings(_Pen(c), _Frame(*size), rnd, tables, byes)
    c.save()
    return buf.getvalue()
