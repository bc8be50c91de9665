"""Sign-in and sign-up limits: attempts per address and failed attempts per name, counted
in this process's memory over a sliding window.

Guessing passwords needs many tries: an address gets :data:`PER_ADDRESS` attempts and a name
:data:`FAILS_PER_NAME` failed ones per :data:`WINDOW`, whatever the address (so a botnet
cannot try one account from many places either). A correct password is not counted against
the name. Memory is bounded: the oldest keys go first past :data:`MAX_KEYS`.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque

from polis.server.errors import ServerError

WINDOW = 15 * 60.0
PER_ADDRESS = 20
FAILS_PER_NAME = 10
SIGNUPS_PER_ADDRESS = 5
MAX_KEYS = 50_000


class Window:
    """Events per key over the last ``window`` seconds, at most ``limit`` of them."""

    def __init__(self, limit: int, window: float = WINDOW) -> None:
        self.limit = limit
        self.window = window
        self._hits: OrderedDict[str, deque[float]] = OrderedDict()

    def _recent(self, key: str, now: float) -> deque[float]:
        hits = self._hits.get(key)
        if hits is None:
            hits = self._hits[key] = deque()
            while len(self._hits) > MAX_KEYS:
                self._hits.popitem(last=False)
        self._hits.move_to_end(key)
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        return hits

    def full(self, key: str, now: float | None = None) -> bool:
        return len(self._recent(key, time.monotonic() if now is None else now)) >= self.limit

    def hit(self, key: str, now: float | None = None) -> None:
        self._recent(key, time.monotonic() if now is None else now).append(
            time.monotonic() if now is None else now
        )

    def wait(self, key: str) -> int:
        """Seconds until ``key`` has room again."""
        hits = self._hits.get(key)
        if not hits:
            return 0
        return max(1, int(hits[0] + self.window - time.monotonic()) + 1)


class SignInLimits:
    """The limits of one server process."""

    def __init__(self) -> None:
        self.addresses = Window(PER_ADDRESS)
        self.names = Window(FAILS_PER_NAME)
        self.signups = Window(SIGNUPS_PER_ADDRESS, 3600.0)

    def attempt(self, address: str, name: str) -> None:
        """Count a sign-in attempt; ServerError ``rate_limited`` past either limit."""
        key = name.casefold()
        if self.addresses.full(address):
            raise ServerError(
                "rate_limited", "too many sign-in attempts from your address; try again later"
            )
        if self.names.full(key):
            raise ServerError(
                "rate_limited", "too many failed sign-ins for this name; try again later"
            )
        self.addresses.hit(address)

    def failed(self, name: str) -> None:
        self.names.hit(name.casefold())

    def signup(self, address: str) -> None:
        if self.signups.full(address):
            raise ServerError(
                "rate_limited", "too many accounts made from your address; try again later"
            )
        self.signups.hit(address)
