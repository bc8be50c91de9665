"""The learned values of Family positions (2 and 4 players): fair, and they see who is ahead."""

from __future__ import annotations

import random

import pytest

from polis.bots.knowledge import knowledge_for
from polis.core.registry import get_game
from polis.games.metropolys.state import MetropolysState
from polis.games.metropolys.value import differences, position_value, progress, standings

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


@pytest.mark.parametrize(("mode", "players"), [("expert", 2), ("family", 3), ("expert", 4)])
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


def test_four_player_standings_weigh_each_player_against_the_others() -> None:
    """Against the mean of the others, the players' leads add up to nothing; against the
    best of the others, only the leader may be ahead; each value lies in [0, 1]."""
    for seed in range(4):
        *running, end = playout_positions(seed, players=4)
        assert position_value(end) is None
        for state in running:
            rows = standings(state)
            for column in range(2, 9):
                assert sum(r[column] for r in rows) == pytest.approx(0.0, abs=1e-9)
            assert sum(1 for r in rows if r[1] > 0) <= 1
            value = position_value(state)
            assert value is not None and len(value) == 4
            assert all(0.0 <= v <= 1.0 for v in value)


def test_late_at_four_players_the_top_value_names_the_winner_more_often_than_chance() -> None:
    """Three quarters into 4-player games, the player valued highest wins far more often
    than one game in four (the playout policy plays on)."""
    right = counted = 0
    for seed in range(60):
        positions = playout_positions(300 + seed, players=4)
        late = next(s for s in positions if progress(s) >= 0.75)
        value = position_value(late)
        assert value is not None
        scores = positions[-1].result().scores
        if scores.count(max(scores)) > 1 or value.count(max(value)) > 1:
            continue
        counted += 1
        right += scores.index(max(scores)) == value.index(max(value))
    assert counted >= 50 and right / counted >= 0.5
