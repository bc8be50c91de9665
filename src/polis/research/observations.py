"""The base of every game's observation encoder: fixed-shape numbers from one seat's *view*.

Each game encodes its own typed view (``game.plugin("observation")(mode, players)``, in the
game's ``observation`` module); this module holds only what they share. Encoders read the
view, never the state: the view is already leak-free, so nothing a player may not see can
reach a network, and encoders drop even what is visible but irrelevant. Players are
re-seated relative to the observer (slot 0 = the observing player, slot 1 = the next player
clockwise, ...), so one policy can play every seat.

Every feature is a small non-negative number (one-hots, flags, counts); :meth:`Layout.describe`
lists the named blocks, which the README documents.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from polis.core.protocol import Game
from polis.core.view import View

#: Upper bound of every feature (counts such as inhabitants stay far below it).
HIGH = 255.0

Obs = npt.NDArray[np.float32]
V = TypeVar("V", bound=View)


class Layout:
    """Named contiguous blocks of a flat float32 vector."""

    def __init__(self) -> None:
        self.blocks: dict[str, tuple[int, tuple[int, ...]]] = {}
        self._spans: list[tuple[str, int, int, tuple[int, ...]]] = []
        self.size = 0

    def add(self, name: str, *shape: int) -> None:
        n = int(np.prod(shape))
        self.blocks[name] = (self.size, shape)
        self._spans.append((name, self.size, self.size + n, shape))
        self.size += n

    def views(self, flat: Obs) -> dict[str, Obs]:
        """Writable reshaped views of ``flat``, one per block."""
        return {name: flat[a:b].reshape(shape) for name, a, b, shape in self._spans}

    def describe(self) -> list[tuple[str, tuple[int, ...]]]:
        return [(name, shape) for name, (_, shape) in self.blocks.items()]


class Encoder(Generic[V]):
    """Turns one game's view into a flat float32 vector of :attr:`size` entries.

    A game's encoder builds its :attr:`layout` in ``__init__(mode, players)`` and writes the
    blocks in :meth:`fill`.
    """

    layout: Layout
    #: A scratch vector and its block views, made on the first encoding (the views cost
    #: more to make than the copy that hands out a fresh vector).
    _scratch: Obs | None = None
    _blocks: dict[str, Obs]

    @property
    def size(self) -> int:
        return self.layout.size

    def encode(self, view: V, seat: int | None = None) -> Obs:
        """Encode ``view`` into a new vector; seats are relative to ``seat`` (default: the
        view's player).

        ``seat`` lets a spectator's (public) view be encoded from one player's chair.
        """
        scratch = self._scratch
        if scratch is None:
            scratch = self._scratch = np.zeros(self.layout.size, dtype=np.float32)
            self._blocks = self.layout.views(scratch)
        else:
            scratch.fill(0.0)
        me = view.player if seat is None else seat
        self.fill(self._blocks, view, 0 if me is None else me)
        return scratch.copy()

    def fill(self, blocks: dict[str, Obs], view: V, me: int) -> None:
        """Write the features of ``view`` seen from seat ``me`` into the zeroed ``blocks``."""
        raise NotImplementedError


def slot(player: int | None, observer: int, n: int) -> int:
    """Seat of ``player`` relative to ``observer`` (0 = observer); -1 for nobody."""
    return -1 if player is None or player < 0 else (player - observer) % n


def encoder(game: Game, mode: str, players: int) -> Encoder[Any]:
    """The observation encoder of ``game`` (its ``observation`` plugin) for a table."""
    made: Encoder[Any] = game.plugin("observation")(mode, players)
    return made


__all__ = ["HIGH", "Encoder", "Layout", "Obs", "encoder", "slot"]
