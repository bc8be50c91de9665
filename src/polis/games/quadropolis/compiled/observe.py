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

from polis.games.quadropolis.batch_kernels import encode_rows, mask_rows
from polis.games.quadropolis.compiled.bridge import facts_row
from polis.games.quadropolis.compiled.final import final_scores
from polis.games.quadropolis.compiled.generator import seed_generator
from polis.games.quadropolis.compiled.row import (
    F_PLAYERS,
    F_ROUNDS,
    F_UNSELECTABLE,
    MAX_PLAYERS,
    MAX_SQUARES,
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
    SITE_SQUARES,
)
from polis.games.quadropolis.compiled.step import apply, new_game
from polis.games.quadropolis.observation import CELL_ROWS
from polis.games.quadropolis.options import parse_options
from polis.games.quadropolis.site import N_SPOTS
from polis.games.quadropolis.tensors import BLOCKED_ROWS, QuadropolisBatch

#: Reward kinds of :func:`advance`, in the order of ``polis.research.session.REWARDS``.
WIN_SHARE, MARGIN = 0, 1


@njit(cache=True, nogil=True)
def to_raw(row: Any, raw: Any, layout: Any) -> None:
    """Write the raw row of :meth:`QuadropolisBatch.matrix` for the table ``row`` holds
    (``layout``: the batch's columns, in the order of ``batch_kernels.LAYOUT``)."""
    n, size, expert = layout[0], layout[2], layout[3]
    c_site, c_spots, c_arch, c_cells, c_inh, c_en = layout[4:10]
    cur = row[S_CURRENT]
    rounds = row[F_ROUNDS]
    if cur < 0:
        raw[0] = rounds - 1
        raw[1] = 3
    else:
        raw[0] = min(row[S_ROUND], rounds - 1)
        raw[1] = row[S_TURN] // n
    raw[2] = cur
    raw[3] = row[S_FIRST]
    raw[4] = row[S_MAYOR]
    raw[5] = row[S_URBANIST]
    raw[6] = row[F_UNSELECTABLE]
    for i in range(SITE_SQUARES):
        raw[c_site + i] = row[S_SITE + i]
    for s in range(N_SPOTS):
        raw[c_spots + s] = row[S_SPOTS + s]
    if expert:
        for k in range(6):
            raw[c_arch + k] = row[S_POOL + k]
    else:
        for p in range(n):
            raw[c_arch + p] = row[S_USED + p]
    for p in range(n):
        for q in range(size):
            raw[c_cells + p * size + q] = row[S_CELLS + p * MAX_SQUARES + q]
        raw[c_inh + p] = row[S_INH + p]
        raw[c_en + p] = row[S_EN + p]


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
    raw: Any,
    obs: Any,
    out_masks: Any,
    layout: Any,
    offsets: Any,
    site_rows: Any,
    spot_rows: Any,
    unused_rows: Any,
    cell_rows: Any,
    site_class: Any,
    select: Any,
    reach: Any,
    max_floors: Any,
) -> int:
    """One step of every table: ``actions[i]`` for the player to move on table ``i``
    (refused, before any table moves, unless ``masks`` allows it: returns the first such
    table, else -1). A finished game's rewards go to ``rewards[i]`` (``kind``), ``done[i]``
    is set and the table's next game is dealt from its generator; then ``seats``, ``raw``,
    the observations ``obs`` of the players to move and their masks ``out_masks`` are
    written (every entry of each). An empty ``actions`` plays nothing: the first batch."""
    tables = rows.shape[0]
    size = masks.shape[1]
    if actions.shape[0]:
        for i in range(tables):
            a = actions[i]
            if a < 0 or a >= size or not masks[i, a]:
                return i
    totals = np.zeros(MAX_PLAYERS, np.int64)
    places = np.zeros(MAX_PLAYERS, np.int64)
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
        seats[i] = row[S_CURRENT]
        to_raw(row, raw[i], layout)
    encode_rows(
        raw, seats, obs, offsets, layout, site_rows, spot_rows, BLOCKED_ROWS, unused_rows, cell_rows
    )
    mask_rows(
        raw, out_masks, layout, site_class, select, BLOCKED_ROWS, unused_rows, reach, max_floors
    )
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
        self.raw = np.zeros((tables, batch.width), np.int64)
        self.num_actions = batch.num_actions

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
            self.raw,
            obs,
            out_masks,
            b.layout,
            b.block_starts,
            b.site_rows,
            b.spot_rows,
            b.unused_rows,
            CELL_ROWS,
            b.site_class,
            b.select,
            b.reach,
            b.max_floors,
        )
        return found


__all__ = ["MARGIN", "WIN_SHARE", "QuadropolisTables", "advance", "final_rewards", "to_raw"]
