"""The fast paths' caches and the positions random play rarely reaches.

Uniform random play seldom stacks a building to its full height, so the equality tests of
``test_fast_paths`` could miss a wrong "may grow" rule. Here a policy that prefers adding
floors builds towers to the top, and every position's mask and legal ids must still equal
``legal_moves()``, with the per-city row caches warm, cold and shared between encoders.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from polis.core.protocol import GameState
from polis.core.registry import get_game
from polis.games.quadropolis.observation import QuadropolisEncoder
from polis.games.quadropolis.state import QuadropolisState
from polis.research.observations import encoder


def stacking_positions(mode: str, players: int, seeds: range) -> list[QuadropolisState]:
    """Every position of games whose players mostly add floors to what they built."""
    game = get_game("quadropolis")
    out: list[QuadropolisState] = []
    for seed in seeds:
        state = game.new_game(mode, players, seed=seed)
        assert isinstance(state, QuadropolisState)
        rng = random.Random(seed)
        while True:
            out.append(state.clone())
            if state.is_terminal():
                break
            moves = list(state.legal_moves())
            p = state.current_player()
            higher = [m for m in moves if m.target >= 0 and state.floors_at(p, m.target)]
            state.apply(rng.choice(higher if higher and rng.random() < 0.9 else moves))
    return out


def reference_ids(state: GameState) -> list[int]:
    return sorted(state.legal_moves().ids())


@pytest.mark.parametrize(("mode", "players"), [("classic", 2), ("expert", 3)])
def test_full_height_buildings_take_no_floor(mode: str, players: int) -> None:
    positions = stacking_positions(mode, players, range(5))
    size = 16 if mode == "classic" else 20
    top = 4 if mode == "classic" else 5
    full = sum(
        1
        for s in positions
        for p in range(players)
        for q in range(size)
        if s.floors_at(p, q) >= top
    )
    assert full > 10  # the policy does reach the top
    enc = encoder(get_game("quadropolis"), mode, players)
    for state in positions:
        ids = reference_ids(state)
        assert enc.legal_ids(state).tolist() == ids
        assert np.flatnonzero(enc.legal_mask(state)).tolist() == ids


def test_cached_rows_equal_fresh_rows() -> None:
    """A second encoder shares the first one's tables; clearing the caches changes nothing."""
    game = get_game("quadropolis")
    positions = stacking_positions("expert", 2, range(2))
    first = encoder(game, "expert", 2)
    warm = [first.legal_mask(s).copy() for s in positions]
    second = encoder(game, "expert", 2)
    assert isinstance(first, QuadropolisEncoder) and isinstance(second, QuadropolisEncoder)
    assert second.tensors is first.tensors
    second.tensors._rows.clear()
    second.tensors._cities.clear()
    for state, mask in zip(positions, warm, strict=True):
        assert np.array_equal(second.legal_mask(state), mask)
        assert np.array_equal(second.encode_state(state, 1), second.encode(state.view(1)))
