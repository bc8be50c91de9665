"""Exact final scoring compiled (spec §8-§10): each player's total and the places.

The Expert area cards count the largest number of disjoint groups (R9-R11), as
:func:`~polis.games.metropolys.scoring.max_packing` does: here an explicit-stack
branch and bound over int64 masks (branch on the lowest field some group still covers:
leave it out, or take one group holding it; prune when even every remaining field in groups
of the smallest size would not beat the best). Both are exact, so they agree.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from polis.games.metropolys.board import NUM_FIELDS
from polis.games.metropolys.cards import (
    ARCHAEOLOGY_CARD_POINTS,
    FAMILY_AREA_POINTS,
    HIGHEST_POINTS,
    METRO_CARD_POINTS,
    NEIGHBOURHOOD_POINTS,
)
from polis.games.metropolys.compiled.engine import bid_mask
from polis.games.metropolys.compiled.layout import (
    A_BRIDGES,
    A_CHAINS,
    A_DISTRICTS,
    A_LAKES,
    A_STATUES,
    F_AREA,
    F_COLOUR,
    F_EXPERT,
    F_FIELD_51,
    F_LAKES_THREE,
    F_PLAYERS,
    F_UNUSED,
    MAX_PLAYERS,
    OUT_OF_PLAY,
    S_ARCHAEOLOGY,
    S_BUILT,
    S_CELLS,
    S_COLLECTED,
    S_METRO,
)
from polis.games.metropolys.compiled.tables import (
    ADJ_MASK,
    BRIDGE_SETS,
    COLOUR_MASK,
    DISTRICT_MASK,
    DISTRICT_OF,
    EXPERT_POINTS,
    LAKE_SETS,
    ON_BRIDGE_MASK,
    ON_LAKE_MASK,
    ON_STATUE_MASK,
    OUTSKIRTS_MASK,
    OUTSKIRTS_NO_51_MASK,
    SIZE_WEIGHT,
    STATUE_SETS,
)

#: Room for the candidate groups of one card (chains among 13 fields stay far below).
MAX_GROUPS = 512
#: Room for the branch and bound's open branches (depth <= 19 elements, <= 46 each).
MAX_STACK = 1024


@njit(cache=True, nogil=True)
def popcount(x: int) -> int:
    """Set bits of a non-negative int64."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101 >> 56) & 0xFF


@njit(cache=True, nogil=True)
def nth_value(supply: int, k: int) -> int:
    """The k-th (from 0) value in a supply mask, ascending."""
    for v in range(1, 14):
        if (supply >> v) & 1:
            if k == 0:
                return v
            k -= 1
    return -1


@njit(cache=True, nogil=True)
def nth_bit(mask: int, k: int) -> int:
    """The k-th (from 0) set bit of a non-negative int64, ascending."""
    for _ in range(k):
        mask &= mask - 1
    return popcount((mask & -mask) - 1)


@njit(cache=True, nogil=True)
def max_packing(groups: Any, count: int, smallest: int, stack: Any, depth: Any) -> int:
    """Largest number of pairwise disjoint masks among ``groups[:count]`` (each of at least
    ``smallest`` bits); ``stack`` and ``depth`` are scratch arrays of :data:`MAX_STACK`."""
    if count == 0:
        return 0
    everything = int(0)  # noqa: RUF046, UP018 (int64: numba compiles a literal 0 apart)
    for i in range(count):
        everything |= groups[i]
    best = 0
    stack[0] = everything
    depth[0] = 0
    top = 1
    while top:
        top -= 1
        avail = stack[top]
        taken = depth[top]
        if taken > best:
            best = taken
        union = int(0)  # noqa: RUF046, UP018 (int64: numba compiles a literal 0 apart)
        for i in range(count):
            g = groups[i]
            if g & avail == g:
                union |= g
        if union == 0 or taken + popcount(union) // smallest <= best:
            continue
        low = union & -union
        # Leaving ``low`` out is pushed first, so the branches that take a group run first.
        stack[top] = avail & ~low
        depth[top] = taken
        top += 1
        for i in range(count):
            g = groups[i]
            if g & low and g & avail == g:
                stack[top] = avail & ~g
                depth[top] = taken + 1
                top += 1
    return best


@njit(cache=True, nogil=True)
def _triples(fields: int, groups: Any, count: int, extra: int, connected: bool) -> int:
    """Append every triple of the fields in the mask ``fields`` (with the ``extra`` bits;
    only the connected ones, a path or a triangle, when ``connected``) to ``groups``; the
    new count."""
    rest_a = fields
    while rest_a:
        fa = popcount((rest_a & -rest_a) - 1)
        rest_a &= rest_a - 1
        rest_b = rest_a
        while rest_b:
            fb = popcount((rest_b & -rest_b) - 1)
            rest_b &= rest_b - 1
            rest_c = rest_b
            while rest_c:
                fc = popcount((rest_c & -rest_c) - 1)
                rest_c &= rest_c - 1
                if connected:
                    edges = (
                        ((ADJ_MASK[fa] >> fb) & 1)
                        + ((ADJ_MASK[fa] >> fc) & 1)
                        + ((ADJ_MASK[fb] >> fc) & 1)
                    )
                    if edges < 2:
                        continue
                groups[count] = (1 << fa) | (1 << fb) | (1 << fc) | extra
                count += 1
    return count


@njit(cache=True, nogil=True)
def expert_groups(card: int, owned: int, per_three: bool, scratch: Any) -> int:
    """Groups the Expert area ``card`` scores for the fields in ``owned`` (R9-R11);
    ``scratch``: int64[3, MAX_STACK]."""
    if card == A_DISTRICTS:
        total = 0
        for d in range(5):
            if popcount(owned & DISTRICT_MASK[d]) >= 3:
                total += 1
        return total
    groups = scratch[0]
    count = int(0)  # noqa: RUF046, UP018 (int64: numba compiles a literal 0 apart)
    smallest = 3
    if card == A_BRIDGES:
        smallest = 2
        for s in BRIDGE_SETS:
            if owned & s == s:
                groups[count] = s
                count += 1
    elif card == A_STATUES:
        for s in STATUE_SETS:
            if owned & s == s:
                groups[count] = s
                count += 1
    else:
        # Lakes: one group per lake (R10), a virtual bit per lake above the fields; or the
        # per_three option, floor(n / 3) groups per lake: plain triples round each lake.
        # Chains: the connected triples of all the player's fields.
        chains = card == A_CHAINS
        for lake in range(1 if chains else LAKE_SETS.shape[0]):
            fields = owned if chains else owned & LAKE_SETS[lake]
            extra = 0 if per_three or chains else 1 << (NUM_FIELDS + lake)
            count = _triples(fields, groups, count, extra, chains)
    # one call with variables: numba compiles a version per constant argument
    return max_packing(groups, count, smallest, scratch[1], scratch[2])


@njit(cache=True, nogil=True)
def score(row: Any, totals: Any, places: Any, scratch: Any) -> None:
    """Each player's points now (built buildings only; the final score at the end) into
    ``totals`` and each player's place into ``places`` (0 = first; players tied on points
    and buildings built share a place, the next place follows on: the groups of
    :func:`~polis.games.metropolys.scoring.ranking` in order). ``scratch``: int64[3, 1024]."""
    n = row[F_PLAYERS]
    expert = row[F_EXPERT]
    owned = np.zeros(MAX_PLAYERS, np.int64)
    keys = np.zeros((MAX_PLAYERS, 5), np.int64)
    bids = bid_mask(row)
    for f in range(NUM_FIELDS):
        c = row[S_CELLS + f]
        if c >= OUT_OF_PLAY or (bids >> f) & 1:
            continue
        p = c >> 4
        owned[p] |= 1 << f
        keys[p, DISTRICT_OF[f]] += SIZE_WEIGHT[c & 15]
    for p in range(n):
        at = S_COLLECTED + 4 * p
        total = 3 * row[at + 1] + row[at + 2] - row[at + 3]
        if row[S_METRO] == p:
            total += METRO_CARD_POINTS
        if row[S_ARCHAEOLOGY] == p:
            total += ARCHAEOLOGY_CARD_POINTS
        card: Any = np.int64(row[F_AREA + p])  # the type Python callers pass
        if expert:
            groups = expert_groups(card, owned[p], row[F_LAKES_THREE] != 0, scratch)
            total += EXPERT_POINTS[card] * groups
            total += NEIGHBOURHOOD_POINTS * popcount(owned[p] & COLOUR_MASK[row[F_COLOUR + p]])
        else:
            if card == A_BRIDGES:
                qualifying = ON_BRIDGE_MASK
            elif card == A_STATUES:
                qualifying = ON_STATUE_MASK
            elif card == A_LAKES:
                qualifying = ON_LAKE_MASK
            elif row[F_FIELD_51]:
                qualifying = OUTSKIRTS_MASK
            else:
                qualifying = OUTSKIRTS_NO_51_MASK
            total += FAMILY_AREA_POINTS * popcount(owned[p] & qualifying)
        totals[p] = total
    if expert:  # the highest building of each district in play (R22)
        unused = row[F_UNUSED]
        for d in range(5):
            if (unused >> d) & 1:
                continue
            top = 0
            for p in range(n):
                top = max(top, keys[p, d])
            if top:
                for p in range(n):
                    if keys[p, d] == top:
                        totals[p] += HIGHEST_POINTS
    # §10: more points, then more buildings built (built <= 13 < 64, so one key each).
    for p in range(n):
        key = totals[p] * 64 + row[S_BUILT + p]
        above = 0
        for q in range(n):
            other = totals[q] * 64 + row[S_BUILT + q]
            if other > key:
                seen = False
                for r in range(q):
                    if totals[r] * 64 + row[S_BUILT + r] == other:
                        seen = True
                if not seen:
                    above += 1
        places[p] = above


def scratch() -> np.ndarray:
    """The scratch space :func:`score` needs, made once per caller."""
    return np.zeros((3, max(MAX_GROUPS, MAX_STACK)), np.int64)
