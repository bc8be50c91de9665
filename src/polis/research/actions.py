"""Action ids for learning code: the game's own fixed action space, and legal-action masks.

Learning code needs a ``Discrete(n)`` space that does not change from position to position.
Every game has one per mode (``game.action_space(mode)``: ``space[id]`` is the move of an
id, ``move.id`` the id of a move, ``len(space)`` its size; the formulas are in each game's
``moves`` module and the README). A mask says which ids are legal now; it comes from the
game's encoder, which reads the state directly (its fast path, proven equal to
``legal_moves()``), with no move objects and no notation in between.
"""

from __future__ import annotations

from polis.core.protocol import GameState
from polis.research.observations import Ids, Mask, encoder_of


def legal_ids(state: GameState) -> Ids:
    """Ascending ids of the legal moves of ``state`` as a numpy array (empty when over)."""
    return encoder_of(state).legal_ids(state)


def legal_actions(state: GameState) -> list[int]:
    """Ascending ids of the legal moves of ``state`` (OpenSpiel's order; empty when over)."""
    ids: list[int] = legal_ids(state).tolist()
    return ids


def action_mask(state: GameState, size: int | None = None) -> Mask:
    """1 for every legal action of ``state`` (zeros when over); ``size`` (the action space's)
    is checked when given."""
    mask = encoder_of(state).legal_mask(state)
    if size is not None and len(mask) != size:
        raise ValueError(f"the action space has {len(mask)} actions, not {size}")
    return mask


__all__ = ["Mask", "action_mask", "legal_actions", "legal_ids"]
