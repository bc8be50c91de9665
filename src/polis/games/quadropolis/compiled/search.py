"""The bots' search work on the compiled engine: a sampled Python state mirrored in a row,
the moves its tree considers and its playouts, each in one compiled call.

A search spends most of its time finishing sampled games and choosing the few moves its
tree considers at each step (``QuadropolisKnowledge.tree_moves``: hundreds of legal moves,
a sample of them ranked by quick gain). :class:`Playouts` does both on one row that follows
the state the search walks: the row of each determinization is made once
(:func:`.bridge.search_row`, which keeps the sample's own layouts of the rounds to come),
and every move the search applies to a state is applied to the row too, so a step costs
one compiled call rather than a row rebuilt.

The gains are :func:`~polis.games.quadropolis.knowledge.quick_gain` to the last bit (the
same operations in the same order, :mod:`.policy`;
``tests/quadropolis/test_quadro_compiled_search.py`` compares them over random positions);
the tree's sample and the playouts' draws come from the row's own generator, seeded from
the search's ``random.Random``, so a seeded search stays reproducible, though its draws
differ from the Python code's (the same distribution: a uniform ordered sample without
replacement, then a stable sort by gain).
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
from numba import njit

from polis.games.quadropolis.compiled.bridge import search_row
from polis.games.quadropolis.compiled.final import final_scores
from polis.games.quadropolis.compiled.generator import below, seed_generator
from polis.games.quadropolis.compiled.playouts import play, random_games
from polis.games.quadropolis.compiled.policy import builder, gain_with
from polis.games.quadropolis.compiled.row import (
    F_SIZE,
    F_STRIDE,
    MAX_LEGAL,
    MAX_PLAYERS,
    ROW_DTYPE,
    ROW_LENGTH,
    S_CURRENT,
    S_RNG,
    S_SITE,
    SELECT_SQ,
)
from polis.games.quadropolis.compiled.step import apply, legal
from polis.games.quadropolis.knowledge import TREE_WIDTH
from polis.games.quadropolis.moves import SPACES, QuadropolisMove
from polis.games.quadropolis.setup import Setup
from polis.games.quadropolis.site import N_SPOTS
from polis.games.quadropolis.state import QuadropolisState

Ranking = tuple[tuple[int, ...], ...]

#: How many legal moves the tree samples before keeping the best :data:`TREE_WIDTH`.
TREE_SAMPLE: Final = 3 * TREE_WIDTH


@njit(cache=True, nogil=True)
def finish(row: Any, moves: Any, totals: Any, places: Any) -> int:
    """Finish ``row`` with the playout policy and score it into ``totals`` and ``places``;
    the moves played."""
    played = play(row, moves, True)
    final_scores(row, totals, places)
    return played


@njit(cache=True, nogil=True)
def finish_copy(source: Any, row: Any, value: int, moves: Any, totals: Any, places: Any) -> int:
    """:func:`finish` on a copy of ``source`` in ``row`` (``source`` unchanged), its
    generator seeded with ``value``."""
    row[:] = source
    seed_generator(row, value)
    return finish(row, moves, totals, places)


@njit(cache=True, nogil=True)
def action_gains(row: Any, ids: Any, count: int, values: Any) -> None:
    """``quick_gain`` of the player to move for each of the first ``count`` actions of
    ``ids``, into ``values``: the policy's gain of the tile on its square, 0 for a discard
    or for taking nothing."""
    p = row[S_CURRENT]
    stride = row[F_STRIDE]
    size = row[F_SIZE]
    stats = builder(row, p)
    for i in range(count):
        action = ids[i]
        target = action % stride
        if target >= size:
            values[i] = 0.0
            continue
        pair = action // stride
        tile = row[S_SITE + SELECT_SQ[pair % N_SPOTS, pair // N_SPOTS + 1]]
        values[i] = gain_with(row, p, tile, target, stats)


@njit(cache=True, nogil=True)
def tree_moves(
    row: Any, value: int, width: int, size: int, ids: Any, values: Any, out: Any, gains: Any
) -> int:
    """``QuadropolisKnowledge.tree_moves`` on ``row``: every legal move when there are at
    most ``width``; else a uniform ordered sample of ``size`` of them (a partial
    Fisher-Yates shuffle from the row's generator, seeded with ``value``), stably sorted by
    :func:`action_gains` (best first), the best ``width``. Writes the action ids into
    ``out`` and their gains into ``gains`` (room for ``width`` each: the expansion that
    follows ranks by them) and returns how many; ``ids`` (``MAX_LEGAL``) and ``values``
    (``size``) are scratch. The row is left as it was, its generator too."""
    k = legal(row, ids)
    if k <= width:
        for i in range(k):
            out[i] = ids[i]
        action_gains(row, out, k, gains)
        return k
    lo = row[S_RNG]
    hi = row[S_RNG + 1]
    seed_generator(row, value)
    m = min(k, size)
    for i in range(m):
        j = i + below(row, k - i)
        t = ids[i]
        ids[i] = ids[j]
        ids[j] = t
    row[S_RNG] = lo
    row[S_RNG + 1] = hi
    action_gains(row, ids, m, values)
    for i in range(1, m):  # insertion sort, best first; equal gains keep the sample's order
        v = values[i]
        a = ids[i]
        j = i
        while j > 0 and values[j - 1] < v:
            values[j] = values[j - 1]
            ids[j] = ids[j - 1]
            j -= 1
        values[j] = v
        ids[j] = a
    count = min(width, m)
    for i in range(count):
        out[i] = ids[i]
        gains[i] = values[i]
    return count


class Playouts:
    """The search's compiled work on a row that follows the state it walks; one per search
    (it keeps its buffers and the rows of the determinizations it was shown).

    :meth:`track` is shown each state a search samples; afterwards :meth:`row` brings the
    row up to that state by applying the moves played on it since, one compiled step each.
    Any other state gets its row made afresh (exact, slower).
    """

    def __init__(self) -> None:
        self.totals = np.zeros(MAX_PLAYERS, np.int64)
        self.places = np.zeros(MAX_PLAYERS, np.int64)
        self.moves = np.zeros(128, np.int64)  # a whole game has at most 80 moves
        self.live = np.zeros(ROW_LENGTH, ROW_DTYPE)
        self.spare = np.zeros(ROW_LENGTH, ROW_DTYPE)
        self.ids = np.zeros(MAX_LEGAL, np.int64)
        self.values = np.zeros(TREE_SAMPLE, np.float64)
        self.out = np.zeros(TREE_WIDTH, np.int64)
        self.kept = np.zeros(TREE_WIDTH, np.float64)
        self._state: QuadropolisState | None = None
        self._count = 0
        #: The row of each determinization at the position it was sampled: id of its
        #: set-up -> (set-up, moves played, row). Clones share their set-up.
        self._bases: dict[int, tuple[Setup, list[QuadropolisMove], np.ndarray]] = {}
        #: The last tree's moves with their gains: (state, moves played, gain per move).
        self._tree: tuple[QuadropolisState | None, int, dict[QuadropolisMove, float]] = (
            None,
            0,
            {},
        )

    def track(self, state: QuadropolisState) -> None:
        """Follow ``state`` (a fresh sample): its row from the rows already made of the
        determinization it was cloned from, else made now."""
        setup = state._setup
        moves = state._moves
        hit = self._bases.get(id(setup))
        if hit is None or hit[0] is not setup or hit[1] != moves:
            if len(self._bases) >= 64:
                self._bases.clear()
            hit = self._bases[id(setup)] = (setup, moves[:], search_row(state))
        self.live[:] = hit[2]
        self._state = state
        self._count = len(moves)

    def row(self, state: QuadropolisState) -> np.ndarray:
        """The row of ``state`` now, equal to ``search_row(state)`` (the one this object
        keeps: copy it to keep it)."""
        moves = state._moves
        n = len(moves)
        live = self.live
        if state is not self._state or self._count > n:
            live[:] = search_row(state)
            self._state = state
        else:
            for i in range(self._count, n):
                apply(live, moves[i].id)
        self._count = n
        return live

    def tree_moves(self, state: QuadropolisState, rng: random.Random) -> list[QuadropolisMove]:
        """``QuadropolisKnowledge.tree_moves`` of ``state`` on its row (their gains kept
        for :meth:`gains`)."""
        row = self.row(state)
        k = tree_moves(
            row,
            rng.getrandbits(63),
            TREE_WIDTH,
            TREE_SAMPLE,
            self.ids,
            self.values,
            self.out,
            self.kept,
        )
        space = SPACES[state.mode].moves
        moves = [space[a] for a in self.out[:k].tolist()]
        self._tree = (state, self._count, dict(zip(moves, self.kept[:k].tolist(), strict=True)))
        return moves

    def gains(self, state: QuadropolisState) -> dict[QuadropolisMove, float] | None:
        """``quick_gain`` of each move :meth:`tree_moves` gave for ``state`` as it is now,
        or None if its last call was for another state or position."""
        last, count, gains = self._tree
        return gains if last is state and count == len(state._moves) else None

    def __call__(
        self, state: QuadropolisState, rng: random.Random, count: int = 1
    ) -> list[tuple[tuple[int, ...], Ranking]]:
        """``count`` playouts of ``state`` (left unchanged) by the playout policy, each
        with its own draws: every player's final total and the ranking (best first, ties
        together) of each."""
        row = self.row(state)
        n = state.num_players
        out = []
        for _ in range(count):
            finish_copy(row, self.spare, rng.getrandbits(63), self.moves, self.totals, self.places)
            places = self.places[:n].tolist()
            ranking = tuple(
                tuple(p for p in range(n) if places[p] == k) for k in range(n) if k in places
            )
            out.append((tuple(self.totals[:n].tolist()), ranking))
        return out


def warm() -> None:
    """Compile (or load from the cache) every function the bots and the benchmark call."""
    from polis.games.quadropolis.game import GAME

    search = Playouts()
    rng = random.Random(1)
    for mode in ("classic", "expert"):
        random_games(mode, 2, 1, 1)
        state = GAME.new_game(mode, 3, seed=1)
        assert isinstance(state, QuadropolisState)
        search.track(state)
        search.tree_moves(state, rng)
        state.apply(state.random_move(rng))
        search.tree_moves(state, rng)
        search(state, rng)
