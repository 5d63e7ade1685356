"""A real gunicorn serving the app on a test's database, and a small browser for it (cookies,
the CSRF token, no redirect following), for the fault tests (``test_app_faults.py``).

``Served.start()`` runs ``gunicorn -c gunicorn.conf.py`` (the documented configuration: its
default gevent worker unless ``env`` chooses another) in a process group of its own, so
``kill()`` can SIGKILL the master and every worker at once, as a power cut or the OOM killer
would; ``start()`` again is the restart.
"""

from __future__ import annotations

import contextlib
import http.client
import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    database_url: str
    workers: int = 2
    factory: str = "app:create_app()"
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    env: dict[str, str] = field(default_factory=dict)  # more settings (WEB_WORKER_CLASS …)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": "test-secret",
            "BIND": f"127.0.0.1:{self.port}",
            "WEB_WORKERS": str(self.workers),
            **self.env,
        }
        if "WEB_WORKER_CLASS" not in self.env:  # the documented default worker (gevent)
            env.pop("WEB_WORKER_CLASS", None)
            env.pop("WEB_THREADS", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", self.factory],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: kill() reaches every worker
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.base + "/account/login", timeout=5) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("gunicorn did not start")
            time.sleep(0.1)

    def _signal_group(self, sig: int) -> None:
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, sig)  # the group this test started (start_new_session)

    def kill(self) -> None:
        """SIGKILL the master and its workers together: nothing gets to finish or clean up."""
        if self.proc is None:
            return
        self._signal_group(signal.SIGKILL)
        self.proc.wait(timeout=20)
        self._reap_group()
        self.proc = None

    def stop(self) -> None:
        if self.proc is None:
            return
        self._signal_group(signal.SIGTERM)
        try:
            self.proc.wait(timeout=25)
        except subprocess.TimeoutExpired:
            self._signal_group(signal.SIGKILL)
            self.proc.wait(timeout=20)
        self._reap_group()
        self.proc = None

    def _reap_group(self) -> None:
        """Wait until no process of the group is left (workers die a moment after the master)."""
        assert self.proc is not None
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.killpg(self.proc.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass
class Reply:
    status: int
    body: str
    headers: dict[str, str]


class Browser:
    """Cookies kept, redirects not followed (a 303 is the answer a test looks at), the page's
    CSRF token sent with every POST."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )
        self.csrf = ""

    def _open(self, req: urllib.request.Request, timeout: float) -> Reply:
        """The answer, or ``ConnectionError`` when there was none (the server died mid-way:
        refused, reset, or a body cut short)."""
        try:
            try:
                with self.opener.open(req, timeout=timeout) as r:
                    return Reply(r.status, r.read().decode(), dict(r.headers))
            except urllib.error.HTTPError as e:  # 3xx (not followed), 4xx, 5xx
                return Reply(e.code, e.read().decode(errors="replace"), dict(e.headers))
        except http.client.HTTPException as e:  # IncompleteRead, RemoteDisconnected …
            raise ConnectionError(repr(e)) from e

    def get(self, path: str, timeout: float = 10) -> Reply:
        reply = self._open(urllib.request.Request(self.base + path), timeout)
        m = re.search(r'"X-CSRFToken": "([^"]+)"', reply.body)
        if m:
            self.csrf = m.group(1)
        return reply

    def post(self, path: str, data: dict[str, Any], timeout: float = 10) -> Reply:
        fields: list[tuple[str, str]] = [("csrf_token", self.csrf)]
        for key, value in data.items():
            for v in value if isinstance(value, list | tuple) else [value]:
                fields.append((key, str(v)))
        body = urllib.parse.urlencode(fields).encode()
        req = urllib.request.Request(self.base + path, data=body, method="POST")
        return self._open(req, timeout)

    def login(self, username: str, password: str) -> None:
        self.get("/account/login")
        r = self.post("/account/login", {"username": username, "password": password})
        assert r.status == 302, (r.status, r.body[:500])
