"""Metropolys (Pauchon, Ystari 2008): exact rules engine, scorer and records.

``GAME`` (in :mod:`polis.metropolys.game`) is the :class:`~polis.core.protocol.Game`;
``MetroState`` the state; moves are small ints (see :mod:`polis.metropolys.notation`).
"""

from polis.metropolys.game import GAME, Metropolys
from polis.metropolys.notation import NUM_ACTIONS, PASS, bid, move_field, move_value
from polis.metropolys.state import MetroResult, MetroState

__all__ = [
    "GAME",
    "NUM_ACTIONS",
    "PASS",
    "MetroResult",
    "MetroState",
    "Metropolys",
    "bid",
    "move_field",
    "move_value",
]
