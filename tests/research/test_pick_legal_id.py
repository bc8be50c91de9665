"""``pick_legal_id`` (the random opponents' move) is the ``int(draw * n)``-th legal id, in
every game: a game that counts its legal ids instead of listing them picks the same one."""

from __future__ import annotations

import random
from typing import Any

import pytest

from polis.core.registry import get_game
from polis.research.observations import Encoder, encoder
from research.helpers import ALL_CONFIGS

#: Draws at both ends of [0, 1) and in between.
DRAWS = (0.0, 0.25, 0.5, 0.999999999, 1 - 2**-53)


@pytest.mark.parametrize(("game", "mode", "players"), ALL_CONFIGS)
def test_the_pick_is_the_nth_legal_id(game: str, mode: str, players: int) -> None:
    enc = encoder(get_game(game), mode, players)
    rng = random.Random(3)
    checked = 0
    for seed in range(4):
        state = get_game(game).new_game(mode, players, seed=seed)
        while not state.is_terminal():
            ids = sorted(state.legal_moves().ids())
            for draw in (*DRAWS, rng.random()):
                assert enc.pick_legal_id(state, draw) == ids[int(draw * len(ids))]
                checked += 1
            state.apply(state.random_move(rng))
    assert checked > 500


def test_the_default_pick_reads_the_listed_ids() -> None:
    """The base class (games without a counting pick) indexes its legal ids."""
    game = get_game("metropolys")
    state = game.new_game("family", 2, seed=1)
    base: Encoder[Any] = Encoder()
    ids = sorted(state.legal_moves().ids())
    assert base.pick_legal_id(state, 0.5) == ids[len(ids) // 2]
    assert encoder(game, "family", 2).pick_legal_id(state, 0.5) == ids[len(ids) // 2]


@pytest.mark.parametrize(("game", "mode", "players"), ALL_CONFIGS)
def test_a_finished_game_has_no_pick(game: str, mode: str, players: int) -> None:
    """Once the game is over there is no legal id to pick: an error, not some id."""
    enc = encoder(get_game(game), mode, players)
    state = get_game(game).new_game(mode, players, seed=2)
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply(state.random_move(rng))
    with pytest.raises(IndexError):
        enc.pick_legal_id(state, 0.5)
