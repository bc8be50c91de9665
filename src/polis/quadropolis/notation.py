"""Move values and their notation (formats §1.4): ``3L4 r2c1``, ``2T5 x``, ``1R1 -``.

A move is the tuple ``(architect, spot, target)``: architect number, spot 0..19 (see
:mod:`polis.quadropolis.site`), and target = a city square index, :data:`DISCARD` or
:data:`NOTHING`. Parsing checks only the shape; the engine checks legality.
"""

from __future__ import annotations

import re

from polis.core.errors import NotationError
from polis.quadropolis.city import parse_square
from polis.quadropolis.site import GEOMETRY, SPOT_INDEX, SPOT_NAMES

DISCARD = -1
NOTHING = -2

Move = tuple[int, int, int]

_MOVE = re.compile(r"^\s*(\d)([LRTBlrtb])([1-5])\s+(\S+)\s*$")
_SQUARE = re.compile(r"^[rR](\d+)[cC](\d+)$")


def move_to_str(mode: str, move: Move) -> str:
    architect, spot, target = move
    if target == DISCARD:
        tail = "x"
    elif target == NOTHING:
        tail = "-"
    else:
        tail = GEOMETRY[mode].names[target]
    return f"{architect}{SPOT_NAMES[spot]} {tail}"


def parse_move(mode: str, text: str) -> Move:
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
        return (architect, spot, DISCARD)
    if tail == "-":
        return (architect, spot, NOTHING)
    if not _SQUARE.match(tail):
        raise NotationError(
            f"{tail!r} is not a target: write a city square like r2c1, x to discard, "
            "or - when nothing was taken"
        )
    index = parse_square(tail, mode)
    return (architect, spot, index)
