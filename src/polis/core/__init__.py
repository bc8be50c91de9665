"""The core protocol shared by every game (see :mod:`polis.core.protocol`); it names no game."""

from polis.core.errors import (
    IllegalMove,
    InputError,
    NotationError,
    PolisError,
    RecordError,
)
from polis.core.events import Event, event_log
from polis.core.match import Turn, derive_seed, play_match
from polis.core.moves import ActionSpace, Move, MoveList
from polis.core.protocol import Game, GameState, play_random_game
from polis.core.registry import game_names, games, get_game, load_game, register_game
from polis.core.result import GameResult, PlayerScore
from polis.core.view import TERMINAL, View

__all__ = [
    "TERMINAL",
    "ActionSpace",
    "Event",
    "Game",
    "GameResult",
    "GameState",
    "IllegalMove",
    "InputError",
    "Move",
    "MoveList",
    "NotationError",
    "PlayerScore",
    "PolisError",
    "RecordError",
    "Turn",
    "View",
    "derive_seed",
    "event_log",
    "game_names",
    "games",
    "get_game",
    "load_game",
    "play_match",
    "play_random_game",
    "register_game",
]
