"""Compiled loops of the Metropolys batch encoders (numba): observations and masks of many
tables, row by row, from the raw int8 matrix of
:class:`~polis.games.metropolys.tensors.MetropolysBatch`.

Each table's observation is 55 field rows picked from a table plus a few dozen flags; its
mask is one flag per (value, field) pair. Loops compiled once (and cached on disk) write them
straight into the output arrays, with no temporary arrays and none of the per-call cost of
numpy's many small operations. The numbers are the view encoder's and ``legal_moves()``'s
(``tests/research`` compares every position of many random games). Sizes and columns come
in two int arrays, ``layout`` and ``offsets``, made by
:func:`~polis.core.parts.observation.ordered` in the orders :data:`LAYOUT` and :data:`BLOCKS`
declare here, beside the code that reads them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from polis.games.metropolys.board import NUM_FIELDS

#: The :class:`~polis.games.metropolys.tensors.MetropolysBatch` attributes in ``layout``:
#: players, a field row's width, field keys per token, then the raw columns of the cards,
#: cells, this round's bid fields, tokens dealt, supplies, buildings built and tokens
#: collected.
LAYOUT: tuple[str, ...] = (
    "n",
    "field_width",
    "field_keys",
    "c_cards",
    "c_cells",
    "c_bids",
    "c_tokens",
    "c_supply",
    "c_built",
    "c_collected",
)
#: The observation's blocks whose starts are in ``offsets``.
BLOCKS: tuple[str, ...] = (
    "fields",
    "supplies",
    "unused",
    "passed",
    "built",
    "tokens",
    "to_move",
    "start_player",
    "terminal",
    "bid_value",
    "metro_card",
    "archaeology_card",
    "area_card",
    "neighbourhood_card",
)


@njit(cache=True, nogil=True)
def supply_of(facts: Any, at: int) -> int:
    """The supply bit mask stored at column ``at`` of a raw row (two bytes, low first)."""
    low: int = facts[at] & 255
    high: int = facts[at + 1] & 255
    return low | high << 8


@njit(cache=True, nogil=True)
def encode_rows(
    raw: Any,
    seats: Any,
    out: Any,
    offsets: Any,
    layout: Any,
    head_rows: Any,
    fields_template: Any,
    cell_code: Any,
    holder_slot: Any,
    supply_rows: Any,
    unused_rows: Any,
) -> None:
    """Write the observations of ``seats`` (one per row of ``raw``) into ``out`` (all of it)
    (``layout`` and ``offsets``: see :data:`LAYOUT` and :data:`BLOCKS`)."""
    n, width, keys, c_cards, c_cells, c_bids, c_tokens = layout[0:7]
    c_supply, c_built, c_collected = layout[7:10]
    o_fields, o_supplies, o_unused, o_passed, o_built, o_tokens = offsets[0:6]
    o_to_move, o_start, o_terminal, o_bid_value = offsets[6:10]
    o_metro, o_arch, o_area, o_colour = offsets[10:14]
    last_head = head_rows.shape[0] - 1
    bid = np.zeros(NUM_FIELDS, np.int64)  # this row's bid flags, cleared after the row
    head_w = head_rows.shape[1]
    end = o_fields + NUM_FIELDS * width
    supply_w = supply_rows.shape[1]
    unused_w = unused_rows.shape[1]
    for r in range(raw.shape[0]):
        row = out[r]
        # every entry written once: the field block from its template (each field's board
        # columns, zeros elsewhere), the rest zeroed, then the fields' heads and the flags
        row[:o_fields] = 0
        row[o_fields:end] = fields_template
        row[end:] = 0
        facts = raw[r]
        me = seats[r]
        bids = facts[6]
        for b in range(bids):
            bid[facts[c_bids + b]] = 1
        for f in range(NUM_FIELDS):
            cell = facts[c_cells + f]
            code = cell_code[me, cell & 255] + bid[f]
            if cell < 0 or bid[f]:  # a token leaves its field with a final building (§5.2)
                code += facts[c_tokens + f] * keys
            at = o_fields + f * width
            row[at : at + head_w] = head_rows[min(max(code, 0), last_head)]
        for b in range(bids):
            bid[facts[c_bids + b]] = 0
        passed = facts[2]
        for j in range(n):
            seat = (me + j) % n
            supply = supply_of(facts, c_supply + 2 * seat)
            for v in range(supply_w):
                row[o_supplies + j * supply_w + v] = supply_rows[supply, v]
            row[o_passed + j] = (passed >> seat) & 1
            row[o_built + j] = facts[c_built + seat]
            for t in range(3):
                row[o_tokens + 3 * j + t] = facts[c_collected + 4 * seat + 1 + t]
        unused = facts[7] & 255
        for d in range(unused_w):
            row[o_unused + d] = unused_rows[unused, d]
        cur, last = facts[0], facts[3]
        if cur >= 0:
            row[o_to_move + (cur - me) % n] = 1
        else:
            row[o_terminal] = 1
        row[o_start + (facts[1] - me) % n] = 1
        value = 0
        if last >= 0:
            row[o_fields + last * width + 4 + 2 * n + 1] = 1
            value = facts[c_cells + last] & 15
        row[o_bid_value + value] = 1
        row[o_metro + holder_slot[me, facts[4] + 1]] = 1
        row[o_arch + holder_slot[me, facts[5] + 1]] = 1
        row[o_area + facts[c_cards + me]] = 1
        colour = facts[c_cards + n + me]
        if colour >= 0:
            row[o_colour + colour] = 1


@njit(cache=True, nogil=True)
def mask_rows(raw: Any, out: Any, layout: Any, adjacent_rows: Any, pass_id: int) -> None:
    """Write the legal-action masks of the players to move into ``out`` (all of it; a finished
    table's row is all zeros; ``layout``: see :data:`LAYOUT`).

    Action ``(v - 1) * NUM_FIELDS + f`` bids value v on field f: a free field (§5.1), adjacent to
    the last bid if there is one (§5.1.2), with a building of the player's supply higher than
    the last bid's; passing (``pass_id``) is legal once a round has a bid.
    """
    c_cells, c_supply = layout[4], layout[7]
    values = pass_id // NUM_FIELDS
    for r in range(raw.shape[0]):
        row = out[r]
        row[:] = False
        facts = raw[r]
        cur, last = facts[0], facts[3]
        if cur < 0:
            continue
        row = out[r]
        supply = supply_of(facts, c_supply + 2 * cur)
        lowest = facts[c_cells + last] & 15 if last >= 0 else 0
        near = adjacent_rows[last if last >= 0 else adjacent_rows.shape[0] - 1]
        for v in range(lowest + 1, values + 1):
            if not (supply >> v) & 1:
                continue
            at = (v - 1) * NUM_FIELDS
            for f in range(NUM_FIELDS):
                if facts[c_cells + f] == -1 and near[f]:
                    row[at + f] = True
        row[pass_id] = last >= 0
