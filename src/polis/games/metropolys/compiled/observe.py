"""Many compiled Metropolys tables stepped at once, with their observations and masks.

The batch of :mod:`polis.research.compiled_batch`: the tables are a 2-D array of engine
rows (:mod:`.layout`), and one compiled call (:func:`advance`) checks every action against
the last masks, plays them, scores the finished games (the rewards of
:func:`polis.research.session.final_rewards`), deals each finished table's next game from
its own generator, and writes the observations and masks of the players to move. Those come
from the encoders' own compiled loops (:func:`~polis.games.metropolys.batch_kernels.encode_rows`,
:func:`~polis.games.metropolys.batch_kernels.mask_rows`) on the raw int8 matrix of
:class:`~polis.games.metropolys.tensors.MetropolysBatch`, which :func:`to_raw` writes from a
row instead of from a Python state: so the numbers are the encoders' by construction, and
``tests/research/test_compiled_batch.py`` holds them to the Python states' encoding.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from polis.games.metropolys.batch_kernels import encode_rows, mask_rows
from polis.games.metropolys.board import NUM_FIELDS
from polis.games.metropolys.compiled.bridge import new_row
from polis.games.metropolys.compiled.deal import deal_random
from polis.games.metropolys.compiled.engine import apply
from polis.games.metropolys.compiled.layout import (
    F_AREA,
    F_COLOUR,
    F_PLAYERS,
    F_TOKENS,
    F_UNUSED,
    MAX_BIDS,
    MAX_PLAYERS,
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
)
from polis.games.metropolys.compiled.rng import seed as seed_rng
from polis.games.metropolys.compiled.score import MAX_GROUPS, MAX_STACK, score
from polis.games.metropolys.observation import SUPPLY_ROWS
from polis.games.metropolys.options import parse_options
from polis.games.metropolys.tensors import ADJACENT_ROWS, UNUSED_ROWS, MetropolysBatch

#: Columns of the scorer's scratch space (as :func:`~.score.scratch`).
WORK = max(MAX_GROUPS, MAX_STACK)
#: Reward kinds of :func:`advance`, in the order of ``polis.research.session.REWARDS``.
WIN_SHARE, MARGIN = 0, 1


@njit(cache=True, nogil=True)
def _byte(x: int) -> int:
    """The int8 value of a byte 0-255 (a free cell 255 reads -1, out of play 254 reads -2)."""
    return x - 256 if x > 127 else x


@njit(cache=True, nogil=True)
def to_raw(row: Any, raw: Any, layout: Any) -> None:
    """Write the raw int8 row of :meth:`MetropolysBatch.matrix` for the table ``row`` holds
    (``layout``: the batch's columns, in the order of ``batch_kernels.LAYOUT``)."""
    n = layout[0]
    c_cards, c_cells, c_bids, c_tokens, c_supply, c_built, c_collected = layout[3:10]
    nbids = row[S_NBIDS]
    raw[0] = row[S_CURRENT]
    raw[1] = row[S_START]
    raw[2] = row[S_PASSED]
    raw[3] = row[S_BIDS + nbids - 1] if nbids else -1
    raw[4] = row[S_METRO]
    raw[5] = row[S_ARCHAEOLOGY]
    raw[6] = nbids
    raw[7] = row[F_UNUSED]
    for p in range(n):
        raw[c_cards + p] = row[F_AREA + p]
        raw[c_cards + n + p] = row[F_COLOUR + p]
        supply = row[S_SUPPLY + p]
        raw[c_supply + 2 * p] = _byte(supply & 255)
        raw[c_supply + 2 * p + 1] = _byte(supply >> 8)
        raw[c_built + p] = row[S_BUILT + p]
        for t in range(4):
            raw[c_collected + 4 * p + t] = row[S_COLLECTED + 4 * p + t]
    for f in range(NUM_FIELDS):
        raw[c_cells + f] = _byte(row[S_CELLS + f])
        raw[c_tokens + f] = row[F_TOKENS + f]
    for b in range(MAX_BIDS):
        raw[c_bids + b] = row[S_BIDS + b] if b < nbids else 0


@njit(cache=True, nogil=True)
def final_rewards(row: Any, kind: int, out: Any, totals: Any, places: Any, work: Any) -> None:
    """The finished game's rewards of every seat into ``out`` (``kind``: :data:`WIN_SHARE`,
    1/k to each of k players sharing first place; :data:`MARGIN`, own score minus the best
    other score), as ``final_rewards`` of the Python result."""
    score(row, totals, places, work)
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
    head_rows: Any,
    fields_template: Any,
    cell_code: Any,
    holder_slot: Any,
    pass_id: int,
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
    work = np.zeros((3, WORK), np.int64)
    for i in range(tables):
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
        to_raw(row, raw[i], layout)
    encode_rows(
        raw,
        seats,
        obs,
        offsets,
        layout,
        head_rows,
        fields_template,
        cell_code,
        holder_slot,
        SUPPLY_ROWS,
        UNUSED_ROWS,
    )
    mask_rows(raw, out_masks, layout, ADJACENT_ROWS, pass_id)
    return -1


@njit(cache=True, nogil=True)
def deal_all(rows: Any, seeds: Any) -> None:
    """Seed each row's generator (``seeds[i]``; an empty array keeps the generators going)
    and deal its next game."""
    for i in range(rows.shape[0]):
        if seeds.shape[0]:
            seed_rng(rows[i], seeds[i])
        deal_random(rows[i])


class MetropolysTables:
    """The compiled tables of one mode and player count and what :func:`advance` reads:
    the engine rows, the raw matrix and the encoder's batch tables."""

    def __init__(self, batch: MetropolysBatch, tables: int, options: Any) -> None:
        self.batch = batch
        row = new_row(batch.mode, batch.n, parse_options(options))
        self.rows = np.repeat(row[None, :], tables, axis=0)
        self.raw = np.zeros((tables, batch.width), np.int8)
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
            b.head_rows,
            b.fields_template,
            b.cell_code,
            b.holder_slot,
            b.num_actions - 1,
        )
        return found


__all__ = ["MARGIN", "WIN_SHARE", "MetropolysTables", "advance", "final_rewards", "to_raw"]
