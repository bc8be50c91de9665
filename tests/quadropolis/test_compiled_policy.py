"""The compiled greedy-biased playout policy against the bots' Python policy
(:mod:`polis.games.quadropolis.knowledge`): the same gains, and the same move when both
draw the same uniform numbers."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from polis.games.quadropolis.compiled.bridge import to_row
from polis.games.quadropolis.compiled.generator import seed_generator, unit
from polis.games.quadropolis.compiled.policy import gain, policy_move, python_random_move
from polis.games.quadropolis.compiled.row import S_RNG
from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.knowledge import (
    PLAYOUT_PICKS,
    SEARCH_PICKS,
    Builder,
    QuadropolisKnowledge,
)
from polis.games.quadropolis.state import QuadropolisState

TABLES = st.tuples(st.sampled_from(["classic", "expert"]), st.integers(2, 4))
FACE_DOWN = st.sampled_from(["empty", "unselectable"])


class RowRandom(random.Random):
    """A ``random.Random`` whose ``random()`` is the row generator's
    :func:`~polis.games.quadropolis.compiled.generator.unit`: the Python policy then draws
    the very numbers the compiled one draws."""

    def __init__(self, row: Any) -> None:
        super().__init__(0)
        self.row = row

    def random(self) -> float:
        return float(unit(self.row))


def _positions(mode: str, players: int, seed: int, face_down: str) -> list[QuadropolisState]:
    """Every position of one game of greedy-biased playout moves (a variety of cities)."""
    state = GAME.new_game(mode, players, seed=seed, options={"face_down_tiles": face_down})
    assert isinstance(state, QuadropolisState)
    knowledge = QuadropolisKnowledge(GAME)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        out.append(state.clone())
        state.apply(knowledge.playout_move(state, rng))
    return out


@settings(max_examples=6, deadline=None)
@given(TABLES, st.integers(0, 2**31), FACE_DOWN)
def test_compiled_gains_are_the_python_gains(
    table: tuple[str, int], seed: int, face_down: str
) -> None:
    mode, players = table
    compared = 0
    for state in _positions(mode, players, seed, face_down):
        row = to_row(state)
        builder = Builder(state, state.current_player())
        for move in state.legal_moves():
            if move.target >= 0:
                tile = state.offer(move.architect, move.spot)
                assert gain(row, tile, move.target) == builder.gain(tile, move.target), move
                compared += 1
    assert compared


@settings(max_examples=6, deadline=None)
@given(TABLES, st.integers(0, 2**31), FACE_DOWN, st.sampled_from([PLAYOUT_PICKS, SEARCH_PICKS]))
def test_compiled_policy_moves_as_the_python_policy(
    table: tuple[str, int], seed: int, face_down: str, picks: int
) -> None:
    """The same move from the same numbers, comparing the Python playouts' few tiles or
    the compiled search's more."""
    mode, players = table
    knowledge = QuadropolisKnowledge(GAME)
    knowledge.playout_picks = picks
    for i, state in enumerate(_positions(mode, players, seed, face_down)):
        row = to_row(state)
        seed_generator(row, seed + i)
        rng = RowRandom(row.copy())
        assert python_random_move(row.copy()) == state.random_move(RowRandom(row.copy())).id
        expected = knowledge.playout_move(state, rng)
        assert policy_move(row, picks) == expected.id, (mode, players, seed, i, picks)
        assert np.array_equal(row[S_RNG : S_RNG + 2], rng.row[S_RNG : S_RNG + 2])
