"""Which Quadropolis moves reveal hidden information (the ``reveals`` plugin: take-backs).

Everything of a round is on the table from its start (face-down tiles are never turned up
within it); what nobody has seen comes with the next round's construction site, laid out by
the move that ends a round, and with the end of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from polis.core.moves import Move
from polis.core.protocol import GameState
from polis.games.quadropolis.state import QuadropolisState


def reveals(before: GameState, move: Move) -> bool:
    """True when ``move``, played from ``before``, ends a round or the game."""
    assert isinstance(before, QuadropolisState)
    after = before.clone()
    after.apply(move)
    return after.is_terminal() or after._round != before._round


if TYPE_CHECKING:
    from polis.core.parts import Reveals

    _PART: Reveals = reveals  # mypy checks it against the interface
