"""Flat Monte Carlo over determinizations: each candidate move is tried in sampled worlds.

Every iteration samples the hidden facts afresh (``Knowledge.sample``), plays one root move
chosen by UCB1, finishes the game with the knowledge's biased playout policy, and credits
the root move with the reward. Only the best ``width`` moves by one-ply value are tried,
since some positions have hundreds of legal moves and the budget is a few hundred playouts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from polis.bots.agent import AgentStats
from polis.bots.budget import Budget
from polis.bots.greedy import pick_best
from polis.bots.knowledge import Knowledge, knowledge_for
from polis.core.moves import Move
from polis.core.protocol import Game
from polis.core.view import View


def candidates(
    knowledge: Knowledge, view: View, legal: Sequence[Move], width: int, rng: random.Random
) -> tuple[list[Move], list[float]]:
    """The ``width`` best legal moves by one-ply value (all of them if fewer), best first."""
    values = knowledge.move_values(view, legal, rng)
    order = sorted(range(len(legal)), key=lambda i: -values[i])[:width]
    return [legal[i] for i in order], [values[i] for i in order]


class MonteCarloAgent:
    """Flat Monte Carlo with UCB1 at the root and greedy-biased playouts."""

    name = "montecarlo"

    def __init__(
        self,
        rng: random.Random,
        *,
        width: int = 12,
        exploration: float = 0.4,
        compiled: bool = True,
    ) -> None:
        self.rng = rng
        self.width = width
        self.exploration = exploration
        #: Whether playouts may run on the game's compiled engine (False: Python only).
        self.compiled = compiled
        self.stats = AgentStats()
        self._knowledge: Knowledge | None = None

    def act(self, view: View, legal: Sequence[Move], game: Game, budget: Budget) -> Move:
        clock = budget.clock()  # from the start: choosing candidates is part of the move
        if self._knowledge is None or self._knowledge.game is not game:
            self._knowledge = knowledge_for(game, compiled=self.compiled)
        knowledge = self._knowledge
        knowledge.observe(view)
        knowledge.start_search()
        self.stats.moves += 1
        if len(legal) == 1:
            return legal[0]
        moves, _ = candidates(knowledge, view, legal, self.width, self.rng)
        player = view.player
        assert player is not None, "an agent plays a seat"
        visits = [0] * len(moves)
        totals = [0.0] * len(moves)
        while clock.more():
            n = clock.done
            if n < len(moves):
                i = n
            else:
                log_n = math.log(n)
                i = max(
                    range(len(moves)),
                    key=lambda k: (
                        totals[k] / visits[k] + self.exploration * math.sqrt(log_n / visits[k])
                    ),
                )
            state = knowledge.sample(view, self.rng)
            state.apply(moves[i])
            totals[i] += knowledge.playout(state, self.rng)[player]
            visits[i] += 1
            clock.tick()
        self.stats.record(clock)
        # The most tried move (UCB1 tries the best most); its mean breaks ties.
        robust = [
            visits[k] + (totals[k] / visits[k] if visits[k] else 0.0) for k in range(len(moves))
        ]
        return pick_best(moves, robust, self.rng)
