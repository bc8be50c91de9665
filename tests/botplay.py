"""Bots on real servers, for the bot API's tests (tests/server/test_bot_api.py and
tests/cli/test_bot_connect.py): a server in a thread of the test's own process (it serves the
toy game, which a ``polis serve`` subprocess does not know), people with sessions, bot accounts
with tokens, a person who plays a whole game over the WebSocket, and a bot client that keeps
every line it was sent (checked against the wire contract).

``from botplay import ...`` (tests/ is on ``sys.path``, see tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import uvicorn

from polis.client import BotClient
from polis.core.registry import games
from polis.server import create_app
from polis.server.config import ServerConfig
from polis.server.wire.check import WireCheck
from waiting import eventually

PASSWORD = "correct horse battery"
#: The wire contract's checks, for every registered game (the toy one included).
CHECK = WireCheck(games())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ThreadServer:
    """A polis server (uvicorn) in a thread of this process, on a SQLite file; stopped and
    started again on the same port and file (a restart: every connection is cut)."""

    def __init__(self, db_url: str, port: int | None = None) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None
        self.app: Any = None

    def start(self) -> ThreadServer:
        config = ServerConfig.from_env(bot_delay=0.0, check_wire=True, bot_workers=1)
        self.app = create_app(self.db_url, games=games().values(), config=config)
        server = uvicorn.Server(
            uvicorn.Config(
                self.app,
                host="127.0.0.1",
                port=self.port,
                log_level="warning",
                timeout_graceful_shutdown=1,
                lifespan="on",
            )
        )
        self.server = server
        self.thread = threading.Thread(target=server.run, name="polis-test-server", daemon=True)
        self.thread.start()
        eventually(lambda: server.started, "the server did not start", timeout=30)
        return self

    def stop(self) -> None:
        if self.server is not None and self.thread is not None:
            self.server.should_exit = True
            self.thread.join(15)
            assert not self.thread.is_alive(), "the server did not stop"
        self.server = self.thread = None

    def restart(self) -> None:
        self.stop()
        self.start()

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    def __enter__(self) -> ThreadServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Person:
    """A signed-in account in a browser of its own (its session cookie and CSRF token)."""

    def __init__(self, base: str, name: str) -> None:
        self.name = name
        self.http = httpx.Client(base_url=base, timeout=30)
        r = self.http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 200, r.text
        self.http.headers["X-CSRF-Token"] = self.http.get("/api/account").json()["csrf"]

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body)

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def challenge(self, bot: str, game: str, mode: str, **extra: Any) -> str:
        r = self.post("/api/challenges", {"to": bot, "game": game, "mode": mode, **extra})
        assert r.status_code == 200, r.text
        return str(r.json()["id"])

    def seat_token(self, game_id: str) -> str:
        """A key of this device for the account's seat of ``game_id``."""
        r = self.post(f"/api/account/games/{game_id}/key")
        assert r.status_code == 200, r.text
        return str(r.json()["token"])

    def first_game(self, timeout: float = 20) -> str:
        """The id of the account's first unfinished table, once there is one."""

        def found() -> str | None:
            mine = self.get("/api/account/games").json()
            tables = mine["turn"] + mine["playing"]
            return str(tables[0]["id"]) if tables else None

        return eventually(found, f"{self.name} has no table", timeout=timeout)

    def close(self) -> None:
        self.http.close()


def bot_account(base: str, name: str) -> tuple[Person, str]:
    """A bot account (made a bot before any game) and an API token of it."""
    owner = Person(base, name)
    assert owner.post("/api/account/bot").status_code == 200
    r = owner.post("/api/account/tokens", {"label": "tests"})
    assert r.status_code == 200, r.text
    return owner, str(r.json()["token"])


class RecordingClient(BotClient):
    """A bot client that keeps every line of every stream it was sent (checked against the
    wire contract: events as events, game lines as messages to a client)."""

    def __init__(self, server: str, token: str, **kwargs: Any) -> None:
        super().__init__(server, token, **kwargs)
        self.lines: list[tuple[str, str]] = []
        self.lock = threading.Lock()

    def _lines(self, path: str) -> Iterator[str]:
        for line in super()._lines(path):
            if path.endswith("/api/bot/stream"):
                CHECK.bot_event(line)
            else:
                CHECK.to_client(line)
            with self.lock:
                self.lines.append((path, line))
            yield line

    def states(self, game_id: str) -> list[dict[str, Any]]:
        with self.lock:
            return [json.loads(text) for path, text in self.lines if game_id in path]


class Pause:
    """Holds a person before their first move at ``position`` or later, until resumed."""

    def __init__(self, position: int) -> None:
        self.position = position
        self.reached = threading.Event()
        self.go = threading.Event()

    def hold(self, state: dict[str, Any]) -> None:
        if state["position"] >= self.position and not self.go.is_set():
            self.reached.set()
            self.go.wait(120)


def play_person(
    base: str,
    game_id: str,
    token: str,
    rng: random.Random,
    timeout: float = 120,
    pause: Pause | None = None,
) -> dict[str, Any]:
    """A person plays random legal moves over the WebSocket until the game is over (opening
    the socket again when the server goes away; holding at ``pause``); the last state."""
    from server.clients import Player

    deadline = time.monotonic() + timeout
    player: Player | None = None
    try:
        while time.monotonic() < deadline:
            try:
                if player is None:
                    player = Player(base, game_id, token)
                state = player.state
                if state.get("finished"):
                    return state
                if state["current_player"] == state["seat"] and state["legal"]:
                    if pause is not None and not pause.go.is_set():
                        pause.hold(state)
                        if pause.go.is_set():  # the server may have restarted meanwhile
                            player = _closed(player)
                            continue
                    player.move(rng.choice(state["legal"]))
                player.next(timeout=max(0.1, deadline - time.monotonic()))
            except (OSError, TimeoutError) as exc:
                if isinstance(exc, TimeoutError) and player is not None:
                    raise
                player = _closed(player)
                time.sleep(0.2)
            except Exception as exc:  # the websockets library's ConnectionClosed
                if type(exc).__name__ not in ("ConnectionClosedError", "ConnectionClosedOK"):
                    raise
                player = _closed(player)
                time.sleep(0.2)
        raise TimeoutError(f"game {game_id} did not end in {timeout} s")
    finally:
        _closed(player)


def _closed(player: Any) -> None:
    if player is not None:
        with contextlib.suppress(Exception):
            player.close()
    return None
