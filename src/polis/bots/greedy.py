"""One-move lookahead: the legal move with the best one-ply value (ties broken by the seed)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from polis.bots.agent import AgentStats
from polis.bots.budget import Budget
from polis.bots.knowledge import Knowledge, knowledge_for
from polis.core.moves import Move
from polis.core.protocol import Game
from polis.core.view import View


class GreedyAgent:
    """Evaluates each legal move with the game's knowledge; ignores the budget."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.stats = AgentStats()
        self._knowledge: Knowledge | None = None

    def act(self, view: View, legal: Sequence[Move], game: Game, budget: Budget) -> Move:
        if self._knowledge is None or self._knowledge.game is not game:
            self._knowledge = knowledge_for(game)
        self._knowledge.observe(view)
        self.stats.moves += 1
        if len(legal) == 1:
            return legal[0]
        values = self._knowledge.move_values(view, legal, self.rng)
        return pick_best(legal, values, self.rng)


def pick_best(legal: Sequence[Move], values: Sequence[float], rng: random.Random) -> Move:
    """The move of highest value; a seeded random one among equals."""
    best = max(values)
    top = [m for m, v in zip(legal, values, strict=True) if v >= best - 1e-9]
    return top[rng.randrange(len(top))] if len(top) > 1 else top[0]
