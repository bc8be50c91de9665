"""The bots' playouts on the compiled engine: a sampled Python state finished by the compiled
playout policy (:mod:`.policy`) and scored, in one compiled call.

A search spends most of its time finishing sampled games; here that costs the row of the
state (:func:`.bridge.to_row`) and one call. The policy's values and draws are the Python
policy's (``tests/metropolys/test_compiled_step.py``); its random numbers come from the row's
own generator, seeded from the search's ``random.Random``, so a seeded search stays
reproducible, though its games differ from the Python policy's.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from numba import njit

from polis.games.metropolys.compiled.bridge import to_row
from polis.games.metropolys.compiled.playouts import random_games
from polis.games.metropolys.compiled.policy import playout
from polis.games.metropolys.compiled.rng import seed
from polis.games.metropolys.compiled.score import score, scratch
from polis.games.metropolys.state import MetropolysState

Ranking = tuple[tuple[int, ...], ...]


@njit(cache=True, nogil=True)
def finish(row: Any, record: Any, totals: Any, places: Any, work: Any) -> int:
    """Finish ``row`` with the playout policy and score it into ``totals`` and ``places``;
    the moves played (-1: the policy chose an illegal move, which it never should)."""
    played = playout(row, record)
    score(row, totals, places, work)
    return played


class Playouts:
    """Finishes Python states on the compiled engine; one per search (it keeps its buffers)."""

    def __init__(self) -> None:
        self.totals = np.zeros(4, np.int64)
        self.places = np.zeros(4, np.int64)
        self.work = scratch()
        self.record = np.zeros(0, np.int32)

    def __call__(
        self, state: MetropolysState, rng: random.Random
    ) -> tuple[tuple[int, ...], Ranking]:
        """Each player's final score and the ranking (best first, ties together) of
        ``state`` (left unchanged) finished by the playout policy."""
        row = to_row(state)
        seed(row, rng.getrandbits(63))
        if finish(row, self.record, self.totals, self.places, self.work) < 0:
            raise AssertionError("the compiled playout policy chose an illegal move")
        n = state.num_players
        places = self.places
        ranking = tuple(
            tuple(p for p in range(n) if places[p] == k) for k in range(n) if k in places[:n]
        )
        return tuple(int(t) for t in self.totals[:n]), ranking


def warm() -> None:
    """Compile (or load from the cache) every function the bots and the benchmark call."""
    from polis.games.metropolys.game import GAME

    finish_one = Playouts()
    for mode in ("family", "expert"):
        random_games(mode, 2, 1, 1)
        finish_one(GAME.new_game(mode, 3, seed=1), random.Random(1))
