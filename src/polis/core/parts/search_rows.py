"""What every game's compiled search (its ``compiled/search.py``) shares.

A search walks Python states; its compiled work (tree moves, learned values, playouts)
runs on the row of the state it stands on. :class:`FollowedRow` keeps that row in step
with the walk, one compiled step per move, instead of making it afresh for each call;
:func:`best_first` ranks a tree's sample of moves by value (a stable sort), and
:func:`ranking_of` turns the compiled scorer's places into a result's ranking. One
definition for every game, so the games' searches cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit

Ranking = tuple[tuple[int, ...], ...]

#: Rows of determinizations kept at most (the pool a decision samples from is smaller).
KEPT_ROWS = 64


@njit(cache=True, nogil=True)
def best_first(ids: Any, values: Any, m: int) -> None:
    """Sort the first ``m`` of ``ids`` by ``values`` (moved along), best first; equal
    values keep their order (an insertion sort: ``m`` is a few dozen)."""
    for i in range(1, m):
        v = values[i]
        a = ids[i]
        j = i
        while j > 0 and values[j - 1] < v:
            values[j] = values[j - 1]
            ids[j] = ids[j - 1]
            j -= 1
        values[j] = v
        ids[j] = a


def ranking_of(places: Sequence[int]) -> Ranking:
    """The ranking (best first, ties together) of players by place (0 best, ties equal)."""
    n = len(places)
    return tuple(tuple(p for p in range(n) if places[p] == k) for k in range(n) if k in places)


class FollowedRow:
    """A row that follows the state a search walks; a game's ``Playouts`` subclasses it.

    :meth:`track` is shown each state the search samples; afterwards :meth:`row` brings the
    row up to that state by applying the moves played on it since, one compiled step each.
    Any other state gets its row made afresh (exact, slower). The game says how to make a
    row, apply a move to it, and what the clones of one determinization share.
    """

    def __init__(self, length: int, dtype: Any) -> None:
        self.live = np.zeros(length, dtype)
        self._state: object = None
        self._count = 0
        #: The row of each determinization at the position it was sampled: id of what its
        #: clones share -> (that object, the moves played, the row).
        self._bases: dict[int, tuple[object, list[Any], np.ndarray]] = {}

    # -- what the game says ---------------------------------------------------------------
    def origin(self, state: Any) -> object:
        """What ``state`` shares with every clone of its determinization (not its copies)."""
        raise NotImplementedError

    def moves_of(self, state: Any) -> list[Any]:
        """The moves played on ``state`` (its own list: read, never kept)."""
        raise NotImplementedError

    def fresh_row(self, state: Any) -> np.ndarray:
        """The row of ``state`` made from scratch."""
        raise NotImplementedError

    def step(self, row: np.ndarray, action: int) -> None:
        """Apply ``action`` to ``row`` in place."""
        raise NotImplementedError

    # -- the walk -------------------------------------------------------------------------
    def track(self, state: Any) -> None:
        """Follow ``state`` (a fresh sample): its row from the rows already made of the
        determinization it was cloned from, else made now."""
        origin = self.origin(state)
        moves = self.moves_of(state)
        hit = self._bases.get(id(origin))
        if hit is None or hit[0] is not origin or hit[1] != moves:
            if len(self._bases) >= KEPT_ROWS:
                self._bases.clear()
            hit = self._bases[id(origin)] = (origin, moves[:], self.fresh_row(state))
        self.live[:] = hit[2]
        self._state = state
        self._count = len(moves)

    def row(self, state: Any) -> np.ndarray:
        """The row of ``state`` now, equal to :meth:`fresh_row` (the one this object
        keeps: copy it to keep it)."""
        moves = self.moves_of(state)
        n = len(moves)
        live = self.live
        if state is not self._state or self._count > n:
            live[:] = self.fresh_row(state)
            self._state = state
        else:
            for i in range(self._count, n):
                self.step(live, moves[i].id)
        self._count = n
        return live
