"""benchmarks/fit_value.py: 2-player labels mirror each other; 4-player labels value every seat."""

from __future__ import annotations

import random

import pytest

from .scripts import load_script


def test_labels_are_values_mirrored_for_the_other_seat() -> None:
    fit_value = load_script("fit_value")
    xs, ys = fit_value.labelled(seed=3, games=1, per_game=3, iterations=40)
    assert len(xs) == len(ys) and len(ys) % 2 == 0 and ys
    for i in range(0, len(ys), 2):
        assert ys[i] == -ys[i + 1] and -0.5 <= ys[i] <= 0.5
        assert xs[i] == [-x for x in xs[i + 1]]


def test_four_player_labels_are_every_players_value_after_the_chosen_move() -> None:
    """Each position gives one row per player; the mover's label is the tree's own value of
    the move the search chose (the same search, read from its playouts)."""
    fit_value = load_script("fit_value")
    xs, ys = fit_value.labelled(seed=3, games=1, per_game=2, iterations=60, players=4)
    assert len(xs) == len(ys) and len(ys) % 4 == 0 and ys
    assert all(0.0 <= y <= 1.0 for y in ys) and all(x[0] == 1.0 for x in xs)
    game = fit_value.GAME
    state = game.new_game("family", 4, seed=5)
    for _ in range(9):
        state.apply(state.legal_moves()[0])
    values = fit_value.search_values(state, 60, random.Random(1))
    mover = state.current_player()
    assert values[mover] == pytest.approx(fit_value.search_value(state, 60, random.Random(1)))
    assert len(set(values)) > 1
