"""gunicorn's worker as ``gunicorn.conf.py`` sets it up by default (its stock gevent worker, one
process per core), serving a small probe app (``tests/app/worker_probe.py``: ``/pid`` answers the
worker's process id, ``/sleep`` the same after waiting, ``/spin`` after computing), with what an
organizer needs of it: a slow request does not hold up the others on the same worker; a request
that hangs in Python past ``WEB_TIMEOUT`` ends with its worker replaced, while one that only
waits that long (as a live stream does) is answered; a pipelining client's requests are all
answered; and a connection that sends nothing holds no worker, nor the server's shutdown for
more than the keep-alive's 5 s."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.app.served import free_port

ROOT = Path(__file__).resolve().parents[2]
_MASTERS: dict[int, subprocess.Popen[bytes]] = {}  # the gunicorn master serving each port


def _send(port: int, path: str, timeout: float) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n".encode())
    return sock


def _answer(sock: socket.socket) -> int:
    """The process id the probe answered with (the connection is closed after it)."""
    data = b""
    with sock:
        while chunk := sock.recv(4096):
            data += chunk
    head, _sep, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), data[:200]
    return int(body)


def _pid(port: int, timeout: float = 2.0) -> int:
    return _answer(_send(port, "/pid", timeout))


@contextmanager
def _gunicorn(tmp_path: Path, workers: int, timeout: int = 30) -> Iterator[int]:
    """gunicorn with the documented configuration on a free port, every worker answering."""
    port = free_port()
    env = {
        **os.environ,
        "BIND": f"127.0.0.1:{port}",
        "WEB_WORKERS": str(workers),
        "WEB_TIMEOUT": str(timeout),
    }
    env.pop("WEB_THREADS", None)
    env.pop("WEB_WORKER_CLASS", None)  # the default worker
    log = (tmp_path / "gunicorn.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "tests.app.worker_probe:app"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    _MASTERS[port] = proc
    try:
        seen: set[int] = set()
        deadline = time.monotonic() + 30
        while len(seen) < workers:  # fresh connections until every worker has answered one
            if time.monotonic() > deadline or proc.poll() is not None:
                pytest.fail("gunicorn did not start:\n" + (tmp_path / "gunicorn.log").read_text())
            try:
                seen.add(_pid(port))
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()
        del _MASTERS[port]


def test_a_slow_request_does_not_hold_up_the_others(tmp_path):
    with _gunicorn(tmp_path, workers=1) as port:
        slow = _send(port, "/sleep?s=4", timeout=10)
        time.sleep(0.3)  # the slow request has reached the only worker
        started = time.monotonic()
        answered = [_pid(port, timeout=2) for _ in range(8)]  # each within 2 s, not after 4
        assert time.monotonic() - started < 3
        assert _answer(slow) == answered[0] and len(set(answered)) == 1


def test_a_request_that_hangs_past_the_timeout_ends_and_its_worker_is_replaced(tmp_path):
    with _gunicorn(tmp_path, workers=1, timeout=2) as port:
        before = _pid(port)
        hung = _send(port, "/spin?s=60", timeout=20)  # Python that never returns: no heartbeat
        started = time.monotonic()
        with hung:
            try:
                got = hung.recv(4096)
            except ConnectionResetError:
                got = b""
        assert got == b""  # no answer: the worker was killed
        assert time.monotonic() - started < 15
        deadline = time.monotonic() + 15
        while True:
            try:
                after = _pid(port)
                break
            except OSError:  # the new worker is still starting
                assert time.monotonic() < deadline
                time.sleep(0.2)
    assert after != before


def test_a_request_that_waits_longer_than_the_timeout_is_answered(tmp_path):
    """A stream is open for minutes: waiting does not stop the worker's heartbeat."""
    with _gunicorn(tmp_path, workers=1, timeout=2) as port:
        before = _pid(port)
        assert _answer(_send(port, "/sleep?s=5", timeout=15)) == before


def test_a_pipelining_client_gets_every_answer(tmp_path):
    n = 2000
    one = b"GET /pid HTTP/1.1\r\nHost: probe\r\n\r\n"
    last = b"GET /pid HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n"
    with (
        _gunicorn(tmp_path, workers=1) as port,
        socket.create_connection(("127.0.0.1", port), timeout=20) as sock,
    ):
        sock.sendall(one * (n - 1) + last)  # every request before the first answer
        data = b""
        while chunk := sock.recv(1 << 16):
            data += chunk
    assert data.count(b"HTTP/1.1 200 OK") == n


def test_a_connection_that_sends_nothing_holds_no_worker(tmp_path):
    with _gunicorn(tmp_path, workers=1) as port, socket.create_connection(("127.0.0.1", port)):
        time.sleep(0.3)  # accepted by the only worker, and silent
        started = time.monotonic()
        _pid(port, timeout=2)
        assert time.monotonic() - started < 1


def test_a_connection_that_sends_nothing_does_not_hold_up_the_shutdown(tmp_path):
    with _gunicorn(tmp_path, workers=1) as port, socket.create_connection(("127.0.0.1", port)):
        time.sleep(0.3)  # accepted by the only worker, and silent
        master = _MASTERS[port]
        started = time.monotonic()
        master.terminate()
        master.wait(timeout=30)
        # the worker waits 5 s (keep-alive) for the first bytes, checking every second whether
        # its connections are done: not gunicorn's graceful timeout (20 s)
        assert time.monotonic() - started < 8
