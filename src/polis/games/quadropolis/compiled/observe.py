"""Many compiled Quadropolis tables stepped at once, with their observations and masks.

The batch of :mod:`polis.research.compiled_batch`: the tables are a 2-D array of engine
rows (:mod:`.row`, read through its named offsets only), and one compiled call
(:func:`advance`) checks every action against the last masks, plays them, scores the
finished games (the rewards of :func:`polis.research.session.final_rewards`), deals each
finished table's next game from its own generator, and writes the observations and masks
of the players to move. Those come from the encoders' own compiled loops
(:func:`~polis.games.quadropolis.batch_kernels.encode_rows`,
:func:`~polis.games.quadropolis.batch_kernels.mask_rows`) on the raw matrix of
:class:`~polis.games.quadropolis.tensors.QuadropolisBatch`, which :func:`to_raw` writes
from a row instead of from a Python state: so the numbers are the encoders' by
construction, and ``tests/research/test_compiled_batch.py`` holds them to the Python
states' encoding.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from polis.games.quadropolis.compiled.bridge import facts_row
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

#: Reward kinds of :func:`advance`, in the order of ``polis.research.session.REWARDS``.
WIN_SHARE, MARGIN = 0, 1


#: Mask ids per block of the legal counts :func:`advance` keeps for the draws
#: (:func:`polis.research.compiled_draws.pick_counted`).
BLOCK = 64


def sparse(table: Any) -> tuple[Any, Any, Any]:
    """The non-zero entries of each row of a 2-D float table: columns [rows, most], values
    [rows, most] and their number [rows] (an observation is zeros and a few of these)."""
    flat = np.asarray(table, np.float32).reshape(table.shape[0], -1)
    counts = (flat != 0).sum(axis=1)
    most = max(int(counts.max()), 1)
    cols = np.zeros((flat.shape[0], most), np.int64)
    values = np.zeros((flat.shape[0], most), np.float32)
    for r, line in enumerate(flat):
        nz = np.flatnonzero(line)
        cols[r, : len(nz)] = nz
        values[r, : len(nz)] = line[nz]
    return cols, values, counts.astype(np.int64)


@njit(cache=True, nogil=True, inline="always")
def _put(out: Any, at: int, cols: Any, values: Any, counts: Any, r: int) -> None:
    """Write the non-zero entries of table row ``r`` (see :func:`sparse`) from ``out[at]``."""
    for j in range(counts[r]):
        out[at + cols[r, j]] = values[r, j]


@njit(cache=True, nogil=True)
def observe(
    row: Any,
    me: int,
    out: Any,
    offsets: Any,
    layout: Any,
    site: Any,
    cell: Any,
    unused_rows: Any,
    widths: Any,
) -> None:
    """Write seat ``me``'s observation of the table ``row`` holds into ``out`` (all of it):
    the numbers of :func:`~polis.games.quadropolis.batch_kernels.encode_rows`, written from
    the row as zeros and then the non-zero entries of the batch's site and city-square rows
    (``site``, ``cell``: each table as :func:`sparse` gives it; ``widths``: the site,
    spot and city-square rows' widths). A spot's row is written as the view encoder defines
    it (taken, the architect's number, its owner's seat, blocked by the Urbanist)."""
    n, a, size, expert = layout[0], layout[1], layout[2], layout[3]
    o_round, o_turn, o_to_move, o_first, o_mayor, o_finished = offsets[0:6]
    o_site, o_spots, o_urbanist, o_arch, o_cities, o_res = offsets[6:12]
    site_cols, site_vals, site_n = site
    cell_cols, cell_vals, cell_n = cell
    site_w, spot_w, cell_w = widths[0], widths[1], widths[2]
    out[:] = 0
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
    last_site = site_n.shape[0] - 1
    for i in range(SITE_SQUARES):
        tile = row[S_SITE + i]
        _put(
            out, o_site + i * site_w, site_cols, site_vals, site_n, tile if tile >= 0 else last_site
        )
    urb = row[S_URBANIST]
    blocked = BLOCKED_BY[urb] if urb >= 0 else 0
    for s in range(N_SPOTS):  # taken, the architect's number, its owner's seat, blocked
        at = o_spots + s * spot_w
        v = row[S_SPOTS + s]
        if v:
            out[at] = 1
            out[at + (v & 7)] = 1
            seat = (v >> 3) - me
            out[at + 1 + a + (seat + n if seat < 0 else seat)] = 1
        out[at + spot_w - 1] = (blocked >> s) & 1
    out[o_urbanist + (urb if urb >= 0 else SITE_SQUARES)] = 1
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
        last_cell = cell_n.shape[0] - 1
        for q in range(size):
            c = min(max(row[S_CELLS + seat * MAX_SQUARES + q], 0), last_cell)
            _put(out, o_cities + (j * size + q) * cell_w, cell_cols, cell_vals, cell_n, c)
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


@njit(cache=True, nogil=True)
def mask(row: Any, out: Any, counts: Any, patterns: Any, classes: Any) -> None:
    """Write the legal-action mask of the player to move into ``out`` (all of it; zeros when
    the game is over) and the number of legal ids per :data:`BLOCK` ids into ``counts``:
    :func:`~polis.games.quadropolis.batch_kernels.mask_rows` from the row. An available
    architect (§5.1) on a free spot selects a site square (§5.2): a face-up tile gives the
    squares of the city where it may go (§6) and discard; an empty square, or a face-down
    tile unless A5 "unselectable" leaves something else selectable, gives "nothing taken".

    The flags of a spot depend only on the architect and the class of the tile it selects,
    so each architect's patterns are made once (``patterns``: bool [5, stride], the last all
    false) and copied to its free spots, the class from ``classes`` (:func:`site_classes`):
    no branch per spot. ``out`` is whole uint64 words per row (its length a multiple of 8),
    which count the legal ids of a block eight bytes at a time."""
    out[:] = False
    p = row[S_CURRENT]
    if p < 0:
        counts[:] = 0
        return
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
    for k in range(1, arch + 1):
        if not available(row, p, k):
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
            patterns[c, stride - 2] = True
        patterns[3, stride - 1] = True
        rest = free
        while rest:
            low = rest & -rest
            rest ^= low
            s = bits(low - 1)
            c = classes[strict, row[S_SITE + SELECT_SQ[s, k]] + 1]
            at = ((k - 1) * N_SPOTS + s) * stride
            for j in range(stride):
                out[at + j] = patterns[c, j]
    words = out.view(np.uint64)
    for b in range(counts.shape[0]):
        total = np.uint64(0)
        for j in range(b * (BLOCK // 8), min((b + 1) * (BLOCK // 8), words.shape[0])):
            total += words[j]
        counts[b] = (total * np.uint64(0x0101010101010101)) >> np.uint64(56)  # byte sums


@njit(cache=True, nogil=True)
def final_rewards(row: Any, kind: int, out: Any, totals: Any, places: Any) -> None:
    """The finished game's rewards of every seat into ``out`` (``kind``: :data:`WIN_SHARE`,
    1/k to each of k players sharing first place; :data:`MARGIN`, own score minus the best
    other score), as ``final_rewards`` of the Python result."""
    final_scores(row, totals, places)
    n = row[F_PLAYERS]
    first = 0
    for p in range(n):
        if places[p] == 0:
            first += 1
    for p in range(n):
        if kind == WIN_SHARE:
            out[p] = 1.0 / first if places[p] == 0 else 0.0
        else:
            best = -(1 << 30)
            for q in range(n):
                if q != p and totals[q] > best:
                    best = totals[q]
            out[p] = totals[p] - best


@njit(cache=True, nogil=True)
def advance(
    rows: Any,
    actions: Any,
    masks: Any,
    kind: int,
    rewards: Any,
    done: Any,
    seats: Any,
    obs: Any,
    out_masks: Any,
    counts: Any,
    layout: Any,
    offsets: Any,
    site: Any,
    cell: Any,
    unused_rows: Any,
    widths: Any,
    classes: Any,
) -> int:
    """One step of every table: ``actions[i]`` for the player to move on table ``i``
    (refused, before any table moves, unless ``masks`` allows it: returns the first such
    table, else -1). A finished game's rewards go to ``rewards[i]`` (``kind``), ``done[i]``
    is set and the table's next game is dealt from its generator; then ``seats``, the
    observations ``obs`` of the players to move, their masks ``out_masks`` and the masks'
    ``counts`` (see :func:`mask`) are written (every entry of each). An empty ``actions``
    plays nothing: the first batch. Observations are skipped when ``obs`` has no columns."""
    tables = rows.shape[0]
    size = masks.shape[1]
    if actions.shape[0]:
        for i in range(tables):
            a = actions[i]
            if a < 0 or a >= size or not masks[i, a]:
                return i
    totals = np.zeros(MAX_PLAYERS, np.int64)
    places = np.zeros(MAX_PLAYERS, np.int64)
    observing = obs.shape[1] > 0
    patterns = np.zeros((5, out_masks.shape[1]), np.bool_)
    for i in range(tables):
        row = rows[i]
        if actions.shape[0]:
            apply(row, actions[i])
        done[i] = False
        rewards[i, :] = 0.0
        if row[S_CURRENT] < 0:
            final_rewards(row, kind, rewards[i], totals, places)
            done[i] = True
            new_game(row)
        seat = row[S_CURRENT]
        seats[i] = seat
        if observing:
            observe(row, seat, obs[i], offsets, layout, site, cell, unused_rows, widths)
        mask(row, out_masks[i], counts[i], patterns, classes)
    return -1


@njit(cache=True, nogil=True)
def deal_all(rows: Any, seeds: Any) -> None:
    """Seed each row's generator (``seeds[i]``; an empty array keeps the generators going)
    and deal its next game."""
    for i in range(rows.shape[0]):
        if seeds.shape[0]:
            seed_generator(rows[i], seeds[i])
        new_game(rows[i])


class QuadropolisTables:
    """The compiled tables of one mode and player count and what :func:`advance` reads:
    the engine rows, the raw matrix and the encoder's batch tables."""

    def __init__(self, batch: QuadropolisBatch, tables: int, options: Any) -> None:
        self.batch = batch
        row = facts_row(batch.mode, batch.n, parse_options(options))
        self.rows = np.repeat(row[None, :], tables, axis=0)
        self.num_actions = batch.num_actions
        #: Legal ids per block of :data:`BLOCK` ids of each table's last mask.
        self.counts = np.zeros((tables, -(-self.num_actions // BLOCK)), np.int64)
        self.block = BLOCK
        self.classes = site_classes(batch.n)
        assert self.num_actions % 8 == 0  # mask() counts whole words
        self.site, self.cell = sparse(batch.site_rows), sparse(CELL_ROWS)
        widths = (batch.site_rows.shape[1], batch.spot_rows.shape[-1], CELL_ROWS.shape[1])
        self.widths = np.array(widths, np.int64)

    def deal(self, seeds: Any) -> None:
        """A new game on every table (``seeds``: int64 per table, or empty: go on)."""
        deal_all(self.rows, seeds)

    def advance(
        self,
        actions: Any,
        masks: Any,
        kind: int,
        rewards: Any,
        done: Any,
        seats: Any,
        obs: Any,
        out_masks: Any,
    ) -> int:
        """:func:`advance` on these tables (see there)."""
        b = self.batch
        found: int = advance(
            self.rows,
            actions,
            masks,
            kind,
            rewards,
            done,
            seats,
            obs,
            out_masks,
            self.counts,
            b.layout,
            b.block_starts,
            self.site,
            self.cell,
            b.unused_rows,
            self.widths,
            self.classes,
        )
        return found


__all__ = [
    "MARGIN",
    "WIN_SHARE",
    "QuadropolisTables",
    "advance",
    "final_rewards",
    "mask",
    "observe",
]
