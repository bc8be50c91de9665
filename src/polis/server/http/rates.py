"""Rates such as ``"30/second"`` or ``"5 per 10 seconds"``, and the counters that hold each
client to them, in this process's memory.

The counting is a moving window, exact: a hit is allowed when fewer than the rate's amount
were allowed within the last period, and only allowed hits count. Each key keeps the times of
its allowed hits within its period (at most the amount: a few dozen numbers for the server's
rates), a hit costs a few deque operations, and no timer or thread is involved: the owner
calls :meth:`Windows.sweep` now and then to drop the keys with no hit left in their period.
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

#: Seconds in each unit a rate may be given in (singular and plural, any case).
UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}

_RATE = re.compile(r"\s*(\d+)\s*(?:/|per)\s*(\d+)?\s*([a-z]+?)s?\s*", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Rate:
    """At most ``amount`` hits in any ``seconds``."""

    amount: int
    seconds: float


def parse_rate(text: str) -> Rate:
    """The rate in ``text`` (``N/unit``, ``N/M units``, ``N per M units``; units: second,
    minute, hour, day); ValueError for anything else."""
    found = _RATE.fullmatch(text)
    if found is None or found[3].lower() not in UNITS:
        raise ValueError(f"not a rate: {text!r} (e.g. 30/second, 5/10seconds, 20 per minute)")
    multiples = int(found[2]) if found[2] else 1
    if multiples < 1:
        raise ValueError(f"not a rate: {text!r} (a period of 0)")
    return Rate(int(found[1]), float(multiples * UNITS[found[3].lower()]))


class _Window:
    """One key's allowed hits within its period (oldest first)."""

    __slots__ = ("seconds", "times")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.times: deque[float] = deque()

    def expire(self, now: float) -> None:
        """Drop the hits that are a whole period old or older."""
        times, since = self.times, now - self.seconds
        while times and times[0] <= since:
            times.popleft()


class Windows:
    """Moving-window counters by key (each key keeps the period it was first hit with)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        #: The hits of every key within its period (and keys not swept since their last).
        self.storage: dict[str, _Window] = {}

    def hit(self, rate: Rate, *key: str) -> bool:
        """Count one hit on ``key`` if ``rate`` allows it now; whether it did."""
        now = self.clock()
        name = "/".join(key)
        window = self.storage.get(name)
        if window is None or window.seconds != rate.seconds:
            window = self.storage[name] = _Window(rate.seconds)
        window.expire(now)
        if len(window.times) >= rate.amount:
            return False
        window.times.append(now)
        return True

    def sweep(self) -> None:
        """Forget the keys with no hit left within their period."""
        now = self.clock()
        for window in self.storage.values():
            window.expire(now)
        for name in [name for name, window in self.storage.items() if not window.times]:
            del self.storage[name]
