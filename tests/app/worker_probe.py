"""A WSGI app for ``test_app_workers.py``: ``/pid`` answers the serving worker's process id,
``/sleep?s=N`` the same after N seconds (a slow or a hung request)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    if environ.get("PATH_INFO") == "/sleep":
        time.sleep(float(parse_qs(environ.get("QUERY_STRING", ""))["s"][0]))
    body = str(os.getpid()).encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
