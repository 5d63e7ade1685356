"""gunicorn settings for `make serve` (read by gunicorn -c gunicorn.conf.py).

Workers are stateless: every request reads what it needs from the database (an online deal's
state is rebuilt from its log and checked by version), so any number of workers, on one machine
or several behind a load balancer, share one PostgreSQL database. Each setting can be overridden
from the environment:

    WEB_WORKER_CLASS  gevent (the default) or gthread (see below)
    WEB_WORKERS   processes (default: one per core with gevent; 2 × cores, at most 8, else)
    WEB_THREADS   threads per process (default 1; more than 1 means gunicorn's gthread worker)
    WEB_CONNECTIONS  open connections a gevent worker holds at most (default 2,000)
    WEB_TIMEOUT   seconds a worker may go without running its own loop before it is killed and
                  replaced (default 30; the largest request, a PDF of a 50-table round, takes
                  well under a second)
    BIND          address (default 127.0.0.1:8000; put a reverse proxy with HTTPS in front)
    WEB_MAX_REQUESTS  requests before a worker is replaced by a fresh one (default 100,000)

The default worker is gunicorn's stock gevent worker: each request is a greenlet, so a worker
holds thousands of open connections cheaply, and the live pages' server-sent event streams
(app/services/live) are on with it (LIVE_STREAMS=1). A request that waits (the database, the
network, a slow client) leaves the worker to the others; one that computes holds it until it
is done, and one that computes past WEB_TIMEOUT stops the worker's heartbeat, so gunicorn kills
the worker and starts another. A request that only waits is not ended by WEB_TIMEOUT (a stream
is open for minutes and ends by itself). One worker per core: a gevent worker never waits on
its own, so a second one per core only adds switching and a second deal cache to keep up
(bench/push.py at 100 tables + 300 viewers, two servers on this 2-core machine: p95 107 ms with
1 worker a server, 188 ms with 2). bench/load.py, where every page polls, gave p95 34.3 ms on
PostgreSQL at 100 + 300 with 2 gevent workers (README: Push, Load). Each worker keeps a fixed pool of
DB_POOL_SIZE (default 10) database connections (app/config.py, pool_options): with
SQLAlchemy's 5 + 10 overflow a worker of many streams kept opening and closing them. Workers ×
(DB_POOL_SIZE + 1 listening) on every server must stay under PostgreSQL's max_connections (100
by default): 2 four-core servers × 4 workers × 11 = 88.

WEB_WORKER_CLASS=gthread (or WEB_THREADS > 1) runs gunicorn's gthread worker instead, which
serves one request at a time per thread: streams are off then (a stream would hold a thread),
and the pages poll every 2 s. Threads of one process contend for its interpreter lock (the
app's time is Python): on 2 cores, 100 online tables + 300 viewers on PostgreSQL, p95 396–447
ms with 5 workers × 4 threads, 149–200 ms with 3 × 2, 40–280 ms with 4 × 1 (2026-12-02).

On SQLite keep one machine (the database is a file); several workers are fine there too: WAL mode
lets readers run beside the one writer, and writers queue on BEGIN IMMEDIATE (see app/db.py).
Under gevent a writer waiting there holds its worker (the SQLite driver's wait does not let other
greenlets run): writes are short, so it is a pause of milliseconds, but a club with many writers
at once on SQLite is better served by WEB_WORKER_CLASS=gthread (or by PostgreSQL).
"""

import multiprocessing
import os
import re
from typing import Any

import gunicorn
from gunicorn.glogging import Logger
from gunicorn.http import wsgi as gunicorn_wsgi

bind = os.environ.get("BIND", "127.0.0.1:8000")
threads = int(os.environ.get("WEB_THREADS", 1))
worker_class = os.environ.get("WEB_WORKER_CLASS", "").strip() or (
    "gthread" if threads > 1 else "gevent"
)
if worker_class == "gevent":
    workers = int(os.environ.get("WEB_WORKERS", multiprocessing.cpu_count()))
    worker_connections = int(os.environ.get("WEB_CONNECTIONS", 2000))
    os.environ.setdefault("LIVE_STREAMS", "1")
    os.environ.setdefault("DB_POOL_SIZE", "10")
else:  # one request at a time per thread: a stream would hold it, so pages poll
    workers = int(os.environ.get("WEB_WORKERS", min(2 * multiprocessing.cpu_count(), 8)))
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
# gunicorn's WSGI module copied both names when it was imported (above).
gunicorn.SERVER = gunicorn_wsgi.SERVER = "shengji"
gunicorn.SERVER_SOFTWARE = gunicorn_wsgi.SERVER_SOFTWARE = "shengji"


# The garbage collector's thresholds in a worker (WEB_GC_THRESHOLDS; Python's default is 700, 10,
# 10). A worker keeps many young objects alive for a while (each table's cached deal, the open
# streams' state), so at the default a collection ran every few allocations and a full one every
# two seconds, each some 100 ms with every greenlet of the worker waiting: bench/push.py (100
# tables + 300 viewers, two servers) counted 26 full passes in a minute, 4.8-6.3 s of the workers'
# 69-78 s of CPU, push p95 253 and 574 ms; at 7000, 20, 50 none, 1.9-2.0 s of 63-64 s, p95 140
# and 190 ms (2026-12-07, one run of each order, this 2-core machine).
GC_THRESHOLDS = tuple(int(x) for x in os.environ.get("WEB_GC_THRESHOLDS", "7000,20,50").split(","))


def post_worker_init(worker: object) -> None:
    """Once a worker has built the app: its long-lived objects (modules, templates, the app,
    SQLAlchemy's metadata) leave the garbage collector's generations (``gc.freeze``), so a
    collection during a request no longer walks them all; a full collection of the app's
    objects cost a move tens of milliseconds now and then."""
    import gc

    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
