"""Benchmark: importing a large tournament file (3,000 pairs, 3 rounds, 9,000 deals) through the
upload form, while a director at another tournament keeps entering scores on its sheet.

A second process (as a second server worker would be) records a deal and undoes it again and
again on the other tournament's score sheet during the import; each of those requests has to
wait while the import holds SQLite's write lock. Prints the import's time, its longest write
transaction (how long it held the lock), and how long the score entries took (the longest is the
wait a table saw). Target: no score entry waits more than a couple of seconds, none fails.

    .venv/bin/python bench/import_lock.py [--entrants 3000] [--rounds 3] [--deals 2]

Measured on a shared 2-core machine (load about 10), 3,000 pairs and 9,000 deals: before, the
import took 68.6 s and held the write lock for 68.2 s; score entries waited up to 15.7 s and 4 of
24 failed ("database is locked" after the busy timeout). After (checked and laid out in memory
first, then one transaction of bulk inserts): 6.5 s, the lock held 1.2 s, the longest score
entry 1.2 s, none failed.
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing as mp
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sqlalchemy.exc import OperationalError  # noqa: E402
from standings_pairing import random_match  # noqa: E402

from app import create_app  # noqa: E402
from app.competition.model import Entrant, MatchSpec, Round, Table, Tournament  # noqa: E402
from app.competition.tfile import dump  # noqa: E402

PASSWORD = "correct horse battery"
CLUB = "Bench Club"


def big_file(entrants: int, rounds: int, deals: int, seed: int) -> bytes:
    """A tournament file: pairs in blocks of four meet a new pair each round (3 rounds at most)."""
    rng = random.Random(seed)
    names = [f"Pair {i:04d}" for i in range(entrants)]
    schedule = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))][:rounds]
    played = []
    for r, pairs in enumerate(schedule, 1):
        tables = []
        for block in range(0, entrants - entrants % 4, 4):
            for a, b in pairs:
                tables.append(
                    Table(
                        len(tables) + 1,
                        sides=(names[block + a], names[block + b]),
                        deals=random_match(rng, deals),
                    )
                )
        played.append(Round(r, tuple(tables)))
    comp = Tournament(
        club=CLUB,
        name="Big Import Cup",
        variant="tractor-4p",
        pairing="swiss",
        rounds=rounds + 1,
        match=MatchSpec(deals=deals),
        entrants=tuple(Entrant(n, (f"{n} a", f"{n} b")) for n in names),
        played=tuple(played),
    )
    return json.dumps(dump(comp), ensure_ascii=False).encode()


def _app(db_uri: str) -> Any:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": db_uri,
            "SERVER_NAME": "localhost",
            "WTF_CSRF_ENABLED": False,
            "PASSWORD_HASH_PROFILE": "fast",
        }
    )


def setup(db_uri: str) -> str:
    """The club, its director, and another tournament with one seated table: its sheet's URL."""
    from app.extensions import db
    from app.models import Club, Member, User
    from app.models import Round as RoundRow
    from app.passwords import hash_password

    app = _app(db_uri)
    with app.app_context():
        db.create_all()
        user = User(username="director", display_name="Dora", password_hash=hash_password(PASSWORD))
        club = Club(name=CLUB, slug="bench-club")
        db.session.add_all([user, club])
        db.session.add(Member(club=club, user=user, display_name="Dora", role="owner"))
        db.session.commit()
    client = app.test_client()  # outside that app context: each request has its own
    client.post("/account/login", data={"username": "director", "password": PASSWORD})
    r = client.post(
        "/clubs/bench-club/tournaments/new",
        data={
            "name": "Other Cup",
            "variant": "tractor-4p",
            "options_variant": "tractor-4p",
            "pairing": "swiss",
            "rounds": 3,
            "match_kind": "deals",
            "match_value": 8,
            "win": 2,
            "draw": 1,
            "loss": 0,
            "forfeit_level_diff": 3,
            "opt_decks": "2",
            "opt_kitty_multiplier": "by_shape",
            "opt_throw_penalty": "ten_per_attempt",
            "opt_no_call_trump": "kitty",
            "opt_redeal_below": "15",
            "opt_must_play_levels": "A",
        },
    )
    tid = int(re.search(r"/tournaments/(\d+)", r.headers["Location"]).group(1))  # type: ignore[union-attr]
    for i in range(2):
        client.post(
            f"/clubs/bench-club/tournaments/{tid}/entrants",
            data={"player_0": f"Q{i}a", "player_1": f"Q{i}b"},
        )
    client.post(f"/clubs/bench-club/tournaments/{tid}/rounds")
    with app.app_context():
        rnd = db.session.query(RoundRow).filter_by(tournament_id=tid).one()
        number = next(t.number for t in rnd.tables if t.kind == "sides")
        return f"/clubs/bench-club/tournaments/{tid}/rounds/1/tables/{number}"


def score_entry(db_uri: str, sheet: str, ready: Any, go: Any, stop: Any, out: Any) -> None:
    """The other table's director: record a deal, undo it, again and again until ``stop``."""
    # no app context around the requests: each request has its own (and its own session)
    client = _app(db_uri).test_client()
    client.post("/account/login", data={"username": "director", "password": PASSWORD})
    client.get(sheet)
    ready.set()
    go.wait()
    times: list[float] = []
    failures = 0
    while not stop.is_set():
        for url, data in (
            (sheet, {"declarer": 0, "trump": "S", "points": 60, "kitty": 0, "multiplier": 0}),
            (sheet + "/undo", {}),
        ):
            start = time.perf_counter()
            try:
                ok = client.post(url, data=data).status_code == 303
            except OperationalError:  # "database is locked": the busy timeout ran out (a 500)
                ok = False
            times.append(time.perf_counter() - start)
            failures += not ok
        time.sleep(0.05)
    out.put((times, failures))


def _lock_timer(app: Any) -> list[float]:
    """The length of every write transaction (BEGIN IMMEDIATE … COMMIT/ROLLBACK) of ``app``'s
    engine: how long this process held SQLite's write lock each time."""
    from sqlalchemy import event

    from app.extensions import db

    held: list[float] = []
    began: dict[int, float] = {}
    with app.app_context():
        engine = db.engine

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        from app.db import _wants_immediate

        if _wants_immediate():
            began[id(conn)] = time.perf_counter()

    def _end(conn: Any) -> None:
        start = began.pop(id(conn), None)
        if start is not None:
            held.append(time.perf_counter() - start)

    event.listen(engine, "commit", _end)
    event.listen(engine, "rollback", _end)
    return held


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entrants", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=3, choices=(1, 2, 3))
    ap.add_argument("--deals", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    body = big_file(args.entrants, args.rounds, args.deals, args.seed)
    doc = json.loads(body)
    n_deals = sum(len(t.get("deals", [])) for r in doc["played"] for t in r["tables"])
    print(f"file: {len(doc['entrants'])} entrants, {n_deals} deals, {len(body) / 1e6:.1f} MB")
    with tempfile.TemporaryDirectory() as tmp:
        db_uri = f"sqlite:///{tmp}/bench.db"
        sheet = setup(db_uri)
        ctx = mp.get_context("spawn")
        ready, go, stop, out = ctx.Event(), ctx.Event(), ctx.Event(), ctx.Queue()
        worker = ctx.Process(target=score_entry, args=(db_uri, sheet, ready, go, stop, out))
        worker.start()
        app = _app(db_uri)
        held = _lock_timer(app)
        client = app.test_client()
        client.post("/account/login", data={"username": "director", "password": PASSWORD})
        ready.wait(timeout=300)  # the worker has started and logged in
        go.set()
        time.sleep(0.5)  # a few score entries before the import, for comparison
        start = time.perf_counter()
        r = client.post(
            "/clubs/bench-club/tournaments/import",
            data={"file": (io.BytesIO(body), "big.json")},
            content_type="multipart/form-data",
        )
        elapsed = time.perf_counter() - start
        lock_times = list(held)
        time.sleep(0.5)
        stop.set()
        times, failures = out.get(timeout=600)
        worker.join()
        assert r.status_code == 303, r.get_data(as_text=True)[-2000:]
        print(f"import: {elapsed:.2f} s (HTTP {r.status_code})")
        print(f"the import's longest write transaction: {max(lock_times):.2f} s")
        print(
            f"score entries at the other table during it: {len(times)} requests, "
            f"median {statistics.median(times) * 1000:.0f} ms, "
            f"longest wait {max(times) * 1000:.0f} ms, {failures} failed"
        )


if __name__ == "__main__":
    main()
