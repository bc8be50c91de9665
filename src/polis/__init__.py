"""polis: Quadropolis and Metropolys on the screen, for players and for AI research."""

from polis.core import GameResult, GameState, get_game

__version__ = "0.1.0"

__all__ = ["GameResult", "GameState", "__version__", "get_game"]
