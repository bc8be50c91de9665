"""Fixed-shape numeric encodings of one player's *view* (never of the state).

The encoders read only the documented view keys of each engine, so nothing a player may not
see can reach a network: the view is already leak-free, and the encoders drop even what is
visible but irrelevant (the backs of face-down Quadropolis tiles). Players are re-seated
relative to the observer (slot 0 = the observing player, slot 1 = the next player
clockwise, ...), so one policy can play every seat.

Every feature is a small non-negative number (one-hots, flags, counts); :meth:`Layout.describe`
lists the named blocks, which the README documents.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

#: Upper bound of every feature (counts such as inhabitants stay far below it).
HIGH = 255.0

Obs = npt.NDArray[np.float32]


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


class Encoder:
    """Turns a view dict into a flat float32 vector of :attr:`size` entries."""

    game: str
    layout: Layout

    @property
    def size(self) -> int:
        return self.layout.size

    def encode(self, view: Mapping[str, Any], seat: int | None = None) -> Obs:
        """Encode ``view``; seats are relative to ``seat`` (default: the view's player).

        ``seat`` lets a spectator's (public) view be encoded from one player's chair.
        """
        flat = np.zeros(self.layout.size, dtype=np.float32)
        me = view["player"] if seat is None else seat
        self.fill(self.layout.views(flat), view, 0 if me is None else me)
        return flat

    def fill(self, blocks: dict[str, Obs], view: Mapping[str, Any], me: int) -> None:
        raise NotImplementedError


def slot(player: int | None, observer: int, n: int) -> int:
    """Seat of ``player`` relative to ``observer`` (0 = observer)."""
    return -1 if player is None or player < 0 else (player - observer) % n


def encoder(game: str, mode: str, players: int) -> Encoder:
    """The observation encoder of ``game`` in ``mode`` for ``players`` seats."""
    if game == "quadropolis":
        from polis.games.quadropolis.observation import QuadropolisEncoder

        return QuadropolisEncoder(mode, players)
    if game == "metropolys":
        from polis.games.metropolys.observation import MetropolysEncoder

        return MetropolysEncoder(mode, players)
    raise ValueError(f"no observation encoder for {game!r}")
