"""A fast rollout evaluator for OpenSpiel's MCTS / IS-MCTS bots on the polis games.

OpenSpiel's ``RandomRolloutEvaluator`` plays rollouts through the pyspiel wrapper, one
Python call per action and per chance outcome. This evaluator finishes the game on a clone
of the engine state with the engine's own cheap ``random_move`` (the bots' playout loop),
tens of times faster, and returns the win shares. Quadropolis rounds that are not dealt yet
are dealt at random first, so a rollout never sees the placeholder layouts.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from polis.core.protocol import GameState, play_random_game
from polis.research.dealers import QuadropolisDeal, quadropolis_pools
from polis.research.openspiel_game import PolisState


class EngineRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Average win shares of ``n_rollouts`` random engine playouts; uniform priors."""

    def __init__(self, n_rollouts: int = 1, random_state: np.random.RandomState | None = None):
        self.n_rollouts = n_rollouts
        self._random_state = random_state or np.random.RandomState()

    def evaluate(self, state: PolisState) -> np.ndarray[Any, np.dtype[np.float64]]:
        import random

        t = state._t
        n = t.game.players
        if state.is_terminal():
            return np.array(state.returns())
        total = np.zeros(n)
        for _ in range(self.n_rollouts):
            rng = random.Random(int(self._random_state.randint(1 << 31)))
            world = self._world(state, rng)
            play_random_game(world, rng)
            total += world.result().win_shares()
        return np.asarray(total / self.n_rollouts)

    def prior(self, state: PolisState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]

    @staticmethod
    def _world(state: PolisState, rng: Any) -> GameState:
        """A complete engine state at ``state``: undealt set-up parts drawn from ``rng``."""
        t = state._t
        deal = t.deal
        g = t.game
        if isinstance(deal, QuadropolisDeal):
            if t.engine is None or not deal.ready():
                return g.engine.new_game(g.mode, g.players, seed=rng.getrandbits(32))
            dealt = sum(1 for layout in deal.rounds if len(layout) == 25)
            setup = t.engine.setup()
            for r in range(dealt, len(setup["rounds"])):
                order = list(quadropolis_pools(g.mode)[r])
                rng.shuffle(order)
                setup["rounds"][r] = order
            world = g.engine.new_game(g.mode, g.players, setup=setup)
            for move in t.moves:
                world.apply(move)
            return world
        if t.engine is None or not deal.ready():
            return g.engine.new_game(g.mode, g.players, seed=rng.getrandbits(32))
        return t.engine.clone()
