"""Bot seats: the one place the server asks an agent for a move.

The agents live in :mod:`polis.bots`; until that package exists a random legal move stands in.
The function runs in a worker thread, so it gets its own clone of the state.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from polis.core.protocol import Game, GameState

LEVELS = ("easy", "medium", "hard")


def _agent_choose() -> Any | None:
    try:
        module = importlib.import_module("polis.bots")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("polis.bots"):
            return None
        raise
    return getattr(module, "choose_move", None)


def choose_move(
    game: Game, state: GameState, view: dict[str, Any], legal: list[str], level: str,
    rng: random.Random,
) -> str:
    """The bot's move in notation (always one of ``legal``)."""
    agent = _agent_choose()
    if agent is not None:
        move = agent(game, view, legal, level, rng)
        text = move if isinstance(move, str) else state.move_to_str(move)
        if text in legal:
            return text
    return rng.choice(legal)
