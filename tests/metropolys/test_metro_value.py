"""The learned value of Family 2-player positions: a fair split, and it sees who is ahead."""

from __future__ import annotations

import random

import pytest

from polis.bots.knowledge import knowledge_for
from polis.core.registry import get_game
from polis.games.metropolys.state import MetropolysState
from polis.games.metropolys.value import differences, position_value, progress

GAME = get_game("metropolys")


def playout_positions(seed: int, mode: str = "family", players: int = 2) -> list[MetropolysState]:
    """Every position of one game the playout policy plays against itself, and its end."""
    knowledge = knowledge_for(GAME)
    rng = random.Random(seed)
    state = GAME.new_game(mode, players, seed=seed)
    assert isinstance(state, MetropolysState)
    positions = []
    while not state.is_terminal():
        positions.append(state.clone())
        state.apply(knowledge.playout_move(state, rng))
    positions.append(state)
    return positions


def test_the_two_values_split_one_and_mirror_the_features() -> None:
    for seed in range(6):
        *running, end = playout_positions(seed)
        assert position_value(end) is None  # a finished game has its result instead
        for state in running:
            value = position_value(state)
            assert value is not None
            assert 0.0 <= value[0] <= 1.0 and value[0] + value[1] == pytest.approx(1.0)
            mine, theirs = differences(state, 0), differences(state, 1)
            assert all(a == -b for a, b in zip(mine, theirs, strict=True))


@pytest.mark.parametrize(("mode", "players"), [("expert", 2), ("family", 3), ("family", 4)])
def test_no_value_where_none_was_fitted(mode: str, players: int) -> None:
    assert all(position_value(s) is None for s in playout_positions(1, mode, players)[:-1])


def test_late_in_the_game_the_value_names_the_winner() -> None:
    """Three quarters into a game, the player valued above 0.5 usually wins (here the games
    go on with the playout policy; the score now alone names 0.72 of these winners)."""
    right = counted = 0
    for seed in range(60):
        positions = playout_positions(100 + seed)
        end = positions[-1]
        late = next(s for s in positions if progress(s) >= 0.75)
        value = position_value(late)
        assert value is not None
        scores = end.result().scores
        if scores[0] == scores[1] or value[0] == 0.5:
            continue
        counted += 1
        right += (value[0] > 0.5) == (scores[0] > scores[1])
    assert counted >= 50 and right / counted >= 0.65
