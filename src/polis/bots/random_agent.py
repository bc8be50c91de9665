"""The weakest rung of the ladder: a uniformly random legal move."""

from __future__ import annotations

import random
from collections.abc import Sequence

from polis.bots.agent import AgentStats
from polis.bots.budget import Budget
from polis.core.moves import Move
from polis.core.protocol import Game
from polis.core.view import View


class RandomAgent:
    """Uniform over the legal moves; ignores the budget."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.stats = AgentStats()

    def act(self, view: View, legal: Sequence[Move], game: Game, budget: Budget) -> Move:
        self.stats.moves += 1
        return legal[self.rng.randrange(len(legal))]
