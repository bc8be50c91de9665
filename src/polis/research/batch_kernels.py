"""Compiled loops of :class:`~polis.research.batch.BatchEnv` that serve every game (numba).

Drawing one legal action per table from a batch of masks takes a dozen numpy calls over the
whole flat mask (its legal positions, per-row counts, the picks); one compiled pass per row
does the same with no temporary arrays. Masks are mostly zeros, so a row is summed in blocks
(sums of unsigned bytes vectorise; a branch per byte does not) and only the block holding the
drawn id is searched byte by byte.
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
        k = int(draws[r] * count)  # legal ids to pass over before the drawn one
        b = 0
        while k >= sums[b]:
            k -= sums[b]
            b += 1
        for a in range(b * BLOCK, min(b * BLOCK + BLOCK, size)):
            if row[a]:
                if k == 0:
                    out[r] = a
                    break
                k -= 1
    return -1
