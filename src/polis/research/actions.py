"""Action ids for learning code: the game's own fixed action space, and legal-action masks.

Learning code needs a ``Discrete(n)`` space that does not change from position to position.
Every game has one per mode (``game.action_space(mode)``: ``space[id]`` is the move of an
id, ``move.id`` the id of a move, ``len(space)`` its size; the formulas are in each game's
``moves`` module and the README). A mask says which ids are legal now; it comes straight
from the engine's legal moves (``legal.ids()``), with no notation in between.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from polis.core.protocol import GameState

Mask = npt.NDArray[np.int8]


def legal_actions(state: GameState) -> list[int]:
    """Ascending ids of the legal moves of ``state`` (OpenSpiel's order; empty when over)."""
    return sorted(state.legal_moves().ids())


def action_mask(state: GameState, size: int) -> Mask:
    """1 for every legal action of ``state`` in a space of ``size`` ids (zeros when over)."""
    out = np.zeros(size, dtype=np.int8)
    out[state.legal_moves().ids()] = 1
    return out


__all__ = ["Mask", "action_mask", "legal_actions"]
