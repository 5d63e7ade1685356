"""gunicorn settings for bench/load.py: exactly ``gunicorn.conf.py``, plus a measurement in each
worker — the CPU time (``time.thread_time``) each request took in the worker, by route kind,
written to ``$LOAD_BENCH_DIR/cpu-<pid>.json`` when the worker ends, with how its deals were
rebuilt (the per-process cache of app/services/online/cache.py: hits, forward, full replays) and
the garbage collector's passes (count, time, longest, by generation); with ``LOAD_BENCH_PROFILE=1``
a cProfile of every request too (``prof-<pid>.pstats``; run one thread per worker then, a
profile follows one thread at a time). The server's own CPU time per request does not depend
on what else the machine runs, which its latency does. Under the gevent worker (the default)
its requests' greenlets share its one thread, so a request that waits is charged with
what the others computed meanwhile: for exact CPU per route and for a profile run
``WEB_WORKER_CLASS=gthread``."""

from __future__ import annotations

import cProfile
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

_conf = Path(__file__).resolve().parent.parent / "gunicorn.conf.py"
exec(compile(_conf.read_text(), str(_conf), "exec"))  # every setting of make serve
_serve_post_worker_init = globals()["post_worker_init"]  # make serve's own (gc.freeze), kept

_OUT = Path(os.environ.get("LOAD_BENCH_DIR", "."))
_PROFILE = os.environ.get("LOAD_BENCH_PROFILE") == "1"
_cpu: dict[str, list[float]] = {}
_lock = threading.Lock()
# CPU time of the request's thread: a wall-clock profile under load counts the time the process
# waited for a core (4 workers, PostgreSQL and the clients share 2) as time in whatever C call
# it was in, mostly the database driver's
_profile = cProfile.Profile(time.thread_time) if _PROFILE else None
_TRACE = os.environ.get("LOAD_BENCH_TRACE") == "1"
# --trace: moves' POSTs [start, end, path, state made, statements, seconds in them] and seat
# events [sent at, stream path, state drawn], wall-clock (time.time: the client's clock too)
_posts: list[list[Any]] = []
_events: list[list[Any]] = []
_statements: ContextVar[list[float] | None] = ContextVar("bench_statements", default=None)
_EVENT_TOKEN = re.compile(rb'data-token="([^"]*)"')


def route_kind(method: str, path: str, query: str) -> str:
    """The bench's route kinds (bench/load.py KINDS), from a request's method and path."""
    if path.startswith("/play/"):
        if path.endswith("/poll"):
            return "poll"
        if path.endswith("/state.json"):
            return "state.json"
        if path.endswith("/ready"):
            return "ready"
        return "move" if method == "POST" else "seat page"
    if path.startswith("/p/"):  # a tournament's public standings (bench/load.py's viewers)
        if path.endswith("/live"):
            return "live"
        return "projector" if "projector=1" in query else "standings"
    return "other"


# the garbage collector's passes in this worker, by generation: [count, seconds, longest]
_gc: dict[int, list[float]] = {}
_gc_started = [0.0]


def _gc_timer(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _gc_started[0] = time.perf_counter()
        return
    took = time.perf_counter() - _gc_started[0]
    got = _gc.setdefault(int(info["generation"]), [0, 0.0, 0.0])
    got[0] += 1
    got[1] += took
    got[2] = max(got[2], took)


class _TracedStream:
    """A live stream's answer, noting when each seat event leaves and the state it draws."""

    def __init__(self, answer: Iterable[bytes], path: str) -> None:
        self._answer = answer
        self._chunks: Iterator[bytes] = iter(answer)
        self._path = path

    def __iter__(self) -> _TracedStream:
        return self

    def __next__(self) -> bytes:
        chunk = next(self._chunks)
        if chunk.startswith(b"event: seat"):
            m = _EVENT_TOKEN.search(chunk)
            _events.append([time.time(), self._path, m.group(1).decode() if m else ""])
        return chunk

    def close(self) -> None:
        close = getattr(self._answer, "close", None)
        if close is not None:
            close()


def _trace_statements() -> None:
    """Count each statement a traced request sends and the wall time until its answer (the
    round trip, and the turns the request waited for meanwhile)."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    def before(*_args: Any) -> None:
        got = _statements.get()
        if got is not None:
            got.append(time.perf_counter())

    def after(*_args: Any) -> None:
        got = _statements.get()
        if got:
            got[-1] = time.perf_counter() - got[-1]

    event.listen(Engine, "before_cursor_execute", before)
    event.listen(Engine, "after_cursor_execute", after)


def post_worker_init(worker: Any) -> None:
    import gc

    _serve_post_worker_init(worker)
    gc.callbacks.append(_gc_timer)
    if _TRACE:
        _trace_statements()
    app = worker.wsgi

    def measured(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path.endswith("/stream"):  # a live stream: sent as it comes, unmeasured
            answer = app(environ, start_response)
            return _TracedStream(answer, path) if _TRACE else answer
        kind = route_kind(environ.get("REQUEST_METHOD", ""), path, environ.get("QUERY_STRING", ""))
        traced = _TRACE and kind == "move"
        if traced:
            w0, made = time.time(), [""]
            sent: list[float] = []
            _statements.set(sent)
            answer_with = start_response

            def start_response(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
                made[0] = dict(headers).get("X-Live-State", "")
                return answer_with(status, headers, *rest)

        c0 = time.thread_time()

        def whole() -> list[bytes]:
            answer = app(environ, start_response)
            try:
                return list(answer)  # the whole answer is made here
            finally:
                close = getattr(answer, "close", None)
                if close is not None:
                    close()

        body = _profile.runcall(whole) if _profile is not None else whole()
        spent = time.thread_time() - c0
        if traced:
            _posts.append([w0, time.time(), path, made[0], len(sent), sum(sent)])
            _statements.set(None)
        with _lock:
            got = _cpu.setdefault(kind, [0, 0.0])
            got[0] += 1
            got[1] += spent
        return body

    worker.wsgi = measured


def worker_exit(_server: Any, _worker: Any) -> None:
    from app.services.online.cache import CACHE

    pid = os.getpid()
    deals = {"hits": CACHE.hits, "forward": CACHE.forward, "replays": CACHE.replays}
    (_OUT / f"cpu-{pid}.json").write_text(json.dumps({"kinds": _cpu, "deals": deals, "gc": _gc}))
    if _profile is not None:
        _profile.dump_stats(str(_OUT / f"prof-{pid}.pstats"))
    if _TRACE:
        (_OUT / f"trace-{pid}.json").write_text(json.dumps({"posts": _posts, "events": _events}))
