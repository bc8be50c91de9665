"""The agent protocol: an agent sees one player's view and the legal moves, never the state.

Searching agents build their own complete states with ``game.determinize(view, rng)``; the
hidden facts in them are samples, not the truth. Agents are created per game (they may keep
memory between their moves, e.g. a search tree or a belief) and seeded with
``random.Random``, so with an iteration budget the same seed gives the same moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from polis.bots.budget import Budget, Clock
from polis.core.match import Seat, Turn
from polis.core.moves import Move
from polis.core.protocol import Game
from polis.core.view import View


@runtime_checkable
class Agent(Protocol):
    """Anything that picks a move from a view."""

    #: Short name used in tables and records (``random``, ``greedy``, ``mcts`` ...).
    name: str

    def act(self, view: View, legal: Sequence[Move], game: Game, budget: Budget) -> Move:
        """One of ``legal``, chosen from what ``view`` shows."""
        ...


def agent_seat(agent: Agent, budget: Budget, game: Game) -> Seat:
    """The agent as a seat of :func:`polis.core.match.play_match`: its view and legal moves in,
    its move out."""

    def choose(turn: Turn) -> Move:
        return agent.act(turn.view, turn.legal, game, budget)

    return choose


class AgentStats:
    """Counters a searching agent keeps, read by the arena and the server's bot workers:
    moves decided, search iterations, seconds of thinking on the wall clock and of the
    thinking thread's CPU time, and the moves the wall-clock cap cut short."""

    __slots__ = (
        "capped",
        "cpu_seconds",
        "iterations",
        "moves",
        "seconds",
    )

    def __init__(self) -> None:
        self.moves = 0
        self.iterations = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.capped = 0

    def record(self, clock: Clock) -> None:
        """Count the search of one move, timed by ``clock`` (started with the move)."""
        self.iterations += clock.done
        self.seconds += clock.wall_spent()
        self.cpu_seconds += clock.cpu_spent()
        self.capped += clock.capped

    def as_dict(self) -> dict[str, float]:
        return {
            "moves": self.moves,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
            "capped": self.capped,
        }
