"""Plain clients for tests against real server processes: HTTP calls that return the status
instead of raising, and a synchronous WebSocket player. Both check what they send and get
against the wire contract (contract.py)."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.error
import urllib.request
from typing import Any

from websockets.sync.client import ClientConnection, connect

from .contract import http_answer, received, sent


def http(
    base: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    method: str | None = None,
) -> tuple[int, Any, dict[str, str]]:
    """(status, JSON body or text, headers) of one request."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path,
        data=data,
        headers={"Content-Type": "application/json", **(headers or {})},
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as resp:
            raw, status, got = resp.read(), resp.status, dict(resp.headers)
    except urllib.error.HTTPError as exc:
        raw, status, got = exc.read(), exc.code, dict(exc.headers)
    try:
        answer = json.loads(raw)
    except ValueError:
        return status, raw.decode(errors="replace"), got
    http_answer(status, answer)
    return status, answer, got


def create_game(base: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    status, data, _ = http(
        base, "/api/games", {"game": "quadropolis", "mode": "classic", "seats": seats, **extra}
    )
    assert status == 200, data
    assert isinstance(data, dict)
    return data


PEOPLE = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]


class Player:
    """One WebSocket of a seat (or a spectator), keeping the last state it was sent."""

    def __init__(self, base: str, game_id: str, token: str | None) -> None:
        # entered as a context manager (closed by :meth:`close`): websockets deprecates a
        # connection used without one
        self._opened = contextlib.ExitStack()
        self.ws: ClientConnection = self._opened.enter_context(
            connect(base.replace("http://", "ws://") + f"/ws/{game_id}", open_timeout=30)
        )
        self.ws.send(sent({"type": "hello", "token": token}))
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}
        self.until(lambda m: m["type"] == "state")

    def next(self, timeout: float = 30) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        received(text)
        msg: dict[str, Any] = json.loads(text)
        self.messages.append(msg)
        if msg.get("type") == "state":
            self.state = msg
        return msg

    def until(self, check: Any, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.next(max(0.01, deadline - time.monotonic()))
            if check(msg):
                return msg

    def at_least(self, position: int, timeout: float = 30) -> dict[str, Any]:
        if self.state.get("position", -1) >= position:
            return self.state
        return self.until(
            lambda m: m["type"] == "state" and m["position"] >= position, timeout=timeout
        )

    def drain(self, quiet: float = 0.5) -> None:
        """Read whatever else arrives until nothing has for ``quiet`` seconds."""
        while True:
            try:
                self.next(timeout=quiet)
            except TimeoutError:
                return

    def move(self, text: str | None = None) -> None:
        state = self.state
        move = text if text is not None else state["legal"][0]
        self.ws.send(sent({"type": "move", "move": move, "position": state["position"]}))

    def close(self) -> None:
        self._opened.close()
