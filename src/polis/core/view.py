"""The base of every game's view: what one seat (or a spectator) may know, as typed values."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from polis.core.moves import Move

#: ``current_player`` of a finished game.
TERMINAL = -1


class View(ABC):
    """One seat's information state: immutable, comparable, with no hidden fact in it.

    Each game's view is a frozen dataclass holding plain values (tile and field numbers,
    move objects); ``to_json`` turns it into the JSON the web client and files read, only
    where it leaves the process. Every view has the attributes below.
    """

    __slots__ = ()

    #: Registry name of the game.
    game: ClassVar[str]
    mode: str
    players: int
    #: Whose view (``None``: a spectator, who sees only public facts).
    player: int | None
    #: The seat to move, or :data:`TERMINAL`.
    current_player: int
    #: The public move history.
    moves: tuple[Move, ...]

    @property
    def finished(self) -> bool:
        return self.current_player == TERMINAL

    @abstractmethod
    def to_json(self) -> Mapping[str, Any]:
        """The view as a JSON-able dict: a fresh one, typed by the game's ``TypedDict`` of it
        (its ``wire`` part, :data:`polis.core.parts.WIRE`)."""


__all__ = ["TERMINAL", "View"]
