"""A polis server in a subprocess and a headless Debian chromium, for the browser tests."""

from __future__ import annotations

import json
import os
import re
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
    """Every WebSocket frame the server sends to a page, exactly as sent.

    The page is routed through Playwright: it receives each frame without the ``legal`` list
    of state messages, so the client can only play from the structured ``choices`` (a client
    that read ``legal`` would fail to move, or throw).
    """

    def __init__(self, page: Any) -> None:
        self.frames: list[str] = []
        #: Every frame the page sent to the server.
        self.sent: list[str] = []
        page.route_web_socket(re.compile(r"/ws/"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            text = message if isinstance(message, str) else message.decode()
            self.frames.append(text)
            ws.send(without_legal(text))

        def to_server(message: str | bytes) -> None:
            self.sent.append(message if isinstance(message, str) else message.decode())
            server.send(message)

        server.on_message(to_page)
        ws.on_message(to_server)

    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(f) for f in self.frames]

    def moves_sent(self) -> list[str]:
        """The move texts the page sent."""
        moves = []
        for frame in self.sent:
            try:
                msg = json.loads(frame)
            except ValueError:
                continue  # a test sending garbage by hand
            if isinstance(msg, dict) and msg.get("type") == "move":
                moves.append(msg["move"])
        return moves

    def offered(self) -> set[str]:
        """Every move text any state message offered as a leaf of its ``choices``."""
        found: set[str] = set()

        def leaves(node: Any, under: str = "") -> None:
            if isinstance(node, dict):
                for key, value in node.items():
                    leaf = key in ("move", "discard", "nothing", "pass") or under == "targets"
                    if isinstance(value, str) and leaf:
                        found.add(value)
                    leaves(value, key)
            elif isinstance(node, list):
                for item in node:
                    leaves(item)

        for msg in self.messages():
            if msg.get("type") == "state":
                leaves(msg["choices"])
        return found

    def assert_moves_came_from_choices(self) -> None:
        """Every move the page sent is the text of a choice the server offered it."""
        sent = self.moves_sent()
        assert sent, "the page sent no move"
        assert set(sent) <= self.offered(), set(sent) - self.offered()


def without_legal(text: str) -> str:
    """A server frame as the page gets it: state messages lose their ``legal`` list."""
    msg = json.loads(text)
    if msg.get("type") != "state":
        return text
    assert "choices" in msg, "every state message carries choices (null when not to move)"
    msg.pop("legal", None)
    return json.dumps(msg)


#: JavaScript: the number of moves the page's log covers (the position shown).
LOG_POSITION = "Number(document.querySelector('#log')?.dataset.position ?? -1)"


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
    """The number of moves the page's log covers."""
    return int(page.evaluate(LOG_POSITION))


def wait_position(page: Any, check: str) -> None:
    """Wait until the shown position satisfies ``check`` (e.g. ``"> 3"``, ``"=== 0"``)."""
    page.wait_for_function(f"() => {LOG_POSITION} {check}")


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
            f"() => {LOG_POSITION} > {before} || document.querySelector('#scorepad')"
        )
    return clicks


def log_keys(page: Any) -> set[str]:
    """The event keys of the lines in the page's log."""
    keys = page.evaluate("[...document.querySelectorAll('#log li')].map((li) => li.dataset.key)")
    return set(keys)


def log_lines(page: Any) -> list[str]:
    """The lines of the page's log, as worded."""
    lines: list[str] = page.evaluate(
        "[...document.querySelectorAll('#log li')].map((li) => li.textContent)"
    )
    return lines
