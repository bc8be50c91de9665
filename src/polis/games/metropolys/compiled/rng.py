"""Each table's own random generator: splitmix64, its 64-bit state in the row's two
``S_RNG`` slots (low and high 32 bits), so a table's randomness travels with its row (a
copy of the row replays the same draws) and many tables never share a generator.

splitmix64 passes BigCrush, needs one add and a few multiplies per draw and has no
start-up: any 64-bit seed is a good state. The unsigned arithmetic stays inside
:func:`next32`; what leaves it is a signed int64 below 2**32 (typed ``Any``: a numpy
scalar, which numba needs here to leave the unsigned type).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from numba import njit

from polis.games.metropolys.compiled.layout import S_RNG

_GOLDEN: Final = np.uint64(0x9E3779B97F4A7C15)
_MIX1: Final = np.uint64(0xBF58476D1CE4E5B9)
_MIX2: Final = np.uint64(0x94D049BB133111EB)
_LOW: Final = np.uint64(0xFFFFFFFF)
_S30: Final = np.uint64(30)
_S27: Final = np.uint64(27)
_S31: Final = np.uint64(31)
_S32: Final = np.uint64(32)


@njit(cache=True, nogil=True)
def _signed32(x: Any) -> int:
    """The int32 slot value of 32 bits held in an int64 (0 <= x < 2**32)."""
    slot: int = x - (1 << 32) if x >= 1 << 31 else x
    return slot


@njit(cache=True, nogil=True)
def seed(row: Any, value: int) -> None:
    """Start ``row``'s generator at ``value`` (any int64; its 64 bits are the state)."""
    row[S_RNG] = _signed32(value & 0xFFFFFFFF)
    row[S_RNG + 1] = _signed32((value >> 32) & 0xFFFFFFFF)


@njit(cache=True, nogil=True)
def next32(row: Any) -> Any:
    """The next 32 random bits of ``row``'s generator (0 <= result < 2**32)."""
    low = np.uint64(row[S_RNG] & 0xFFFFFFFF)
    high = np.uint64(row[S_RNG + 1] & 0xFFFFFFFF)
    state = (low | high << _S32) + _GOLDEN
    row[S_RNG] = _signed32(np.int64(state & _LOW))
    row[S_RNG + 1] = _signed32(np.int64(state >> _S32))
    z = (state ^ (state >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    z = z ^ (z >> _S31)
    return np.int64(z >> _S32)


@njit(cache=True, nogil=True)
def below(row: Any, n: int) -> int:
    """A uniform integer in [0, n) (n < 2**31; multiply-shift, bias below n / 2**32)."""
    drawn: int = (next32(row) * n) >> 32
    return drawn


@njit(cache=True, nogil=True)
def chance(row: Any, threshold: int) -> bool:
    """True with probability ``threshold / 2**32``."""
    hit: bool = next32(row) < threshold
    return hit
