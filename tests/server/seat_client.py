"""A seat (or a spectator) on the TestClient's WebSocket, for the open-table and take-back
tests: say hello, read until the state wanted, send moves and take-back messages; every
message either way checked against the wire contract (contract.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

from .contract import received, sent


class Seat:
    """One connection; ``state`` is the latest state message read."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] = {}
        #: Every other message read (errors, notices), oldest first.
        self.others: list[dict[str, Any]] = []
        #: Every message read and sent, as the texts that went over the socket.
        self.frames: list[str] = []
        self.sent: list[str] = []

    def read(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        received(text)
        self.frames.append(text)
        msg: dict[str, Any] = json.loads(text)
        if msg.get("type") == "state":
            self.state = msg
        else:
            self.others.append(msg)
        return msg

    def until(self, check: Any, limit: int = 200) -> dict[str, Any]:
        """Read until ``check(state)`` holds for the latest state; that state."""
        if self.state and check(self.state):
            return self.state
        for _ in range(limit):
            if self.read().get("type") == "state" and check(self.state):
                return self.state
        raise AssertionError(f"never saw the state wanted; last: {self.state}")

    def at(self, position: int) -> dict[str, Any]:
        return self.until(lambda s: s["position"] >= position)

    def error(self, limit: int = 50) -> dict[str, Any]:
        """Read until an error message comes; it."""
        for _ in range(limit):
            msg = self.read()
            if msg.get("type") == "error":
                return msg
        raise AssertionError("no error came")

    def notice(self, kind: str, limit: int = 50) -> dict[str, Any]:
        for msg in self.others:
            if msg.get("type") == kind:
                return msg
        for _ in range(limit):
            msg = self.read()
            if msg.get("type") == kind:
                return msg
        raise AssertionError(f"no {kind} message came")

    def move(self, text: str | None = None) -> None:
        """Play ``text`` (default: the first legal move) at the latest position."""
        move = text if text is not None else self.state["legal"][0]
        self.send({"type": "move", "move": move, "position": self.state["position"]})

    def take_back(self) -> None:
        self.send({"type": "takeback", "position": self.state["position"]})

    def answer(self, accept: bool) -> None:
        self.send({"type": "takeback_answer", "position": self.state["position"], "accept": accept})

    def send(self, message: dict[str, Any]) -> None:
        """Send ``message``, checked against the contract."""
        text = sent(message)
        self.sent.append(text)
        self.ws.send_text(text)


@contextmanager
def seated(client: TestClient, game_id: str, token: str | None) -> Iterator[Seat]:
    """A connection to ``game_id`` holding ``token``'s seat (None: watching)."""
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        seat = Seat(ws)
        seat.send({"type": "hello", "token": token})
        seat.until(lambda s: True)
        yield seat
