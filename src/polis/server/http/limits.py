"""Abuse limits per client address: open connections, connection and message rates, and
games created, so one address cannot crowd out everyone else.

Rates are counted by :mod:`polis.server.http.rates` (moving windows kept in this process's
memory; with several processes each keeps its own count, and the reverse proxy can add a
global one). The address is the peer's, or the one a trusted proxy forwards (uvicorn's proxy
headers).
"""

from __future__ import annotations

import time
from collections import Counter

from polis.server.config import Limits
from polis.server.errors import ServerError
from polis.server.http.rates import Windows, parse_rate

#: Seconds between sweeps of expired counts out of memory.
SWEEP_EVERY = 10.0


class Guards:
    """The counters of one server process."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._counts = Windows()
        self._swept = time.monotonic()
        self._connect = parse_rate(limits.connect_rate)
        self._message = parse_rate(limits.message_rate)
        self._create = parse_rate(limits.create_rate)
        self._chat = parse_rate(limits.chat_rate)
        self._chat_address = parse_rate(limits.chat_address_rate)
        self._open: Counter[str] = Counter()

    def admit(self, address: str) -> str | None:
        """Why a new WebSocket from ``address`` is refused, or None (then call :meth:`opened`)."""
        if self._open[address] >= self.limits.connections_per_address:
            return "too many open connections from your address"
        if not self._counts.hit(self._connect, "connect", address):
            return "too many new connections from your address; wait a moment"
        return None

    def opened(self, address: str) -> None:
        self._open[address] += 1

    def closed(self, address: str) -> None:
        self._open[address] -= 1
        if self._open[address] <= 0:
            del self._open[address]

    def open_from(self, address: str) -> int:
        return self._open.get(address, 0)

    def message(self, address: str) -> bool:
        """Count one WebSocket message from ``address``; False when over its rate."""
        now = time.monotonic()
        if now - self._swept > SWEEP_EVERY:
            self._swept = now
            self._counts.sweep()
        return self._counts.hit(self._message, "message", address)

    def chat(self, address: str, connection: int) -> str | None:
        """Count one chat line from a connection (its serial) at ``address``; why it is
        refused when over either rate, else None."""
        if not self._counts.hit(self._chat, "chat", str(connection)):
            return f"too many chat lines; wait a moment (at most {self.limits.chat_rate})"
        if not self._counts.hit(self._chat_address, "chat-address", address):
            return (
                "too many chat lines from your address; wait a moment "
                f"(at most {self.limits.chat_address_rate})"
            )
        return None

    def create(self, address: str) -> None:
        """Count one game created by ``address``; ServerError (429) when over its rate."""
        if not self._counts.hit(self._create, "create", address):
            raise ServerError(
                "rate_limited",
                f"too many games created from your address (at most {self.limits.create_rate})",
            )
