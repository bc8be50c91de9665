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

from polis.core.parts.search_rows import FollowedRow, Ranking, best_first, ranking_of
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
from polis.games.quadropolis.knowledge import SEARCH_PICKS, TREE_WIDTH
from polis.games.quadropolis.moves import SPACES, QuadropolisMove
from polis.games.quadropolis.site import N_SPOTS
from polis.games.quadropolis.state import QuadropolisState

#: How many legal moves the tree samples before keeping the best :data:`TREE_WIDTH`.
TREE_SAMPLE: Final = 3 * TREE_WIDTH


@njit(cache=True, nogil=True)
def finish(row: Any, moves: Any, totals: Any, places: Any) -> int:
    """Finish ``row`` with the playout policy and score it into ``totals`` and ``places``;
    the moves played."""
    played = play(row, moves, SEARCH_PICKS)
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
    for i in range(m):  # a partial Fisher-Yates shuffle (inlined: numba cannot cache a
        j = i + below(row, k - i)  # function that is handed another one)
        t = ids[i]
        ids[i] = ids[j]
        ids[j] = t
    row[S_RNG] = lo
    row[S_RNG + 1] = hi
    action_gains(row, ids, m, values)
    best_first(ids, values, m)
    count = min(width, m)
    for i in range(count):
        out[i] = ids[i]
        gains[i] = values[i]
    return count


class Playouts(FollowedRow):
    """The search's compiled work on a row that follows the state it walks
    (:class:`~polis.core.parts.search_rows.FollowedRow`); one per search (it keeps its
    buffers and the rows of the determinizations it was shown)."""

    def __init__(self) -> None:
        super().__init__(ROW_LENGTH, ROW_DTYPE)
        self.totals = np.zeros(MAX_PLAYERS, np.int64)
        self.places = np.zeros(MAX_PLAYERS, np.int64)
        self.moves = np.zeros(128, np.int64)  # a whole game has at most 80 moves
        self.spare = np.zeros(ROW_LENGTH, ROW_DTYPE)
        self.ids = np.zeros(MAX_LEGAL, np.int64)
        self.values = np.zeros(TREE_SAMPLE, np.float64)
        self.out = np.zeros(TREE_WIDTH, np.int64)
        self.kept = np.zeros(TREE_WIDTH, np.float64)
        #: The last tree's moves with their gains: (state, moves played, gain per move).
        self._tree: tuple[QuadropolisState | None, int, dict[QuadropolisMove, float]] = (
            None,
            0,
            {},
        )

    def origin(self, state: QuadropolisState) -> object:
        return state._setup  # a determinization's rounds to come, shared by its clones

    def moves_of(self, state: QuadropolisState) -> list[QuadropolisMove]:
        return state._moves

    def fresh_row(self, state: QuadropolisState) -> np.ndarray:
        return search_row(state)  # type: ignore[no-any-return]

    def step(self, row: np.ndarray, action: int) -> None:
        apply(row, action)

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
        self, state: QuadropolisState, rng: random.Random
    ) -> tuple[tuple[int, ...], Ranking]:
        """Each player's final total and the ranking (best first, ties together) of
        ``state`` (left unchanged) finished by the playout policy."""
        row = self.row(state)
        finish_copy(row, self.spare, rng.getrandbits(63), self.moves, self.totals, self.places)
        n = state.num_players
        return tuple(self.totals[:n].tolist()), ranking_of(self.places[:n].tolist())


def warm() -> None:
    """Compile (or load from the cache) every function the bots and the benchmark call."""
    from polis.games.quadropolis import scoring_kernel
    from polis.games.quadropolis.game import GAME

    scoring_kernel.warm()  # the results' key (polis.games.quadropolis.scoring.scorer)
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
