"""The end of a compiled game: each city's exact key from the scorer kernel
(:func:`~polis.games.quadropolis.scoring_kernel.best_key`, called compiled, not rewritten),
then totals and places as :func:`~polis.games.quadropolis.scoring.game_result` ranks them:
total, then inhabitants on buildings, then fewer empty squares (§13), which is the order of
the keys themselves; equal keys share a place.

The kernel is called with exactly the argument types the Python side uses (``uint8`` cells,
``int64`` geometry arrays and numbers, ``bool`` options), so it is the one compiled version
numba already caches rather than a second one.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from polis.games.quadropolis.compiled.row import (
    DISTRICT,
    F_AFTER_REMOVAL,
    F_EXPERT,
    F_GROUP_CAP,
    F_PLAYERS,
    F_PLAYGROUND,
    F_SIZE,
    MAT,
    MAX_PLAYERS,
    MAX_SQUARES,
    NEIGHBOURS,
    S_CELLS,
    S_EN,
    S_INH,
    S_VP,
)
from polis.games.quadropolis.scoring_kernel import best_key
from polis.games.quadropolis.scoring_solver import IB, W


@njit(cache=True, nogil=True)
def scratch(expert: int, size: int) -> tuple[Any, Any, Any]:
    """The kernel's work arrays for one mode: the cells of a city, its neighbour masks and
    districts (writable, contiguous copies: the types of the kernel's cached version)."""
    return (
        np.zeros(size, np.uint8),
        NEIGHBOURS[expert, :size].copy(),
        DISTRICT[expert, :size].copy(),
    )


@njit(cache=True, nogil=True)
def keys_into(row: Any, keys: Any, cells: Any, neighbours: Any, district: Any) -> None:
    """Each player's scorer key into ``keys`` (``total * W + on_buildings * IB - empty``),
    with the work arrays of :func:`scratch` for the row's mode and size."""
    e = row[F_EXPERT]
    size = row[F_SIZE]
    for p in range(row[F_PLAYERS]):
        base = p * MAX_SQUARES
        for q in range(size):
            c = row[S_CELLS + base + q]
            if c == 0:
                cells[q] = 0
            else:  # the kernel's byte: kind code + 1 + 10 * floors + 60 * VP
                cells[q] = (c >> 3) + 10 * (c & 7) + 60 * row[S_VP + base + q]
        # int64 and bool arguments: the signature the Python side compiles and caches
        inh: Any = np.int64(row[S_INH + p])
        en: Any = np.int64(row[S_EN + p])
        cap: Any = np.int64(row[F_GROUP_CAP])
        keys[p] = best_key(
            cells,
            neighbours,
            district,
            MAT[e, 0],
            MAT[e, 1],
            MAT[e, 2],
            inh,
            en,
            row[F_PLAYGROUND] != 0,
            cap,
            row[F_AFTER_REMOVAL] != 0,
        )


@njit(cache=True, nogil=True)
def total_of(key: int) -> int:
    """The total of a key: the first part of ``scoring._decode`` (the places compare whole
    keys, so the tie-break parts are never needed here)."""
    total: int = (key + IB - 1) // W
    return total


@njit(cache=True, nogil=True)
def final_scores(row: Any, totals: Any, places: Any) -> None:
    """The finished game's totals and places (0 = first; equal keys share a place, the next
    place counting every player above it) into ``totals`` and ``places``."""
    cells, neighbours, district = scratch(row[F_EXPERT], row[F_SIZE])
    keys = np.zeros(MAX_PLAYERS, np.int64)
    keys_into(row, keys, cells, neighbours, district)
    ranks(row[F_PLAYERS], keys, totals, places)


@njit(cache=True, nogil=True)
def ranks(players: int, keys: Any, totals: Any, places: Any) -> None:
    """Totals and places from the keys (see :func:`final_scores`)."""
    for p in range(players):
        totals[p] = total_of(keys[p])
        above = 0
        for o in range(players):
            if keys[o] > keys[p]:
                above += 1
        places[p] = above
