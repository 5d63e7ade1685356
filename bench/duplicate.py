"""Benchmark: a 30-table duplicate pairs event (60 pairs, tractor-4p) of 24 boards.

* the standings after one new result: every table's results but one are in; the last table's
  result on a board arrives and the whole field is matchpointed again (board by board, in each
  direction) and ranked by total percentage. This measures the pure derivation
  (``app.competition.duplicate_event.field_standings``) — the function a standings page calls —
  not a page rendered through Flask. Goal: < 100 ms.
* the hand records PDF with par for the 24 boards: each board dealt out, its par played by the
  heuristic bots from every seat arrangement, and the pages rendered with every table's result
  and matchpoints. Goal: < 5 s.

Wall time (medians) with the process's CPU time beside it (a shared machine is noisy). The
last line is ``duplicate_page_ms=X hand_records_s=Y`` (wall).

    .venv/bin/python bench/duplicate.py [--runs 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.competition.boards import event_boards, paper_deal, par  # noqa: E402
from app.competition.duplicate_event import (  # noqa: E402
    TableResult,
    board_scores,
    field_standings,
)
from app.competition.movements import check_movement, mitchell  # noqa: E402
from app.printing import BoardResult, HandRecord, HandRecords, hand_records  # noqa: E402

VARIANT = "tractor-4p"


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``runs`` calls."""
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    # 60 pairs at 30 tables; 6 board sets of 4 boards, each set at 5 tables at once; 6 rounds
    m = mitchell(60, 4, sets=6)
    check_movement(m)
    rng = random.Random(args.seed)
    results = [
        TableResult(b, s.table, s.round, s.seats, value0=rng.choice(range(-80, 85, 5)))
        for s in m.sittings
        for b in s.boards
    ]
    print(
        f"event: {m.entrants} pairs, {m.tables} tables, {m.rounds} rounds, {m.boards} boards, "
        f"{len(results)} table results"
    )
    before, new = results[:-1], results[-1]
    field_standings(before)

    def after_one() -> None:
        rows = field_standings([*before, new])
        assert len(rows) == 60

    page_ms, page_cpu = timed(after_one, args.runs)
    print(f"standings after one new result: {page_ms:.1f} ms wall, {page_cpu:.1f} ms CPU")

    boards = event_boards(VARIANT, {}, args.seed, m.boards)
    names = {e: f"第 {e + 1} 对 Pair {e + 1}" for e in range(m.entrants)}

    def records() -> bytes:
        scores = {(s.board, s.table): s for s in board_scores(results)}
        recs = []
        for b in boards:
            pd = paper_deal(b)
            pr = par(b)
            res = tuple(
                BoardResult(
                    r.table,
                    (names[r.seats[0]], names[r.seats[1]]),
                    value0=r.value0,
                    note=f"MP {scores[(r.board, r.table)].mp[0]} · "
                    f"{scores[(r.board, r.table)].pct[0]:.2f}%",
                )
                for r in results
                if r.board == b.number
            )
            recs.append(
                HandRecord(
                    b.number,
                    pd.hands,
                    pd.kitty,
                    pd.first_drawer,
                    cut_card=pd.cut_card,
                    par=pr.value0,
                    par_plays=pr.plays,
                    results=res,
                )
            )
        return hand_records(HandRecords("复式双人赛 Pairs", VARIANT, tuple(recs)))

    pdf = records()
    runs = max(1, min(3, args.runs))
    rec_ms, rec_cpu = timed(records, runs)
    print(
        f"hand records with par, {len(boards)} boards ({len(pdf) // 1024} KiB): "
        f"{rec_ms / 1000:.2f} s wall, {rec_cpu / 1000:.2f} s CPU"
    )
    print(f"duplicate_page_ms={page_ms:.1f} hand_records_s={rec_ms / 1000:.2f}")


if __name__ == "__main__":
    main()
