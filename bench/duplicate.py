"""Benchmark: a 30-table duplicate pairs event (60 pairs, tractor-4p) of 24 boards.

* the standings after one new result: every table's results but one are in (SQLite, through
  the app's service); the last table's result on a board is saved and the event page (movement,
  boards, standings: the whole field matchpointed again board by board in each direction) is
  rendered through the Flask test client for a director. Also the pure derivation alone
  (``app.competition.duplicate_event.field_standings``). Goal: < 100 ms.
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
import tempfile
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

PASSWORD = "bench password 1"

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

    pure_ms, pure_cpu = timed(after_one, args.runs)
    print(f"pure derivation after one new result: {pure_ms:.1f} ms wall, {pure_cpu:.1f} ms CPU")
    page_ms, page_cpu = app_page(results, args.runs)
    print(
        f"event page after one new result (save + page): {page_ms:.1f} ms wall, "
        f"{page_cpu:.1f} ms CPU"
    )

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


def app_page(results: list[TableResult], runs: int) -> tuple[float, float]:
    """The event with every result but the last in SQLite; then, per run, the last result saved
    through the board's form and the event page fetched (the result removed again between runs)."""
    from app import create_app
    from app.extensions import db
    from app.models import Club, DuplicateEvent, DuplicateResult, Member, User
    from app.passwords import hash_password
    from app.services.duplicate import events as svc

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.db",
                "SERVER_NAME": "localhost",
            }
        )
        with app.app_context():
            db.create_all()
            user = User(
                username="director", display_name="D", password_hash=hash_password(PASSWORD)
            )
            club = Club(name="Bench Club", slug="bench")
            db.session.add_all([user, club])
            db.session.add(Member(club=club, user=user, display_name="D", role="director"))
            db.session.flush()
            with app.test_request_context():
                ev = svc.create_event(
                    club,
                    user,
                    "复式双人赛 Pairs",
                    VARIANT,
                    "pairs",
                    "\n".join(f"第 {i + 1} 对 Pair {i + 1}" for i in range(60)),
                    4,
                    seed=1,
                    rounds=6,
                )
            m = svc.movement_of(ev)
            assert (m.tables, m.boards) == (30, 24)
            threshold = 80
            for r in results[:-1]:
                assert r.value0 is not None
                db.session.add(
                    DuplicateResult(
                        event_id=ev.id,
                        board=r.board,
                        round=r.round,
                        table_no=r.table,
                        declarer=0,
                        total=threshold - r.value0,
                    )
                )
            db.session.commit()
            did = ev.id
            last = results[-1]
            client = app.test_client()
            r = client.post("/account/login", data={"username": "director", "password": PASSWORD})
            assert r.status_code == 302
            sheet = svc.board_sheet(db.session.get(DuplicateEvent, did), last.board)
            form: dict[str, str] = {}
            for row in sheet:
                form[f"{row.key}_declarer"] = row.declarer or "0"
                form[f"{row.key}_total"] = row.total or str(threshold - (last.value0 or 0))
            base = f"/clubs/bench/duplicate/{did}"

            def clear() -> None:
                row = db.session.scalar(
                    db.select(DuplicateResult).where(
                        DuplicateResult.event_id == did,
                        DuplicateResult.board == last.board,
                        DuplicateResult.round == last.round,
                        DuplicateResult.table_no == last.table,
                    )
                )
                if row is not None:
                    db.session.delete(row)
                    db.session.commit()
                db.session.expire_all()

            def one() -> None:
                r = client.post(f"{base}/boards/{last.board}", data=form)
                assert r.status_code == 303, r.status_code
                page = client.get(base)
                assert page.status_code == 200 and "第 60 对 Pair 60" in page.get_data(as_text=True)

            wall, cpu = [], []
            for _ in range(runs):
                clear()
                w, c = time.perf_counter(), time.process_time()
                one()
                wall.append((time.perf_counter() - w) * 1000)
                cpu.append((time.process_time() - c) * 1000)
            return statistics.median(wall), statistics.median(cpu)


if __name__ == "__main__":
    main()
