"""Benchmark: one human move's server round trip at an online table, and the unchanged poll.

For each variant (tractor-4p, red-five-5p, one-twenty-6p, tractor-4p with 4 decks, and 打百分's
hundred-4p with a hidden friend) a
tournament with one online table is created in a SQLite file database (WAL mode, as in
production); seat 0 is a human, the other seats are bots. The human's moves are the engine's
own bot choice for seat 0, sent as real htmx POSTs to ``/play/<token>`` through the Flask test
client (CSRF on): verify, apply, the bots' replies, persist, render the seat's fragment. After
every move the page polls ``/play/<token>/poll?v=<current>`` (answer 204) a few times.

Prints per variant the move p50/p95, the p95 of the moves late in a deal (the last quarter of
the human's moves of each deal, not counting its last move, which plays the deal out, records
it in the sheet and deals the next: its time is printed apart) and the poll p50/p95, then one summary line
``roundtrip_p95_ms=X poll_p95_ms=Y`` (X: the worst variant's move p95, Y: the worst poll p95).
Targets: move p95 < 15 ms in every variant, unchanged poll < 1 ms. The moves' CPU time is
printed too: on a machine shared with other work, wall-clock percentiles mostly measure the
neighbours; ``--repeat N`` plays each case N times and prints each figure's best run (the
neighbours only ever add time). The SQL statements sent per move and per poll are counted.

    .venv/bin/python bench/online_roundtrip.py [--deals 2] [--polls 3] [--only tractor-4p]
    .venv/bin/python bench/online_roundtrip.py --repeat 3
    .venv/bin/python bench/online_roundtrip.py --profile one-twenty-6p   # cProfile of the moves
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import Flask  # noqa: E402
from sqlalchemy import event, select  # noqa: E402

from app import create_app  # noqa: E402
from app.competition import model as cm  # noqa: E402
from app.db import write_transaction  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import OnlineDeal, OnlineSeat, Table  # noqa: E402
from app.services.online import bridge, director, seats, tokens  # noqa: E402
from app.services.online.cache import CACHE  # noqa: E402
from app.services.tournaments.audit import Actor  # noqa: E402
from app.services.tournaments.files import import_tournament  # noqa: E402
from app.services.tournaments.rounds import seat_next_round  # noqa: E402
from engine.bots import HeuristicBot  # noqa: E402
from engine.cards import card_str, cards_str  # noqa: E402
from engine.deal import DRAW, Deal, DealSetup, Record, apply  # noqa: E402
from engine.hundred import HundredDeal, HundredSetup  # noqa: E402
from engine.hundred import replay as hundred_replay  # noqa: E402
from engine.hundred_bots import HeuristicHundredBot  # noqa: E402
from engine.variants import default_options  # noqa: E402

# (label, variant, options, entrants, players per entrant, pairing)
CASES: tuple[tuple[str, str, dict[str, Any], int, int, str], ...] = (
    ("tractor-4p", "tractor-4p", default_options("tractor-4p"), 2, 2, "swiss"),
    ("red-five-5p", "red-five-5p", default_options("red-five-5p"), 5, 1, "reseat"),
    ("one-twenty-6p", "one-twenty-6p", default_options("one-twenty-6p"), 2, 3, "swiss"),
    ("tractor-4p 4 decks", "tractor-4p", default_options("tractor-4p", 4), 2, 2, "swiss"),
    ("hundred-4p", "hundred-4p", {"friend": "hidden"}, 4, 1, "reseat"),
)
ACTOR = Actor(label="bench", owner=True, director=True)
HTMX = {"HX-Request": "true"}


@dataclass
class Figures:
    moves: list[float] = field(default_factory=list)
    late: list[float] = field(default_factory=list)
    late_cpu: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # the moves' CPU time (robust to a busy box)
    poll_cpu: list[float] = field(default_factory=list)
    move_queries: list[int] = field(default_factory=list)  # SQL statements per request
    poll_queries: list[int] = field(default_factory=list)
    ends: list[float] = field(default_factory=list)  # the move ending a deal (the next is dealt)


STATEMENTS = [0]  # SQL statements sent so far (BEGIN included)


def _count(*_args: Any) -> None:
    STATEMENTS[0] += 1


def _counted_poll_row(poll_row: Callable[[str], Any]) -> Callable[[str], Any]:
    """The unchanged poll reads its one row on a DBAPI connection of its own, which
    SQLAlchemy's events never see: count that SELECT here."""

    def counted(token: str) -> Any:
        STATEMENTS[0] += 1
        return poll_row(token)

    return counted


def pct(xs: list[float], q: float) -> float:
    """The q-quantile (0..1) of xs, in ms (nearest rank)."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


def build(
    app: Flask, case: tuple[str, str, dict[str, Any], int, int, str], deals: int, k: int = 0
) -> str:
    """A seated round whose table is online, seat 0 human, the others bots: seat 0's token."""
    label, variant, options, n, size, pairing = case
    entrants = tuple(
        cm.Entrant(f"E{i}", tuple(f"P{i}{'abc'[j]}" for j in range(size))) for i in range(n)
    )
    comp = cm.Tournament(
        club="Bench club",
        name=f"Bench {label}" + (f" {k + 1}" if k else ""),
        variant=variant,
        pairing=pairing,
        rounds=1,
        match=cm.MatchSpec(deals=deals),
        options=options,
        entrants=entrants,
    )
    with app.test_request_context(), write_transaction():
        t = import_tournament(comp)
        rnd = seat_next_round(t, ACTOR)
        tab = min((x for x in rnd.tables if x.kind != "bye"), key=lambda x: x.number)
        director.switch_online(t, tab, ACTOR)
        players = len(seats.seats_of(tab))
        for s in range(1, players):
            director.set_bot(t, tab, s, True, ACTOR)
        db.session.commit()
        seat = db.session.scalar(
            select(OnlineSeat).where(OnlineSeat.table_id == tab.id, OnlineSeat.seat == 0)
        )
        assert seat is not None
        return seat.token


BETWEEN = "between"  # a deal is played and the next waits for the seat's Continue


def current(app: Flask, token: str, deals: int) -> tuple[int, Deal | HundredDeal] | str | None:
    """The deal in progress at the seat's table (the bench's own replay), ``BETWEEN`` when a
    played deal waits for Continue, None when the match is over."""
    with app.app_context():
        seat = db.session.scalar(select(OnlineSeat).where(OnlineSeat.token == token))
        assert seat is not None
        tab = db.session.get(Table, seat.table_id)
        assert tab is not None
        row = db.session.scalar(
            select(OnlineDeal)
            .where(OnlineDeal.table_id == tab.id)
            .order_by(OnlineDeal.number.desc())
            .limit(1)
        )
        if row is None or tab.finished:
            return None
        if row.outcome is not None:
            return None if row.number >= deals else BETWEEN
        if row.setup["variant"] == "hundred-4p":  # 打百分: the engine's own replay
            log = [a.record for a in row.actions if a.record["kind"] != bridge.READY]
            return row.number, hundred_replay(HundredSetup.from_json(row.setup), log)
        deal = Deal(DealSetup.from_json(row.setup))
        for a in row.actions:
            if a.record["kind"] != bridge.CONTINUE:
                apply(deal, Record.from_json(a.record))
        return row.number, deal


def choose_hundred(deal: HundredDeal, v: str, csrf: str) -> dict[str, Any]:
    """Seat 0's move in 打百分: the heuristic bot's; a bid, suit or friend card as ``card``."""
    kind, _seat, *rest = HeuristicHundredBot(len(deal.log) * 31 + 7).act(deal, 0)
    data: dict[str, Any] = {"csrf_token": csrf, "v": v, "kind": kind}
    if kind in ("bury", "play"):
        data["cards"] = cards_str(rest[0])
    elif kind == "friend":
        data["card"] = card_str(rest[0])
    elif kind in ("bid", "trump"):
        data["card"] = str(rest[0])
    return data


def choose(deal: Deal | HundredDeal, v: str, csrf: str) -> dict[str, Any]:
    """Seat 0's move: what the engine's bot would do in its place."""
    if isinstance(deal, HundredDeal):
        return choose_hundred(deal, v, csrf)
    bot = HeuristicBot(len(deal.log) * 31 + 7)
    data: dict[str, Any] = {"csrf_token": csrf, "v": v}
    if deal.phase == DRAW:  # the draw waits for seat 0, which may call with its card
        call = bot.on_draw(deal, 0)
        if call is None:
            return dict(data, kind=bridge.CONTINUE)
        return dict(data, kind="call", cards=cards_str(call))
    kind, _seat, *rest = bot.act(deal, 0)
    data["kind"] = kind
    if kind in ("call", "bury", "play"):
        data["cards"] = cards_str(rest[0])
    elif kind == "friend":
        data["card"] = "" if rest[0] is None else card_str(rest[0])
    return data


def token_of(html: str) -> str:
    m = re.search(r'data-token="([^"]+)"', html)
    assert m, html[:2000]
    return m.group(1)


def run(
    app: Flask, token: str, polls: int, timed: Callable[[Callable[[], Any]], Any], deals: int
) -> Figures:
    client = app.test_client()
    url = f"/play/{token}"
    page = client.get(url)
    assert page.status_code == 200, page.status_code
    html = page.get_data(as_text=True)
    m = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert m, "no CSRF token on the seat page"
    csrf = m.group(1)
    v = token_of(html)
    fig = Figures()
    per_deal: dict[int, list[tuple[float, float]]] = {}
    while True:
        state = current(app, token, deals)
        if state is None:
            break
        if state == BETWEEN:  # the summary's Continue: not a move, not timed
            r = client.post(f"{url}/ready", data={"csrf_token": csrf, "v": v}, headers=HTMX)
            assert r.status_code == 200, (r.status_code, r.get_data(as_text=True)[:2000])
            v = token_of(r.get_data(as_text=True))
            continue
        assert not isinstance(state, str)
        number, deal = state
        data = choose(deal, v, csrf)
        before = STATEMENTS[0]
        c0, t0 = time.process_time(), time.perf_counter()
        r = timed(lambda data=data: client.post(url, data=data, headers=HTMX))
        dt = (time.perf_counter() - t0) * 1000
        fig.cpu.append((time.process_time() - c0) * 1000)
        fig.move_queries.append(STATEMENTS[0] - before)
        assert r.status_code == 200, (r.status_code, r.get_data(as_text=True)[:2000])
        v = token_of(r.get_data(as_text=True))
        fig.moves.append(dt)
        per_deal.setdefault(number, []).append((dt, fig.cpu[-1]))
        for _ in range(polls):
            before = STATEMENTS[0]
            c0, t0 = time.process_time(), time.perf_counter()
            p = client.get(f"{url}/poll?v={v}", headers=HTMX)
            fig.polls.append((time.perf_counter() - t0) * 1000)
            fig.poll_cpu.append((time.process_time() - c0) * 1000)
            fig.poll_queries.append(STATEMENTS[0] - before)
            assert p.status_code == 204, p.status_code
    for times in per_deal.values():
        # the last move plays the deal out, records it and deals the next: counted apart
        fig.ends.append(times[-1][0])
        played = times[:-1]
        late = played[len(played) - max(1, len(played) // 4) :]
        fig.late += [wall for wall, _cpu in late]
        fig.late_cpu += [cpu for _wall, cpu in late]
    return fig


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2, help="deals per match (per variant)")
    ap.add_argument("--polls", type=int, default=3, help="unchanged polls after each move")
    ap.add_argument("--only", default=None, help="run one case (its label)")
    ap.add_argument("--profile", default=None, help="cProfile the moves of one case (its label)")
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="play each case this many times and report each figure's best run (a shared "
        "machine's neighbours only ever add time)",
    )
    args = ap.parse_args()
    worst = {"move": 0.0, "poll": 0.0, "move_cpu": 0.0, "poll_cpu": 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.db",
                "SERVER_NAME": "localhost",
                "ONLINE_SEED_BASE": 20260101,  # the same shuffles on every run
            }
        )
        with app.app_context():
            db.create_all()
            event.listen(db.engine, "before_cursor_execute", _count)
            mode = db.session.execute(db.text("PRAGMA journal_mode")).scalar()
            assert mode == "wal", mode
        tokens._poll_row = _counted_poll_row(tokens._poll_row)  # type: ignore[assignment]
        # as gunicorn.conf.py's post_worker_init: the app's long-lived objects (modules,
        # templates, the app) leave the collector's generations, so a collection during a
        # request does not walk them all
        gc.freeze()
        for case in CASES:
            label = case[0]
            if args.only not in (None, label) and args.profile is None:
                continue
            if args.profile is not None and args.profile != label:
                continue
            runs: list[Figures] = []
            for k in range(1 if args.profile else max(1, args.repeat)):
                token = build(app, case, args.deals, k)
                CACHE.clear()
                prof = cProfile.Profile() if args.profile else None

                def timed(f: Callable[[], Any], prof: cProfile.Profile | None = prof) -> Any:
                    return f() if prof is None else prof.runcall(f)

                runs.append(run(app, token, args.polls, timed, args.deals))
                if prof is not None:
                    order = os.environ.get("BENCH_SORT", "cumulative")  # or tottime
                    pstats.Stats(prof).sort_stats(order).print_stats(40)

            def best(
                q: float, pick: Callable[[Figures], list[float]], runs: list[Figures] = runs
            ) -> float:
                return min(pct(pick(f), q) for f in runs)

            fig = runs[0]
            p95, poll95 = best(0.95, lambda f: f.moves), best(0.95, lambda f: f.polls)
            cpu95, poll_cpu95 = best(0.95, lambda f: f.cpu), best(0.95, lambda f: f.poll_cpu)
            for key, value in (
                ("move", p95),
                ("poll", poll95),
                ("move_cpu", cpu95),
                ("poll_cpu", poll_cpu95),
            ):
                worst[key] = max(worst[key], value)
            print(
                f"{label}: {len(fig.moves)} moves, move p50 {best(0.5, lambda f: f.moves):.1f} ms, "
                f"p95 {p95:.1f} ms, late-deal p95 {best(0.95, lambda f: f.late):.1f} ms, "
                f"deal-ending move max {best(1.0, lambda f: f.ends):.1f} ms; "
                f"unchanged poll p50 {best(0.5, lambda f: f.polls):.2f} ms, p95 {poll95:.2f} ms; "
                f"CPU time: move p50 {best(0.5, lambda f: f.cpu):.1f} ms, p95 {cpu95:.1f} ms, "
                f"late-deal p95 {best(0.95, lambda f: f.late_cpu):.1f} ms, "
                f"poll p50 {best(0.5, lambda f: f.poll_cpu):.2f} ms, p95 {poll_cpu95:.2f} ms; "
                f"SQL statements per move max {max(fig.move_queries)} "
                f"(median {statistics.median(fig.move_queries):g}), "
                f"per unchanged poll max {max(fig.poll_queries)}; "
                f"deals rebuilt from the cache {CACHE.hits}, forward {CACHE.forward}, "
                f"by a full replay {CACHE.replays}"
                + (f" (best of {len(runs)} runs)" if len(runs) > 1 else "")
            )
    print(f"cpu_roundtrip_p95_ms={worst['move_cpu']:.1f} cpu_poll_p95_ms={worst['poll_cpu']:.2f}")
    print(f"roundtrip_p95_ms={worst['move']:.1f} poll_p95_ms={worst['poll']:.2f}")


if __name__ == "__main__":
    main()
