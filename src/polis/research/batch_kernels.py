"""Compiled loops of :class:`~polis.research.batch.BatchEnv` that serve every game (numba).

Drawing one legal action per table from a batch of masks takes a dozen numpy calls over the
whole flat mask (its legal positions, per-row counts, the picks); one compiled pass per row
does the same with no temporary arrays, and stops at the drawn id.
"""

from __future__ import annotations

from typing import Any

from numba import njit


@njit(cache=True, nogil=True)
def pick_rows(masks: Any, draws: Any, out: Any) -> int:
    """Write into ``out[r]`` the ``int(draws[r] * count)``-th of row ``r``'s ``count`` legal ids
    (ascending). Returns the first row with no legal id, or -1 when every row has one."""
    for r in range(masks.shape[0]):
        row = masks[r]
        count = 0
        for a in range(row.shape[0]):
            count += row[a] != 0
        if count == 0:
            return r
        k = int(draws[r] * count)
        for a in range(row.shape[0]):
            if row[a] != 0:
                if k == 0:
                    out[r] = a
                    break
                k -= 1
    return -1
