"""The bots' search work on the compiled engine: a sampled Python state mirrored in a row,
its tree moves, its learned value and its playout, each in one compiled call.

A search spends most of its time finishing sampled games, choosing the few moves its tree
considers at each step (``MetropolysKnowledge.tree_moves``) and valuing the position a
playout starts from (``value.position_value``). :class:`Playouts` does all three on one row
that follows the state the search walks: the row of each determinization is made once
(:func:`.bridge.to_row`), and every move the search applies to a state is applied to the
row too, so a step costs one compiled call rather than a row rebuilt.

The values are the Python ones to the last bit (same operations in the same order; the
tests compare them over random positions); the tree's sample of moves and the playouts'
draws come from the row's own generator, seeded from the search's ``random.Random``, so a
seeded search stays reproducible, though its draws differ from the Python code's (the same
distribution: a uniform ordered sample without replacement, then a stable sort by value).
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
from numba import njit

from polis.core.parts.search_rows import FollowedRow, Ranking, best_first, ranking_of
from polis.core.view import TERMINAL
from polis.games.metropolys.compiled.bridge import to_row
from polis.games.metropolys.compiled.engine import apply, legal
from polis.games.metropolys.compiled.layout import (
    F_EXPERT,
    F_PLAYERS,
    NUM_ACTIONS,
    PASS_ID,
    ROW_LEN,
    S_BIDS,
    S_BUILT,
    S_CELLS,
    S_CURRENT,
    S_NBIDS,
    S_SUPPLY,
)
from polis.games.metropolys.compiled.playouts import play, random_games
from polis.games.metropolys.compiled.policy import bid_value
from polis.games.metropolys.compiled.rng import below, seed
from polis.games.metropolys.compiled.score import score, scratch
from polis.games.metropolys.knowledge import TREE_WIDTH
from polis.games.metropolys.moves import SPACE, MetropolysMove
from polis.games.metropolys.state import MetropolysState
from polis.games.metropolys.value import WEIGHTS, WEIGHTS_4

#: The learned value's weights (``value.py``): per feature, start, progress, progress².
VALUE_WEIGHTS: Final = np.array(WEIGHTS, np.float64)
VALUE_WEIGHTS_4: Final = np.array(WEIGHTS_4, np.float64)
#: How many legal moves the tree samples before keeping the best :data:`TREE_WIDTH`.
TREE_SAMPLE: Final = 3 * TREE_WIDTH
#: Room for the tree's moves: the best, and a pass.
TREE_ROOM: Final = TREE_WIDTH + 1
#: Each action's move object (action id = move id).
MOVES: Final = tuple(SPACE.moves)


@njit(cache=True, nogil=True)
def finish(row: Any, record: Any, totals: Any, places: Any, work: Any) -> int:
    """Finish ``row`` with the playout policy and score it into ``totals`` and ``places``;
    the moves played (-1: the policy chose an illegal move, which it never should)."""
    played = play(row, record, True)
    score(row, totals, places, work)
    return played


@njit(cache=True, nogil=True)
def finish_copy(
    source: Any, row: Any, value: int, record: Any, totals: Any, places: Any, work: Any
) -> int:
    """:func:`finish` on a copy of ``source`` in ``row`` (``source`` unchanged), its
    generator seeded with ``value``."""
    row[:] = source
    seed(row, value)
    return finish(row, record, totals, places, work)


@njit(cache=True, nogil=True)
def tree_moves(row: Any, value: int, width: int, size: int, ids: Any, values: Any, out: Any) -> int:
    """``MetropolysKnowledge.tree_moves`` on ``row``: every legal move when there are at
    most ``width``; else a uniform ordered sample of ``size`` of them (a partial
    Fisher-Yates shuffle from the row's generator, seeded with ``value``), stably sorted by
    :func:`~.policy.bid_value` (best first), the best ``width``, and a pass after a round's
    opening bid when it is not among them. Writes the action ids into ``out`` (room for
    ``width + 1``) and returns how many; ``ids`` (716) and ``values`` (``size``) are scratch."""
    k = legal(row, ids)
    if k <= width:
        for i in range(k):
            out[i] = ids[i]
        return k
    seed(row, value)
    m = min(k, size)
    for i in range(m):  # a partial Fisher-Yates shuffle (inlined: numba cannot cache a
        j = i + below(row, k - i)  # function that is handed another one)
        t = ids[i]
        ids[i] = ids[j]
        ids[j] = t
    player: Any = np.int64(row[S_CURRENT])  # the type the policy's callers pass
    for i in range(m):
        values[i] = bid_value(row, player, ids[i])
    best_first(ids, values, m)
    count = min(width, m)
    passing = False
    for i in range(count):
        out[i] = ids[i]
        if ids[i] == PASS_ID:
            passing = True
    if row[S_NBIDS] and not passing:
        out[count] = PASS_ID
        count += 1
    return count


@njit(cache=True, nogil=True)
def _sum_values(supply: int) -> int:
    """The sum of the values in a supply bit mask."""
    total = 0
    for v in range(1, 14):
        if (supply >> v) & 1:
            total += v
    return total


@njit(cache=True, nogil=True)
def _top_value(supply: int) -> int:
    """The highest value in a supply bit mask (0 when empty)."""
    for v in range(13, 0, -1):
        if (supply >> v) & 1:
            return v
    return 0


@njit(cache=True, nogil=True)
def _high_count(supply: int) -> int:
    """How many values of 10 or more a supply bit mask holds."""
    count = 0
    for v in range(10, 14):
        if (supply >> v) & 1:
            count += 1
    return count


@njit(cache=True, nogil=True)
def _weight(table: Any, i: int, g: float, g2: float) -> float:
    """Feature ``i``'s weight at progress ``g`` (``value.at_progress``)."""
    w: float = table[i, 0] + table[i, 1] * g + table[i, 2] * g2
    return w


@njit(cache=True, nogil=True)
def _clamp(v: float) -> float:
    """``v`` clamped to [0, 1] (``value.weighted``'s last step)."""
    return 0.0 if v < 0.0 else 1.0 if v > 1.0 else v


@njit(cache=True, nogil=True)
def position_value(row: Any, totals: Any, places: Any, work: Any, out: Any) -> int:
    """``value.position_value`` of ``row``: each player's value into ``out`` and the number
    of players, or 0 where the Python function says None (the game is over, Expert, or 3
    players). The same operations in the same order as the Python features and weights."""
    n: int = row[F_PLAYERS]
    current = row[S_CURRENT]
    if current < 0 or row[F_EXPERT] or (n != 2 and n != 4):
        return 0
    score(row, totals, places, work)
    most = 0
    for p in range(n):
        most = max(most, row[S_BUILT + p])
    g = most / 13.0
    g2 = g * g
    nbids = row[S_NBIDS]
    holder = row[S_CELLS + row[S_BIDS + nbids - 1]] >> 4 if nbids else -1
    if n == 2:
        a = row[S_SUPPLY]
        b = row[S_SUPPLY + 1]
        table = VALUE_WEIGHTS
        v = 0.5
        v += (totals[0] - totals[1]) / 6.0 * _weight(table, 0, g, g2)
        v += (row[S_BUILT] - row[S_BUILT + 1]) / 3.0 * _weight(table, 1, g, g2)
        v += (_sum_values(a) - _sum_values(b)) / 20.0 * _weight(table, 2, g, g2)
        v += (_high_count(a) - _high_count(b)) / 2.0 * _weight(table, 3, g, g2)
        v += (_top_value(a) - _top_value(b)) / 4.0 * _weight(table, 4, g, g2)
        turn = 1.0 if current == 0 else -1.0 if current == 1 else 0.0
        v += turn * _weight(table, 5, g, g2)
        top = 0.0 if holder < 0 else 1.0 if holder == 0 else -1.0
        v += top * _weight(table, 6, g, g2)
        v = _clamp(v)
        out[0] = v
        out[1] = 1.0 - v
        return 2
    table = VALUE_WEIGHTS_4
    k = float(n - 1)
    t_score = 0
    t_built = 0
    t_sum = 0
    t_high = 0
    t_top = 0
    for p in range(n):
        supply = row[S_SUPPLY + p]
        t_score += totals[p]
        t_built += row[S_BUILT + p]
        t_sum += _sum_values(supply)
        t_high += _high_count(supply)
        t_top += _top_value(supply)
    for p in range(n):
        supply = row[S_SUPPLY + p]
        mine = totals[p]
        built = row[S_BUILT + p]
        sums = _sum_values(supply)
        highs = _high_count(supply)
        tops = _top_value(supply)
        best = -(1 << 30)
        for q in range(n):
            if q != p:
                best = max(best, totals[q])
        v = 0.0
        v += 1.0 * _weight(table, 0, g, g2)
        v += (mine - best) / 6.0 * _weight(table, 1, g, g2)
        v += (mine - (t_score - mine) / k) / 6.0 * _weight(table, 2, g, g2)
        v += (built - (t_built - built) / k) / 3.0 * _weight(table, 3, g, g2)
        v += (sums - (t_sum - sums) / k) / 20.0 * _weight(table, 4, g, g2)
        v += (highs - (t_high - highs) / k) / 2.0 * _weight(table, 5, g, g2)
        v += (tops - (t_top - tops) / k) / 4.0 * _weight(table, 6, g, g2)
        turn = 1.0 if current == p else -1.0 / k
        v += turn * _weight(table, 7, g, g2)
        top = 0.0 if holder < 0 else 1.0 if holder == p else -1.0 / k
        v += top * _weight(table, 8, g, g2)
        out[p] = _clamp(v)
    return n


class Playouts(FollowedRow):
    """The search's compiled work on a row that follows the state it walks
    (:class:`~polis.core.parts.search_rows.FollowedRow`); one per search (it keeps its
    buffers and the rows of the determinizations it was shown)."""

    def __init__(self) -> None:
        super().__init__(ROW_LEN, np.int32)
        self.totals = np.zeros(4, np.int64)
        self.places = np.zeros(4, np.int64)
        self.work = scratch()
        self.record = np.zeros(0, np.int32)
        self.spare = np.zeros(ROW_LEN, np.int32)
        self.ids = np.zeros(NUM_ACTIONS, np.int64)
        self.values = np.zeros(TREE_SAMPLE, np.float64)
        self.out = np.zeros(TREE_ROOM, np.int64)
        self.leaf = np.zeros(4, np.float64)

    def origin(self, state: MetropolysState) -> object:
        return state._facts  # a determinization's cards and deal, shared by its clones

    def moves_of(self, state: MetropolysState) -> list[MetropolysMove]:
        return state._moves

    def fresh_row(self, state: MetropolysState) -> np.ndarray:
        return to_row(state)

    def step(self, row: np.ndarray, action: int) -> None:
        if not apply(row, action):
            raise AssertionError("a move of the state is illegal on its row")

    def tree_moves(self, state: MetropolysState, rng: random.Random) -> list[MetropolysMove]:
        """``MetropolysKnowledge.tree_moves`` of ``state`` on its row."""
        row = self.row(state)
        out = self.out
        k = tree_moves(
            row, rng.getrandbits(63), TREE_WIDTH, TREE_SAMPLE, self.ids, self.values, out
        )
        return [MOVES[a] for a in out[:k].tolist()]

    def position_value(self, state: MetropolysState) -> tuple[float, ...] | None:
        """``value.position_value`` of ``state`` on its row."""
        if state._current == TERMINAL:
            return None
        n = position_value(self.row(state), self.totals, self.places, self.work, self.leaf)
        return tuple(self.leaf[:n].tolist()) if n else None

    def __call__(
        self, state: MetropolysState, rng: random.Random
    ) -> tuple[tuple[int, ...], Ranking]:
        """Each player's final score and the ranking (best first, ties together) of
        ``state`` (left unchanged) finished by the playout policy."""
        row = self.row(state)
        played = finish_copy(
            row,
            self.spare,
            rng.getrandbits(63),
            self.record,
            self.totals,
            self.places,
            self.work,
        )
        if played < 0:
            raise AssertionError("the compiled playout policy chose an illegal move")
        n = state.num_players
        return tuple(self.totals[:n].tolist()), ranking_of(self.places[:n].tolist())


def warm() -> None:
    """Compile (or load from the cache) every function the bots and the benchmark call."""
    from polis.games.metropolys.game import GAME

    search = Playouts()
    rng = random.Random(1)
    for mode in ("family", "expert"):
        random_games(mode, 2, 1, 1)
        for players in (2, 4):
            state = GAME.new_game(mode, players, seed=1)
            search.track(state)
            search.tree_moves(state, rng)
            state.apply(state.random_move(rng))
            search.tree_moves(state, rng)
            search.position_value(state)
            search(state, rng)
