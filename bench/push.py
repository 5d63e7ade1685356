"""How fast a move reaches the other seats of its table, pushed, on two servers behind a load
balancer (issue 23's goal: p95 < 150 ms at 100 tables + 300 viewers on this 2-core machine).

Sets up N online tables of four human seats (bench/load.py's set-up), starts two gunicorn
masters with the gevent worker (gunicorn.conf.py's default, set explicitly here) on one
PostgreSQL, and HAProxy in front of them (tests/app/balancer.py). Before the clock, each server
gets bench/load.py's warm-up (every kind of page a few times: modules imported, templates
compiled, as a server that has run a while); it opens the first table's seat page only, but
that page fills every table's names and sheet (one read of the round, as a night's first page
does). Every seat opens its page and
its stream through the balancer; when its turn comes it thinks 1–3 s and posts a legal move
decided from its page (bench/load.py's ``choose``), and a page whose stream is open says so
(static/live.js): its move is answered empty and the stream draws it. M viewers open the
night's projector standings and their stream, as a browser does with live streams (no poll), and
reload them every 30 s. Per move: the time from the moment the move is sent until
every other seat of its table has received a state at least as new (the move's answer names
the state it made). Loopback only; bounded by ``--seconds``.

Prints the percentiles, the errors, the reconnections, how fast the host ran a fixed loop
before and after (this machine's speed varies by a third from minute to minute, and the
latency with it), and last
``push_p95_ms=X tables=N viewers=M servers=S errors=E db=postgresql``.

    .venv/bin/python bench/push.py --tables 100 --viewers 300 --seconds 60

``--trace`` also splits each move's latency where its time went (``print_trace``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


from bench import load  # noqa: E402
from tests.app.balancer import Balancer  # noqa: E402

HOST = load.HOST
TARGET_P95_MS = 150.0


def host_speed(samples: int = 5) -> list[float]:
    """Milliseconds of CPU time a fixed pure-Python loop takes, ``samples`` times: the same work
    took 164-235 ms on this idle machine within one minute (2026-12-07), and the app's CPU time
    per move moves with it, so each run prints it beside its figures."""
    out = []
    for _ in range(samples):
        c0 = time.process_time()
        total = 0
        for i in range(3_000_000):
            total += i * i % 7
        out.append((time.process_time() - c0) * 1000)
    return sorted(out)


def state_key(token: str) -> tuple[int, int]:
    """A state token's deal and version (``n.v`` first), for "at least as new"."""
    m = re.match(r"(\d+)\.(\d+)", token)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


@dataclass
class Table:
    """Arrivals of each state at each seat: key → seat → first time seen."""

    seen: dict[tuple[int, int], dict[int, float]] = field(default_factory=lambda: defaultdict(dict))
    moves: list[tuple[float, int, tuple[int, int]]] = field(default_factory=list)

    def arrived(self, seat: int, key: tuple[int, int], at: float) -> None:
        self.seen[key].setdefault(seat, at)


@dataclass
class Counts:
    reconnects: int = 0
    events: int = 0
    viewer_events: int = 0


async def open_stream(
    port: int, path: str, stats: load.Stats, kind: str
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, bool] | None:
    """A server-sent event stream opened as a browser's EventSource does: (reader, writer,
    whether the body is chunked), or None after an error (counted under ``kind``)."""
    try:
        reader, writer = await asyncio.open_connection(HOST, port)
    except OSError as e:
        stats.error(kind, f"connect: {e}")
        return None
    try:
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        status = await reader.readline()
        if not status or b" 200 " not in status:
            stats.error(kind, f"{path}: {status!r}")
            writer.close()
            return None
        chunked = False
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            if line.lower().startswith(b"transfer-encoding:") and b"chunked" in line.lower():
                chunked = True
    except (OSError, asyncio.IncompleteReadError, ValueError) as e:
        stats.error(kind, f"{path}: {type(e).__name__}")
        writer.close()
        return None
    return reader, writer, chunked


async def stream_events(reader: asyncio.StreamReader, chunked: bool) -> AsyncIterator[str]:
    """The stream's events, each as its text block (``event: …`` then ``data: …`` lines)."""
    buffer = b""

    async def more() -> bytes:
        if not chunked:
            return await reader.read(65536)
        size = await reader.readline()
        length = int(size.strip() or b"0", 16)
        if length == 0:
            return b""
        data = await reader.readexactly(length)
        await reader.readline()
        return data

    while True:
        got = await asyncio.wait_for(more(), timeout=60)
        if not got:
            return
        buffer += got
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            yield block.decode("utf-8", "replace")


def event_data(text: str) -> str:
    return "\n".join(line.removeprefix("data: ") for line in text.splitlines()[1:])


async def stream(
    port: int,
    path: str,
    seat: load.Seat,
    n: int,
    table: Table,
    stats: load.Stats,
    counts: Counts,
    wake: asyncio.Event,
) -> None:
    """The seat's stream, reopened when it ends or breaks (as EventSource does)."""
    opened = 0
    while not stats.done():
        got = await open_stream(port, f"{path}?v={seat.v}", stats, "stream")
        if got is None:
            await asyncio.sleep(0.5)
            continue
        reader, writer, chunked = got
        opened += 1
        if opened > 1:
            counts.reconnects += 1
        seat.streaming = True  # type: ignore[attr-defined]
        try:
            async for text in stream_events(reader, chunked):
                if stats.done():
                    break
                if not text.startswith("event: seat"):
                    continue
                at = time.monotonic()
                seat.read(event_data(text))
                counts.events += 1
                table.arrived(n, state_key(seat.v), at)
                wake.set()
        except (OSError, asyncio.IncompleteReadError, ValueError, TimeoutError):
            pass
        finally:
            seat.streaming = False  # type: ignore[attr-defined]
            writer.close()
        if not stats.done():
            await asyncio.sleep(0.3)


async def seat_client(
    port: int,
    seat: load.Seat,
    n: int,
    table: Table,
    stats: load.Stats,
    counts: Counts,
    play: load.Play,
    start: float,
    seed: int,
) -> None:
    rng = random.Random(seed)
    b = load.Browser(port, stats)
    url = f"/play/{seat.token}"
    wake = asyncio.Event()
    try:
        if not await load._sleep_until(stats, start):
            return
        got = await b.request("seat page", url)
        if got is None or got[0] != 200:
            stats.error("seat page", f"GET {url}: {None if got is None else got[0]}")
            return
        m = load.CSRF_RE.search(got[1])
        if not m:
            stats.error("seat page", "no CSRF token")
            return
        seat.csrf = m.group(1)
        seat.read(got[1])
        table.arrived(n, state_key(seat.v), time.monotonic())
        listener = asyncio.create_task(
            stream(port, url + "/stream", seat, n, table, stats, counts, wake)
        )
        try:
            while not stats.done():
                want = wants_to_act(seat)
                if want is None:
                    wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), timeout=1.0)
                    continue
                if not await load._sleep_until(stats, time.monotonic() + rng.uniform(*play.think)):
                    break
                if wants_to_act(seat) is None:
                    continue
                await _act(b, stats, seat, url, rng, play, table)
        finally:
            listener.cancel()
    finally:
        b.close()


async def _act(
    b: load.Browser,
    stats: load.Stats,
    seat: load.Seat,
    url: str,
    rng: random.Random,
    play: load.Play,
    table: Table,
) -> None:
    want = seat.wants_to_act()
    sent = time.monotonic()  # the move is decided: from here on the clock runs
    # as static/live.js does: a page whose stream is open says so, and the server answers its
    # move empty (204, naming the state it made), the stream bringing that state
    headers = dict(load.HTMX)
    if getattr(seat, "streaming", False):
        headers["X-Live-Stream"] = "open"
    if want == "ready":
        got = await b.request(
            "ready", f"{url}/ready", {"csrf_token": seat.csrf, "v": seat.v}, headers
        )
    else:
        state = load.page_state(seat.html, play.variant, play.options)
        move = load.choose(state, rng)
        if move is None:
            return
        form = {"csrf_token": seat.csrf, "v": state["token"], **move}
        sent = time.monotonic()
        got = await b.request("move", url, form, headers)
    if got is None:
        return
    status, html = got
    if status == 204:
        made = state_key(b.headers.get("x-live-state", ""))
        seat.expect = made  # type: ignore[attr-defined]
        if want == "move":
            table.moves.append((sent, seat_index(seat), made))
    elif status in (200, 409):
        if status == 409:
            stats.stale += 1
        seat.read(html)
        if status == 200 and want == "move":
            table.moves.append((sent, seat_index(seat), state_key(seat.v)))
    else:
        stats.error(want or "move", f"{status} {html[:200]!r}")


async def viewer_client(
    port: int,
    stats: load.Stats,
    standings: str,
    counts: Counts,
    start: float,
    reload_s: float,
    seed: int,
) -> None:
    """A projector as the browser runs it with live streams: it opens the night's projector
    standings, then their stream (templates/_live.html), which pushes each new version; no
    poll is sent while the stream is open. Reopened every ``reload_s`` (± 20 %), as
    bench/load.py's viewers are, for the page loads people make."""
    rng = random.Random(seed)
    b = load.Browser(port, stats)
    page = f"{standings}?projector=1"
    try:
        if not await load._sleep_until(stats, start):
            return
        while not stats.done():
            got = await b.request("projector", page)
            if got is None or got[0] != 200:
                if got is not None:
                    stats.error("projector", f"GET {page}: {got[0]}")
                return
            m = load.VERSION_RE.search(got[1])
            version = m.group(1) if m else ""
            until = time.monotonic() + reload_s * rng.uniform(0.8, 1.2)
            opened = await open_stream(port, f"{standings}/stream?v={version}", stats, "stream")
            if opened is None:
                await load._sleep_until(stats, until)
                continue
            reader, writer, chunked = opened

            async def read(reader: asyncio.StreamReader = reader, chunked: bool = chunked) -> None:
                async for text in stream_events(reader, chunked):
                    if text.startswith("event: standings"):
                        counts.viewer_events += 1

            try:
                left = min(until, stats.deadline) - time.monotonic()
                with contextlib.suppress(
                    TimeoutError, OSError, asyncio.IncompleteReadError, ValueError
                ):
                    await asyncio.wait_for(read(), timeout=max(0.0, left))
            finally:
                writer.close()
    finally:
        b.close()


def wants_to_act(seat: load.Seat) -> str | None:
    """What the seat would do now, once its page shows the state its last move made (a move
    answered empty waits for its stream)."""
    if state_key(seat.v) < getattr(seat, "expect", (0, 0)):
        return None
    return seat.wants_to_act()


def seat_index(seat: load.Seat) -> int:
    return getattr(seat, "index", 0)


def latencies(
    tables: list[Table], seats_per_table: int, when: list[float] | None = None
) -> tuple[list[float], int]:
    """Per move: ms until every other seat had a state at least as new; moves never seen by
    all (the run ended first) are counted apart. ``when`` gets each counted move's send time."""
    out: list[float] = []
    unseen = 0
    for t in tables:
        keys = sorted(t.seen)
        for sent, mover, key in t.moves:
            got = arrivals(t, keys, mover, key, seats_per_table)
            if got is None:
                unseen += 1
            else:
                out.append(max(0.0, max(got)[0] - sent) * 1000)
                if when is not None:
                    when.append(sent)
    return out, unseen


def arrivals(
    t: Table, keys: list[tuple[int, int]], mover: int, key: tuple[int, int], seats: int
) -> list[tuple[float, int]] | None:
    """When each other seat of the table first had a state at least as new as ``key`` (``keys``:
    the table's states in order), as (time, seat); None when one never had it."""
    out = []
    for other in range(seats):
        if other == mover:
            continue
        first = min(
            (t.seen[k][other] for k in keys if k >= key and other in t.seen[k]), default=None
        )
        if first is None:
            return None
        out.append((first, other))
    return out


Traced = tuple[dict[tuple[str, tuple[int, int]], list[Any]], dict[str, list[list[Any]]]]


def read_traces(tmp: Path) -> Traced:
    """The servers' traces (bench/load_gunicorn.py): each move's POST by (seat token, state it
    made), and each seat stream's events by seat token, in the order sent."""
    posts: dict[tuple[str, tuple[int, int]], list[Any]] = {}
    events: dict[str, list[list[Any]]] = defaultdict(list)
    for f in tmp.glob("trace-*.json"):
        got = json.loads(f.read_text())
        for post in got["posts"]:
            posts[(post[2].split("/")[2], state_key(post[3]))] = post
        for event in got["events"]:
            events[event[1].split("/")[2]].append(event)
    for sent in events.values():
        sent.sort()
    return posts, events


def print_trace(traced: Traced, tables: list[Table], tokens: list[str], started: float) -> None:
    """Each move's latency split where its time went, for the slowest tenth of the moves and
    the middle fifth, in the first 10 s (the seats and projectors arriving) and after: the
    wait before its POST began in a server, the POST (its statements: how many, and the time
    until their answers, waits for the worker's other requests included), then until the
    event of its slowest other seat left that seat's server, then until it arrived."""
    posts, events = traced
    wall = time.time() - time.monotonic()  # the servers write time.time(); the client monotonic
    rows = []
    for n, t in enumerate(tables):
        keys = sorted(t.seen)
        for sent, mover, key in t.moves:
            seen_at = arrivals(t, keys, mover, key, 4)
            post = posts.get((tokens[4 * n + mover], key))
            if seen_at is None or post is None:
                continue
            arrived, last = max(seen_at)
            left = next(
                (
                    e[0]
                    for e in events.get(tokens[4 * n + last], [])
                    if e[0] >= post[1] - 0.005 and state_key(e[2]) >= key
                ),
                None,
            )
            if left is None:
                continue
            rows.append(
                (
                    (arrived - sent) * 1000,
                    sent - started,
                    (post[0] - sent - wall) * 1000,
                    (post[1] - post[0]) * 1000,
                    post[4],
                    post[5] * 1000,
                    (left - post[1]) * 1000,
                    (arrived + wall - left) * 1000,
                )
            )
    print(f"trace: {len(rows)} moves joined with their POST and their last seat's event")
    for label, span in (("first 10 s", (0.0, 10.0)), ("after", (10.0, float("inf")))):
        got = sorted(r for r in rows if span[0] <= r[1] < span[1])
        for part, chosen in (
            ("slowest tenth", got[int(len(got) * 0.9) :]),
            ("middle fifth", got[int(len(got) * 0.4) : int(len(got) * 0.6)]),
        ):
            if not chosen:
                continue
            med = [statistics.median(r[i] for r in chosen) for i in (0, 2, 3, 4, 5, 6, 7)]
            print(
                f"  {label}, {part} (n={len(chosen)}), medians: latency {med[0]:.0f} ms = "
                f"to the POST {med[1]:.0f} + POST {med[2]:.0f} ({med[3]:.0f} statements, "
                f"{med[4]:.0f} ms until their answers) + until the last seat's event left "
                f"{med[5]:.0f} + to the client {med[6]:.0f}"
            )


async def mark_cpu(
    stats: load.Stats, cpu_now: Callable[[], tuple[float, ...]], marks: list[tuple[float, ...]]
) -> None:
    """The CPU times ``cpu_now`` reads, every 10 s of the run from its start: how much the
    arrivals of the first 10 s cost beside the moves (``print_cpu_by_window``)."""
    k = 0
    while True:
        marks.append(cpu_now())
        k += 1
        if not await load._sleep_until(stats, stats.started + 10 * k):
            marks.append(cpu_now())
            return


def print_cpu_by_window(marks: list[tuple[float, ...]], sent: list[float], started: float) -> None:
    """Per 10 s of the run: the cores' seconds per second the app servers and PostgreSQL used,
    and the app servers' CPU per move made then (arrivals included)."""
    moves: dict[int, int] = defaultdict(int)
    for at in sent:
        moves[int((at - started) // 10)] += 1
    parts = []
    for k, (a, b) in enumerate(itertools.pairwise(marks)):
        span = max(b[0] - a[0], 1e-9)
        app, pg = (b[1] - a[1]) / span, (b[2] - a[2]) / span
        per_move = (b[1] - a[1]) / moves[k] * 1000 if moves.get(k) else 0.0
        parts.append(f"{10 * k}-{10 * k + 10} s {app:.2f}+{pg:.2f} ({per_move:.1f} ms/move)")
    print("CPU by 10 s of the run, app servers + PostgreSQL in cores: " + ", ".join(parts))


async def drive(
    port: int,
    standings: str,
    tokens: list[str],
    viewers: int,
    args: argparse.Namespace,
    stats: load.Stats,
    tables: list[Table],
    counts: Counts,
    cpu_now: Callable[[], tuple[float, ...]] | None = None,
    cpu_marks: list[tuple[float, ...]] | None = None,
) -> None:
    play = load.Play("tractor-4p", load.default_options("tractor-4p"), (1.0, 3.0))
    jobs: list[Any] = []
    if cpu_now is not None and cpu_marks is not None:
        jobs.append(mark_cpu(stats, cpu_now, cpu_marks))
    for i, token in enumerate(tokens):
        seat = load.Seat(token)
        seat.index = i % 4  # type: ignore[attr-defined]
        start = stats.started + (i / max(1, len(tokens))) * 10  # arrivals over 10 s
        jobs.append(seat_client(port, seat, i % 4, tables[i // 4], stats, counts, play, start, i))
    for j in range(viewers):
        start = stats.started + (j / max(1, viewers)) * 10
        jobs.append(viewer_client(port, stats, standings, counts, start, 30.0, 10_000 + j))
    await asyncio.gather(*jobs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--viewers", type=int, default=30)
    ap.add_argument("--seconds", type=int, default=40)
    # both servers share this machine's cores: one gevent worker each is one per core, as
    # gunicorn.conf.py sets a server that has the machine to itself
    ap.add_argument("--workers", type=int, default=1, help="gevent workers per server")
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument(
        "--trace",
        action="store_true",
        help="split each move's latency: waiting for its POST, the POST, until the last seat's "
        "event left its server, until it arrived (bench/load_gunicorn.py's LOAD_BENCH_TRACE)",
    )
    args = ap.parse_args()
    seconds = min(args.seconds, load.MAX_SECONDS)
    os.environ["WEB_WORKER_CLASS"] = "gevent"
    if args.trace:
        os.environ["LOAD_BENCH_TRACE"] = "1"
    with tempfile.TemporaryDirectory(prefix="shengji-push-") as tmpdir:
        tmp = Path(tmpdir)
        with load.database("postgresql", tmp) as (url, _pg):
            load.migrate(url)
            standings, tokens = load.set_up(url, args.tables, "tractor-4p", args.deals, "push")
            servers = [load.start_gunicorn(url, tmp, args.workers, None, False) for _ in range(2)]
            lb = Balancer([g.port for g in servers])
            lb.start()
            for g in servers:  # each server's worker as one that has run a while (load.py's)
                asyncio.run(load.warm_up(g.port, standings, tokens, args.workers))
            speed_before = host_speed()
            stats = load.Stats(limit=10_000_000)
            counts = Counts()
            tables = [Table() for _ in range(args.tables)]
            try:
                cpu0 = time.process_time()
                srv0 = sum(g.cpu_seconds() for g in servers)
                pg0 = load.pg_cpu_seconds(_pg)
                lb0 = load.proc_cpu(lb.proc.pid if lb.proc else 0)
                stats.started = time.monotonic()
                stats.deadline = stats.started + seconds

                def cpu_now() -> tuple[float, ...]:
                    return (
                        time.monotonic(),
                        sum(g.cpu_seconds() for g in servers),
                        load.pg_cpu_seconds(_pg),
                    )

                marks: list[tuple[float, ...]] = []
                asyncio.run(
                    drive(
                        lb.port,
                        standings,
                        tokens,
                        args.viewers,
                        args,
                        stats,
                        tables,
                        counts,
                        cpu_now,
                        marks,
                    )
                )
                wall = time.monotonic() - stats.started
                cpu = (
                    time.process_time() - cpu0,
                    sum(g.cpu_seconds() for g in servers) - srv0,
                    load.pg_cpu_seconds(_pg) - pg0,
                    load.proc_cpu(lb.proc.pid if lb.proc else 0) - lb0,
                )
            finally:
                lb.stop()
                for g in servers:
                    g.stop()
            speed_after = host_speed()
            crashed = any("Traceback" in g.log.read_text(errors="replace") for g in servers)
            # written by each worker as it ends (bench/load_gunicorn.py)
            _kinds, deals, gcs, _shares = load.worker_cpu(tmp, False)
            traced = read_traces(tmp) if args.trace else None
    sent: list[float] = []
    ms, unseen = latencies(tables, 4, sent)
    errors = sum(stats.errors.values()) + (1 if crashed else 0)
    moves = len(ms)
    p50, p95, p99 = (load.pct(ms, q) for q in (0.50, 0.95, 0.99)) if ms else (0.0, 0.0, 0.0)
    print(
        f"tables={args.tables} seats={len(tokens)} viewers={args.viewers} servers=2 "
        f"workers/server={args.workers} seconds={seconds}"
    )
    print(f"moves pushed to every other seat: {moves} (not yet seen by all at the end: {unseen})")
    print(
        f"push latency ms: p50 {p50:.0f}  p95 {p95:.0f}  p99 {p99:.0f}  max {max(ms, default=0):.0f}"
    )
    print(
        f"stream events {counts.events} at the seats, {counts.viewer_events} at the projectors; "
        f"reconnections {counts.reconnects}, stale moves {stats.stale}"
    )
    # the seats and projectors arrive over the first 10 s (pages, streams): the push latency
    # by 10 s of the run, to tell that start from the steady night
    spans: dict[int, list[float]] = defaultdict(list)
    for at, x in zip(sent, ms, strict=True):
        spans[int((at - stats.started) // 10)].append(x)
    print(
        "push p95 by 10 s of the run: "
        + ", ".join(
            f"{10 * k}-{10 * k + 10} s {load.pct(v, 0.95):.0f} ms (n={len(v)})"
            for k, v in sorted(spans.items())
        )
    )
    print_cpu_by_window(marks, sent, stats.started)
    for kind, values in sorted(stats.times.items()):
        if values:
            print(f"  {kind:10s} n={len(values):6d} p95 {load.pct(values, 0.95):7.1f} ms")
    for kind, n in sorted(stats.errors.items()):
        print(f"  errors {kind}: {n}")
    for sample in stats.error_samples:
        print(f"    e.g. {sample[:160]}")
    print(
        f"CPU time: clients {cpu[0]:.1f} s, gunicorn {cpu[1]:.1f} s, PostgreSQL {cpu[2]:.1f} s, "
        f"HAProxy {cpu[3]:.1f} s (in {wall:.1f} s on {os.cpu_count()} cores)"
    )
    print(
        "host speed, a fixed loop's CPU ms (min/median/max of 5): before "
        + "/".join(f"{x:.0f}" for x in speed_before[::2])
        + ", after "
        + "/".join(f"{x:.0f}" for x in speed_after[::2])
    )
    made = sum(len(t.moves) for t in tables)
    if made:
        # what the servers spend on one move: its POST, then the render each open stream of its
        # table gets (and the projectors' share); independent of how busy the machine is,
        # which the latency is not
        print(
            f"CPU per move ({made} moves made): gunicorn {cpu[1] / made * 1000:.1f} ms, "
            f"PostgreSQL {cpu[2] / made * 1000:.1f} ms, HAProxy {cpu[3] / made * 1000:.1f} ms"
        )
    print(
        "deals rebuilt by the workers: "
        + ", ".join(f"{k} {deals[k]}" for k in ("hits", "forward", "replays"))
        + "; garbage collector: "
        + ", ".join(
            f"gen{gen} {int(n)} passes {took:.2f} s" for gen, (n, took, _l) in sorted(gcs.items())
        )
    )
    if traced is not None:
        print_trace(traced, tables, tokens, stats.started)
    if crashed:
        print("a traceback in a server's log")
    verdict = "holds" if p95 < TARGET_P95_MS and errors == 0 else "misses"
    print(f"goal p95 < {TARGET_P95_MS:.0f} ms with no error: {verdict}")
    print(
        f"push_p95_ms={p95:.0f} tables={args.tables} viewers={args.viewers} servers=2 "
        f"errors={errors} db=postgresql"
    )


if __name__ == "__main__":
    main()
