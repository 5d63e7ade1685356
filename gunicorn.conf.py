"""gunicorn settings for `make serve` (read by gunicorn -c gunicorn.conf.py).

Workers are stateless: every request reads what it needs from the database (an online deal's
state is rebuilt from its log and checked by version), so any number of workers, on one machine
or several behind a load balancer, share one PostgreSQL database. Each setting can be overridden
from the environment:

    WEB_WORKERS   processes (default: 2 × cores, at most 8)
    WEB_THREADS   threads per process (default 1)
    WEB_TIMEOUT   seconds before a worker whose main loop stopped is restarted (default 30; the
                  largest request, a PDF of a 50-table round, takes well under a second). With
                  gthread workers this does not end a request that hangs in its thread: that
                  process then serves nothing more until it is restarted.
    BIND          address (default 127.0.0.1:8000; put a reverse proxy with HTTPS in front)
    WEB_MAX_REQUESTS  requests before a worker is replaced by a fresh one (default 100,000)

Why one thread per process: the app's time is Python (templates, the ORM, the rules engine),
and a process runs one thread of Python at a time; its short database waits are all a second
thread could fill, while two threads of one process contend for its interpreter lock, which made
every request cost more CPU (a move 11–13 ms with 4 threads, 8–10 ms with 1, measured by
bench/load.py under the same load). On 2 cores, 100 online tables + 300 viewers on PostgreSQL:
p95 396–447 ms with 5 × 4, 149–200 ms with 3 × 2, 40–280 ms with 4 × 1 (under 100 ms in 9 of
14 runs; 108–111 ms with 3 or 5 × 1); on SQLite 22–24 ms with 4 × 1, 55–84 ms with 3 × 2 and
5 × 4. gunicorn's sync worker (no keep-alive) gave 33 and 119 ms against gthread's 51 and 58
in the same series: no clear difference, and gthread keeps connections alive. (These were
measured while the bench's seats read state.json before each move; the README has the
figures since.) A slow request (a large import, a big PDF) holds one process meanwhile; the
others go on.

On SQLite keep one machine (the database is a file); several workers are fine there too: WAL mode
lets readers run beside the one writer, and writers queue on BEGIN IMMEDIATE (see app/db.py).
"""

import multiprocessing
import os
import re
from typing import Any

import gunicorn
from gunicorn.glogging import Logger

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_WORKERS", min(2 * multiprocessing.cpu_count(), 8)))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", 1))
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
gunicorn.SERVER = "shengji"
gunicorn.SERVER_SOFTWARE = "shengji"


def post_worker_init(worker: object) -> None:
    """Once a worker has built the app: its long-lived objects (modules, templates, the app,
    SQLAlchemy's metadata) leave the garbage collector's generations (``gc.freeze``), so a
    collection during a request no longer walks them all; a full collection of the app's
    objects cost a move tens of milliseconds now and then."""
    import gc

    gc.freeze()
