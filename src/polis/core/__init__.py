"""The core protocol shared by every game (see :mod:`polis.core.protocol`)."""

from polis.core.errors import (
    IllegalMove,
    InputError,
    NotationError,
    PolisError,
    RecordError,
)
from polis.core.protocol import TERMINAL, Game, GameResult, GameState, Move, play_random_game
from polis.core.registry import GAME_NAMES, get_game

__all__ = [
    "GAME_NAMES",
    "TERMINAL",
    "Game",
    "GameResult",
    "GameState",
    "IllegalMove",
    "InputError",
    "Move",
    "NotationError",
    "PolisError",
    "RecordError",
    "get_game",
    "play_random_game",
]
