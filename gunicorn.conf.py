"""gunicorn settings for `make serve` (read by gunicorn -c gunicorn.conf.py).

Workers are stateless: every request reads what it needs from the database (an online deal's
state is rebuilt from its log and checked by version), so any number of workers, on one machine
or several behind a load balancer, share one PostgreSQL database. Each setting can be overridden
from the environment:

    WEB_WORKERS   processes (default: 2 × cores, at most 8; with the gevent worker, one per core)
    WEB_THREADS   threads per process (default 1)
    WEB_TIMEOUT   seconds a request may take before its worker is killed and replaced (default
                  30; the largest request, a PDF of a 50-table round, takes well under a second)
    BIND          address (default 127.0.0.1:8000; put a reverse proxy with HTTPS in front: it
                  also buffers slow clients, which hold a worker while their request trickles in)
    WEB_MAX_REQUESTS  requests before a worker is replaced by a fresh one (default 100,000)

Why one thread per process: the app's time is Python (templates, the ORM, the rules engine),
and a process runs one thread of Python at a time; its short database waits are all a second
thread could fill, while two threads of one process contend for its interpreter lock, which made
every request cost more CPU (a move 11–13 ms with 4 threads, 8–10 ms with 1, measured by
bench/load.py under the same load). On 2 cores, 100 online tables + 300 viewers on PostgreSQL:
p95 396–447 ms with 5 × 4, 149–200 ms with 3 × 2, 40–280 ms with 4 × 1; on SQLite 22–24 ms
with 4 × 1, 55–84 ms with 3 × 2 and 5 × 4 (measured with gthread workers).

With one thread a worker is ``OneThreadWorker`` below: gunicorn's gthread worker serving each
request on the thread that watches the connections, instead of handing it to a pool of one
thread. gthread's main thread goes on accepting connections while its one request thread is
busy, so a busy worker takes on connections another worker could answer at once, and a browser
keeps its connection alive (5 s) with the worker that took it: at 100 tables + 300 viewers the
busiest of 4 workers did 1.2–1.4 times the work of the idlest. A worker that serves in place
accepts only between requests, the free workers take the new connections, and the 4 shares
were within 8 % of each other: p95 39–44 ms against gthread's 51–53 ms in the same series, and
0.1–0.2 ms less CPU a request without the hand-over between threads (README: the load
benchmark). Its main loop's heartbeat also stops while a request runs, so WEB_TIMEOUT ends a
request that hangs (gunicorn kills the worker and starts another), as gthread could not.
gunicorn's sync worker (no keep-alive) gave 177–206 ms in the same series. With WEB_THREADS > 1
a worker is gunicorn's own gthread.

On SQLite keep one machine (the database is a file); several workers are fine there too: WAL mode
lets readers run beside the one writer, and writers queue on BEGIN IMMEDIATE (see app/db.py).
"""

import errno
import multiprocessing
import os
import re
import selectors
import time
from functools import partial
from typing import Any

import gunicorn
from gunicorn.glogging import Logger
from gunicorn.http import wsgi as gunicorn_wsgi
from gunicorn.workers.gthread import TConn, ThreadWorker


class _Served:
    """A request served in place, read as gthread reads a finished future."""

    __slots__ = ("keep_alive",)

    def __init__(self, keep_alive: Any) -> None:
        self.keep_alive = keep_alive

    def result(self) -> Any:
        return self.keep_alive

    def cancelled(self) -> bool:
        return False


class _NoPool:
    """In place of gthread's thread pool: nothing to shut down."""

    def shutdown(self, wait: bool = True) -> None:
        pass


class OneThreadWorker(ThreadWorker):  # type: ignore[misc]
    """gthread with its request thread folded into its main thread (why: the docstring above).
    Everything else is gthread's own: keep-alive connections wait in its poller, a request is
    parsed, served and logged by its code, and a connection whose first bytes have not come
    waits in the poller too (gthread would wait for them in the request thread, here the only
    one). The worker tells the master it is alive before each request, so WEB_TIMEOUT bounds
    one request, not all those that came in together; a pipelining client's requests are
    served one after the other in a loop, not each one level deeper."""

    _serving = False
    _next: TConn | None = None

    def get_thread_pool(self) -> _NoPool:
        return _NoPool()

    def enqueue_req(self, conn: TConn) -> None:
        if self._serving:  # gthread's finish_request found the next request read already
            self._next = conn  # (a pipelining client): served by the loop below, not deeper
            return
        self._serving = True
        try:
            while conn is not None:
                self._next = None
                self.notify()  # the heartbeat per request: WEB_TIMEOUT bounds each one
                self.finish_request(conn, _Served(self.handle(conn)))
                conn = self._next
        finally:
            self._serving = False

    def accept(self, listener: Any) -> None:
        try:
            client, address = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        conn = TConn(self.cfg, client, address, listener.getsockname())
        conn.timeout = time.monotonic() + self.cfg.keepalive  # closed if nothing comes by then
        self.pending_conns.append(conn)
        self.poller.register(
            client, selectors.EVENT_READ, partial(self.on_pending_socket_readable, conn)
        )

    def _cap_keepalive(self, deadline: float) -> None:
        """At shutdown, gthread gives kept-alive connections 2 s more at most; connections
        still waiting for their first bytes (gthread has none of these) get no more."""
        super()._cap_keepalive(deadline)
        for conn in self.pending_conns:  # all capped alike: the deque stays in timeout order
            conn.timeout = min(conn.timeout, deadline)


bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_WORKERS", min(2 * multiprocessing.cpu_count(), 8)))
threads = int(os.environ.get("WEB_THREADS", 1))
worker_class: Any = OneThreadWorker if threads == 1 else "gthread"
# WEB_WORKER_CLASS=gevent: gunicorn's stock gevent worker, which holds thousands of open
# connections cheaply: the live pages' server-sent event streams (app/services/live) are on
# only with it; with a worker that serves one request at a time a stream would hold the worker,
# so pages poll instead.
if os.environ.get("WEB_WORKER_CLASS", "") == "gevent":
    worker_class = "gevent"
    # one event loop per core: a gevent worker never waits on its own (it switches to another
    # request), so a second worker per core only adds switching and a second deal cache to keep
    # up. bench/push.py at 100 tables + 300 viewers, two servers on this 2-core machine: p95
    # 107 ms with 1 worker a server, 188 ms with 2 (gunicorn's CPU 57 s against 70 s in 61 s).
    workers = int(os.environ.get("WEB_WORKERS", multiprocessing.cpu_count()))
    worker_connections = int(os.environ.get("WEB_CONNECTIONS", 2000))
    os.environ.setdefault("LIVE_STREAMS", "1")
    # a fixed pool of database connections per worker (app/config.py, pool_options): with
    # SQLAlchemy's 5 + 10 overflow a worker of many streams kept opening and closing them.
    # Workers × DB_POOL_SIZE (+1 listening) on every server must stay under PostgreSQL's
    # max_connections (100 by default): 2 servers × 4 workers × 10 + 8 = 88.
    os.environ.setdefault("DB_POOL_SIZE", "10")
else:
    os.environ["LIVE_STREAMS"] = "0"
timeout = int(os.environ.get("WEB_TIMEOUT", 30))
graceful_timeout = 20
keepalive = 5
# Recycle a worker now and then (bounded memory), rarely: a new worker imports the app again,
# 1.5–2.5 s of CPU; at 5,000 requests each worker of a 100-table night restarted every minute.
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", 100_000))
max_requests_jitter = max_requests // 10
accesslog = "-"
errorlog = "-"


# A secret link's or a table code's part of a path (/play/<seat token>/poll, /invite/<token>,
# /table/<code>): anyone who reads the log could otherwise take the seat or enter its scores.
SECRET_IN_PATH = re.compile(r"^/(play|invite|table)/[^/?]+")


class AccessLog(Logger):
    """gunicorn's logger with its access line written directly: address, time, request line
    (a secret link shortened to ``***``), status, bytes, milliseconds, user agent; no referrer (a
    seat page's polls would carry its secret link there). gunicorn's own line first builds a
    dictionary of every request header, response header and environment variable for its
    format, which cost more than answering a seat's poll (0.15–0.2 ms a request, measured
    against a server without an access log)."""

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        if not self.access_log_enabled:
            return
        uri = SECRET_IN_PATH.sub(r"/\1/***", environ.get("PATH_INFO", ""))
        if environ.get("QUERY_STRING"):
            uri += "?" + environ["QUERY_STRING"]
        status = resp.status.split(None, 1)[0] if isinstance(resp.status, str) else resp.status
        ms = request_time.seconds * 1000 + request_time.microseconds / 1000
        self.access_log.info(
            '%s - - %s "%s %s %s" %s %s %.1fms "%s"',
            environ.get("REMOTE_ADDR", "-"),
            self.now(),  # gunicorn's own: [01/Dec/2026:23:55:18 +0000]
            environ.get("REQUEST_METHOD", "-"),
            uri,
            environ.get("SERVER_PROTOCOL", "-"),
            status,
            getattr(resp, "sent", None) or 0,
            ms,
            environ.get("HTTP_USER_AGENT", "-"),
        )


logger_class = AccessLog
# Only a proxy on this machine may set X-Forwarded-*; the app trusts them only with TRUST_PROXY=1.
forwarded_allow_ips = "127.0.0.1"
# No server version banner: the Server header says only what the software is, not its version.
# gunicorn's response module copied both names when it was imported (by the worker class above).
gunicorn.SERVER = gunicorn_wsgi.SERVER = "shengji"
gunicorn.SERVER_SOFTWARE = gunicorn_wsgi.SERVER_SOFTWARE = "shengji"


def post_worker_init(worker: object) -> None:
    """Once a worker has built the app: its long-lived objects (modules, templates, the app,
    SQLAlchemy's metadata) leave the garbage collector's generations (``gc.freeze``), so a
    collection during a request no longer walks them all; a full collection of the app's
    objects cost a move tens of milliseconds now and then."""
    import gc

    gc.freeze()
