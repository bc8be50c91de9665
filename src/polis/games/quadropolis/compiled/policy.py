"""The bots' greedy-biased playout policy, compiled: the move
:meth:`~polis.games.quadropolis.knowledge.QuadropolisKnowledge.playout_move` chooses, on a row.

Same draws, same gains, same choice: :func:`python_random_move` draws as
:meth:`~polis.games.quadropolis.state.QuadropolisState.random_move` does (an architect, a
spot, a target, by rejection; not uniform over the legal moves) and :func:`gain` is
:meth:`~polis.games.quadropolis.knowledge.Builder.gain` (the layout's rough points plus the
resource balance), in the same float operations in the same order. Fed the same uniform
numbers (:func:`~polis.games.quadropolis.compiled.generator.unit`) the compiled and the
Python policy pick the same move (``tests/quadropolis/test_compiled_policy.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from polis.games.quadropolis.compiled.bitops import bits, lowest
from polis.games.quadropolis.compiled.generator import unit
from polis.games.quadropolis.compiled.row import (
    DISTRICT,
    F_ARCHITECTS,
    F_EXPERT,
    F_PLAYERS,
    F_ROUNDS,
    F_SIZE,
    F_STRIDE,
    F_UNSELECTABLE,
    MAT,
    MAX_LEGAL,
    MAX_SQUARES,
    NEIGHBOURS,
    REACH,
    S_CELLS,
    S_CURRENT,
    S_EN,
    S_INH,
    S_MOVES,
    S_POOL,
    S_SITE,
    S_USED,
    SELECT_SQ,
    TILE_EN,
    TILE_INH,
    TILE_KIND,
    TILE_VP,
    UP,
)
from polis.games.quadropolis.compiled.step import _planes, _targets, free_spots, legal
from polis.games.quadropolis.knowledge import (
    _MONUMENT,
    NEEDS_ENERGY,
    NEEDS_INHABITANT,
    PLAYOUT_EPSILON,
    SPARE_EARLY,
    SPARE_LATE,
    SUPPLY_CUSTOMER,
    SUPPLY_NEEDED,
    WAITING,
)
from polis.games.quadropolis.site import N_SPOTS
from polis.games.quadropolis.tiles import KIND_CODES

# Engine kinds (tiles.KIND_CODES ".TOSUPpFHM").
_T, _O, _S, _U, _P, _PG, _F, _H, _M = range(1, 10)
#: Per engine kind: does it need an inhabitant, energy, to be active (knowledge.NEEDS_*)?
_NEEDS_INHABITANT = np.array([c in NEEDS_INHABITANT for c in KIND_CODES], np.bool_)
_NEEDS_ENERGY = np.array([c in NEEDS_ENERGY for c in KIND_CODES], np.bool_)
#: Rough points of a Monument per neighbouring engine kind (knowledge._MONUMENT).
_MONUMENT_BY_KIND = np.array([_MONUMENT.get(c, 0) for c in KIND_CODES], np.int64)


@njit(cache=True, nogil=True, inline="always")
def builder(row: Any, p: int) -> tuple[int, int, int, float]:
    """Player ``p``'s free inhabitants and energy, the customers their Shops can seat and
    the worth of a spare resource now (knowledge.Builder)."""
    free_i = row[S_INH + p]
    free_e = row[S_EN + p]
    shops = 0
    base = S_CELLS + p * MAX_SQUARES
    for q in range(row[F_SIZE]):
        kind = row[base + q] >> 3
        if _NEEDS_INHABITANT[kind]:
            free_i -= 1
        if _NEEDS_ENERGY[kind]:
            free_e -= 1
        if kind == _S:
            shops += 1
    seats = MAT[row[F_EXPERT], 2] * shops
    left = 1.0 - row[S_MOVES] / (row[F_ROUNDS] * 4 * row[F_PLAYERS])
    spare = left * SPARE_EARLY + (1.0 - left) * SPARE_LATE
    return free_i, free_e, seats, spare


@njit(cache=True, nogil=True, inline="always")
def layout_gain(row: Any, p: int, tile: int, target: int) -> float:
    """Rough points ``tile`` adds on ``target`` of ``p``'s city with its current neighbours
    (knowledge.layout_gain)."""
    e = row[F_EXPERT]
    base = S_CELLS + p * MAX_SQUARES
    kind = TILE_KIND[tile]
    n_t = n_o = n_s = n_p = n_f = n_h = monument = 0  # neighbours by kind (4 at most)
    near = NEIGHBOURS[e, target]
    while near:
        low = near & -near
        near ^= low
        k = row[base + lowest(low)] >> 3
        monument += _MONUMENT_BY_KIND[k]
        if k == _T:
            n_t += 1
        elif k == _O:
            n_o += 1
        elif k == _S:
            n_s += 1
        elif k in (_P, _PG):
            n_p += 1
        elif k == _F:
            n_f += 1
        elif k == _H:
            n_h += 1
    value = 0.0
    if kind in (_T, _O):
        floors = row[base + target] & 7
        value = floors + 1.0
        if not floors:
            value += 2.0 * n_p
            if kind == _O:
                value += 1.5 * n_o + 4.0 * n_f
        value -= 0.5
    elif kind == _S:
        value = 1.0 + 2.0 * n_f
    elif kind == _U:
        d = DISTRICT[e, target]
        has = False
        for q in range(row[F_SIZE]):
            if DISTRICT[e, q] == d and row[base + q] >> 3 == _U:
                has = True
        value = (0.5 if has else 3.0) + TILE_VP[tile]
    elif kind in (_P, _PG):
        value = 0.5 + 2.0 * (n_t + n_o)
    elif kind == _F:
        value = 2.0 * n_s + 3.0 * n_h + 4.0 * n_o - 0.5
    elif kind == _H:
        value = TILE_VP[tile] + 2.5 * n_h
    elif kind == _M:
        value = float(monument)
    return value


@njit(cache=True, nogil=True, inline="always")
def resource_gain(row: Any, tile: int, stacked: bool, stats: tuple[int, int, int, float]) -> float:
    """What building ``tile`` does to the city's resource balance, in rough points
    (knowledge.Builder.resource_gain; ``stats`` from :func:`builder`)."""
    free_i, free_e, seats, spare = stats
    kind = TILE_KIND[tile]
    value = 0.0
    if not stacked:  # a stack needs only its top floor's resources (A8)
        if _NEEDS_INHABITANT[kind]:
            free_i -= 1
            if free_i < 0:
                value += WAITING
        if _NEEDS_ENERGY[kind]:
            free_e -= 1
            if free_e < 0:
                value += WAITING
    if kind == _S:
        seats += MAT[row[F_EXPERT], 2]
    for _ in range(TILE_INH[tile]):
        if free_i < 0:
            value += SUPPLY_NEEDED
        elif free_i < seats:
            value += SUPPLY_CUSTOMER
        else:
            value += spare
        free_i += 1
    for _ in range(TILE_EN[tile]):
        value += SUPPLY_NEEDED if free_e < 0 else spare
        free_e += 1
    return value


@njit(cache=True, nogil=True, inline="always")
def gain_with(row: Any, p: int, tile: int, target: int, stats: Any) -> float:
    """Rough points of ``p`` building ``tile`` on ``target``: layout plus resources."""
    stacked = row[S_CELLS + p * MAX_SQUARES + target] != 0
    value: float = layout_gain(row, p, tile, target) + resource_gain(row, tile, stacked, stats)
    return value


@njit(cache=True, nogil=True)
def gain(row: Any, tile: int, target: int) -> float:
    """:meth:`Builder.gain <polis.games.quadropolis.knowledge.Builder.gain>` of the player
    to move."""
    p = row[S_CURRENT]
    return gain_with(row, p, tile, target, builder(row, p))


@njit(cache=True, nogil=True)
def python_random_move(row: Any) -> int:
    """The action :meth:`QuadropolisState.random_move` draws, from the row's generator: an
    architect, then a free spot, then a target or discard, each uniform; a face-down square
    under A5 "unselectable" is drawn again (8 tries, then uniform over the legal moves)."""
    return _random_move(row, _planes(row, row[S_CURRENT]))


@njit(cache=True, nogil=True)
def _random_move(row: Any, planes: Any) -> int:
    """:func:`python_random_move` with the mover's :func:`~.step._planes` given (a policy
    move draws several with one city)."""
    p = row[S_CURRENT]
    e = row[F_EXPERT]
    stride = row[F_STRIDE]
    free = free_spots(row)
    n_free = bits(free)
    for _ in range(8):
        if e:
            k = 1 + int(unit(row) * 5)
            while not row[S_POOL + k]:
                k = 1 + int(unit(row) * 5)
        else:
            used = row[S_USED + p]
            n_unused = 0
            for a in range(1, row[F_ARCHITECTS] + 1):
                if not used >> a & 1:
                    n_unused += 1
            i = int(unit(row) * n_unused)
            k = 1
            while True:
                if not used >> k & 1:
                    if i == 0:
                        break
                    i -= 1
                k += 1
        i = int(unit(row) * n_free)
        m = free
        while i:
            m &= m - 1
            i -= 1
        s = lowest(m)
        base = ((k - 1) * N_SPOTS + s) * stride
        t = row[S_SITE + SELECT_SQ[s, k]]
        if t >= 0 and UP[row[F_PLAYERS], t]:
            m = _targets(planes, REACH[e, k], TILE_KIND[t], k)
            n_m = bits(m)
            i = int(unit(row) * (n_m + 1))
            if i < n_m:
                while i:
                    m &= m - 1
                    i -= 1
                action: int = base + lowest(m)
                return action
            action = base + stride - 2
            return action
        if t < 0 or not row[F_UNSELECTABLE]:
            action = base + stride - 1
            return action
    ids = np.empty(MAX_LEGAL, np.int64)
    n = legal(row, ids)
    action = ids[int(unit(row) * n)]
    return action


@njit(cache=True, nogil=True)
def policy_move(row: Any, picks: int) -> int:
    """The greedy-biased playout move of the player to move (knowledge.playout_move with
    ``playout_picks = picks``): now and then a random move, else of ``picks`` random picks
    of (architect, spot) the tile with the best square by rough gain (taking nothing, or a
    discard, counts 0)."""
    if unit(row) < PLAYOUT_EPSILON:
        return python_random_move(row)
    p = row[S_CURRENT]
    e = row[F_EXPERT]
    stride = row[F_STRIDE]
    size = row[F_SIZE]
    stats = builder(row, p)
    planes = _planes(row, p)
    best = -1
    best_value = -1e9
    for _ in range(picks):
        action = _random_move(row, planes)
        target = action % stride
        base = action - target
        if target == stride - 1:  # nothing taken
            if best_value < 0.0:
                best, best_value = action, 0.0
            continue
        pair = action // stride
        s = pair % N_SPOTS
        k = pair // N_SPOTS + 1
        tile = row[S_SITE + SELECT_SQ[s, k]]
        m = _targets(planes, REACH[e, k], TILE_KIND[tile], k)
        for q in range(size):
            if m >> q & 1:
                value = gain_with(row, p, tile, q, stats)
                if value > best_value:
                    best, best_value = base + q, value
        if best_value < 0.0:
            best, best_value = base + stride - 2, 0.0
    return best
