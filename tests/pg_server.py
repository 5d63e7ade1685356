"""A throwaway PostgreSQL server for the tests (used by ``tests/conftest.py``).

``start_server()`` runs the machine's own ``initdb`` and ``pg_ctl`` (Debian's package puts them
in ``/usr/lib/postgresql/<version>/bin``) on a fresh cluster in a temporary folder: listening on
a free loopback port, its unix socket in that folder, password authentication over TCP, and
durability switched off (fsync, synchronous commit, full-page writes) because the data lives for
one test run. PostgreSQL refuses to run as root, so as root the server runs as the ``postgres``
user (created with ``useradd`` if missing) through ``runuser`` and owns the folder.
``PgServer.stop()`` stops it and removes the folder; should the test process die without
stopping it (killed, a timeout), a small watchdog shell does the same a second later.

No server is assumed to be running, and nothing outside the temporary folder is touched (except
for the ``postgres`` user when it must be created).
"""

from __future__ import annotations

import os
import pwd
import re
import secrets
import shlex
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

PG_USER = "postgres"  # the unprivileged operating-system user the server runs as under root
START_TIMEOUT_S = 60


class PgUnavailable(RuntimeError):
    """PostgreSQL's server binaries are not installed on this machine."""


class PgStartFailed(RuntimeError):
    """The binaries are there but the server did not start (the message has its log)."""


def find_bindir() -> Path | None:
    """The folder with ``initdb`` and ``pg_ctl``: ``$PG_BINDIR``, else the newest Debian
    ``/usr/lib/postgresql/<version>/bin``, else wherever ``initdb`` on PATH points."""
    candidates: list[Path] = []
    if os.environ.get("PG_BINDIR"):
        candidates.append(Path(os.environ["PG_BINDIR"]))
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = [p for p in debian.iterdir() if p.name.replace(".", "").isdigit()]
        for version in sorted(versions, key=lambda p: float(p.name), reverse=True):
            candidates.append(version / "bin")
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    for folder in candidates:
        if all(os.access(folder / tool, os.X_OK) for tool in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ensure_user() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(PG_USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", PG_USER],
            check=True,
            capture_output=True,
        )
        return pwd.getpwnam(PG_USER)


@dataclass
class PgServer:
    bindir: Path
    root: Path
    port: int = 0
    password: str = field(default_factory=lambda: secrets.token_hex(16))
    run_as: list[str] = field(default_factory=list)
    running: bool = False
    watchdog: subprocess.Popen[bytes] | None = None

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def log(self) -> Path:
        return self.root / "server.log"

    def url(self, dbname: str) -> str:
        return f"postgresql+psycopg://{PG_USER}:{self.password}@127.0.0.1:{self.port}/{dbname}"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.run_as, *args], cwd=self.root, capture_output=True, text=True, check=False
        )

    def _log_tail(self) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-20:])
        except OSError:
            return "(no server log)"

    def init(self) -> None:
        pwfile = self.root / "pwfile"
        pwfile.write_text(self.password + "\n")
        if self.run_as:
            owner = pwd.getpwnam(PG_USER)
            for path in (self.root, pwfile):
                os.chown(path, owner.pw_uid, owner.pw_gid)
        done = self._run(
            str(self.bindir / "initdb"),
            "--pgdata",
            str(self.data),
            "--username",
            PG_USER,
            "--pwfile",
            str(pwfile),
            "--auth-host",
            "scram-sha-256",
            "--auth-local",
            "peer",
            "--encoding",
            "UTF8",
            "--no-locale",
            "--no-sync",
        )
        pwfile.unlink()
        if done.returncode != 0:
            raise PgStartFailed(f"initdb failed ({done.returncode}):\n{done.stdout}{done.stderr}")

    def start(self) -> None:
        """Start on a free port (another one if someone took it meanwhile)."""
        last = ""
        for _attempt in range(3):
            self.port = _free_port()
            settings = {
                "listen_addresses": "'127.0.0.1'",
                "port": str(self.port),
                "unix_socket_directories": f"'{self.root}'",
                "fsync": "off",
                "synchronous_commit": "off",
                "full_page_writes": "off",
                "max_connections": "60",
                "shared_buffers": "32MB",
                "log_min_messages": "warning",
                "log_min_error_statement": "panic",  # the tests provoke errors on purpose
            }
            (self.data / "postgresql.auto.conf").write_text(
                "".join(f"{key} = {value}\n" for key, value in settings.items())
            )
            done = self._run(
                str(self.bindir / "pg_ctl"),
                "--pgdata",
                str(self.data),
                "--log",
                str(self.log),
                "--wait",
                "--timeout",
                str(START_TIMEOUT_S),
                "start",
            )
            if done.returncode == 0:
                self.running = True
                self._watch()
                return
            last = f"{done.stdout}{done.stderr}\n{self._log_tail()}"
            if not re.search(r"could not bind|Address already in use", last):
                break
        raise PgStartFailed(f"pg_ctl start failed:\n{last}")

    def _watch(self) -> None:
        """Stop the server and remove its folder once this process has ended, however."""
        stop = [*self.run_as, str(self.bindir / "pg_ctl"), "--pgdata", str(self.data)]
        script = (
            f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 1; done; "
            f"{shlex.join(stop)} -m immediate stop >/dev/null 2>&1; rm -rf {shlex.quote(str(self.root))}"
        )
        self.watchdog = subprocess.Popen(
            ["sh", "-c", script],
            cwd="/",
            start_new_session=True,  # not killed with this process's group
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def cpu_seconds(self) -> float | None:
        """CPU time the server has used so far (the postmaster and its ended backends)."""
        try:
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, ValueError, IndexError):
            return None
        ticks = sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
        return ticks / os.sysconf("SC_CLK_TCK")

    def halt(self) -> None:
        """Stop the server as a database outage would (fast shutdown: every connection is
        cut), keeping its data and port; ``resume()`` starts it again."""
        done = self._run(
            str(self.bindir / "pg_ctl"), "--pgdata", str(self.data), "-m", "fast", "--wait", "stop"
        )
        if done.returncode != 0:
            raise PgStartFailed(f"pg_ctl stop failed:\n{done.stdout}{done.stderr}")

    def resume(self) -> None:
        """Start the halted server again on the same port (its settings are in the data)."""
        done = self._run(
            str(self.bindir / "pg_ctl"),
            "--pgdata",
            str(self.data),
            "--log",
            str(self.log),
            "--wait",
            "--timeout",
            str(START_TIMEOUT_S),
            "start",
        )
        if done.returncode != 0:
            raise PgStartFailed(f"pg_ctl start failed:\n{done.stdout}{done.stderr}")

    def stop(self) -> None:
        if self.watchdog is not None:
            self.watchdog.terminate()
            self.watchdog.wait()
            self.watchdog = None
        if self.running:
            self._run(str(self.bindir / "pg_ctl"), "--pgdata", str(self.data), "-m", "fast", "stop")
            self.running = False
        shutil.rmtree(self.root, ignore_errors=True)


def start_server() -> PgServer:
    """A running throwaway server, or PgUnavailable / PgStartFailed with the reason."""
    bindir = find_bindir()
    if bindir is None:
        raise PgUnavailable(
            "PostgreSQL's server binaries (initdb, pg_ctl) were not found in $PG_BINDIR, "
            "/usr/lib/postgresql/*/bin or on PATH; `make system-deps` installs Debian's postgresql"
        )
    run_as: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL will not run as root
        _ensure_user()
        run_as = ["runuser", "-u", PG_USER, "--"]
    # Not under pytest's basetemp: that folder is private to root, the server user must enter.
    server = PgServer(bindir=bindir, root=Path(tempfile.mkdtemp(prefix="shengji-pg-")))
    server.run_as = run_as
    try:
        server.init()
        server.start()
    except BaseException:
        server.stop()
        raise
    return server
