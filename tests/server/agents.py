"""Agents for the bot-worker tests, importable by the worker processes (agents are pickled
to them by reference to this module)."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Sequence
from pathlib import Path

from polis.bots import Budget
from polis.core.moves import Move
from polis.core.protocol import Game
from polis.core.view import View
from waiting import eventually


class GateAgent:
    """Announces that it thinks (creates ``thinking``), then waits for ``release`` to exist
    before playing its first legal move: a bot that thinks as long as a test wants."""

    name = "gate"

    def __init__(self, thinking: Path, release: Path) -> None:
        self.thinking = thinking
        self.release = release

    def act(self, view: View, legal: Sequence[Move], game: Game, budget: Budget) -> Move:
        self.thinking.touch()
        with contextlib.suppress(AssertionError):  # a minute at most, then it plays anyway
            eventually(self.release.exists, timeout=60, interval=0.01)
        return legal[0]


class CrashAgent:
    """Kills its own worker process on its first ``crashes`` moves (counted in a file, since
    each crash loses the agent), then plays its first legal move."""

    name = "crash"

    def __init__(self, counter: Path, crashes: int) -> None:
        self.counter = counter
        self.crashes = crashes

    def act(self, view: View, legal: Sequence[Move], game: Game, budget: Budget) -> Move:
        done = int(self.counter.read_text()) if self.counter.exists() else 0
        if done < self.crashes:
            self.counter.write_text(str(done + 1))
            os._exit(3)
        return legal[0]


class SleepAgent:
    """Sleeps ``seconds`` on every move (past any time limit a test sets), then plays."""

    name = "sleep"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def act(self, view: View, legal: Sequence[Move], game: Game, budget: Budget) -> Move:
        time.sleep(self.seconds)
        return legal[0]


class SpyAgent:
    """Records what it was given (the view's type and player, the legal moves) in a file."""

    name = "spy"

    def __init__(self, out: Path) -> None:
        self.out = out

    def act(self, view: View, legal: Sequence[Move], game: Game, budget: Budget) -> Move:
        with self.out.open("a") as f:
            f.write(f"{type(view).__name__} {view.player} {os.getpid()} {len(legal)}\n")
        return legal[0]
