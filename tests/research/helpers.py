"""Shared helpers of the research tests: configurations and seeded random play."""

from __future__ import annotations

import random

from polis.core.protocol import GameState
from polis.core.registry import get_game

#: (game, mode, players) covering both games, every mode and 2-4 players.
CONFIGS = [
    ("quadropolis", "classic", 2),
    ("quadropolis", "expert", 3),
    ("metropolys", "family", 4),
    ("metropolys", "expert", 2),
]
ALL_CONFIGS = [
    (g, m, n)
    for g, modes in (("quadropolis", ("classic", "expert")), ("metropolys", ("family", "expert")))
    for m in modes
    for n in (2, 3, 4)
]


def random_position(game: str, mode: str, players: int, seed: int, moves: int) -> GameState:
    """The state after up to ``moves`` seeded random moves of a seeded game."""
    state = get_game(game).new_game(mode, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(state.random_move(rng))
    return state
