"""polis: city-building board games on the screen, for players and for AI research.

The games live in :mod:`polis.games` (one folder each); :func:`get_game` finds one by name.
"""

from polis.core import GameResult, GameState, get_game

__version__ = "0.1.0"

__all__ = ["GameResult", "GameState", "__version__", "get_game"]
