"""Duplicate Shengji (复式) scoring, exactly as ``shared/rules/DUPLICATE.md`` fixes it. Pure: no
Flask, no database.

* ``value(variant, declarer, total)``: a board's value for side 0 and side 1 (fixed sides):
  ``H − T`` for the declaring side and ``T − H`` for the other, ``H`` being the take-over
  threshold (80 with 2 decks, 160 with 4, 120 in 120分: two fifths of the deal's card points).
* ``imps(variant, diff)``: a team's board score ``d`` (points) on the IMP scale, after
  normalising ``|d|`` to two decks exactly (``n = |d| × 200 / P``), signed like ``d``.
* ``team_board(variant, table1, table2)``: ``d`` = side 0's value at table 1 − at table 2.
* ``vp(boards, imps, b_factor=10)``: a match's IMP margin in victory points on the continuous
  WBF-shaped scale, rounded to 2 decimals (halves up), the loser getting ``20 − VP``.
* ``matchpoints(values)``: each result against every other in the same direction, 2 per result
  beaten and 1 per tie, and the percentage ``100 × MP / (2 × (k − 1))`` (50 when played once).

``python -m app.competition.duplicate FILE.jsonl`` (or ``-``) answers one JSON object per input
line, like ``python -m engine.conformance``: the case's ``id`` and the answer fields, or
``{"id": …, "error": "a sentence"}``; exit 0 when every line was answered, 2 when the input is not
JSON lines.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any, TextIO

from engine import jsonlines
from engine.errors import EngineError
from engine.variants import Variant, make_variant

# IMP scale on n (|d| normalised to two decks): (lower bound of the band, IMPs)
IMP_SCALE: tuple[tuple[int, int], ...] = (
    (0, 0),
    (10, 1),
    (20, 2),
    (30, 3),
    (40, 4),
    (60, 5),
    (80, 6),
    (100, 7),
    (120, 8),
    (160, 9),
    (200, 10),
)
TAU = (math.sqrt(5) - 1) / 2
VP_TOTAL = 20
DEFAULT_B_FACTOR = 10


class DuplicateError(ValueError):
    """A case that cannot be scored; the sentence says why."""


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: object) -> bool:
    return (isinstance(v, int | float) and not isinstance(v, bool)) and math.isfinite(v)


def _round2(x: Fraction | float) -> float:
    if isinstance(x, Fraction):
        d = Decimal(x.numerator) / Decimal(x.denominator)
    else:
        d = Decimal(repr(x))
    return float(d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def variant_of(variant: object, options: object = None) -> Variant:
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise DuplicateError("options must be an object of option names to values")
    if not isinstance(variant, str):
        raise DuplicateError("variant must be tractor-4p, red-five-5p or one-twenty-6p")
    try:
        return make_variant(variant, dict(options))
    except EngineError as e:
        raise DuplicateError(str(e)) from None


def threshold(v: Variant) -> int:
    """H: the attackers' total at which they take over (two fifths of the card points)."""
    return v.total_points * 2 // 5


def value(v: Variant, declarer: object, total: object) -> tuple[int, int]:
    if not v.fixed_sides:
        raise DuplicateError(
            "red five has no fixed sides: compare each seat's 积分 change with matchpoints"
        )
    if declarer not in (0, 1) or isinstance(declarer, bool):
        raise DuplicateError(f"declarer must be side 0 or 1, not {declarer!r}")
    if not _is_int(total) or total < 0:  # type: ignore[operator]
        raise DuplicateError(
            f"total must be the attackers' points, a whole number from 0, not {total!r}"
        )
    h = threshold(v)
    v0 = h - total if declarer == 0 else total - h  # type: ignore[operator]
    return (v0, -v0)


def imps_for(v: Variant, diff: object) -> int:
    if not _is_int(diff):
        raise DuplicateError(f"diff must be a whole number of points, not {diff!r}")
    d: int = diff  # type: ignore[assignment]
    n = Fraction(abs(d) * 200, v.total_points)
    imps = 0
    for low, k in IMP_SCALE:
        if n >= low:
            imps = k
    return imps if d >= 0 else -imps


def team_board(v: Variant, tables: object) -> tuple[int, int]:
    if not isinstance(tables, list) or len(tables) != 2:
        raise DuplicateError("tables must be a list of two results: table 1, then table 2")
    values = []
    for i, tab in enumerate(tables, 1):
        if not isinstance(tab, Mapping) or "declarer" not in tab or "total" not in tab:
            raise DuplicateError(f"table {i} must be an object with declarer and total")
        values.append(value(v, tab["declarer"], tab["total"])[0])
    d = values[0] - values[1]
    return d, imps_for(v, d)


def vp(boards: object, imps: object, b_factor: object = DEFAULT_B_FACTOR) -> tuple[float, float]:
    if not _is_int(boards) or boards < 1:  # type: ignore[operator]
        raise DuplicateError(f"boards must be the number of boards, 1 or more, not {boards!r}")
    if not _is_number(imps):
        raise DuplicateError(f"imps must be team A's IMPs minus team B's, not {imps!r}")
    if not _is_number(b_factor) or b_factor <= 0:  # type: ignore[operator]
        raise DuplicateError(f"b_factor must be a number above 0, not {b_factor!r}")
    margin = abs(float(imps))  # type: ignore[arg-type]
    b = float(b_factor) * math.sqrt(boards)  # type: ignore[arg-type]
    raw = 10 + 10 * (1 - TAU ** (3 * margin / b)) / (1 - TAU**3)
    win = _round2(min(float(VP_TOTAL), raw))
    lose = _round2(Fraction(VP_TOTAL) - Fraction(Decimal(repr(win))))
    return (win, lose) if float(imps) >= 0 else (lose, win)  # type: ignore[arg-type]


def matchpoints(values: object) -> tuple[list[int], list[float]]:
    if not isinstance(values, list) or not values or not all(_is_number(x) for x in values):
        raise DuplicateError("values must be a non-empty list of the results in one direction")
    k = len(values)
    mps = []
    for i, x in enumerate(values):
        mp = 0
        for j, y in enumerate(values):
            if i != j:
                mp += 2 if x > y else 1 if x == y else 0
        mps.append(mp)
    if k == 1:
        return mps, [50.0]
    return mps, [_round2(Fraction(100 * mp, 2 * (k - 1))) for mp in mps]


# --- the query command -------------------------------------------------------------------------


def answer(case: object) -> dict[str, Any]:
    if not isinstance(case, Mapping):
        return {"id": None, "error": "each line must be a JSON object with id and query"}
    out: dict[str, Any] = {"id": case.get("id")}
    try:
        out.update(_answer(case))
    except DuplicateError as e:
        return {"id": case.get("id"), "error": str(e)}
    except (TypeError, ValueError, OverflowError, ArithmeticError, RecursionError) as e:
        return {"id": case.get("id"), "error": f"this case cannot be scored: {e}"}
    return out


def _answer(c: Mapping[str, Any]) -> dict[str, Any]:
    query = c.get("query")
    if query == "value":
        v = variant_of(c.get("variant"), c.get("options"))
        return {"value": list(value(v, c.get("declarer"), c.get("total")))}
    if query == "imps":
        v = variant_of(c.get("variant"), c.get("options"))
        return {"imps": imps_for(v, c.get("diff"))}
    if query == "team_board":
        v = variant_of(c.get("variant"), c.get("options"))
        d, i = team_board(v, c.get("tables"))
        return {"diff": d, "imps": i}
    if query == "vp":
        b = c.get("b_factor", DEFAULT_B_FACTOR)
        return {"vp": list(vp(c.get("boards"), c.get("imps"), b))}
    if query == "matchpoints":
        mp, pct = matchpoints(c.get("values"))
        return {"mp": mp, "pct": pct}
    raise DuplicateError(f"unknown query {query!r}: value, imps, team_board, vp or matchpoints")


def run(stream: TextIO, out: TextIO) -> int:
    return jsonlines.run(stream, out, answer)


def main(argv: Sequence[str] | None = None) -> int:
    return jsonlines.main(argv, "app.competition.duplicate", answer)


if __name__ == "__main__":
    sys.exit(main())
