"""A server-sent events client as a browser's EventSource is: it reads a stream line by line,
and when the stream ends or breaks it opens it again after a moment (asking from the state it
last got), until it is stopped. Each ``seat``/``watch``/``live`` event's ``data-token`` is noted
with the time it arrived. For the two-server test and ``bench/push.py``; loopback only."""

from __future__ import annotations

import contextlib
import http.client
import re
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

TOKEN = re.compile(r'data-token="([^"]+)"')


@dataclass
class Stream:
    base: str  # http://host:port (the balancer, or a server)
    path: str  # /play/<link>/stream
    token: str  # the state the page shows
    events: list[tuple[float, str]] = field(default_factory=list)
    opened: int = 0  # connections opened (1 + reconnections)
    errors: list[str] = field(default_factory=list)
    gone: bool = False
    retry_s: float = 0.3
    _stop: threading.Event = field(default_factory=threading.Event)
    _conn: http.client.HTTPConnection | None = None
    thread: threading.Thread | None = None
    ready: threading.Event = field(default_factory=threading.Event)

    def start(self) -> Stream:
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        conn = self._conn
        if conn is not None and conn.sock is not None:
            with contextlib.suppress(OSError):
                conn.sock.shutdown(2)
        if self.thread is not None:
            self.thread.join(timeout=10)

    def wait_for(self, token: str, timeout: float) -> float | None:
        """When the event with ``token`` arrived (monotonic), waiting up to ``timeout``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for at, got in list(self.events):
                if got == token:
                    return at
            time.sleep(0.005)
        return None

    def _run(self) -> None:
        u = urllib.parse.urlsplit(self.base)
        while not self._stop.is_set() and not self.gone:
            try:
                self._conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
                self._conn.request("GET", f"{self.path}?v={urllib.parse.quote(self.token)}")
                r = self._conn.getresponse()
                if r.status != 200:
                    self.errors.append(f"status {r.status}")
                    r.read()
                else:
                    self.opened += 1
                    self._read(r)
            except (OSError, http.client.HTTPException) as e:
                if not self._stop.is_set():
                    self.errors.append(type(e).__name__)
            finally:
                if self._conn is not None:
                    self._conn.close()
            if not self._stop.is_set():
                time.sleep(self.retry_s)

    def _read(self, r: http.client.HTTPResponse) -> None:
        name, data = "", []
        while not self._stop.is_set():
            raw = r.readline()
            if not raw:
                return  # the server ended the stream: open it again
            line = raw.decode().rstrip("\n")
            if line.startswith("retry:"):
                self.ready.set()
            elif line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
            elif line == "":
                if name == "gone":
                    self.gone = True
                    return
                got = TOKEN.search("\n".join(data))
                if got is not None:
                    self.token = got.group(1)
                    self.events.append((time.monotonic(), self.token))
                name, data = "", []
