"""Whole games compiled: the yardstick's random policy on a row, the play loop (random or the
bots' playout policy), and the timed loop.

The policy is the C yardstick's (``shared/yardstick``), so games/s compare: the opening bid
is uniform over all (value, free field) pairs; later a player passes with probability 0.3
when a raise is legal and must pass when none is, else raises uniformly over all legal
(value, field) pairs. Every move goes through :func:`~.engine.apply`, the function the
equivalence checks hold to the Python engine, so the speed measured is the engine's.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from numba import njit

from polis.games.metropolys.board import NUM_FIELDS
from polis.games.metropolys.compiled.bridge import new_row
from polis.games.metropolys.compiled.deal import deal_random
from polis.games.metropolys.compiled.engine import apply, free_mask
from polis.games.metropolys.compiled.layout import (
    F_PLAYERS,
    FREE,
    PASS_ID,
    S_BIDS,
    S_CELLS,
    S_CURRENT,
    S_MOVES,
    S_NBIDS,
    S_SUPPLY,
)
from polis.games.metropolys.compiled.policy import policy_move
from polis.games.metropolys.compiled.rng import below, chance
from polis.games.metropolys.compiled.score import nth_bit, nth_value, popcount, score, scratch
from polis.games.metropolys.compiled.tables import ADJ_MASK

#: The yardstick's pass probability when a raise is legal, as a threshold on 32 bits.
PASS_THRESHOLD: Final = int(0.3 * 2**32)


@njit(cache=True, nogil=True)
def random_action(row: Any) -> int:
    """The yardstick's random policy for the player to move, drawn from the row's generator."""
    cur = row[S_CURRENT]
    supply = row[S_SUPPLY + cur] & 0x3FFF  # as an int64, the one type popcount is compiled for
    nbids = row[S_NBIDS]
    if nbids == 0:
        # A field uniform among the free ones: draw among all 55 until one is free (as
        # uniform as counting them, and cheaper: most fields are free most of the game).
        v = nth_value(supply, below(row, popcount(supply)))
        f = below(row, int(NUM_FIELDS))
        while row[S_CELLS + f] != FREE:
            f = below(row, int(NUM_FIELDS))
        return (v - 1) * NUM_FIELDS + f
    last = row[S_BIDS + nbids - 1]
    low = (row[S_CELLS + last] & 15) + 1
    higher = supply >> low << low
    values = popcount(higher)
    if values == 0:
        return PASS_ID
    near = ADJ_MASK[last] & free_mask(row)
    if near == 0 or chance(row, int(PASS_THRESHOLD)):
        return PASS_ID
    v = nth_value(higher, below(row, values))
    return (v - 1) * NUM_FIELDS + nth_bit(near, below(row, popcount(near)))


@njit(cache=True, nogil=True)
def play(row: Any, record: Any, greedy: bool) -> int:
    """Play the table to its end, with the bots' playout policy
    (:func:`~.policy.policy_move`) when ``greedy``, else with :func:`random_action`; the
    moves are written into ``record`` while it has room (an empty array records nothing).
    Returns the number of moves played, or -1 if the policy ever chose an illegal move (it
    never should)."""
    played = 0
    while row[S_CURRENT] >= 0:
        action = policy_move(row) if greedy else random_action(row)
        if not apply(row, action):
            return -1
        if played < record.shape[0]:
            record[played] = action
        played += 1
    return played


@njit(cache=True, nogil=True)
def _random_games(row: Any, games: int, work: Any) -> tuple[int, int]:
    players = row[F_PLAYERS]
    totals = np.zeros(4, np.int64)
    places = np.zeros(4, np.int64)
    nothing = np.zeros(0, np.int64)
    moves = 0
    checksum = 0
    for _ in range(games):
        deal_random(row)
        played = play(row, nothing, False)
        if played < 0:
            return -1, 0
        moves += row[S_MOVES]
        score(row, totals, places, work)
        for p in range(players):
            checksum += totals[p]
    return moves, checksum


def random_games(mode: str, players: int, games: int, seed: int) -> tuple[int, int]:
    """Play ``games`` whole random games (set-up dealt, played and scored, all compiled)
    from one seeded generator: (moves played, the sum of all final scores). The default
    options; what the benchmark times against the C yardstick."""
    moves, checksum = _random_games(new_row(mode, players, seed=seed), games, scratch())
    if moves < 0:  # the policy chose a move apply refused: a bug, never a result
        raise RuntimeError(f"the compiled random policy played an illegal move (seed {seed})")
    return int(moves), int(checksum)
