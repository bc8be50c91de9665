"""The judge of the compiled engine: random games played on the Python engine and, at every
position, the compiled engine held equal to it.

At each position of each game :func:`compare` asserts that the row the compiled ``apply``
made from the previous row is :func:`~polis.games.quadropolis.compiled.bridge.to_row` of the
Python state (so successors are equal, including the next round's deal: the row carries the
Python set-up's layouts), that the legal action ids are the same in the same order, that the
player to move and the end agree, and that the compiled uniform draw
(:func:`~polis.games.quadropolis.compiled.step.random_action`) picks the legal id its
generator's index names. At each game's end the compiled totals and places must be those of
the Python ``result()``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from polis.games.quadropolis.compiled.bridge import to_row
from polis.games.quadropolis.compiled.final import final_scores
from polis.games.quadropolis.compiled.generator import below, seed_generator
from polis.games.quadropolis.compiled.row import MAX_LEGAL, MAX_PLAYERS
from polis.games.quadropolis.compiled.step import (
    apply,
    current_player,
    is_terminal,
    legal,
    random_action,
)
from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.state import QuadropolisState


def places_of(ranking: tuple[tuple[int, ...], ...], players: int) -> list[int]:
    """Each player's place as the compiled engine numbers it (players above them) from a
    Python ranking (groups best first)."""
    out = [0] * players
    above = 0
    for group in ranking:
        for p in group:
            out[p] = above
        above += len(group)
    return out


def compare(
    mode: str,
    players: int,
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> dict[str, int]:
    """Play ``games`` random games (uniform among the legal moves) on the Python engine and
    check the compiled engine at every position (AssertionError naming the table, the seed
    and the move); the numbers of games and positions compared."""
    rng = random.Random(f"compiled-check {mode} {players} {seed}")
    ids = np.zeros(MAX_LEGAL, np.int64)
    positions = 0
    for game in range(games):
        game_seed = rng.randrange(1 << 30)
        state = GAME.new_game(mode, players, seed=game_seed, options=dict(options or {}))
        assert isinstance(state, QuadropolisState)
        where = f"{mode} {players}p seed {seed} game {game} (set-up seed {game_seed})"
        row = to_row(state)
        move_no = 0
        while True:
            at = f"{where} before move {move_no}"
            positions += 1
            expected = to_row(state)
            if not np.array_equal(row, expected):
                diff = [int(i) for i in np.flatnonzero(row != expected)]
                raise AssertionError(
                    f"{at}: the compiled row differs at offsets {diff}: "
                    f"{row[diff].tolist()} != {expected[diff].tolist()}"
                )
            assert current_player(row) == state.current_player(), f"{at}: player to move"
            assert is_terminal(row) == state.is_terminal(), f"{at}: the end"
            n = legal(row, ids)
            py_moves = state.legal_moves()
            py_ids = [m.id for m in py_moves]
            got = ids[:n].tolist()
            if got != py_ids:
                extra = sorted(set(got) - set(py_ids))
                missing = sorted(set(py_ids) - set(got))
                raise AssertionError(f"{at}: legal ids: extra {extra}, missing {missing}")
            if state.is_terminal():
                break
            draw, index = row.copy(), row.copy()
            seed_generator(draw, move_no)
            seed_generator(index, move_no)
            drawn = random_action(draw)
            assert drawn == ids[below(index, n)], f"{at}: random_action drew {drawn}"
            move = py_moves[rng.randrange(n)]
            state.apply(move)
            apply(row, move.id)
            move_no += 1
        result = state.result()
        totals = np.zeros(MAX_PLAYERS, np.int64)
        places = np.zeros(MAX_PLAYERS, np.int64)
        final_scores(row, totals, places)
        assert totals[:players].tolist() == list(result.scores), (
            f"{where}: compiled totals {totals[:players].tolist()} != {list(result.scores)}"
        )
        assert places[:players].tolist() == places_of(result.ranking, players), (
            f"{where}: compiled places {places[:players].tolist()} != ranking {result.ranking}"
        )
    return {"games": games, "positions": positions}
