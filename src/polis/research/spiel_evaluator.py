"""A fast rollout evaluator for OpenSpiel's MCTS / IS-MCTS bots on the polis games.

OpenSpiel's ``RandomRolloutEvaluator`` plays rollouts through the pyspiel wrapper, one
Python call per action and per chance outcome. This evaluator finishes the game on a
complete engine state with the engine's own cheap ``random_move`` (the bots' playout loop),
tens of times faster, and returns the win shares. The complete state comes from the game's
chance model (:meth:`polis.research.chance.Deal.world`): what is not dealt yet is dealt at
random first, so a rollout never plays on placeholders.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from polis.core.protocol import play_random_game
from polis.research.openspiel_game import PolisSpielState


class EngineRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Average win shares of ``n_rollouts`` random engine playouts; uniform priors."""

    def __init__(self, n_rollouts: int = 1, random_state: np.random.RandomState | None = None):
        self.n_rollouts = n_rollouts
        self._random_state = random_state or np.random.RandomState()

    def evaluate(self, state: PolisSpielState) -> np.ndarray[Any, np.dtype[np.float64]]:
        if state.is_terminal():
            return np.array(state.returns())
        data = state.data
        total = np.zeros(data.game.players)
        for _ in range(self.n_rollouts):
            rng = random.Random(int(self._random_state.randint(1 << 31)))
            world = data.world(rng)
            play_random_game(world, rng)
            total += world.result().win_shares()
        return np.asarray(total / self.n_rollouts)

    def prior(self, state: PolisSpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


__all__ = ["EngineRolloutEvaluator"]
