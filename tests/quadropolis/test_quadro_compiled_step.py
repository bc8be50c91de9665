"""The compiled Quadropolis engine (numba) against the Python engine, position by position
(:func:`polis.games.quadropolis.compiled.check.compare`), and its own random games replayed
on the Python engine."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from polis.games.quadropolis.compiled.bridge import (
    facts_row,
    install_layout,
    setup_of,
    to_row,
    undecide_future,
)
from polis.games.quadropolis.compiled.check import compare, places_of
from polis.games.quadropolis.compiled.final import final_scores
from polis.games.quadropolis.compiled.generator import seed_generator
from polis.games.quadropolis.compiled.playouts import play, random_games
from polis.games.quadropolis.compiled.row import F_SHUFFLE, MAX_PLAYERS, S_RNG, S_SITE
from polis.games.quadropolis.compiled.step import apply, new_game, random_action
from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.moves import move_of
from polis.games.quadropolis.options import parse_options
from polis.games.quadropolis.state import QuadropolisState

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "face_down_tiles": st.sampled_from(["empty", "unselectable"]),
        "playground_absorbs_pollution": st.booleans(),
        "office_tower_group_cap": st.integers(1, 5),
        "empty_squares_tie_break": st.sampled_from(["after_removal", "before_removal"]),
    },
)
TABLES = st.tuples(st.sampled_from(["classic", "expert"]), st.integers(2, 4))


@settings(max_examples=20, deadline=None)
@given(TABLES, st.integers(0, 2**31), OPTIONS)
def test_compiled_engine_follows_the_python_engine(
    table: tuple[str, int], seed: int, options: dict[str, Any]
) -> None:
    mode, players = table
    counts = compare(mode, players, 2, seed, options)
    assert counts["games"] == 2
    assert counts["positions"] == 2 * (4 * players * (4 if mode == "classic" else 5) + 1)


@pytest.mark.slow  # many whole games checked position by position against the Python engine
@pytest.mark.parametrize("mode", ["classic", "expert"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_compiled_engine_follows_many_games(mode: str, players: int) -> None:
    compare(mode, players, 40, 7)
    compare(mode, players, 10, 8, {"face_down_tiles": "unselectable"})


def _replay(row: Any, moves: Any, options: dict[str, Any]) -> QuadropolisState:
    """The compiled game's deal and moves on the Python engine (each move checked legal)."""
    setup = setup_of(row)
    state = QuadropolisState(setup, parse_options(options))
    for action in moves:
        move = move_of(setup.mode, int(action))
        assert move in state.legal_moves()
        state.apply(move)
    return state


@settings(max_examples=12, deadline=None)
@given(TABLES, st.integers(0, 2**31), OPTIONS)
def test_a_compiled_random_game_replays_on_the_python_engine(
    table: tuple[str, int], seed: int, options: dict[str, Any]
) -> None:
    mode, players = table
    row = facts_row(mode, players, parse_options(options))
    seed_generator(row, seed)
    new_game(row)
    moves = np.zeros(100, np.int64)
    n = play(row, moves, 0)
    state = _replay(row, moves[:n], options)
    assert state.is_terminal()
    expected = to_row(state)
    expected[F_SHUFFLE] = row[F_SHUFFLE]  # the compiled game drew its deals; the replay lays them
    expected[S_RNG : S_RNG + 2] = row[S_RNG : S_RNG + 2]
    assert row.tolist() == expected.tolist()
    totals = np.zeros(MAX_PLAYERS, np.int64)
    places = np.zeros(MAX_PLAYERS, np.int64)
    final_scores(row, totals, places)
    result = state.result()
    assert totals[:players].tolist() == list(result.scores)
    assert places[:players].tolist() == places_of(result.ranking, players)


@pytest.mark.parametrize(("mode", "players"), [("classic", 4), ("expert", 3)])
def test_random_games_is_the_compiled_loop_it_names(mode: str, players: int) -> None:
    """random_games (what the benchmark times) plays and scores the games the parts do."""
    row = facts_row(mode, players)
    seed_generator(row, 11)
    moves = np.zeros(100, np.int64)
    totals = np.zeros(MAX_PLAYERS, np.int64)
    places = np.zeros(MAX_PLAYERS, np.int64)
    played = checksum = 0
    for _ in range(5):
        new_game(row)
        played += play(row, moves, 0)
        final_scores(row, totals, places)
        checksum += int(totals[:players].sum())
    assert random_games(mode, players, 5, 11) == (played, checksum)
    assert random_games(mode, players, 5, 12) != (played, checksum)


def test_rows_of_a_batch_step_in_place() -> None:
    """A batch is a 2-D array: its rows step alone, and a row's copy is a clone."""
    batch = np.stack([facts_row("expert", 4) for _ in range(3)])
    for i, row in enumerate(batch):
        seed_generator(row, i)
        new_game(row)
    clone = batch[1].copy()
    for row in batch:
        apply(row, random_action(row))
    assert not np.array_equal(batch[1], clone)
    apply(clone, random_action(clone))
    assert np.array_equal(batch[1], clone)
    assert not np.array_equal(batch[0], batch[1])


@settings(max_examples=10, deadline=None)
@given(TABLES, st.integers(0, 2**31))
def test_rounds_to_come_are_drawn_or_installed(table: tuple[str, int], seed: int) -> None:
    """A row deals its undecided rounds from its own generator, each a shuffle of that
    round's bag; installing the Python set-up's layouts gives the Python game back."""
    mode, players = table
    state = GAME.new_game(mode, players, seed=seed)
    assert isinstance(state, QuadropolisState)
    rounds = state.setup_data.rounds
    row = to_row(state)
    seed_generator(row, seed)
    undecide_future(row)
    assert row[F_SHUFFLE] == (1 << len(rounds)) - 2
    drawn = row.copy()
    play(drawn, np.zeros(100, np.int64), 0)
    dealt = setup_of(drawn).rounds
    assert dealt[0] == rounds[0]
    assert [sorted(r) for r in dealt] == [sorted(r) for r in rounds]
    assert dealt[1:] != rounds[1:]
    partly = row.copy()
    install_layout(partly, 2, rounds[2])  # round 3 fixed, the others still drawn
    play(partly, np.zeros(100, np.int64), 0)
    dealt = setup_of(partly).rounds
    assert dealt[2] == rounds[2]
    assert dealt[1] != rounds[1]
    for r in range(1, len(rounds)):
        install_layout(row, r, rounds[r])
    assert row[F_SHUFFLE] == 0
    expected = to_row(state)
    expected[S_RNG : S_RNG + 2] = row[S_RNG : S_RNG + 2]
    assert row.tolist() == expected.tolist()
    with pytest.raises(ValueError):
        install_layout(row, 1, rounds[0])
    install_layout(row, 0, rounds[0][::-1])  # the first round, not played yet: laid again
    assert row[S_SITE : S_SITE + 25].tolist() == list(rounds[0][::-1])


@settings(max_examples=10, deadline=None)
@given(TABLES, st.integers(0, 2**31))
def test_the_searches_rows_are_the_reference_rows(table: tuple[str, int], seed: int) -> None:
    """search_row (offers by the compiled engine, for speed) gives to_row's row (offers by
    their definition) at every position of a random game."""
    import random

    from polis.games.quadropolis.compiled.bridge import search_row

    mode, players = table
    rng = random.Random(seed)
    state = GAME.new_game(mode, players, seed=seed)
    while True:
        assert isinstance(state, QuadropolisState)
        assert search_row(state).tolist() == to_row(state).tolist()
        if state.is_terminal():
            break
        state.apply(state.random_move(rng))
