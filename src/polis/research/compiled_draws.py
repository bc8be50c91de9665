"""The compiled batch's random policy: one legal id per table drawn from its mask, helped by
the legal counts the step keeps per block of ids.

:func:`~polis.research.batch_kernels.pick_rows` sums every byte of every mask before it
draws; the compiled step (:mod:`polis.research.compiled_batch`) already counts the legal ids
of each block of ``block`` ids as it writes a mask, so a draw reads a dozen counts and one
block of the mask. The pick is the same: the ``int(draw * count)``-th legal id, ascending.
"""

from __future__ import annotations

from typing import Any

from numba import njit


@njit(cache=True, nogil=True)
def pick_counted(masks: Any, counts: Any, block: int, draws: Any, out: Any) -> int:
    """Write into ``out[r]`` the ``int(draws[r] * count)``-th of row ``r``'s ``count`` legal
    ids (``masks``: uint8, 0 or 1 per id; ``counts[r, b]``: its legal ids from ``b * block``
    on, ``block`` of them). Returns the first row with no legal id, or -1."""
    size = masks.shape[1]
    for r in range(masks.shape[0]):
        row = masks[r]
        line = counts[r]
        count = 0
        for b in range(line.shape[0]):
            count += line[b]
        if count == 0:
            return r
        k = int(draws[r] * count)  # legal ids to pass over before the drawn one
        b = 0
        while k >= line[b]:
            k -= line[b]
            b += 1
        for a in range(b * block, min(b * block + block, size)):
            if row[a]:
                if k == 0:
                    out[r] = a
                    break
                k -= 1
    return -1
