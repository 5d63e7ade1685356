"""A real load balancer (Debian's HAProxy) in front of app servers on this machine, for the
two-server test and ``bench/push.py``: round robin, a health check every 300 ms (a server that
refuses connections is out after two failed checks; one that is only slow under load — a check
answered within 5 s — stays in: with the check's default timeout of 300 ms, both servers of a
busy night were taken out and every request got HAProxy's 503), a connection refused retried
on the other server, and the long timeouts a server-sent event stream needs.

``Balancer(ports).start()`` writes its configuration into a temporary folder and runs
``haproxy -db`` (foreground, no daemon) on a free loopback port; ``stop()`` ends it.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.app.served import free_port

CONFIG = """global
    maxconn 8000
defaults
    mode http
    timeout connect 2s
    timeout client 10m
    timeout server 10m
    timeout tunnel 10m
    timeout check 5s
    option redispatch
    option http-no-delay
    retries 3
frontend web
    bind 127.0.0.1:{port}
    default_backend app
backend app
    balance roundrobin
    option httpchk GET /account/login
{servers}
"""


def haproxy() -> str | None:
    return shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
    )


@dataclass
class Balancer:
    backends: list[int]
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    folder: Path | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 15) -> None:
        binary = haproxy()
        assert binary is not None, "HAProxy is not installed (make test installs it)"
        self.folder = Path(tempfile.mkdtemp(prefix="balancer-"))
        servers = "\n".join(
            f"    server s{i} 127.0.0.1:{p} check inter 300ms fall 2 rise 2"
            for i, p in enumerate(self.backends)
        )
        cfg = self.folder / "haproxy.cfg"
        cfg.write_text(CONFIG.format(port=self.port, servers=servers))
        self.proc = subprocess.Popen(
            [binary, "-db", "-f", str(cfg)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("HAProxy did not start") from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
            self.proc = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
