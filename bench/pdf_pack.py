"""Benchmark: the print pack of a 50-table tractor-4p round (8 deals), as a director prints it.

Builds the round's data (Chinese and Latin names), then times ``app.printing.print_pack`` —
pairings, a table card and a score sheet per table, one PDF — and prints
``pack 50 tables: N ms, P pages``. The first call also registers the CJK font (once per process);
it is timed separately. Target: under 2 s.
"""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pypdf  # noqa: E402

from app.printing import RoundPack, ScoreSheet, print_pack  # noqa: E402

SURNAMES = "李王张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗"
GIVEN = ("伟", "芳", "敏", "静", "磊", "洋", "杰", "丽", "强", "军")


def player(i: int) -> str:
    if i % 5 == 4:
        return f"Player {i} Smith"
    return SURNAMES[i % len(SURNAMES)] + GIVEN[(i // 3) % len(GIVEN)] + GIVEN[i % len(GIVEN)]


def build_round(tables: int = 50) -> RoundPack:
    sheets = []
    for t in range(1, tables + 1):
        seats = tuple(player(4 * t + k) for k in range(4))
        sides = (f"{seats[0]} & {seats[2]}", f"{seats[1]} & {seats[3]}")
        sheets.append(
            ScoreSheet(
                tournament="秋季杯 Autumn Cup 2026",
                club="河畔棋牌俱乐部 Riverside Card Club",
                round=3,
                table=t,
                variant="tractor-4p",
                seats=seats,
                sides=sides,
                options={"throw_penalty": "ten_per_attempt"},
                match={"deals": 8},
                date="2026-11-29",
            )
        )
    return RoundPack(
        "秋季杯 Autumn Cup 2026",
        "河畔棋牌俱乐部 Riverside Card Club",
        3,
        "tractor-4p",
        tuple(sheets),
    )


def main() -> None:
    rnd = build_round(50)
    t0 = time.perf_counter()
    print_pack(build_round(1))  # font registration and first-use costs
    first = time.perf_counter() - t0
    best = float("inf")
    pdf = b""
    for _ in range(3):
        t0 = time.perf_counter()
        pdf = print_pack(rnd)
        best = min(best, time.perf_counter() - t0)
    pages = len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
    print(f"font + first 1-table pack: {first * 1000:.0f} ms; pack size {len(pdf) // 1024} KiB")
    print(f"pack 50 tables: {best * 1000:.0f} ms, {pages} pages")


if __name__ == "__main__":
    main()
