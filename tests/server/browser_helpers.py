"""A polis server in a subprocess and a headless Debian chromium, for the browser tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``polis serve`` on a free port; can be killed (SIGKILL) and started again on the same db."""

    def __init__(self, db_url: str, port: int | None = None) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "polis.cli.main",
                "serve",
                "--port",
                str(self.port),
                "--db",
                self.db_url,
                "--bot-delay",
                "0",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"server died: {err}")
            try:
                with urllib.request.urlopen(f"{self.base}/api/meta", timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def api(self, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.base + path, data=data, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.loads(resp.read())


class FrameLog:
    """Every WebSocket frame a page receives, parsed."""

    def __init__(self, page: Any) -> None:
        self.frames: list[str] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        ws.on(
            "framereceived",
            lambda payload: self.frames.append(
                payload if isinstance(payload, str) else payload.decode()
            ),
        )

    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(f) for f in self.frames]


def wait_turn_or_end(page: Any, timeout: float = 120_000) -> bool:
    """Wait until this page may move (True) or shows the score pad (False)."""
    page.wait_for_function(
        "() => document.querySelector('#scorepad') || document.querySelector('#status.your-turn')",
        timeout=timeout,
    )
    return page.query_selector("#scorepad") is None


def click_quadropolis_move(page: Any) -> None:
    page.click("button.architect >> nth=0")
    page.click("g.spot.legal >> nth=0")
    target = page.query_selector("g.cell.legal")
    if target is not None:
        target.click()
    elif page.query_selector("#take-nothing") is not None:
        page.click("#take-nothing")
    else:
        page.click("#discard")


def click_metropolys_move(page: Any, turn: int) -> None:
    can_bid = page.query_selector("g.field.legal") is not None
    if can_bid and (turn % 3 != 2 or page.query_selector("#pass") is None):
        page.click("g.field.legal >> nth=0")
        page.click("button.value >> nth=0")
    else:
        page.click("#pass")


def position(page: Any) -> int:
    """The number of moves in the page's log."""
    return int(page.evaluate("document.querySelectorAll('#log li').length"))


def play_until_end(page: Any, game: str, limit: int = 400) -> int:
    """Click legal moves until the game is over; returns how many moves were clicked."""
    clicks = 0
    while wait_turn_or_end(page):
        before = position(page)
        if game == "quadropolis":
            click_quadropolis_move(page)
        else:
            click_metropolys_move(page, clicks)
        clicks += 1
        assert clicks < limit
        page.wait_for_function(
            f"() => document.querySelectorAll('#log li').length > {before} || "
            "document.querySelector('#scorepad')"
        )
    return clicks
