"""Many compiled Metropolys tables stepped at once, with their observations and masks.

The game's part of :mod:`polis.research.compiled_batch` (the step every game's kernel takes:
:class:`polis.core.parts.batch_kernel.CompiledTables`): the tables are a 2-D array of engine
rows (:mod:`.layout`); :func:`advance` plays a chunk of tables, scores and re-deals the
finished ones, then writes the chunk's observations (:func:`observe`: zeros, then the few
entries set) and masks (:func:`mask`). The numbers are those of
:func:`~polis.games.metropolys.batch_kernels.encode_rows` and
:func:`~polis.games.metropolys.batch_kernels.mask_rows`, computed from the row;
``tests/research/test_compiled_batch.py`` holds them to the Python states' encoding.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from polis.core.parts.batch_kernel import (
    MARGIN,
    WIN_SHARE,
    CompiledTables,
    first_refused,
    rewards_from,
)
from polis.games.metropolys.board import NUM_FIELDS
from polis.games.metropolys.compiled.bridge import new_row
from polis.games.metropolys.compiled.deal import deal_random
from polis.games.metropolys.compiled.engine import apply
from polis.games.metropolys.compiled.layout import (
    F_AREA,
    F_COLOUR,
    F_PLAYERS,
    F_UNUSED,
    FREE,
    MAX_PLAYERS,
    OUT_OF_PLAY,
    PASS_ID,
    S_ARCHAEOLOGY,
    S_BIDS,
    S_BUILT,
    S_CELLS,
    S_COLLECTED,
    S_CURRENT,
    S_METRO,
    S_NBIDS,
    S_PASSED,
    S_START,
    S_SUPPLY,
    S_TERMINAL,
    S_TOKENS,
)
from polis.games.metropolys.compiled.rng import seed as seed_rng
from polis.games.metropolys.compiled.score import MAX_GROUPS, MAX_STACK, score
from polis.games.metropolys.compiled.tables import ADJ_MASK
from polis.games.metropolys.moves import VALUES
from polis.games.metropolys.observation import BOARD_ROWS, SUPPLY_ROWS
from polis.games.metropolys.options import parse_options
from polis.games.metropolys.tensors import UNUSED_ROWS, MetropolysBatch

#: Columns of the scorer's scratch space (as :func:`~.score.scratch`).
WORK = max(MAX_GROUPS, MAX_STACK)
#: Tables :func:`advance` plays before it writes their observations and masks.
CHUNK = 64
#: Mask ids per block of the legal counts :func:`advance` keeps for the draws
#: (:func:`polis.research.batch_kernels.pick_counted`).
BLOCK = 64


def board_columns() -> Any:
    """Per field, the two board columns (colour, district) set in its observation row
    (and a check that :func:`observe` computes ``SUPPLY_ROWS`` as the encoder defines it)."""
    assert SUPPLY_ROWS.shape[1] == VALUES and SUPPLY_ROWS[0b10110, 0:4].tolist() == [1, 1, 0, 1]
    cols = np.array([np.flatnonzero(r) for r in BOARD_ROWS], np.int64)
    assert cols.shape == (NUM_FIELDS, 2) and (BOARD_ROWS.sum(axis=1) == 2).all()
    return cols


@njit(cache=True, nogil=True)
def observe(
    rows: Any, seats: Any, obs: Any, lo: int, hi: int, offsets: Any, layout: Any, board: Any
) -> None:
    """Write seat ``seats[i]``'s observation of the table ``rows[i]`` holds into ``obs[i]``
    (all of it) for the tables ``lo`` to ``hi``: the numbers of
    :func:`~polis.games.metropolys.batch_kernels.encode_rows`, written from the row as
    zeros and then the few entries set (a field: in play, the token lying there, who built
    or bid there, its value, the last bid, its colour and district: ``board``,
    :func:`board_columns`). A chunk of tables per call:
    numba counts each array argument in and out of a call (atomic operations, as costly as
    much of a table's writes), so the tables of a chunk share them."""
    for i in range(lo, hi):
        observe_one(rows[i], seats[i], obs[i], offsets, layout, board)


@njit(cache=True, nogil=True)
def from_me(seat: int, me: int, n: int) -> int:
    """``(seat - me) % n`` for seats ``0..n-1``, with no division."""
    d = seat - me
    return d + n if d < 0 else d


@njit(cache=True, nogil=True)
def observe_one(row: Any, me: int, out: Any, offsets: Any, layout: Any, board: Any) -> None:
    """:func:`observe` of one table (seat ``me``, into ``out``)."""
    n, width = layout[0], layout[1]
    o_fields, o_supplies, o_unused, o_passed, o_built, o_tokens = offsets[0:6]
    o_to_move, o_start, o_terminal, o_bid_value = offsets[6:10]
    o_metro, o_arch, o_area, o_colour = offsets[10:14]
    value_at = 4 + 2 * n
    board_at = value_at + 2
    out[:] = 0  # a memset (at 2048 tables faster than a template's memcpy)
    nbids = row[S_NBIDS]
    for f in range(NUM_FIELDS):
        at = o_fields + f * width
        c = row[S_CELLS + f]
        out[at + board_at + board[f, 0]] = 1
        out[at + board_at + board[f, 1]] = 1
        if c == OUT_OF_PLAY:
            continue
        out[at] = 1
        token = row[S_TOKENS + f]  # a token leaves its field with a final building (§5.2)
        if token:
            out[at + token] = 1
        if c < OUT_OF_PLAY:  # a building, built or bid
            slot = (c >> 4) - me  # the builder's seat from me: no division per field
            out[at + 4 + (slot + n if slot < 0 else slot)] = 1
            out[at + value_at] = c & 15
    for b in range(nbids):  # bids: the bidder's slot moves to the bid half
        f = row[S_BIDS + b]
        at = o_fields + f * width
        slot = from_me(row[S_CELLS + f] >> 4, me, n)
        out[at + 4 + slot] = 0
        out[at + 4 + n + slot] = 1
    value = 0
    if nbids:  # the last bid
        f = row[S_BIDS + nbids - 1]
        out[o_fields + f * width + value_at + 1] = 1
        value = row[S_CELLS + f] & 15
    out[o_bid_value + value] = 1
    passed = row[S_PASSED]
    for j in range(n):
        seat = me + j - n if me + j >= n else me + j
        supply = row[S_SUPPLY + seat]
        for v in range(VALUES):  # SUPPLY_ROWS[supply] computed (the table is 850 kB)
            out[o_supplies + j * VALUES + v] = (supply >> (v + 1)) & 1
        out[o_passed + j] = (passed >> seat) & 1
        out[o_built + j] = row[S_BUILT + seat]
        for t in range(3):
            out[o_tokens + 3 * j + t] = row[S_COLLECTED + 4 * seat + 1 + t]
    unused = row[F_UNUSED]
    for d in range(UNUSED_ROWS.shape[1]):
        out[o_unused + d] = UNUSED_ROWS[unused, d]
    cur = row[S_CURRENT]
    if cur >= 0:
        out[o_to_move + from_me(cur, me, n)] = 1
    else:
        out[o_terminal] = 1
    out[o_start + from_me(row[S_START], me, n)] = 1
    metro, arch = row[S_METRO], row[S_ARCHAEOLOGY]
    out[o_metro + (from_me(metro, me, n) if metro >= 0 else n)] = 1
    out[o_arch + (from_me(arch, me, n) if arch >= 0 else n)] = 1
    out[o_area + row[F_AREA + me]] = 1
    colour = row[F_COLOUR + me]
    if colour >= 0:
        out[o_colour + colour] = 1


@njit(cache=True, nogil=True)
def mask(rows: Any, masks: Any, all_counts: Any, lo: int, hi: int, near: Any) -> None:
    """:func:`mask_one` of the tables ``lo`` to ``hi`` (into ``masks[i]``,
    ``all_counts[i]``), a chunk per call as :func:`observe`."""
    for i in range(lo, hi):
        mask_one(rows[i], masks[i], all_counts[i], near)


@njit(cache=True, nogil=True)
def mask_one(row: Any, out: Any, counts: Any, near: Any) -> None:
    """Write the legal-action mask of the player to move into ``out`` (all of it; zeros when
    the game is over) and the number of legal ids per :data:`BLOCK` ids into ``counts``:
    :func:`~polis.games.metropolys.batch_kernels.mask_rows` from the row. ``near``: room for
    55 field numbers."""
    out[:] = False
    counts[:] = 0
    cur = row[S_CURRENT]
    if cur < 0:
        return
    nbids = row[S_NBIDS]
    lowest = 0
    allowed = (1 << NUM_FIELDS) - 1
    if nbids:  # a raise: next to the last bid (§5.1.2), higher
        last = row[S_BIDS + nbids - 1]
        lowest = row[S_CELLS + last] & 15
        allowed = ADJ_MASK[last]
        out[PASS_ID] = True
        counts[PASS_ID // BLOCK] += 1
    free = 0
    for f in range(NUM_FIELDS):
        if row[S_CELLS + f] == FREE and (allowed >> f) & 1:
            near[free] = f
            free += 1
    supply = row[S_SUPPLY + cur]
    for v in range(lowest + 1, 14):
        if (supply >> v) & 1:
            at = (v - 1) * NUM_FIELDS
            cut = (at // BLOCK + 1) * BLOCK - at  # a value's 55 ids span two blocks at most
            low = 0  # its free fields before the cut (counted apart: no chain of increments)
            for i in range(free):
                out[at + near[i]] = True
                low += near[i] < cut
            counts[at // BLOCK] += low
            if free > low:
                counts[at // BLOCK + 1] += free - low


@njit(cache=True, nogil=True)
def final_rewards(row: Any, kind: int, out: Any, totals: Any, places: Any, work: Any) -> None:
    """The finished game's rewards of every seat into ``out`` (``kind``: :data:`WIN_SHARE`
    or :data:`MARGIN`, :func:`~polis.core.parts.batch_kernel.rewards_from`), as
    ``final_rewards`` of the Python result."""
    score(row, totals, places, work)
    rewards_from(totals, places, row[F_PLAYERS], kind, out)


@njit(cache=True, nogil=True)
def advance(
    rows: Any, actions: Any, masks: Any, kind: int, outs: Any, layout: Any, offsets: Any, board: Any
) -> int:
    """One step of every table, as :attr:`~polis.core.parts.batch_kernel.CompiledTables.kernel`
    says (the legal counts ``counts``: see :func:`mask`), its observations and masks written
    :data:`CHUNK` tables at a time; ``layout``, ``offsets``: the batch's; ``board``:
    :func:`board_columns`."""
    refused = first_refused(actions, masks)
    if refused >= 0:
        return refused
    rewards, done, seats, obs, out_masks, counts = outs
    tables = rows.shape[0]
    totals = np.zeros(MAX_PLAYERS, np.int64)
    places = np.zeros(MAX_PLAYERS, np.int64)
    work = np.zeros((3, WORK), np.int64)
    near = np.empty(NUM_FIELDS, np.int64)
    observing = obs.shape[1] > 0
    for lo in range(0, tables, CHUNK):  # a few tables at a time: they stay in the cache
        hi = min(lo + CHUNK, tables)
        for i in range(lo, hi):
            row = rows[i]
            if actions.shape[0]:
                apply(row, actions[i])
            done[i] = False
            rewards[i, :] = 0.0
            if row[S_TERMINAL]:
                final_rewards(row, kind, rewards[i], totals, places, work)
                done[i] = True
                deal_random(row)
            seats[i] = row[S_CURRENT]
        if observing:
            observe(rows, seats, obs, lo, hi, offsets, layout, board)
        mask(rows, out_masks, counts, lo, hi, near)
    return -1


@njit(cache=True, nogil=True)
def deal_all(rows: Any, seeds: Any) -> None:
    """Seed each row's generator (``seeds[i]``; an empty array keeps the generators going)
    and deal its next game."""
    for i in range(rows.shape[0]):
        if seeds.shape[0]:
            seed_rng(rows[i], seeds[i])
        deal_random(rows[i])


class MetropolysTables(CompiledTables):
    """The compiled tables of one mode and player count and what :func:`advance` reads:
    the engine rows, the raw matrix and the encoder's batch tables."""

    def __init__(self, batch: MetropolysBatch, tables: int, options: Any) -> None:
        self.batch = batch
        row = new_row(batch.mode, batch.n, parse_options(options))
        self.rows = np.repeat(row[None, :], tables, axis=0)
        self.num_actions = batch.num_actions
        #: Legal ids per block of :data:`BLOCK` ids of each table's last mask.
        self.counts = np.zeros((tables, -(-self.num_actions // BLOCK)), np.int64)
        self.board = board_columns()
        self.kernel = advance
        self.tables = (batch.layout, batch.block_starts, self.board)
        self.block = BLOCK

    def deal(self, seeds: Any) -> None:
        """A new game on every table (``seeds``: int64 per table, or empty: go on)."""
        deal_all(self.rows, seeds)


__all__ = ["MARGIN", "WIN_SHARE", "MetropolysTables", "advance", "final_rewards", "mask", "observe"]
