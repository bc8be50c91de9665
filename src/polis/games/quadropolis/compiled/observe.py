"""Many compiled Quadropolis tables stepped at once, with their observations and masks.

The batch of :mod:`polis.research.compiled_batch`: the tables are a 2-D array of engine
rows (:mod:`.row`, read through its named offsets only), and one compiled call
(:func:`advance`) checks every action against the last masks, plays them, scores the
finished games (the rewards of :func:`polis.research.session.final_rewards`), deals each
finished table's next game from its own generator, and writes the observations and masks
of the players to move. The numbers are those of the encoders' compiled loops
(:func:`~polis.games.quadropolis.batch_kernels.encode_rows`,
:func:`~polis.games.quadropolis.batch_kernels.mask_rows`), written from the row instead of
the raw matrix of :class:`~polis.games.quadropolis.tensors.QuadropolisBatch`, in order and
mostly as whole rows of small tables copied by one memcpy each (:mod:`.copies`);
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
from polis.games.quadropolis.compiled.bridge import facts_row
from polis.games.quadropolis.compiled.copies import copy_items
from polis.games.quadropolis.compiled.final import final_scores
from polis.games.quadropolis.compiled.generator import seed_generator
from polis.games.quadropolis.compiled.row import (
    BLOCKED_BY,
    F_ARCHITECTS,
    F_EXPERT,
    F_PLAYERS,
    F_ROUNDS,
    F_SIZE,
    F_STRIDE,
    F_UNSELECTABLE,
    MAX_FLOORS_OF,
    MAX_PLAYERS,
    MAX_SQUARES,
    REACH,
    S_CELLS,
    S_CURRENT,
    S_EN,
    S_FIRST,
    S_INH,
    S_MAYOR,
    S_POOL,
    S_ROUND,
    S_SITE,
    S_SPOTS,
    S_TURN,
    S_URBANIST,
    S_USED,
    SELECT_SQ,
    SITE_SQUARES,
    TILE_KIND,
    UP,
)
from polis.games.quadropolis.compiled.step import apply, available, bits, free_spots, new_game
from polis.games.quadropolis.observation import CELL_ROWS
from polis.games.quadropolis.options import parse_options
from polis.games.quadropolis.site import N_SPOTS
from polis.games.quadropolis.tensors import QuadropolisBatch

#: Spots per block of the legal counts :func:`advance` keeps for the draws
#: (:func:`polis.research.batch_kernels.pick_counted`): a block is this many (architect,
#: spot) pairs, ``SPOTS_PER_BLOCK * stride`` ids, so a mask block is never split.
SPOTS_PER_BLOCK = 4
#: Width of a site square's row and of a city square's row in the observation.
SITE_W, CELL_W = 16, 10
#: Entries copied per spot (:func:`observe`): the widest spot row (1 + 5 + 4 + 1) and more;
#: those past the row's width are zeros the next block's writes cover.
SPOT_COPY = 12


@njit(cache=True, nogil=True)
def observe(
    rows: Any,
    seats: Any,
    obs: Any,
    lo: int,
    hi: int,
    offsets: Any,
    layout: Any,
    site: Any,
    cell: Any,
    spots: Any,
    unused_rows: Any,
    spot_w: int,
) -> None:
    """Write seat ``me``'s observation of the table ``row`` holds into ``out`` (all of it,
    each entry once, in order): the numbers of
    :func:`~polis.games.quadropolis.batch_kernels.encode_rows`, from the row. The blocks
    are contiguous (``offsets``, checked by :class:`QuadropolisTables`); a site square's and
    a city square's entries are whole rows of the batch's tables (``site``: the batch's
    ``site_rows``, its last row an empty square; ``cell``: ``CELL_ROWS``), copied. A spot's
    row (``spot_w`` wide) is the batch's ``spot_rows[me, spot]`` (taken, the architect's
    number, its owner's seat; ``spots``: those rows padded with zeros to :data:`SPOT_COPY`)
    and the Urbanist's block.

    Tables ``lo`` to ``hi`` of ``rows`` (seats ``seats[i]``, into ``obs[i]``) in one call:
    numba counts each array argument in and out of a call (atomic operations, about as
    much as the table's copies), so the tables of a chunk share them."""
    n, a, size, expert = layout[0], layout[1], layout[2], layout[3]
    o_round, o_turn, o_to_move = offsets[0], offsets[1], offsets[2]
    o_first, o_mayor, o_finished = offsets[3], offsets[4], offsets[5]
    o_site, o_spots, o_urbanist = offsets[6], offsets[7], offsets[8]
    o_arch, o_cities, o_res = offsets[9], offsets[10], offsets[11]
    for i in range(lo, hi):
        row = rows[i]
        me = seats[i]
        out = obs[i]
        for j in range(o_site):
            out[j] = 0
        cur = row[S_CURRENT]
        rounds = row[F_ROUNDS]
        if cur < 0:
            out[o_round + rounds - 1] = 1
            out[o_turn + 3] = 1
            out[o_finished] = 1
        else:
            out[o_round + min(row[S_ROUND], rounds - 1)] = 1
            out[o_turn + row[S_TURN] // n] = 1
            out[o_to_move + (cur - me) % n] = 1
        out[o_first + (row[S_FIRST] - me) % n] = 1
        out[o_mayor + (row[S_MAYOR] - me) % n] = 1
        last_site = site.shape[0] - 1
        for i in range(SITE_SQUARES):
            tile = row[S_SITE + i]
            r = tile if tile >= 0 else last_site
            copy_items(out, o_site + i * SITE_W, site, r * SITE_W, SITE_W)
        urb = row[S_URBANIST]
        blocked = BLOCKED_BY[urb] if urb >= 0 else 0
        for s in range(N_SPOTS):  # taken, the architect's number, its owner's seat, blocked
            at = o_spots + s * spot_w
            copy_items(out, at, spots, (me * 8 * n + row[S_SPOTS + s]) * SPOT_COPY, SPOT_COPY)
            out[at + spot_w - 1] = (blocked >> s) & 1
        for j in range(o_urbanist, o_cities):
            out[j] = 0
        out[o_urbanist + (urb if urb >= 0 else SITE_SQUARES)] = 1
        last_cell = cell.shape[0] - 1
        for j in range(n):
            seat = (me + j) % n
            if expert:
                if j == 0:
                    for k in range(a):
                        out[o_arch + k] = row[S_POOL + 1 + k]
            else:
                used = row[S_USED + seat]
                for k in range(a):
                    out[o_arch + j * a + k] = unused_rows[used, k]
            base = S_CELLS + seat * MAX_SQUARES
            for q in range(size):
                c = min(max(row[base + q], 0), last_cell)
                copy_items(out, o_cities + (j * size + q) * CELL_W, cell, c * CELL_W, CELL_W)
            out[o_res + 2 * j] = row[S_INH + seat]
            out[o_res + 2 * j + 1] = row[S_EN + seat]


def site_classes(players: int) -> Any:
    """The pattern (see :func:`mask`) a site square's tile plays, by [strict, tile + 1]: 0
    another building, 1 a Tower Block, 2 an Office Tower (face up with ``players``), 3
    nothing taken (an empty square, or a face-down tile), 4 no move (a face-down tile when
    A5 "unselectable" and something else is selectable: ``strict``)."""
    table = np.zeros((2, len(TILE_KIND) + 1), np.int64)
    table[:, 0] = 3
    for t, kind in enumerate(TILE_KIND):
        up = UP[players, t]
        table[0, t + 1] = (1 if kind == 1 else 2 if kind == 2 else 0) if up else 3
        table[1, t + 1] = table[0, t + 1] if up else 4
    return table


#: Tables :func:`advance` plays before it writes their observations and masks.
CHUNK = 64
#: Bytes of a spot's pattern in :func:`mask`: room for the longest (22 ids, Expert).
PATTERN = 24


@njit(cache=True, nogil=True)
def mask(
    rows: Any,
    masks: Any,
    all_counts: Any,
    lo: int,
    hi: int,
    patterns: Any,
    ones: Any,
    blank: Any,
    classes: Any,
) -> None:
    """Write the legal-action mask of the player to move into ``out`` (all of it, eight ids
    at a time, in order; zeros when the game is over) and the number of legal ids of each
    block of :data:`SPOTS_PER_BLOCK` (architect, spot) pairs into ``counts``:
    :func:`~polis.games.quadropolis.batch_kernels.mask_rows` from the row. An available
    architect (§5.1) on a free spot selects a site square (§5.2): a face-up tile gives the
    squares of the city where it may go (§6) and discard; an empty square, or a face-down
    tile unless A5 "unselectable" leaves something else selectable, gives "nothing taken".

    The flags of a spot depend only on the architect and the class of the tile it selects,
    so each architect's patterns are made once (``patterns``: bool [5, :data:`PATTERN`],
    false past the stride; ``ones``: the legal ids of each; 3 "nothing taken" and 4 no move
    set by the caller) and copied to its spots as one memcpy each, the class from
    ``classes`` (:func:`site_classes`): no branch per id, and the counts are sums of the
    patterns' counts.

    Tables ``lo`` to ``hi`` of ``rows`` (into ``masks[i]``, ``all_counts[i]``) in one call,
    as :func:`observe`."""
    for i in range(lo, hi):
        row = rows[i]
        out = masks[i]
        counts = all_counts[i]
        p = row[S_CURRENT]
        if p < 0:
            out[:] = False
            counts[:] = 0
            continue
        e = row[F_EXPERT]
        players = row[F_PLAYERS]
        size = row[F_SIZE]
        stride = row[F_STRIDE]
        arch = row[F_ARCHITECTS]
        free = free_spots(row)
        strict = 0
        if row[F_UNSELECTABLE]:
            for k in range(1, arch + 1):
                if available(row, p, k):
                    for s in range(N_SPOTS):
                        if (free >> s) & 1:
                            t = row[S_SITE + SELECT_SQ[s, k]]
                            if t < 0 or UP[players, t]:
                                strict = 1
        # the city as masks: empty squares, stacks that may grow, and floors per square
        empty = grow_t = grow_o = 0
        f0 = f1 = f2 = 0  # the bit planes of each square's floors
        base = S_CELLS + p * MAX_SQUARES
        for q in range(size):
            c = row[base + q]
            bit = 1 << q
            if c & 1:
                f0 |= bit
            if c & 2:
                f1 |= bit
            if c & 4:
                f2 |= bit
            if c == 0:
                empty |= bit
            elif c >> 3 == 1 and (c & 7) < MAX_FLOORS_OF[e, 1]:
                grow_t |= bit
            elif c >> 3 == 2 and (c & 7) < MAX_FLOORS_OF[e, 2]:
                grow_o |= bit
        end = out.shape[0]
        at = 0  # the next id
        b = 0  # the next count
        for k in range(1, arch + 1):
            spots = free if available(row, p, k) else 0
            if not spots:  # the architect's ids, all illegal
                copy_items(out, at, blank, 0, N_SPOTS * stride)
                for g in range(N_SPOTS // SPOTS_PER_BLOCK):
                    counts[b + g] = 0
                at += N_SPOTS * stride
                b += N_SPOTS // SPOTS_PER_BLOCK
                continue
            reach = REACH[e, k]
            f = k - 1  # stacks whose next floor is floor k (§6.2): f floors now
            floor_k = (f0 if f & 1 else ~f0) & (f1 if f & 2 else ~f1) & (f2 if f & 4 else ~f2)
            other = reach & empty
            for c in range(3):  # 0 another building, 1 Tower Block, 2 Office Tower
                targets = other
                if c == 1:
                    targets |= grow_t & (reach | floor_k)
                elif c == 2:
                    targets |= grow_o & (reach | floor_k)
                for q in range(size):
                    patterns[c, q] = (targets >> q) & 1
                ones[c] = bits(targets) + 1  # and discard
            for g in range(N_SPOTS // SPOTS_PER_BLOCK):
                total = 0
                for s in range(g * SPOTS_PER_BLOCK, (g + 1) * SPOTS_PER_BLOCK):
                    c = (
                        classes[strict, row[S_SITE + SELECT_SQ[s, k]] + 1]
                        if (spots >> s) & 1
                        else 4
                    )
                    total += ones[c]
                    if at + PATTERN <= end:  # the zeros past the stride: the next spot's to write
                        copy_items(out, at, patterns, c * PATTERN, PATTERN)
                    else:
                        for j in range(stride):
                            out[at + j] = patterns[c, j]
                    at += stride
                counts[b] = total
                b += 1
        for j in range(at, end):
            out[j] = False
        for j in range(b, counts.shape[0]):
            counts[j] = 0


@njit(cache=True, nogil=True)
def final_rewards(row: Any, kind: int, out: Any, totals: Any, places: Any) -> None:
    """The finished game's rewards of every seat into ``out`` (``kind``: :data:`WIN_SHARE`
    or :data:`MARGIN`, :func:`~polis.core.parts.batch_kernel.rewards_from`), as
    ``final_rewards`` of the Python result."""
    final_scores(row, totals, places)
    rewards_from(totals, places, row[F_PLAYERS], kind, out)


@njit(cache=True, nogil=True)
def advance(
    rows: Any,
    actions: Any,
    masks: Any,
    kind: int,
    outs: Any,
    layout: Any,
    offsets: Any,
    site: Any,
    cell: Any,
    spots: Any,
    unused_rows: Any,
    spot_w: int,
    classes: Any,
) -> int:
    """One step of every table, as :attr:`~polis.core.parts.batch_kernel.CompiledTables.kernel`
    says (the legal counts ``counts``: see :func:`mask`), its observations and masks written
    :data:`CHUNK` tables at a time; the rest: :class:`QuadropolisTables`'s tables."""
    refused = first_refused(actions, masks)
    if refused >= 0:
        return refused
    rewards, done, seats, obs, out_masks, counts = outs
    tables = rows.shape[0]
    totals = np.zeros(MAX_PLAYERS, np.int64)
    places = np.zeros(MAX_PLAYERS, np.int64)
    observing = obs.shape[1] > 0
    stride = layout[10]
    patterns = np.zeros((5, PATTERN), np.bool_)  # see mask()
    patterns[0:3, stride - 2] = True  # discard
    patterns[3, stride - 1] = True  # nothing taken; 4: no move
    ones = np.zeros(5, np.int64)
    ones[3] = 1
    blank = np.zeros(N_SPOTS * PATTERN, np.bool_)
    for lo in range(0, tables, CHUNK):  # a few tables at a time: they stay in the cache
        hi = min(lo + CHUNK, tables)
        for i in range(lo, hi):
            row = rows[i]
            if actions.shape[0]:
                apply(row, actions[i])
            done[i] = False
            rewards[i, :] = 0.0
            if row[S_CURRENT] < 0:
                final_rewards(row, kind, rewards[i], totals, places)
                done[i] = True
                new_game(row)
            seats[i] = row[S_CURRENT]
        if observing:
            observe(
                rows, seats, obs, lo, hi, offsets, layout, site, cell, spots, unused_rows, spot_w
            )
        mask(rows, out_masks, counts, lo, hi, patterns, ones, blank, classes)
    return -1


@njit(cache=True, nogil=True)
def deal_all(rows: Any, seeds: Any) -> None:
    """Seed each row's generator (``seeds[i]``; an empty array keeps the generators going)
    and deal its next game."""
    for i in range(rows.shape[0]):
        if seeds.shape[0]:
            seed_generator(rows[i], seeds[i])
        new_game(rows[i])


class QuadropolisTables(CompiledTables):
    """The compiled tables of one mode and player count and what :func:`advance` reads:
    the engine rows, the raw matrix and the encoder's batch tables."""

    def __init__(self, batch: QuadropolisBatch, tables: int, options: Any) -> None:
        self.batch = batch
        row = facts_row(batch.mode, batch.n, parse_options(options))
        self.rows = np.repeat(row[None, :], tables, axis=0)
        self.num_actions = batch.num_actions
        stride = int(batch.layout[10])
        assert stride == row[F_STRIDE]
        #: Ids per block of the legal counts: :data:`SPOTS_PER_BLOCK` (architect, spot) pairs.
        self.block = SPOTS_PER_BLOCK * stride
        #: Legal ids per block of :attr:`block` ids of each table's last mask.
        self.counts = np.zeros((tables, -(-self.num_actions // self.block)), np.int64)
        self.classes = site_classes(batch.n)
        assert stride <= PATTERN
        self.site = np.ascontiguousarray(batch.site_rows, np.float32)
        self.cell = np.ascontiguousarray(CELL_ROWS, np.float32)
        self.spot_w = int(batch.spot_rows.shape[-1])
        assert self.spot_w < SPOT_COPY
        assert not batch.spot_rows[..., -1].any()  # the Urbanist's block: observe() writes it
        self.spots = np.zeros((*batch.spot_rows.shape[:2], SPOT_COPY), np.float32)
        self.spots[..., : self.spot_w] = batch.spot_rows
        # observe() writes the blocks one after the other, whole rows of these widths
        assert self.site.shape[1] == SITE_W and self.cell.shape[1] == CELL_W
        n, a, size = (int(x) for x in batch.layout[:3])
        extents = [int(row[F_ROUNDS]), 4, n, n, n, 1, SITE_SQUARES * SITE_W]
        extents += [N_SPOTS * self.spot_w, SITE_SQUARES + 1, n * a, n * size * CELL_W, 2 * n]
        ends = np.cumsum(extents)
        assert batch.block_starts[0] == 0 and (batch.block_starts[1:] == ends[:-1]).all()
        #: The observation's length by those blocks (the encoder's size: ``make_tables``).
        self.obs_size = int(ends[-1])
        self.kernel = advance
        b = batch
        self.tables = (b.layout, b.block_starts, self.site, self.cell, self.spots)
        self.tables += (b.unused_rows, self.spot_w, self.classes)

    def deal(self, seeds: Any) -> None:
        """A new game on every table (``seeds``: int64 per table, or empty: go on)."""
        deal_all(self.rows, seeds)


__all__ = [
    "MARGIN",
    "WIN_SHARE",
    "QuadropolisTables",
    "advance",
    "final_rewards",
    "mask",
    "observe",
]
