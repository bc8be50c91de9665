"""Moves as small ints and their notation (formats §2.1: ``7@12``, ``13@40``, ``pass``).

A bid is ``field * 16 + value`` and ``pass`` is 0. Ints are hashable, cheap to compare and
make a dense action space (``NUM_ACTIONS``) for the research adapters; ``legal_moves`` lists
them in ascending order, so ``pass`` comes first.
"""

from __future__ import annotations

import re
from typing import Final

from polis.core.errors import IllegalMove, NotationError

PASS: Final = 0
#: Upper bound (exclusive) of every move id: 55 fields x 16 value slots.
NUM_ACTIONS: Final = 55 * 16
_BID = re.compile(r"\s*(\d{1,3})\s*@\s*(\d{1,3})\s*")


def bid(value: int, field: int) -> int:
    """The move that places the building ``value`` on ``field``."""
    return field << 4 | value


def move_value(move: int) -> int:
    """The building value of a bid (0 for pass)."""
    return move & 15


def move_field(move: int) -> int:
    """The field of a bid (meaningless for pass)."""
    return move >> 4


def to_str(move: int) -> str:
    """Notation of a move."""
    if move == PASS:
        return "pass"
    return f"{move & 15}@{move >> 4}"


def parse(text: object) -> int:
    """A move from notation: NotationError for bad syntax, IllegalMove for a value or field
    that does not exist."""
    if not isinstance(text, str):
        raise NotationError(f"a Metropolys move is text like 7@12 or pass, not {text!r}")
    stripped = text.strip().lower()
    if stripped == "pass":
        return PASS
    match = _BID.fullmatch(stripped)
    if match is None:
        raise NotationError(
            f"{text!r} is not a Metropolys move: write <value>@<field> (e.g. 7@12) or pass"
        )
    value, field = int(match.group(1)), int(match.group(2))
    if not 1 <= value <= 13:
        raise IllegalMove(f"there is no building of value {value}: buildings are numbered 1-13")
    if field >= 55:
        raise IllegalMove(f"there is no field {field} on the board: fields are numbered 0-54")
    return bid(value, field)
