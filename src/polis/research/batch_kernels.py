"""Compiled loops of :class:`~polis.research.batch.BatchEnv` that serve every game (numba).

Drawing one legal action per table from a batch of masks takes a dozen numpy calls over the
whole flat mask (its legal positions, per-row counts, the picks); one compiled pass per row
does the same with no temporary arrays. Masks are mostly zeros, so a row is summed in blocks
(sums of unsigned bytes vectorise; a branch per byte does not) and only the block holding the
drawn id is searched byte by byte. The compiled batch
(:mod:`polis.research.compiled_batch`) counts each block's legal ids as it writes a mask, so
its draw (:func:`pick_counted`) reads a dozen counts and one block of the mask; the pick is
the same: the ``int(draw * count)``-th legal id, ascending.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

#: Mask bytes per block.
BLOCK = 64


@njit(cache=True, nogil=True)
def pick_rows(masks: Any, draws: Any, out: Any) -> int:
    """Write into ``out[r]`` the ``int(draws[r] * count)``-th of row ``r``'s ``count`` legal ids
    (ascending; ``masks``: uint8, 0 or 1 per id). Returns the first row with no legal id, or
    -1 when every row has one."""
    size = masks.shape[1]
    blocks = (size + BLOCK - 1) // BLOCK
    sums = np.empty(blocks, np.int64)
    for r in range(masks.shape[0]):
        row = masks[r]
        count = 0
        for b in range(blocks):
            block = np.uint32(0)
            for a in range(b * BLOCK, min(b * BLOCK + BLOCK, size)):
                block += row[a]
            sums[b] = block
            count += sums[b]
        if count == 0:
            return r
        out[r] = kth_legal(row, sums, int(draws[r] * count), BLOCK)
    return -1


@njit(cache=True, nogil=True)
def kth_legal(row: Any, sums: Any, k: int, block: int) -> int:
    """The ``k``-th legal id (from 0, ascending) of a mask ``row`` whose legal ids are
    counted per ``block`` ids in ``sums``: the counts skip whole blocks, one block is read."""
    b = 0
    while k >= sums[b]:
        k -= sums[b]
        b += 1
    for a in range(b * block, min(b * block + block, row.shape[0])):
        if row[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True, nogil=True)
def pick_counted(masks: Any, counts: Any, block: int, draws: Any, out: Any) -> int:
    """Write into ``out[r]`` the ``int(draws[r] * count)``-th of row ``r``'s ``count`` legal
    ids (``masks``: uint8, 0 or 1 per id; ``counts[r, b]``: its legal ids from ``b * block``
    on, ``block`` of them). Returns the first row with no legal id, or -1."""
    for r in range(masks.shape[0]):
        row = masks[r]
        line = counts[r]
        count = 0
        for b in range(line.shape[0]):
            count += line[b]
        if count == 0:
            return r
        out[r] = kth_legal(row, line, int(draws[r] * count), block)
    return -1
