"""The bots' playouts on the compiled engine: a sampled Python state finished by the compiled
playout policy (:mod:`.policy`) and scored exactly, in one compiled call.

A search spends most of its time finishing sampled games; here that costs the row of the
state (:func:`.bridge.search_row`, which keeps the sample's own layouts of the rounds to come)
and one call. The policy's gains and draws are the Python policy's
(``tests/quadropolis/test_compiled_policy.py``); its random numbers come from the row's own
generator, seeded from the search's ``random.Random``, so a seeded search stays
reproducible, though its games differ from the Python policy's.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from numba import njit

from polis.games.quadropolis.compiled.bridge import search_row
from polis.games.quadropolis.compiled.final import final_scores
from polis.games.quadropolis.compiled.generator import seed_generator
from polis.games.quadropolis.compiled.playouts import play, random_games
from polis.games.quadropolis.compiled.row import MAX_PLAYERS
from polis.games.quadropolis.state import QuadropolisState

Ranking = tuple[tuple[int, ...], ...]


@njit(cache=True, nogil=True)
def finish(row: Any, moves: Any, totals: Any, places: Any) -> int:
    """Finish ``row`` with the playout policy and score it into ``totals`` and ``places``;
    the moves played."""
    played = play(row, moves, True)
    final_scores(row, totals, places)
    return played


class Playouts:
    """Finishes Python states on the compiled engine; one per search (it keeps its buffers)."""

    def __init__(self) -> None:
        self.totals = np.zeros(MAX_PLAYERS, np.int64)
        self.places = np.zeros(MAX_PLAYERS, np.int64)
        self.moves = np.zeros(128, np.int64)  # a whole game has at most 80 moves

    def __call__(
        self, state: QuadropolisState, rng: random.Random
    ) -> tuple[tuple[int, ...], Ranking]:
        """Each player's final total and the ranking (best first, ties together) of
        ``state`` (left unchanged) finished by the playout policy."""
        row = search_row(state)
        seed_generator(row, rng.getrandbits(63))
        finish(row, self.moves, self.totals, self.places)
        n = state.num_players
        places = self.places
        ranking = tuple(
            tuple(p for p in range(n) if places[p] == k) for k in range(n) if k in places[:n]
        )
        return tuple(int(t) for t in self.totals[:n]), ranking


def warm() -> None:
    """Compile (or load from the cache) every function the bots and the benchmark call."""
    from polis.games.quadropolis.game import GAME

    finish_one = Playouts()
    for mode in ("classic", "expert"):
        random_games(mode, 2, 1, 1)
        state = GAME.new_game(mode, 3, seed=1)
        assert isinstance(state, QuadropolisState)
        finish_one(state, random.Random(1))
