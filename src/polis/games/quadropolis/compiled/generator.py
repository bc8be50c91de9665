"""The row's own random generator (xorshift64*), compiled: every chance outcome of a
compiled table (its deals, a random policy's draws) comes from the state in the row's
``S_RNG`` words, so a table's randomness travels with it (``row.copy()`` copies it) and a
batch of tables needs no generator objects beside the array.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from polis.games.quadropolis.compiled.row import S_RNG

_MASK32 = np.uint64(0xFFFFFFFF)
_MUL = np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True, nogil=True, inline="always")
def _state(row: Any) -> Any:
    lo = np.uint64(np.uint32(row[S_RNG]))
    hi = np.uint64(np.uint32(row[S_RNG + 1]))
    return lo | hi << np.uint64(32)


@njit(cache=True, nogil=True, inline="always")
def _store(row: Any, x: Any) -> None:
    row[S_RNG] = np.int32(np.uint32(x & _MASK32))
    row[S_RNG + 1] = np.int32(np.uint32(x >> np.uint64(32)))


@njit(cache=True, nogil=True)
def seed_generator(row: Any, seed: int) -> None:
    """Set the row's generator from ``seed`` (one splitmix64 step: every seed, 0 included,
    gives a non-zero state, which xorshift needs)."""
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    if z == np.uint64(0):
        z = np.uint64(1)
    _store(row, z)


@njit(cache=True, nogil=True, inline="always")
def below(row: Any, n: int) -> Any:
    """A uniform ``int64`` in [0, n) (n >= 1) from the row's generator: the high 32 bits of
    one xorshift64* output, scaled by a multiply and shift (bias below n / 2**32)."""
    x = _state(row)
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    _store(row, x)
    high = (x * _MUL) >> np.uint64(32)
    return np.int64((high * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, nogil=True, inline="always")
def unit(row: Any) -> float:
    """A uniform float in [0, 1) from the row's generator (53 bits of one output): what
    ``random.Random.random`` gives the Python policies, so a compiled policy can draw as
    they do."""
    x = _state(row)
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    _store(row, x)
    value: float = ((x * _MUL) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    return value
