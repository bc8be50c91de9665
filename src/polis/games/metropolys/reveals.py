"""Which Metropolys moves reveal hidden information (the ``reveals`` plugin: take-backs).

Every chance outcome is dealt before the first bid, and bids are public: the only secrets are
the players' cards, shown when the game ends. So only the move that ends the game reveals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from polis.core.moves import Move
from polis.core.protocol import GameState


def reveals(before: GameState, move: Move) -> bool:
    """True when ``move``, played from ``before``, ends the game."""
    after = before.clone()
    after.apply(move)
    return after.is_terminal()


if TYPE_CHECKING:
    from polis.core.parts import Reveals

    _PART: Reveals = reveals  # mypy checks it against the interface
