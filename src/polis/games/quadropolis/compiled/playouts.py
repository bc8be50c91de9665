"""Whole random games in one compiled loop: what the benchmark times against the C
yardstick (``shared/yardstick/quadropolis_limit.c``), and what the tests replay.

The policy is the yardstick's: every move drawn uniformly among all legal moves
(:func:`~polis.games.quadropolis.compiled.step.random_action`), every deal drawn by the
row's generator, every city scored exactly at the end. The checksum is the yardstick's too:
the sum of every player's final total over the games (not the same numbers as the C
program's, whose generator draws in another order).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from polis.games.quadropolis.compiled.bridge import facts_row
from polis.games.quadropolis.compiled.final import keys_into, scratch, total_of
from polis.games.quadropolis.compiled.generator import seed_generator
from polis.games.quadropolis.compiled.policy import policy_move
from polis.games.quadropolis.compiled.row import (
    F_EXPERT,
    F_PLAYERS,
    F_SIZE,
    MAX_PLAYERS,
    S_CURRENT,
    S_MOVES,
)
from polis.games.quadropolis.compiled.step import apply, new_game, random_action
from polis.games.quadropolis.options import DEFAULT_OPTIONS, Options


@njit(cache=True, nogil=True)
def play(row: Any, moves: Any, picks: int) -> int:
    """Play the row's game to its end, writing the moves' ids into ``moves`` (room for a
    whole game: 5 rounds x 16 actions); the number played. ``picks`` above 0: by the bots'
    greedy-biased playout policy comparing that many tiles
    (:func:`~polis.games.quadropolis.compiled.policy.policy_move`), else by uniformly
    random legal moves (the yardstick's)."""
    n = 0
    while row[S_CURRENT] >= 0:
        action = policy_move(row, picks) if picks else random_action(row)
        moves[n] = action
        n += 1
        apply(row, action)
    return n


@njit(cache=True, nogil=True)
def run_random_games(row: Any, games: int) -> tuple[int, int]:
    """``games`` games on the row's facts, each dealt, played and scored: (moves played,
    sum of the final totals)."""
    cells, neighbours, district = scratch(row[F_EXPERT], row[F_SIZE])
    keys = np.zeros(MAX_PLAYERS, np.int64)
    players = row[F_PLAYERS]
    played = 0
    checksum = 0
    for _ in range(games):
        new_game(row)
        while row[S_CURRENT] >= 0:
            apply(row, random_action(row))
        played += row[S_MOVES]
        keys_into(row, keys, cells, neighbours, district)
        for p in range(players):
            checksum += total_of(keys[p])
    return played, checksum


def random_games(
    mode: str, players: int, games: int, seed: int, options: Options = DEFAULT_OPTIONS
) -> tuple[int, int]:
    """Deal, play (uniformly random legal moves) and score ``games`` games of ``mode`` with
    ``players`` in compiled code: (moves played, sum of the final totals)."""
    row = facts_row(mode, players, options)
    seed_generator(row, seed)
    played, checksum = run_random_games(row, games)
    return int(played), int(checksum)
