"""Metropolys moves, their notation (formats §2.1: ``7@12``, ``13@40``, ``pass``) and the
fixed action space (the same in both versions).

Every move exists once, built here at import. Its id is the research action id of today::

    id = (value - 1) * 55 + field   for "<value>@<field>", value 1..13, field 0..54
    id = 715                        for "pass"              -> 716 moves

The engine packs a bid as ``field * 16 + value`` (``code``; pass is 0) for its tables.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final, cast

from polis.core.errors import IllegalMove, NotationError
from polis.core.moves import ActionSpace, Move

FIELDS: Final = 55
VALUES: Final = 13
PASS_ID: Final = VALUES * FIELDS
#: Upper bound (exclusive) of every engine code: 55 fields x 16 value slots.
NUM_CODES: Final = FIELDS * 16
_BID = re.compile(r"\s*(\d{1,3})\s*@\s*(\d{1,3})\s*")


class MetropolysMove(Move):
    """The building ``value`` placed on ``field`` (an opening bid or a raise), or a pass."""

    __slots__ = ("code", "field", "value")

    #: The field of a bid (-1 for pass) and the building's value (0 for pass).
    field: int
    value: int
    #: The engine's packed form: field * 16 + value; 0 for pass.
    code: int

    def __init__(self, id: int, field: int, value: int) -> None:
        if value:
            super().__init__(id, f"{value}@{field}")
            self.code = field << 4 | value
        else:
            super().__init__(id, "pass")
            self.code = 0
        self.field = field
        self.value = value

    @property
    def is_pass(self) -> bool:
        return self.value == 0

    def __reduce__(self) -> tuple[Callable[[int], MetropolysMove], tuple[int]]:
        return move_of, (self.id,)


def _moves() -> list[MetropolysMove]:
    out = [
        MetropolysMove((value - 1) * FIELDS + field, field, value)
        for value in range(1, VALUES + 1)
        for field in range(FIELDS)
    ]
    out.append(MetropolysMove(PASS_ID, -1, 0))
    return out


def parse(text: str) -> MetropolysMove:
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
    if not 1 <= value <= VALUES:
        raise IllegalMove(f"there is no building of value {value}: buildings are numbered 1-13")
    if field >= FIELDS:
        raise IllegalMove(f"there is no field {field} on the board: fields are numbered 0-54")
    return bid(value, field)


#: One action space serves both versions.
SPACE: Final[ActionSpace[MetropolysMove]] = ActionSpace(
    "metropolys", "family and expert", _moves(), parse
)
PASS: Final = SPACE.moves[PASS_ID]
_CODES: Final = {m.code: m for m in SPACE.moves}
#: The move of each engine code (None where no move has that code: never looked up).
BY_CODE: Final = cast(tuple[MetropolysMove, ...], tuple(_CODES.get(c) for c in range(NUM_CODES)))


def bid(value: int, field: int) -> MetropolysMove:
    """The move that places the building ``value`` on ``field``."""
    return SPACE.moves[(value - 1) * FIELDS + field]


def move_of(action: int) -> MetropolysMove:
    """The move of action id ``action``."""
    return SPACE.moves[action]


__all__ = ["BY_CODE", "PASS", "SPACE", "MetropolysMove", "bid", "move_of", "parse"]
