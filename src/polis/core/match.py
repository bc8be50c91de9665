"""The one match loop and the one seed derivation of polis.

Arena, ``polis simulate``, ``polis play``, the server's bot driver and the OpenSpiel arena
all play games through :func:`play_match` (or, one decision at a time, through a
:class:`Turn`), and all turn a run's seed into per-game and per-seat seeds with
:func:`derive_seed`, so "game 12 of run 7" means the same deal everywhere.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from typing import Any

from polis.core.events import Event
from polis.core.moves import Move, MoveList
from polis.core.protocol import GameState
from polis.core.view import View


def derive_seed(root: int | str | None, *path: int | str) -> int:
    """A 63-bit seed for the part of a run named by ``path`` (e.g. ``("deal", 3)``).

    A hash, so neighbouring runs and games share no streams; stable across Python versions
    and machines (it does not use ``hash()``).
    """
    text = repr((root, *path)).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


class Turn:
    """One decision: what the seat to move may use, and nothing else.

    The view and the legal moves are built only when asked for, so a seat that plays
    ``random_move`` (a random playout, ``polis simulate``) costs no view at all.
    """

    __slots__ = ("_legal", "_state", "_view", "player")

    def __init__(self, state: GameState) -> None:
        self._state = state
        self.player = state.current_player()
        self._view: View | None = None
        self._legal: MoveList[Move] | None = None

    @property
    def view(self) -> View:
        if self._view is None:
            self._view = self._state.view(self.player)
        return self._view

    @property
    def legal(self) -> MoveList[Move]:
        if self._legal is None:
            self._legal = self._state.legal_moves()
        return self._legal

    def random_move(self, rng: random.Random) -> Move:
        """A random legal move (it depends only on what the seat may see)."""
        return self._state.random_move(rng)


#: A seat: given its turn, the move it plays.
Seat = Callable[[Turn], Any]
#: Told of every move: (player, move, its events); events are empty unless asked for.
Listener = Callable[[int, Any, tuple[Event, ...]], None]


def random_seat(rng: random.Random) -> Seat:
    """A seat that plays ``random_move`` from ``rng``."""
    return lambda turn: turn.random_move(rng)


def play_match(
    state: GameState,
    seats: Sequence[Seat],
    *,
    on_move: Listener | None = None,
    events: bool = False,
    until: Callable[[GameState], bool] | None = None,
) -> GameState:
    """Play ``state`` to the end (or until ``until(state)``), asking ``seats[p]`` for p's moves.

    ``on_move`` hears every move (with its events when ``events``); an illegal move from a
    seat raises (a seat's bug, not the user's). Returns ``state``, mutated.
    """
    while not state.is_terminal():
        if until is not None and until(state):
            break
        turn = Turn(state)
        move = seats[turn.player](turn)
        if events:
            happened = state.play(move)
        else:
            state.apply(move)
            happened = ()
        if on_move is not None:
            on_move(turn.player, move, happened)
    return state


__all__ = ["Listener", "Seat", "Turn", "derive_seed", "play_match", "random_seat"]
