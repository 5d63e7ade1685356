"""Benchmark: a duplicate event's files for a 30-table pairs event (60 pairs, tractor-4p) of 24
boards with every table's result (720 results), on SQLite through the app's services: the event
file exported (``files.export_json``: every board dealt to name its first drawer), read back and
checked (``files.read_file``: the movement, the boards and every result), imported as a new
event (``files.import_event`` and the commit), and the board-by-board CSV. Wall time (medians)
with the process's CPU time beside it; the last line is
``export_ms=X read_ms=Y import_ms=Z boards_csv_ms=W`` (wall).

    .venv/bin/python bench/duplicate_files.py [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    from app import create_app
    from app.extensions import db
    from app.models import Club, DuplicateEvent, DuplicateResult
    from app.services.duplicate import events as svc
    from app.services.duplicate import files

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.db",
            }
        )
        with app.app_context(), app.test_request_context():
            db.create_all()
            club = Club(name="Bench Club", slug="bench")
            other = Club(name="Other Club", slug="other")
            db.session.add_all([club, other])
            db.session.flush()
            names = "\n".join(f"第 {i + 1} 对 Pair {i + 1}" for i in range(60))
            ev = svc.create_event(club, None, "复式双人赛", "tractor-4p", "pairs", names, 4, 1, 6)
            m = svc.movement_of(ev)
            rng = random.Random(2026)
            for s in m.sittings:
                for b in s.boards:
                    total = rng.choice(range(0, 165, 5))
                    db.session.add(
                        DuplicateResult(
                            event_id=ev.id,
                            board=b,
                            round=s.round,
                            table_no=s.table,
                            declarer=rng.randint(0, 1),
                            total=total,
                        )
                    )
            db.session.commit()
            ev = db.session.get(DuplicateEvent, ev.id)
            assert ev is not None and (m.tables, m.boards, len(ev.results)) == (30, 24, 720)
            text = files.export_json(ev)
            print(
                f"event: 60 pairs, 30 tables, 24 boards, 720 results; file {len(text) // 1024} KiB"
            )
            exp = timed(lambda: files.export_json(ev), args.runs)
            read = timed(lambda: files.read_file(text.encode()), args.runs)
            e = files.read_file(text.encode())
            n = iter(range(10**6))

            def imported() -> None:
                files.import_event(other, None, e, name=f"Imported {next(n)}")
                db.session.commit()

            imp = timed(imported, args.runs)
            board_csv = timed(lambda: files.boards_csv(ev, True), args.runs)
            for what, (w, c) in (
                ("export", exp),
                ("read and check", read),
                ("import (write and commit)", imp),
                ("boards CSV", board_csv),
            ):
                print(f"{what}: {w:.1f} ms wall, {c:.1f} ms CPU")
            print(
                f"export_ms={exp[0]:.1f} read_ms={read[0]:.1f} import_ms={imp[0]:.1f} "
                f"boards_csv_ms={board_csv[0]:.1f}"
            )


if __name__ == "__main__":
    main()
