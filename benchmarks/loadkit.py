"""What the load benchmark (``load.py``) runs beside its clients: ``polis serve`` processes,
a fresh PostgreSQL database, a Redis server, and the measures of memory and of what else was
using the machine.

Everything it starts listens on 127.0.0.1 and is stopped when the run ends.
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
import time
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: How a server process is started, after the interpreter (``POLIS_LOAD_SERVER`` may name a
#: script that wraps ``polis``'s command line, e.g. to profile the server under load).
SERVER_COMMAND = os.environ.get("POLIS_LOAD_SERVER", "-m polis.cli.main").split()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_http(url: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise RuntimeError(f"server died: {err[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer")


@dataclass
class Server:
    """One ``polis serve`` process."""

    port: int
    proc: subprocess.Popen[bytes]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


@contextlib.contextmanager
def servers(
    count: int,
    db_url: str,
    *,
    redis_url: str | None = None,
    env: dict[str, str] | None = None,
    bot_workers: int = 2,
) -> Iterator[list[Server]]:
    """``count`` server processes on one database (and one Redis when given)."""
    started: list[Server] = []
    logs = Path(tempfile.mkdtemp(prefix="polis-load-"))
    try:
        for i in range(count):
            port = free_port()
            args = [
                sys.executable,
                *SERVER_COMMAND,
                "serve",
                "--port",
                str(port),
                "--db",
                db_url,
                "--bot-delay",
                "0",
                "--bot-workers",
                str(bot_workers),
            ]
            if redis_url:
                args += ["--redis", redis_url]
            full_env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), **(env or {})}
            proc = subprocess.Popen(
                args,
                cwd=ROOT,
                env=full_env,
                stdout=subprocess.DEVNULL,
                stderr=(logs / f"server{i}.log").open("wb"),
            )
            server = Server(port, proc)
            started.append(server)
            wait_http(server.base + "/api/meta", proc)
        yield started
    finally:
        for server in started:
            if server.proc.poll() is None:
                server.proc.send_signal(signal.SIGTERM)
        for server in started:
            try:
                server.proc.wait(15)
            except subprocess.TimeoutExpired:
                server.proc.kill()
        shutil.rmtree(logs, ignore_errors=True)


@contextlib.contextmanager
def postgres_database(admin_url: str) -> Iterator[str]:
    """A fresh database on the server of ``admin_url``, dropped afterwards."""
    from sqlalchemy import create_engine, make_url, text

    from polis.server.store.games import normalise_url

    base = make_url(normalise_url(admin_url))
    name = f"polis_load_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield (
            base.set(database=name)
            .render_as_string(hide_password=False)
            .replace("postgresql+psycopg://", "postgresql://")
        )
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A throw-away redis-server (Debian's) on a free port."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)


# -- measures ----------------------------------------------------------------------------------


def children(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    found = [pid]
    kids: list[str] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():  # children of every thread
            kids += (task / "children").read_text().split()
    except OSError:
        return found
    for kid in kids:
        found += children(int(kid))
    return found


def rss_mb(pid: int) -> tuple[float, float]:
    """(resident, peak resident) MiB of one process."""
    now = peak = 0.0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                now = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    except OSError:
        pass
    return now, peak


@dataclass
class Memory:
    """Peak memory of the servers (web processes) and of their bot workers."""

    web_peak: float = 0.0
    workers_peak: float = 0.0

    def sample(self, servers: list[Server]) -> None:
        web = 0.0
        workers = 0.0
        for server in servers:
            pid = server.proc.pid
            web += rss_mb(pid)[1]
            workers += sum(rss_mb(kid)[0] for kid in children(pid)[1:])
        self.web_peak = max(self.web_peak, web)
        self.workers_peak = max(self.workers_peak, workers)


def _cpu_times() -> dict[int, tuple[float, str]]:
    ticks = os.sysconf("SC_CLK_TCK")
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        out[int(entry.name)] = ((int(fields[11]) + int(fields[12])) / ticks, cmd.strip())
    return out


def busy_seconds() -> float:
    """Seconds of processor time the whole machine has used since boot (all cores)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


@dataclass
class Beside:
    """What else used the processors during a measurement (processes not started by it)."""

    mine: set[int] = field(default_factory=set)
    _start: dict[int, tuple[float, str]] = field(default_factory=dict)
    _t0: float = 0.0
    load: str = ""

    def start(self) -> None:
        self._start = _cpu_times()
        self._busy0 = busy_seconds()
        self._t0 = time.monotonic()

    def stop(self, ours: list[int]) -> None:
        end = _cpu_times()
        span = max(time.monotonic() - self._t0, 1e-9)
        #: Processor time of the whole machine, in cores (short-lived processes included).
        self.machine_cpu = (busy_seconds() - self._busy0) / span
        self.load = Path("/proc/loadavg").read_text().split()[0]
        self.others: list[tuple[float, str]] = []
        self.ours_cpu = 0.0
        self.client_cpu = 0.0
        self.store_cpu = 0.0
        mine = set(ours)
        for pid, (cpu, cmd) in end.items():
            used = (cpu - self._start.get(pid, (0.0, ""))[0]) / span
            if pid == os.getpid():
                self.client_cpu += used
            elif pid in mine:
                self.ours_cpu += used
            elif cmd.startswith(("postgres", "redis-server", "/usr/bin/redis-server")):
                self.store_cpu += used
            elif used > 0.05:
                self.others.append((used, cmd))
        self.others.sort(reverse=True)

    def describe(self) -> str:
        """One line: the benchmark's own processor use, the store's, and everything else's
        (the machine's total minus those: other people's work, short-lived processes too)."""
        mine = self.ours_cpu + self.client_cpu + self.store_cpu
        rest = max(0.0, self.machine_cpu - mine)
        head = (
            f"cpu (% of one core): servers {100 * self.ours_cpu:.0f}, "
            f"clients {100 * self.client_cpu:.0f}, store {100 * self.store_cpu:.0f}; "
            f"everything else {100 * rest:.0f}"
        )
        if not self.others:
            return f"{head} (load {self.load})"
        parts = [f"{cmd[:50]} {100 * used:.0f}%" for used, cmd in self.others[:3]]
        return f"{head}, of which " + "; ".join(parts) + f" (load {self.load})"
