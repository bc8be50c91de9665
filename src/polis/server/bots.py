"""Bot seats: the one place the server asks an agent (:mod:`polis.bots`) for a move.

Each bot seat keeps its agent for the whole game (searching agents may remember between moves).
``choose`` runs in a worker thread on a clone of the state, so the event loop stays free and
the live state is never touched by the agent.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from polis.core.protocol import Game, GameState

LEVELS = ("easy", "medium", "hard")


@dataclass(slots=True)
class BotSeat:
    """The agent behind one bot seat; created on first use, seeded from the game and seat."""

    level: str
    seed: int
    _agent: Any = field(default=None, init=False)
    _budget: Any = field(default=None, init=False)

    def choose(self, game: Game, state: GameState) -> str:
        """The bot's move in notation for ``state`` (whose current player is this seat)."""
        player = state.current_player()
        view = state.view(player)
        legal = state.legal_moves()
        try:
            from polis.bots import make_agent
        except ImportError:  # pragma: no cover - the bots package is part of polis
            return state.move_to_str(random.Random(self.seed).choice(legal))
        if self._agent is None:
            self._agent, self._budget = make_agent(self.level, self.seed)
        move = self._agent.act(view, legal, game, self._budget)
        return state.move_to_str(move)
