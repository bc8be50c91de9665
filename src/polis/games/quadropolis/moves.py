"""Quadropolis moves, their notation (formats §1.4: ``3L4 r2c1``, ``2T5 x``, ``1R1 -``) and
the fixed action space of each mode.

A move is an architect, a spot 0..19 (see :mod:`~polis.games.quadropolis.site`) and a
target: a city square index, :data:`DISCARD` or :data:`NOTHING`. Every move of a mode exists
once, built here at import; its id is the research action id of today::

    id = ((architect - 1) * 20 + spot) * (N + 2) + t
    t  = city square 0..N-1 (r1c1, r1c2, ... row by row), N = "x" (discard), N+1 = "-"
    Classic (4 architects, N = 16): 1440 moves; Expert (5 architects, N = 20): 2200 moves.

Parsing checks the shape and that the architect exists in the mode (IllegalMove, §2); the
engine checks legality.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from polis.core.errors import IllegalMove, NotationError
from polis.core.moves import ActionSpace, Move
from polis.games.quadropolis.city import geometry, parse_square
from polis.games.quadropolis.site import ARCHITECTS, N_SPOTS, SPOT_INDEX, SPOT_NAMES

DISCARD: Final = -1
NOTHING: Final = -2
MODES: Final = ("classic", "expert")

_MOVE = re.compile(r"^\s*(\d)([LRTBlrtb])([1-5])\s+(\S+)\s*$")
_SQUARE = re.compile(r"^[rR](\d+)[cC](\d+)$")


class QuadropolisMove(Move):
    """Architect ``architect`` laid at ``spot``, the taken tile going to ``target``."""

    __slots__ = ("architect", "mode", "spot", "target")

    architect: int
    spot: int
    #: City square index, DISCARD (-1) or NOTHING (-2).
    target: int
    mode: str

    def __init__(self, id: int, mode: str, architect: int, spot: int, target: int) -> None:
        if target == DISCARD:
            tail = "x"
        elif target == NOTHING:
            tail = "-"
        else:
            tail = geometry(mode).names[target]
        super().__init__(id, f"{architect}{SPOT_NAMES[spot]} {tail}")
        self.mode = mode
        self.architect = architect
        self.spot = spot
        self.target = target

    @property
    def builds(self) -> bool:
        """Does the move put a tile into the city?"""
        return self.target >= 0

    def __reduce__(self) -> tuple[Callable[[str, int], QuadropolisMove], tuple[str, int]]:
        return move_of, (self.mode, self.id)


def _space(mode: str) -> ActionSpace[QuadropolisMove]:
    size = geometry(mode).size
    moves: list[QuadropolisMove] = []
    for architect in range(1, ARCHITECTS[mode] + 1):
        for spot in range(N_SPOTS):
            for t in range(size + 2):
                target = t if t < size else (DISCARD if t == size else NOTHING)
                moves.append(QuadropolisMove(len(moves), mode, architect, spot, target))
    space: ActionSpace[QuadropolisMove] = ActionSpace(
        "quadropolis", mode, moves, parser=lambda text: parse_move(mode, text)
    )
    return space


SPACES: Final = {mode: _space(mode) for mode in MODES}
#: Per mode: the number of targets per (architect, spot), N + 2.
STRIDE: Final = {mode: geometry(mode).size + 2 for mode in MODES}
#: ROWS[mode][architect][spot]: the N + 2 moves of that architect at that spot, by target
#: index (squares, then discard, then nothing); index 0 of the architects is unused.
ROWS: Final = {
    mode: (
        (),
        *(
            tuple(
                SPACES[mode].moves[(k * N_SPOTS + s) * STRIDE[mode] :][: STRIDE[mode]]
                for s in range(N_SPOTS)
            )
            for k in range(ARCHITECTS[mode])
        ),
    )
    for mode in MODES
}


def move_of(mode: str, action: int) -> QuadropolisMove:
    """The move of action id ``action`` in ``mode``."""
    return SPACES[mode].moves[action]


def find(mode: str, architect: int, spot: int, target: int) -> QuadropolisMove:
    """The interned move (architect, spot, target) of ``mode``."""
    stride = STRIDE[mode]
    t = target if target >= 0 else (stride - 2 if target == DISCARD else stride - 1)
    return SPACES[mode].moves[((architect - 1) * N_SPOTS + spot) * stride + t]


def parse_move(mode: str, text: str) -> QuadropolisMove:
    """Parse ``<architect><side><index> <target>``; NotationError for anything else."""
    if not isinstance(text, str):
        raise NotationError(f"a move must be text like '3L4 r2c1', not {text!r}")
    m = _MOVE.match(text)
    if m is None:
        raise NotationError(
            f"{text!r} is not a Quadropolis move: write <architect><L|R|T|B><1-5> "
            "<rXcY|x|->, e.g. '3L4 r2c1', '2T5 x' or '1R1 -'"
        )
    architect = int(m.group(1))
    spot = SPOT_INDEX[m.group(2).upper() + m.group(3)]
    tail = m.group(4)
    if tail in ("x", "X"):
        target = DISCARD
    elif tail == "-":
        target = NOTHING
    elif not _SQUARE.match(tail):
        raise NotationError(
            f"{tail!r} is not a target: write a city square like r2c1, x to discard, "
            "or - when nothing was taken"
        )
    else:
        target = parse_square(tail, mode)
    # Checked after the whole text is read, as the engine did before moves were objects: a
    # text that is no move at all is a NotationError even when its architect is wrong too.
    if not 1 <= architect <= ARCHITECTS[mode]:
        raise IllegalMove(
            f"there is no architect {architect} in {mode} mode "
            f"(architects 1 to {ARCHITECTS[mode]})",
            rule="quadropolis §2",
        )
    return find(mode, architect, spot, target)


__all__ = [
    "DISCARD",
    "NOTHING",
    "ROWS",
    "SPACES",
    "QuadropolisMove",
    "find",
    "move_of",
    "parse_move",
]
