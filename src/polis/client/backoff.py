"""Waiting before trying again: exponential back-off with jitter, reset after a success."""

from __future__ import annotations

import random
import threading


class Backoff:
    """Seconds to wait before the next try: ``first``, doubled after each failure up to
    ``most``, each drawn between half and all of it (many bots reconnecting to a restarted
    server do not come back in step)."""

    def __init__(
        self, first: float = 0.5, most: float = 30.0, rng: random.Random | None = None
    ) -> None:
        self.first = first
        self.most = most
        self.rng = rng or random.Random()
        self._next = first

    def reset(self) -> None:
        """A try succeeded: the next failure waits ``first`` again."""
        self._next = self.first

    def delay(self) -> float:
        """The wait before the next try (and the one after it doubles)."""
        now = self._next
        self._next = min(self.most, now * 2)
        return now * (0.5 + self.rng.random() / 2)

    def wait(self, stop: threading.Event) -> bool:
        """Wait :meth:`delay` seconds, or until ``stop`` is set; whether it was."""
        return stop.wait(self.delay())
