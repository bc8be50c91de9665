"""Compiled loops of the Quadropolis batch encoders (numba): observations and masks of many
tables, row by row, from the raw matrix of
:class:`~polis.games.quadropolis.tensors.QuadropolisBatch`.

A table's observation is a few hundred small copies and its mask a few thousand flags:
loops compiled once (and cached on disk) write them straight into the output arrays, with
no temporary arrays and no per-call cost of numpy's many small operations. The numbers are
the view encoder's and ``legal_moves()``'s (``tests/research`` compares every position of
many random games). Each function takes the batch's tables as arguments: numba compiles one
version per argument types, shared by every mode and player count. Sizes and columns come in
two int arrays, ``layout`` and ``offsets``, made by :func:`~polis.core.parts.observation.ordered`
in the orders :data:`LAYOUT` and :data:`BLOCKS` declare here, beside the code that reads them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from polis.games.quadropolis.site import N_SPOTS
from polis.games.quadropolis.tensors import (
    DOWN_C,
    EMPTY_C,
    OFFICE_C,
    OTHER_C,
    SITE_SQUARES,
    TOWER_C,
)

#: The :class:`~polis.games.quadropolis.tensors.QuadropolisBatch` attributes in ``layout``:
#: players, architects, city squares, the expert flag, the raw columns of the site, spots,
#: architects, cells, inhabitants and energy, and the actions per (architect, spot) pair.
LAYOUT: tuple[str, ...] = (
    "n",
    "arch",
    "size",
    "expert",
    "c_site",
    "c_spots",
    "c_arch",
    "c_cells",
    "c_inh",
    "c_en",
    "stride",
)
#: The observation's blocks whose starts are in ``offsets``.
BLOCKS: tuple[str, ...] = (
    "round",
    "turn",
    "to_move",
    "first_player",
    "mayor",
    "finished",
    "site",
    "spots",
    "urbanist",
    "architects",
    "cities",
    "resources",
)


@njit(cache=True, nogil=True)
def encode_rows(
    raw: Any,
    seats: Any,
    out: Any,
    offsets: Any,
    layout: Any,
    site_rows: Any,
    spot_rows: Any,
    blocked_rows: Any,
    unused_rows: Any,
    cell_rows: Any,
) -> None:
    """Write the observations of ``seats`` (one per row of ``raw``) into ``out`` (all of it)
    (``layout`` and ``offsets``: see :data:`LAYOUT` and :data:`BLOCKS`)."""
    n, a, size, expert = layout[0], layout[1], layout[2], layout[3]
    cs, c_spots, ca, c_cells, c_inh, c_en = layout[4:10]
    o_round, o_turn, o_to_move, o_first, o_mayor, o_finished = offsets[0:6]
    o_site, o_spots, o_urbanist, o_arch, o_cities, o_res = offsets[6:12]
    site_w = site_rows.shape[1]
    spot_w = spot_rows.shape[2]
    cell_w = cell_rows.shape[1]
    last_site = site_rows.shape[0] - 1
    last_cell = cell_rows.shape[0] - 1
    spots_flat = spot_rows.reshape(-1, spot_w)
    last_spot = spots_flat.shape[0] - 1
    for r in range(raw.shape[0]):
        row = out[r]
        row[:] = 0  # one pass over the output, not a zeroing pass and then this one
        facts = raw[r]
        me = seats[r]
        cur = facts[2]
        row[o_round + facts[0]] = 1
        row[o_turn + facts[1]] = 1
        if cur >= 0:
            row[o_to_move + (cur - me) % n] = 1
        else:
            row[o_finished] = 1
        row[o_first + (facts[3] - me) % n] = 1
        row[o_mayor + (facts[4] - me) % n] = 1
        for i in range(SITE_SQUARES):
            tile = facts[cs + i]
            src = site_rows[tile if tile >= 0 else last_site]
            at = o_site + i * site_w
            row[at : at + site_w] = src
        urb = facts[5]
        for s in range(N_SPOTS):
            code = facts[c_spots + s] + me * 8 * n
            src = spots_flat[min(max(code, 0), last_spot)]
            at = o_spots + s * spot_w
            row[at : at + spot_w - 1] = src[: spot_w - 1]
            row[at + spot_w - 1] = blocked_rows[urb, s]
        row[o_urbanist + urb % (SITE_SQUARES + 1)] = 1
        for j in range(n):
            seat = (me + j) % n
            if expert:
                if j == 0:
                    for k in range(a):
                        row[o_arch + k] = facts[ca + 1 + k]
            else:
                used = facts[ca + seat]
                for k in range(a):
                    row[o_arch + j * a + k] = unused_rows[used, k]
            for q in range(size):
                src = cell_rows[min(max(facts[c_cells + seat * size + q], 0), last_cell)]
                at = o_cities + (j * size + q) * cell_w
                row[at : at + cell_w] = src
            row[o_res + 2 * j] = facts[c_inh + seat]
            row[o_res + 2 * j + 1] = facts[c_en + seat]


@njit(cache=True, nogil=True)
def mask_rows(
    raw: Any,
    out: Any,
    layout: Any,
    site_class: Any,
    select: Any,
    blocked_rows: Any,
    unused_rows: Any,
    reach: Any,
    max_floors: Any,
) -> None:
    """Write the legal-action masks of the players to move into ``out`` (all of it; a finished
    table's row is all zeros; ``layout``: see :data:`LAYOUT`).

    An action is (architect, spot, target): an architect available to the player (§5.1) on a
    free spot (§5.1) selects a site square (§5.2); its class gives the targets: every square
    the tile may be built on (§6) and discard, or only "nothing taken" (an empty square, or
    a face-down tile unless A5 "unselectable" and something face up is selectable).
    """
    a, size, expert = layout[1], layout[2], layout[3]
    cs, c_spots, ca, c_cells = layout[4:8]
    stride = layout[10]
    last_class = site_class.shape[0] - 1
    invalid = OTHER_C + 1
    cls = np.empty((a, N_SPOTS), np.int64)
    free = np.empty(N_SPOTS, np.bool_)
    # blocks[k, class]: the stride flags of architect k at a spot whose square has that class
    # (targets, then discard, then "nothing taken"); one copy per spot writes a whole row
    blocks = np.zeros((a, invalid + 1, stride), np.bool_)
    for k in range(a):
        blocks[k, EMPTY_C, stride - 1] = True
        for c in (TOWER_C, OFFICE_C, OTHER_C):
            blocks[k, c, stride - 2] = True
    for r in range(raw.shape[0]):
        row = out[r]
        facts = raw[r]
        cur = facts[2]
        if cur < 0:
            row[:] = False
            continue
        urb = facts[5]
        for s in range(N_SPOTS):
            free[s] = facts[c_spots + s] == 0 and not blocked_rows[urb, s]
        strict = False
        for k in range(a):
            avail = facts[ca + 1 + k] > 0 if expert else unused_rows[facts[ca + cur], k]
            for s in range(N_SPOTS):
                if not (avail and free[s]):
                    cls[k, s] = invalid
                    continue
                tile = facts[cs + select[k, s]]
                c = site_class[tile if tile >= 0 else last_class]
                cls[k, s] = c
                if c != DOWN_C:
                    strict = True
        strict = strict and facts[6] != 0
        city = c_cells + cur * size
        for q in range(size):
            cell = facts[city + q]
            kind, floors = cell >> 3, cell & 7
            tower = kind == 1 and floors < max_floors[1]
            office = kind == 2 and floors < max_floors[2]
            for k in range(a):
                other = reach[k, q] and cell == 0
                near = reach[k, q] or floors == k
                blocks[k, OTHER_C, q] = other
                blocks[k, TOWER_C, q] = other or (tower and near)
                blocks[k, OFFICE_C, q] = other or (office and near)
        for k in range(a):
            blocks[k, DOWN_C, stride - 1] = not strict
            for s in range(N_SPOTS):
                src = blocks[k, cls[k, s]]
                at = (k * N_SPOTS + s) * stride
                for j in range(stride):
                    row[at + j] = src[j]
