"""How much thinking an agent may do for one move: iterations (reproducible) or seconds."""

from __future__ import annotations

import re
import time
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

    def clock(self) -> Clock:
        """A fresh counter for one move."""
        return Clock(self)


class Clock:
    """Counts iterations of one move and says when the budget is spent.

    Always allows at least one iteration, so an agent never returns without having looked.
    """

    __slots__ = ("_deadline", "_limit", "done")

    def __init__(self, budget: Budget) -> None:
        self.done = 0
        self._limit = budget.iterations
        self._deadline = (
            time.perf_counter() + budget.seconds if budget.seconds is not None else None
        )

    def more(self) -> bool:
        """True while another iteration fits in the budget."""
        if self.done == 0:
            return True
        if self._limit is not None:
            return self.done < self._limit
        assert self._deadline is not None
        return time.perf_counter() < self._deadline

    def tick(self) -> None:
        self.done += 1
