"""Real services for the fault and multi-process tests: a PostgreSQL server of the test's own
(so it can be killed and restarted without touching anyone else's), a redis-server, and
``polis serve`` processes.

PostgreSQL comes from Debian's binaries (``/usr/lib/postgresql/*/bin``), Redis from
``redis-server`` on the PATH; ``.ci/run`` installs both. Without them the tests that need
them skip, saying what to install.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from waiting import eventually

from .browser_helpers import ROOT, WIRE_MARK, free_port


def pg_bin() -> Path | None:
    """The newest installed PostgreSQL's binaries folder, if any."""
    base = Path("/usr/lib/postgresql")
    if not base.is_dir():
        return None
    versions = sorted((p for p in base.iterdir() if (p / "bin" / "initdb").exists()), key=_ver)
    return versions[-1] / "bin" if versions else None


def _ver(path: Path) -> float:
    try:
        return float(path.name)
    except ValueError:
        return 0.0


def need_postgres() -> Path:
    found = pg_bin()
    if found is None:
        pytest.skip("needs PostgreSQL's server binaries (apt-get install postgresql)")
    return found


def need_redis() -> str:
    found = shutil.which("redis-server")
    if found is None:
        pytest.skip("needs redis-server (apt-get install redis-server)")
    return found


def _as_postgres() -> list[str]:
    """The command prefix that runs a PostgreSQL tool (which refuses to run as root)."""
    if os.geteuid() != 0:
        return []
    return ["runuser", "-u", "postgres", "--"]


class Postgres:
    """A PostgreSQL cluster in a temporary folder, on a free port; can be stopped at once
    (``-m immediate``, as a crash) and started again on the same data."""

    def __init__(self) -> None:
        self.bin = need_postgres()
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="polis-pg-", dir="/tmp"))
        self.data = self.dir / "data"
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run([str(self.bin / "initdb"), "-D", str(self.data), "-U", "polis", "-A", "trust"])
        self.url = f"postgresql://polis@127.0.0.1:{self.port}/postgres"

    def _run(self, args: list[str]) -> None:
        subprocess.run(
            [*_as_postgres(), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=self.dir,
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            [
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.data),
                "-o",
                options,
                "-l",
                str(self.dir / "log"),
                "-w",
                "start",
            ]
        )

    def stop(self, mode: str = "immediate") -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"])

    def database(self, name: str) -> str:
        """A fresh database on this server; its URL."""
        from sqlalchemy import create_engine, text

        engine = create_engine(
            self.url.replace("postgresql://", "postgresql+psycopg://"),
            isolation_level="AUTOCOMMIT",
        )
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        engine.dispose()
        return self.url.rsplit("/", 1)[0] + "/" + name

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    """A redis-server on a free port; can be killed and started again on the same port."""

    def __init__(self) -> None:
        self.binary = need_redis()
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

        def answers() -> bool:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return True
            return False

        eventually(answers, "redis-server did not start", timeout=10, interval=0.05)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@contextlib.contextmanager
def postgres() -> Iterator[Postgres]:
    server = Postgres()
    try:
        server.start()
        yield server
    finally:
        server.remove()


@contextlib.contextmanager
def redis() -> Iterator[Redis]:
    server = Redis()
    try:
        server.start()
        yield server
    finally:
        server.kill()


#: Every server process of the tests checks its traffic against the wire contract and logs
#: each mismatch with WIRE_MARK (polis.server.wire.check); the tests fail on it.
WIRE_ENV = {"POLIS_CHECK_WIRE": "1"}


def assert_wire_kept(log: str, who: str = "the server") -> None:
    """Fail when a server's log says it sent, heard or published a message that breaks the
    wire contract."""
    broken = [line for line in log.splitlines() if WIRE_MARK in line]
    assert not broken, f"{who} broke the wire contract:\n" + "\n".join(broken)


class Serve:
    """``polis serve`` in a subprocess with any options and ``POLIS_*`` variables, checking
    its traffic against the wire contract (``POLIS_CHECK_WIRE=1``): stopping it fails when
    its log shows a mismatch."""

    def __init__(self, db_url: str, *args: str, env: dict[str, str] | None = None) -> None:
        self.db_url = db_url
        self.args = args
        self.env = env or {}
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = Path(tempfile.mkstemp(prefix="polis-serve-", suffix=".log")[1])

    def start(self) -> Serve:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), **WIRE_ENV, **self.env}
        # the production default: these servers' outages are timed (conftest sets 10 s)
        env["POLIS_HTTP_PATIENCE"] = self.env.get("POLIS_HTTP_PATIENCE", "1.5")
        command = [sys.executable, "-m", "polis.cli.main", "serve", "--port", str(self.port)]
        command += ["--db", self.db_url, "--bot-delay", "0", *self.args]
        self.proc = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=self.log.open("wb")
        )
        proc = self.proc

        def answers() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"server died: {self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{self.base}/api/meta", timeout=2):
                    return True
            except OSError:
                return False

        eventually(answers, "the server did not start", timeout=60, interval=0.2)
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.assert_wire_kept()

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.assert_wire_kept()

    def assert_wire_kept(self) -> None:
        assert_wire_kept(self.logged(), f"polis serve on port {self.port}")

    def logged(self) -> str:
        return self.log.read_text(errors="replace")

    def __enter__(self) -> Serve:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        try:
            self.stop()
        finally:
            self.log.unlink(missing_ok=True)
