"""A WSGI app for ``test_app_workers.py``: ``/pid`` answers the serving worker's process id,
``/sleep?s=N`` the same after waiting N seconds (a slow request: under gevent the wait lets the
worker serve others), ``/spin?s=N`` the same after computing for N seconds (a request that
holds its worker: a hang in Python)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    path = environ.get("PATH_INFO")
    if path in ("/sleep", "/spin"):
        seconds = float(parse_qs(environ.get("QUERY_STRING", ""))["s"][0])
        if path == "/sleep":
            time.sleep(seconds)  # gevent's sleep in its worker (monkey-patched)
        else:
            until = time.monotonic() + seconds
            while time.monotonic() < until:
                pass
    body = str(os.getpid()).encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
