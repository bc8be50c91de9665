"""How much thinking an agent may do for one move: iterations (reproducible) or seconds.

A time budget counts the CPU time of the thread that thinks (:func:`time.thread_time`), not
the wall clock: on a busy machine a bot gets fewer seconds of the processor per second of
the clock, and counting the clock would make it play weaker the busier the server is. So
``mcts:1.7s`` is 1.7 s of thinking wherever it runs. A wall-clock cap of :data:`WALL_CAP`
times the budget still ends a move whose thread is starved (a table waits for it), and the
clock says when it did (:attr:`Clock.capped`).

The clock must be read on the thread that thinks (CPU time is per thread). An agent that
spreads its thinking over several threads would count the process's CPU time instead
(:data:`cpu_clock` is where to change it).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from polis.core.errors import InputError

_BUDGET = re.compile(r"^(\d+(?:\.\d+)?)(s|ms|i)$")


@dataclass(frozen=True, slots=True)
class Budget:
    """Exactly one of ``iterations`` and ``seconds`` is set.

    Iteration budgets make a seeded agent reproducible; time budgets adapt to the machine.
    """

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if (self.iterations is None) == (self.seconds is None):
            raise InputError("a budget is either iterations or seconds, not both nor neither")
        if self.iterations is not None and self.iterations < 1:
            raise InputError(f"budget must be at least 1 iteration, not {self.iterations}")
        if self.seconds is not None and not self.seconds > 0:
            raise InputError(f"budget must be a positive time, not {self.seconds} s")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``1s``, ``1.5s``, ``200ms`` or ``500i`` (iterations)."""
        match = _BUDGET.match(text.strip())
        if not match:
            raise InputError(
                f"bad budget {text!r}: write a time like 1s or 200ms, or iterations like 500i"
            )
        number, unit = match.groups()
        if unit == "i":
            if "." in number:
                raise InputError(f"bad budget {text!r}: iterations are a whole number")
            return cls(iterations=int(number))
        seconds = float(number) / (1000.0 if unit == "ms" else 1.0)
        return cls(seconds=seconds)

    def __str__(self) -> str:
        if self.iterations is not None:
            return f"{self.iterations}i"
        assert self.seconds is not None
        if self.seconds < 1:
            return f"{round(self.seconds * 1000)}ms"
        return f"{self.seconds:g}s"

    @property
    def wall_seconds(self) -> float | None:
        """The longest a move with this budget takes on the wall clock (None: iterations)."""
        return None if self.seconds is None else WALL_CAP * self.seconds

    def clock(self) -> Clock:
        """A fresh counter for one move, started now (on the thread that will think)."""
        return Clock(self)


#: A move with a time budget ends after at most this many times its budget on the wall
#: clock, however little CPU time its thread got.
WALL_CAP = 3.0

#: The CPU time a time budget counts: the calling thread's.
cpu_clock: Callable[[], float] = time.thread_time
#: The wall clock of the cap.
wall_clock: Callable[[], float] = time.perf_counter


class Clock:
    """Counts iterations of one move and says when the budget is spent: its iterations, or its
    seconds of CPU time (at most :data:`WALL_CAP` times as many on the wall clock).

    Always allows at least one iteration, so an agent never returns without having looked.
    """

    __slots__ = (
        "_cpu",
        "_cpu_deadline",
        "_limit",
        "_wall",
        "_wall_deadline",
        "capped",
        "cpu_start",
        "done",
        "wall_start",
    )

    def __init__(self, budget: Budget) -> None:
        self.done = 0
        #: Whether the wall-clock cap, not the budget, ended the move.
        self.capped = False
        self._limit = budget.iterations
        self._cpu, self._wall = cpu_clock, wall_clock
        self.cpu_start = self._cpu()
        self.wall_start = self._wall()
        seconds = budget.seconds if budget.seconds is not None else float("inf")
        self._cpu_deadline = self.cpu_start + seconds
        self._wall_deadline = self.wall_start + WALL_CAP * seconds

    def more(self) -> bool:
        """True while another iteration fits in the budget."""
        if self.done == 0:
            return True
        if self._limit is not None:
            return self.done < self._limit
        if self._cpu() >= self._cpu_deadline:
            return False
        if self._wall() >= self._wall_deadline:
            self.capped = True
            return False
        return True

    def tick(self) -> None:
        self.done += 1

    def cpu_spent(self) -> float:
        """Seconds of CPU time the thread spent since the clock started."""
        return self._cpu() - self.cpu_start

    def wall_spent(self) -> float:
        """Seconds on the wall clock since the clock started."""
        return self._wall() - self.wall_start
