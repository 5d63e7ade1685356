"""Load benchmark: N online tables played at human pace by HTTP clients, M spectators on the
standings and projector pages, against gunicorn (``gunicorn.conf.py``, as ``make serve``) on
SQLite or on a throwaway PostgreSQL server (``tests/pg_server.py``). Loopback only; bounded in
time (``--seconds``, at most 120) and in requests (``--max-requests``).

Set-up through the app's services: a club and a tournament of 2N pairs (tractor-4p by default),
round 1 seated, every table switched online; no entrant has an account, so every seat is a guest
link (``/play/<token>``). The schema comes from ``flask db upgrade``.

Each seat is a client that behaves as the seat page does in a browser: it opens the page (its
cookie jar keeps the session; the CSRF token comes from the page), polls
``/play/<token>/poll?v=<token>`` every 2 s (204 while unchanged, else the page's fresh partial),
and when its turn comes (the partial says ``data-my-turn="1"``, or offers the Continue button of
a finished deal) it thinks 1–3 s and posts a legal move as the page's form does (htmx POST with
``csrf_token`` and ``v``), decided from what the page it holds shows (``page_state``: the forms'
moves, the hand's cards, the table's lead, level and trump), as a player decides from the
screen: leading, one playable card; following, a legal follow found by the engine's rules on
its own hand and the public lead; calls, passes, the kitty and the friend card at random among
what the page offers. With ``--state-json`` it first reads ``/play/<token>/state.json`` (the
seat's JSON view) and decides from that instead, as earlier versions of this bench did: a
request no browser makes, one per move.

Each viewer opens the standings page (half of them its projector view, ``?projector=1``), polls
its live partial every 3 s as the page does (204 while unchanged) and opens the page afresh every
``--reload`` seconds (people come and go; projectors get reloaded).

Prints throughput, p50/p95/p99 latency per route kind (move, ready, poll, seat page, state.json,
standings, projector, live), errors (a 5xx, a refused move, a failed connection, a timeout:
anything but what a browser expects) and the 409s (a move on a state that changed meanwhile: the
app's correct answer, counted apart), the CPU time of the clients, the gunicorn workers and
PostgreSQL, the load average; last the line

    tables=N viewers=M p95_ms=X errors=E db=postgresql

(X: the p95 over every request). ``--search`` runs N = 10, 25, 50, 75, 100, 150, 200 … (viewers
3N unless ``--viewers`` is given) until a run misses p95 < 100 ms with zero errors, and prints
the largest N that held last.

    .venv/bin/python bench/load.py --db sqlite --tables 25 --viewers 75 --seconds 40
    .venv/bin/python bench/load.py --db postgresql --search --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import combos  # noqa: E402
from engine import play as rules  # noqa: E402
from engine.cards import cards_str, parse_card  # noqa: E402
from engine.order import TrumpContext  # noqa: E402
from engine.variants import default_options, make_variant  # noqa: E402

HOST = "127.0.0.1"
MAX_SECONDS = 120
TIMEOUT_S = 10.0  # a request without an answer by then is an error
SEAT_POLL_S = 2.0  # hx-trigger="every 2s" (templates/online/_seat.html)
LIVE_POLL_S = 3.0  # hx-trigger="every 3s" (templates/tournaments/_standings.html)
TARGET_P95_MS = 100.0
SEARCH_STEPS = (10, 25, 50, 75, 100, 125, 150, 200, 250, 300)
KINDS = ("move", "ready", "poll", "seat page", "state.json", "standings", "projector", "live")
PAIRS = {"tractor-4p": 2, "one-twenty-6p": 3}  # players per entrant (fixed sides)


# --- measurements ---------------------------------------------------------------------------------


@dataclass
class Stats:
    times: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    # (seconds since the start, ms) of every answer, for the p95 over time
    timeline: list[tuple[float, float]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    stale: int = 0
    requests: int = 0
    limit: int = 0
    started: float = 0.0
    deadline: float = 0.0

    def done(self) -> bool:
        return time.monotonic() >= self.deadline or self.requests >= self.limit

    def error(self, kind: str, what: str) -> None:
        self.errors[kind] += 1
        if len(self.error_samples) < 8:
            self.error_samples.append(f"{kind}: {what}")


def pct(xs: list[float], q: float) -> float:
    """The q-quantile (0..1) of xs (nearest rank); 0 for no samples."""
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


# --- a small HTTP/1.1 client (keep-alive, cookies), one connection per browser ---------------------


class Browser:
    """One browser: its own keep-alive connection and cookie jar."""

    def __init__(self, port: int, stats: Stats) -> None:
        self.port = port
        self.stats = stats
        self.cookies: dict[str, str] = {}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.headers: dict[str, str] = {}  # the last answer's headers (lower-case names)

    async def _connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def _exchange(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            await self._connect()
        assert self.reader is not None and self.writer is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if method == "POST":
            lines.append("Content-Type: application/x-www-form-urlencoded")
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection")
        status = int(status_line.split()[1])
        got: dict[str, str] = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _sep, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                k, _eq, v = value.split(";", 1)[0].partition("=")
                self.cookies[k.strip()] = v.strip()
            got[name] = value
        length = int(got.get("content-length", "0"))
        data = await self.reader.readexactly(length) if length else b""
        if got.get("connection", "").lower() == "close":
            self.close()
        return status, got, data

    async def request(
        self,
        kind: str,
        path: str,
        form: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, str] | None:
        """(status, body), timed under ``kind``; None after a failure (counted as an error)."""
        stats = self.stats
        stats.requests += 1
        body = urlencode(form or {}, doseq=True).encode()
        method = "POST" if form is not None else "GET"
        t0 = time.perf_counter()
        try:
            for attempt in (1, 2):  # a keep-alive connection the server closed meanwhile
                try:
                    status, self.headers, data = await asyncio.wait_for(
                        self._exchange(method, path, body, headers or {}), TIMEOUT_S
                    )
                    break
                except (ConnectionError, asyncio.IncompleteReadError):
                    self.close()
                    if attempt == 2 or self.writer is not None:
                        raise
                    t0 = time.perf_counter()
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as e:
            self.close()
            stats.error(kind, f"{method} {path}: {type(e).__name__} {e}")
            return None
        ms = (time.perf_counter() - t0) * 1000
        stats.times[kind].append(ms)
        stats.timeline.append((time.monotonic() - stats.started, ms))
        return status, data.decode("utf-8", "replace")


# --- deciding a move from the seat's JSON view ------------------------------------------------------


def _context(state: dict[str, Any]) -> TrumpContext:
    variant = make_variant(state["variant"], state["options"])
    return TrumpContext(variant, state["level"], state["trump"])


def follow(lead: list[int], hand: list[int], ctx: TrumpContext, rng: random.Random) -> list[int]:
    """A legal follow to ``lead`` from ``hand`` (the engine's rules on public cards and the
    seat's own hand): the shape the lead demands, if the hand can give it, then any cards."""
    st = ctx.suit_tab
    s = st[lead[0]]
    n = len(lead)
    suit = [c for c in hand if st[c] == s]
    if len(suit) <= n:
        other = [c for c in hand if st[c] != s]
        return suit + rng.sample(other, n - len(suit))
    found: list[int] = []
    cnt = Counter(suit)
    pool = rules._Pool(cnt, ctx)
    fixed = rules._fixed_demands(combos.lead_components(lead, ctx), pool)

    def on_found(used: list[tuple[int, int]]) -> bool:
        for i, w in used:
            found.extend([pool.cards[i]] * w)
        return True

    rules._search(pool, rules._order(fixed), on_found)
    left = cnt.copy()
    left.subtract(found)
    rest = list(left.elements())
    rng.shuffle(rest)
    play = found + rest[: n - len(found)]
    if rules.can_follow(lead, hand, play, ctx):
        return play
    for _ in range(500):  # pragma: no cover - the demand search above is exact
        play = rng.sample(suit, n)
        if rules.can_follow(lead, hand, play, ctx):
            return play
    raise RuntimeError(f"no legal follow found for {cards_str(lead)}")


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The move's form fields (without csrf_token and v), or None when there is none."""
    actions = state["actions"]
    if "continue" in actions:  # the draw waits: call now and then with the card just drawn
        if "call" in actions and state["calls"] and rng.random() < 0.2:
            return {"kind": "call", "cards": rng.choice(state["calls"])}
        return {"kind": "continue"}
    if "call" in actions and state["calls"] and rng.random() < 0.2:
        return {"kind": "call", "cards": rng.choice(state["calls"])}
    if "pass" in actions:
        return {"kind": "pass"}
    if "bury" in actions:
        return {"kind": "bury", "cards": rng.sample(state["hand"], state["kitty_size"])}
    if "friend" in actions:
        choices = state["friend_choices"]
        return {"kind": "friend", "card": rng.choice(choices) if rng.random() < 0.8 else ""}
    if "play" in actions:
        trick = state["trick"]
        if not trick or not trick["plays"]:
            return {"kind": "play", "cards": [rng.choice(state["playable"])]}
        lead = [parse_card(c) for c in trick["plays"][0]["cards"]]
        hand = [parse_card(c) for c in state["hand"]]
        return {"kind": "play", "cards": cards_str(follow(lead, hand, _context(state), rng))}
    return None


# --- what the seat's page shows, read as a person reads it ---------------------------------------------

FORM_RE = re.compile(r"<form\b.*?</form>", re.S)
KIND_RE = re.compile(r'name="kind" value="([^"]+)"')
HIDDEN_CARD_RE = re.compile(r'<input type="hidden" name="cards" value="([^"]+)">')
HAND_CARD_RE = re.compile(r'<input type="checkbox" name="cards" value="([^"]+)"( disabled)?>')
OPTION_RE = re.compile(r'<option value="([^"]*)">')
NEED_RE = re.compile(r'data-need="(\d+)"')
FELT_RE = re.compile(
    r'id="table"[^>]*? data-level="([^"]*)" data-trump="([^"]*)"(?: data-leader="(\d+)")?'
)
PLAY_RE = re.compile(r'<div class="play [^"]*" data-seat="(\d+)" data-cards="([^"]*)">')


def page_state(html: str, variant: str, options: dict[str, Any]) -> dict[str, Any]:
    """What ``choose`` needs, read from the seat's page (the partial a poll or a move answers):
    the moves its forms offer (``data-move``), the calls' cards, the hand's checkboxes (a
    disabled one is not playable), the friend card's choices, how many cards the kitty or the
    lead asks for (the play button's ``data-need``), and from the table the level, the trump
    and the lead's cards (the felt's ``data-*`` and the leader's ``data-cards``). The variant is
    the tournament's, which a player knows."""
    m = TOKEN_RE.search(html)
    state: dict[str, Any] = {
        "token": m.group(1) if m else "",
        "variant": variant,
        "options": options,
        "actions": [],
        "calls": [],
        "hand": [],
        "playable": [],
        "friend_choices": [],
        "kitty_size": None,
        "level": None,
        "trump": None,
        "trick": None,
    }
    for form in FORM_RE.findall(html):
        k = KIND_RE.search(form)
        if k is None:
            continue
        kind = k.group(1)
        if kind not in state["actions"]:
            state["actions"].append(kind)
        if kind == "call":
            state["calls"].append(HIDDEN_CARD_RE.findall(form))
        elif kind in ("play", "bury"):
            for code, disabled in HAND_CARD_RE.findall(form):
                state["hand"].append(code)
                if not disabled:
                    state["playable"].append(code)
            need = NEED_RE.search(form)
            if kind == "bury" and need:
                state["kitty_size"] = int(need.group(1))
        elif kind == "friend":
            state["friend_choices"] += [c for c in OPTION_RE.findall(form) if c]
    felt = FELT_RE.search(html)
    if felt is not None:
        state["level"] = felt.group(1) or None
        state["trump"] = felt.group(2) or None
        if felt.group(3) is not None:
            plays = {int(seat): cards.split() for seat, cards in PLAY_RE.findall(html)}
            lead = plays.get(int(felt.group(3)))
            if lead:
                state["trick"] = {"plays": [{"cards": lead}]}
    return state


# --- the clients ------------------------------------------------------------------------------------

TOKEN_RE = re.compile(r'data-token="([^"]+)"')
TURN_RE = re.compile(r'data-my-turn="1"')
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')
VERSION_RE = re.compile(r'data-version="([^"]+)"')
HTMX = {"HX-Request": "true"}


async def _sleep_until(stats: Stats, when: float) -> bool:
    """Sleep until ``when`` (monotonic); False if the run ends first."""
    wait = min(when, stats.deadline) - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)
    return not stats.done()


@dataclass
class Seat:
    token: str
    html: str = ""
    v: str = ""
    csrf: str = ""

    def read(self, html: str) -> None:
        self.html = html
        m = TOKEN_RE.search(html)
        if m:
            self.v = m.group(1)

    def wants_to_act(self) -> str | None:
        if TURN_RE.search(self.html):
            return "move"
        if f"/play/{self.token}/ready" in self.html and "The match is over." not in self.html:
            return "ready"  # a finished deal's summary with its Continue button
        return None


@dataclass
class Play:
    """How the seats decide: from their page (``variant``/``options``: the tournament's), or,
    with ``json``, from the seat's JSON view fetched before each move (``state.json``)."""

    variant: str
    options: dict[str, Any]
    think: tuple[float, float]
    json: bool = False


async def seat_client(
    port: int, stats: Stats, seat: Seat, start: float, play: Play, seed: int
) -> None:
    rng = random.Random(seed)
    b = Browser(port, stats)
    url = f"/play/{seat.token}"
    try:
        if not await _sleep_until(stats, start):
            return
        got = await b.request("seat page", url)
        if got is None or got[0] != 200:
            if got is not None:
                stats.error("seat page", f"GET {url}: {got[0]}")
            return
        m = CSRF_RE.search(got[1])
        if not m:
            stats.error("seat page", "no CSRF token on the seat page")
            return
        seat.csrf = m.group(1)
        seat.read(got[1])
        next_poll = time.monotonic() + rng.uniform(0, SEAT_POLL_S)
        act_at: float | None = None
        while not stats.done():
            want = seat.wants_to_act()
            if want is not None and act_at is None:
                act_at = time.monotonic() + rng.uniform(*play.think)
            if not await _sleep_until(stats, min(next_poll, act_at or next_poll)):
                break
            now = time.monotonic()
            if act_at is not None and now >= act_at:
                act_at = None
                await _act(b, stats, seat, url, rng, play)
                next_poll = time.monotonic() + SEAT_POLL_S
                continue
            got = await b.request("poll", f"{url}/poll?v={seat.v}", headers=HTMX)
            next_poll = time.monotonic() + SEAT_POLL_S
            if got is None:
                continue
            if got[0] == 200:
                seat.read(got[1])
                if seat.wants_to_act() is None:
                    act_at = None
            elif got[0] != 204:
                stats.error("poll", f"poll: {got[0]}")
    finally:
        b.close()


async def _act(
    b: Browser, stats: Stats, seat: Seat, url: str, rng: random.Random, play: Play
) -> None:
    want = seat.wants_to_act()
    if want == "ready":
        form = {"csrf_token": seat.csrf, "v": seat.v}
        got = await b.request("ready", f"{url}/ready", form, HTMX)
        kind = "ready"
    elif want == "move":
        if play.json:
            got = await b.request("state.json", f"{url}/state.json")
            if got is None:
                return
            if got[0] != 200:
                stats.error("state.json", f"state.json: {got[0]}")
                return
            state = json.loads(got[1])
        else:
            state = page_state(seat.html, play.variant, play.options)
        move = choose(state, rng)
        if move is None:  # nothing to choose from what the seat read: the game moved on
            return
        form = {"csrf_token": seat.csrf, "v": state["token"], **move}
        got = await b.request("move", url, form, HTMX)
        kind = "move"
    else:
        return
    if got is None:
        return
    status, html = got
    if status == 200:
        seat.read(html)
    elif status == 409:  # the state changed meanwhile: the answer is the fresh page
        stats.stale += 1
        seat.read(html)
    else:
        stats.error(kind, f"{kind}: {status} {html[:200]!r}")


async def viewer_client(
    port: int,
    stats: Stats,
    standings: str,
    projector: bool,
    start: float,
    reload_s: float,
    seed: int,
) -> None:
    rng = random.Random(seed)
    b = Browser(port, stats)
    kind = "projector" if projector else "standings"
    page = f"{standings}" + ("?projector=1" if projector else "")
    try:
        if not await _sleep_until(stats, start):
            return
        while not stats.done():
            got = await b.request(kind, page)
            if got is None or got[0] != 200:
                if got is not None:
                    stats.error(kind, f"GET {page}: {got[0]}")
                return
            m = VERSION_RE.search(got[1])
            version = m.group(1) if m else ""
            reload_at = time.monotonic() + reload_s * rng.uniform(0.8, 1.2)
            next_poll = time.monotonic() + rng.uniform(0, LIVE_POLL_S)
            while await _sleep_until(stats, min(next_poll, reload_at)):
                if time.monotonic() >= reload_at:
                    break
                got = await b.request("live", f"{standings}/live?v={version}", headers=HTMX)
                next_poll = time.monotonic() + LIVE_POLL_S
                if got is None:
                    continue
                if got[0] == 200:
                    m = VERSION_RE.search(got[1])
                    version = m.group(1) if m else version
                elif got[0] != 204:
                    stats.error("live", f"live: {got[0]}")
    finally:
        b.close()


# --- the server side --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


@contextmanager
def database(kind: str, tmp: Path) -> Iterator[tuple[str, Any]]:
    """(SQLAlchemy URL, the PgServer or None) of an empty database."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp}/bench.db", None
        return
    import psycopg

    from tests.pg_server import start_server

    server = start_server()
    try:
        with psycopg.connect(
            server.url("postgres").replace("+psycopg", ""), autocommit=True
        ) as conn:
            conn.execute("CREATE DATABASE bench")
        yield server.url("bench"), server
    finally:
        server.stop()


def env_for(url: str, extra: dict[str, str]) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"DATABASE_URL": url, "SECRET_KEY": "load-bench", "FLASK_APP": "app"}, **extra)
    return env


def migrate(url: str) -> None:
    flask = Path(sys.executable).with_name("flask")
    subprocess.run(
        [str(flask), "--app", "app", "db", "upgrade"],
        cwd=ROOT,
        env=env_for(url, {}),
        check=True,
        capture_output=True,
    )


def set_up(url: str, tables: int, variant: str, deals: int, label: str) -> tuple[str, list[str]]:
    """A club and a tournament whose round 1 has ``tables`` online tables, every seat a guest
    link: (the path of the tournament's public standings, every seat's token)."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("SECRET_KEY", "load-bench")
    from sqlalchemy import select

    from app import create_app
    from app.competition import model as cm
    from app.db import write_transaction
    from app.extensions import db
    from app.models import OnlineSeat
    from app.services.online import director
    from app.services.tournaments.audit import Actor
    from app.services.tournaments.files import import_tournament
    from app.services.tournaments.rounds import seat_next_round
    from app.services.visibility import set_visibility

    size = PAIRS[variant]
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SERVER_NAME": f"{HOST}"})
    actor = Actor(label="load bench", owner=True, director=True)
    comp = cm.Tournament(
        club="Load Bench Club",
        name=f"Load {label}",
        variant=variant,
        pairing="swiss",
        rounds=1,
        match=cm.MatchSpec(deals=deals),
        options=default_options(variant),
        entrants=tuple(
            cm.Entrant(f"Pair {i + 1}", tuple(f"P{i + 1}{'abc'[j]}" for j in range(size)))
            for i in range(2 * tables)
        ),
    )
    with app.test_request_context(), write_transaction():
        t = import_tournament(comp)
        rnd = seat_next_round(t, actor)
        online = [x for x in rnd.tables if x.kind != "bye"]
        for tab in online:
            director.switch_online(t, tab, actor)
        db.session.commit()
        ids = [x.id for x in online]
        tokens = list(
            db.session.scalars(
                select(OnlineSeat.token)
                .where(OnlineSeat.table_id.in_(ids), OnlineSeat.member_id.is_(None))
                .order_by(OnlineSeat.table_id, OnlineSeat.seat)
            )
        )
        set_visibility(t, "public")  # viewers open the night's public link, as a club shares it
        db.session.commit()
        standings = f"/p/{t.public_token}"
        db.session.remove()
    with app.app_context():
        db.engine.dispose()
    return standings, tokens


@dataclass
class Gunicorn:
    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    def cpu_seconds(self) -> float:
        """CPU time of the master and its workers (the live ones and those it reaped)."""
        return proc_cpu(self.proc.pid)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_gunicorn(
    url: str, tmp: Path, workers: int | None, threads: int | None, profile: bool
) -> Gunicorn:
    port = free_port()
    extra = {"BIND": f"{HOST}:{port}", "LOAD_BENCH_DIR": str(tmp)}
    if profile:
        extra["LOAD_BENCH_PROFILE"] = "1"
    if workers:
        extra["WEB_WORKERS"] = str(workers)
    if threads:
        extra["WEB_THREADS"] = str(threads)
    log = tmp / f"gunicorn-{port}.log"
    gunicorn = Path(sys.executable).with_name("gunicorn")
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(gunicorn), "-c", "bench/load_gunicorn.py", "app:create_app()"],
            cwd=ROOT,
            env=env_for(url, extra),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    g = Gunicorn(proc, port, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("gunicorn ended:\n" + log.read_text()[-3000:])
        try:
            with socket.create_connection((HOST, port), timeout=1) as sock:
                sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
                if sock.recv(12):
                    break
        except OSError:
            time.sleep(0.2)
    else:
        g.stop()
        raise RuntimeError("gunicorn did not answer within 60 s")
    # every worker has booted (imports done) before the clock starts
    time.sleep(1.0 + 0.3 * (workers or 5))
    return g


def worker_cpu(
    tmp: Path, profile: bool
) -> tuple[dict[str, tuple[int, float]], Counter[str], dict[int, list[float]], list[float]]:
    """The workers' CPU time per route kind (bench/load_gunicorn.py): (requests, seconds);
    how the workers rebuilt deals (hits, forward, full replays); the garbage collector's passes
    by generation (count, seconds, the longest); each worker's CPU time in requests."""
    total: dict[str, list[float]] = {}
    deals: Counter[str] = Counter()
    gcs: dict[int, list[float]] = {}
    shares: list[float] = []
    for f in tmp.glob("cpu-*.json"):
        got_file = json.loads(f.read_text())
        shares.append(sum(cpu for _n, cpu in got_file["kinds"].values()))
        deals.update(got_file["deals"])
        for gen, (count, took, longest) in got_file.get("gc", {}).items():
            mine = gcs.setdefault(int(gen), [0, 0.0, 0.0])
            mine[0] += count
            mine[1] += took
            mine[2] = max(mine[2], longest)
        for kind, (n, cpu) in got_file["kinds"].items():
            got = total.setdefault(kind, [0, 0.0])
            got[0] += n
            got[1] += cpu

    if profile:
        import pstats

        files = [str(f) for f in tmp.glob("prof-*.pstats")]
        if files:
            stats = pstats.Stats(*files)
            stats.sort_stats("tottime").print_stats(25)
            stats.sort_stats("cumulative").print_stats(45)
    return {k: (int(n), cpu) for k, (n, cpu) in total.items()}, deals, gcs, sorted(shares)


def pg_cpu_seconds(pg: Any) -> float:
    """CPU time of the PostgreSQL server: the postmaster, its live backends and the ended ones."""
    try:
        pid = int((pg.data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    return proc_cpu(pid)


def proc_cpu(pid: int) -> float:
    """CPU seconds of a process, its live children and the children it has reaped."""
    total = 0
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        kids = []
    for i, p in enumerate([str(pid), *kids]):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime stime
        if i == 0:
            total += int(fields[13]) + int(fields[14])  # cutime cstime: the reaped children
    return total / os.sysconf("SC_CLK_TCK")


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


# --- one run ------------------------------------------------------------------------------------


@dataclass
class Result:
    tables: int
    viewers: int
    db: str
    p95: float
    errors: int
    holds: bool


async def warm_up(port: int, standings: str, tokens: list[str], workers: int) -> None:
    """Before the clock: every kind of request a few times per worker, each on a connection of
    its own (so that each worker has imported its modules and compiled its templates, as a
    server that has run a while has); a stale move (409) goes through the move's path."""
    scratch = Stats(limit=1 << 30, deadline=time.monotonic() + 60)
    paths = [
        f"/play/{tokens[0]}",
        f"/play/{tokens[0]}/poll?v=0",
        f"/play/{tokens[0]}/state.json",
        f"{standings}",
        f"{standings}?projector=1",
        f"{standings}/live?v=0",
    ]

    async def one(path: str) -> None:
        b = Browser(port, scratch)
        got = await b.request("seat page", path)
        if path == paths[0] and got is not None:
            m = CSRF_RE.search(got[1])
            if m:
                form = {"csrf_token": m.group(1), "v": "0.0", "kind": "pass"}
                await b.request("move", path, form, HTMX)
        b.close()

    for _ in range(3 * workers):
        await asyncio.gather(*(one(p) for p in paths))


async def _drive(
    port: int,
    standings: str,
    tokens: list[str],
    viewers: int,
    args: argparse.Namespace,
    stats: Stats,
) -> None:
    rng = random.Random(args.seed)
    t0 = time.monotonic()
    ramp = min(10.0, args.seconds / 4)
    play = Play(
        args.variant,
        default_options(args.variant),  # set_up's tournament
        (args.think_min, args.think_max),
        args.state_json,
    )
    jobs = [
        seat_client(port, stats, Seat(tok), t0 + rng.uniform(0, ramp), play, rng.randrange(1 << 30))
        for tok in tokens
    ]
    jobs += [
        viewer_client(
            port,
            stats,
            standings,
            i % 2 == 1,
            t0 + rng.uniform(0, ramp),
            args.reload,
            rng.randrange(1 << 30),
        )
        for i in range(viewers)
    ]
    await asyncio.gather(*jobs)


def run_once(args: argparse.Namespace, tables: int, viewers: int, label: str) -> Result:
    with tempfile.TemporaryDirectory(prefix="shengji-load-") as tmpdir:
        tmp = Path(tmpdir)
        with database(args.db, tmp) as (url, pg):
            migrate(url)
            c0 = time.perf_counter()
            standings, tokens = set_up(url, tables, args.variant, args.deals, label)
            setup_s = time.perf_counter() - c0
            g = start_gunicorn(url, tmp, args.workers, args.threads, args.profile)
            try:
                asyncio.run(warm_up(g.port, standings, tokens, args.workers or 5))
                before_load = loadavg()
                stats = Stats(limit=args.max_requests)
                stats.started = time.monotonic()
                stats.deadline = stats.started + args.seconds
                cpu0, srv0 = time.process_time(), g.cpu_seconds()
                pg0 = pg_cpu_seconds(pg) if pg is not None else None
                asyncio.run(_drive(g.port, standings, tokens, viewers, args, stats))
                wall = time.monotonic() - stats.started
                client_cpu = time.process_time() - cpu0
                server_cpu = g.cpu_seconds() - srv0
                pg_cpu = pg_cpu_seconds(pg) - (pg0 or 0) if pg is not None else None
                after_load = loadavg()
            finally:
                g.stop()
            server_kinds, deals, gcs, shares = worker_cpu(tmp, args.profile)
            crashed = "Traceback" in g.log.read_text(errors="replace")
            if crashed:
                tail = g.log.read_text(errors="replace")
                idx = tail.find("Traceback")
                print("--- a traceback in the server log:\n" + tail[idx : idx + 3000])
    return report(
        args,
        tables,
        viewers,
        len(tokens),
        stats,
        wall,
        (client_cpu, server_cpu, pg_cpu, server_kinds, deals, gcs, shares),
        setup_s,
        (before_load, after_load),
    )


def report(
    args: argparse.Namespace,
    tables: int,
    viewers: int,
    seats: int,
    stats: Stats,
    wall: float,
    cpu: tuple[
        float,
        float,
        float | None,
        dict[str, tuple[int, float]],
        Counter[str],
        dict[int, list[float]],
        list[float],
    ],
    setup_s: float,
    loads: tuple[str, str],
) -> Result:
    client_cpu, server_cpu, pg_cpu, server_kinds, deals, gcs, shares = cpu
    before_load, after_load = loads
    every = [x for k in KINDS for x in stats.times[k]]
    errors = sum(stats.errors.values())
    print(
        f"db={args.db} tables={tables} ({seats} seats, {args.variant}) viewers={viewers} "
        f"workers={args.workers or 'default'} threads={args.threads or 'default'}: "
        f"{len(every)} requests in {wall:.1f} s = {len(every) / wall:.0f} req/s "
        f"(set-up {setup_s:.1f} s; load average {before_load} before, {after_load} after)"
    )
    print(
        f"  {'kind':<11} {'count':>7} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} errors  server CPU ms/request"
    )
    for k in KINDS:
        xs = stats.times[k]
        if not xs and not stats.errors[k]:
            continue
        n, secs = server_kinds.get(k, (0, 0.0))
        mean = f"{secs * 1000 / n:.2f}" if n else "-"
        print(
            f"  {k:<11} {len(xs):>7} {len(xs) / wall:>7.1f} {pct(xs, 0.5):>8.1f} "
            f"{pct(xs, 0.95):>8.1f} {pct(xs, 0.99):>8.1f} {max(xs, default=0):>8.1f} "
            f"{stats.errors[k]:>6}  {mean}"
        )
    p95 = pct(every, 0.95)
    pg = "" if pg_cpu is None else f", PostgreSQL {pg_cpu:.1f} s"
    print(
        f"  all         {len(every):>7} {len(every) / wall:>7.1f} {pct(every, 0.5):>8.1f} "
        f"{p95:>8.1f} {pct(every, 0.99):>8.1f} {max(every, default=0):>8.1f} {errors}"
    )
    print(
        f"  stale moves (409, the app's answer to a move on a changed state): {stats.stale}; "
        f"CPU time: clients {client_cpu:.1f} s, gunicorn {server_cpu:.1f} s{pg} "
        f"(in {wall:.1f} s on {os.cpu_count()} cores)"
    )
    print(
        f"  deals rebuilt by the workers (per-process cache): {deals['hits']} from the cache, "
        f"{deals['forward']} forward from an older snapshot, {deals['replays']} by a full replay"
    )
    if shares and sum(shares) > 0:
        average = sum(shares) / len(shares)
        print(
            "  each worker's CPU time in requests (how evenly the connections spread): "
            + ", ".join(f"{x:.1f}" for x in shares)
            + f" s; the busiest {shares[-1] / average:.2f} × the mean"
        )
    if gcs:
        print(
            "  garbage collections in the workers (each worker's whole life): "
            + "; ".join(
                f"generation {gen}: {int(n)} in {took * 1000:.0f} ms, the longest {most * 1000:.1f} ms"
                for gen, (n, took, most) in sorted(gcs.items())
            )
        )
    windows: dict[int, list[float]] = {}
    for at, ms in stats.timeline:
        windows.setdefault(int(max(at, 0) // 10), []).append(ms)
    print(
        "  p95 per 10 s of the run (the first holds the ramp, every client arriving): "
        + ", ".join(
            f"{w * 10}-{w * 10 + 10} s {pct(xs, 0.95):.0f} ms" for w, xs in sorted(windows.items())
        )
    )
    for sample in stats.error_samples:
        print(f"  error: {sample}")
    holds = p95 < TARGET_P95_MS and errors == 0
    print(f"tables={tables} viewers={viewers} p95_ms={p95:.1f} errors={errors} db={args.db}")
    sys.stdout.flush()
    return Result(tables, viewers, args.db, p95, errors, holds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--viewers", type=int, default=None, help="default: 3 per table")
    ap.add_argument("--seconds", type=float, default=30.0, help=f"per run, at most {MAX_SECONDS}")
    ap.add_argument("--max-requests", type=int, default=200_000, help="per run")
    ap.add_argument("--search", action="store_true", help="find the largest N that holds")
    ap.add_argument("--variant", choices=sorted(PAIRS), default="tractor-4p")
    ap.add_argument("--deals", type=int, default=4, help="deals per match")
    ap.add_argument("--think-min", type=float, default=1.0, help="seconds before a move")
    ap.add_argument("--think-max", type=float, default=3.0)
    ap.add_argument("--reload", type=float, default=30.0, help="a viewer reopens its page")
    ap.add_argument("--workers", type=int, default=None, help="WEB_WORKERS (gunicorn.conf.py)")
    ap.add_argument("--threads", type=int, default=None, help="WEB_THREADS (gunicorn.conf.py)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--state-json",
        action="store_true",
        help="seats read /play/<token>/state.json before each move (no browser does)",
    )
    ap.add_argument("--profile", action="store_true", help="cProfile the workers' requests")
    args = ap.parse_args()
    if not 0 < args.seconds <= MAX_SECONDS:
        ap.error(f"--seconds must be in (0, {MAX_SECONDS}]")
    if shutil.which("gunicorn", path=str(Path(sys.executable).parent)) is None:
        ap.error("gunicorn is not installed next to this Python (make serve installs it)")
    if not args.search:
        viewers = 3 * args.tables if args.viewers is None else args.viewers
        run_once(args, args.tables, viewers, f"{args.tables}")
        return
    best: Result | None = None
    for n in SEARCH_STEPS:
        viewers = 3 * n if args.viewers is None else args.viewers
        r = run_once(args, n, viewers, f"{n}")
        if not r.holds:
            break
        best = r
    if best is None:
        print(f"search: not even {SEARCH_STEPS[0]} tables held (p95 < 100 ms, no error)")
        print(f"tables=0 viewers=0 p95_ms={r.p95:.1f} errors={r.errors} db={args.db}")
    else:
        print("search: the largest that held (p95 < 100 ms, no error):")
        print(
            f"tables={best.tables} viewers={best.viewers} p95_ms={best.p95:.1f} "
            f"errors={best.errors} db={best.db}"
        )


if __name__ == "__main__":
    main()
