"""The deployment of ``deploy/``: nginx with ``deploy/nginx.conf`` in front of two ``polis
serve`` processes sharing PostgreSQL and Redis, as ``deploy/compose.yaml`` runs them, here on
this machine's loopback (the upstream names rewritten to local ports). A game is created and
played through the proxy: the WebSocket upgrade passes, the forwarded headers reach polis
(invite links from the public address, limits per client), a game's sockets stay on one
process, and the other process serves it too.
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from waiting import eventually

from .browser_helpers import ROOT, free_port
from .clients import PEOPLE, Player, create_game, http
from .services import Postgres, Redis, Serve, postgres, redis

#: Real PostgreSQL, Redis or nginx servers of the test's own: not in ``make check``.
pytestmark = pytest.mark.cluster

CONF = ROOT / "deploy" / "nginx.conf"


def need_nginx() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found is None:
        pytest.skip("needs nginx (apt-get install nginx)")
    return found


@pytest.fixture(scope="module")
def stack() -> Iterator[tuple[str, list[Serve]]]:
    nginx = need_nginx()
    with postgres() as pg, redis() as bus:
        yield from _stack(nginx, pg, bus)


def _stack(nginx: str, pg: Postgres, bus: Redis) -> Iterator[tuple[str, list[Serve]]]:
    db = pg.database(f"deploy_{uuid.uuid4().hex[:8]}")
    port = free_port()
    public = "https://polis.example.org"
    env = {"POLIS_PUBLIC_URL": public, "POLIS_TRUSTED_PROXIES": "127.0.0.1"}
    servers = [Serve(db, "--redis", bus.url, env=env).start() for _ in range(2)]
    folder = Path(tempfile.mkdtemp(prefix="polis-nginx-"))
    conf = CONF.read_text()
    for i, server in enumerate(servers, 1):
        conf = conf.replace(f"polis{i}:8000", f"127.0.0.1:{server.port}")
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{port};")
    conf = re.sub(r"^worker_processes auto;", "worker_processes 1;", conf, flags=re.M)
    header = f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\ndaemon off;\n"
    conf = header + conf.replace(
        "http {",
        f"http {{\n    access_log off;\n    client_body_temp_path {folder}/body;\n"
        f"    proxy_temp_path {folder}/proxy;\n",
        1,
    )
    (folder / "nginx.conf").write_text(conf)
    check = subprocess.run(
        [nginx, "-t", "-c", str(folder / "nginx.conf"), "-p", str(folder)],
        capture_output=True,
        text=True,
    )
    if check.returncode != 0:
        for server in servers:
            server.stop()
        pytest.fail(check.stderr)
    proc = subprocess.Popen(
        [nginx, "-c", str(folder / "nginx.conf"), "-p", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:

        def answers() -> bool:
            if proc.poll() is not None:
                raise RuntimeError("nginx stopped")
            try:
                return http(base, "/api/meta")[0] == 200
            except OSError:
                return False

        eventually(answers, "nginx did not come up", timeout=20, interval=0.2)
        yield base, servers
    finally:
        proc.send_signal(signal.SIGTERM)  # fast shutdown: open WebSockets are not waited for
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        finally:
            for server in servers:
                server.stop()
            shutil.rmtree(folder, ignore_errors=True)


def test_a_game_is_played_through_the_proxy(stack: tuple[str, list[Serve]]) -> None:
    base, servers = stack
    status, _page, headers = http(base, "/")
    assert status == 200 and "content-security-policy" in {k.lower() for k in headers}
    game = create_game(base, PEOPLE)
    gid = game["id"]
    assert game["seats"][0]["invite"].startswith(f"https://polis.example.org/#/game/{gid}/")
    ada = Player(base, gid, game["seats"][0]["token"])
    lin = Player(base, gid, game["seats"][1]["token"])
    for _ in range(6):
        state = ada.state
        mover = ada if state["current_player"] == 0 else lin
        mover.at_least(state["position"])
        mover.move()
        for p in (ada, lin):
            p.at_least(state["position"] + 1, timeout=15)
    # the other process (not the one the proxy sends this game's sockets to) has it too
    for server in servers:
        status, summary, _ = http(server.base, f"/api/games/{gid}")
        assert status == 200 and summary["position"] == 6
    ada.close()
    lin.close()


def test_the_proxy_refuses_what_polis_would(stack: tuple[str, list[Serve]]) -> None:
    base, _servers = stack
    status, _, _ = http(base, "/api/games", {"game": "x" * 100_000})
    assert status == 413
    statuses = [
        http(base, "/api/games", {"game": "quadropolis", "mode": "classic", "seats": PEOPLE})[0]
        for _ in range(14)
    ]
    assert 429 in statuses  # game creation per address, at the proxy
