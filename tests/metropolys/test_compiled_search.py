"""The search's work on the compiled Metropolys engine (games/metropolys/compiled/search.py)
against the Python knowledge: the tree's moves, the learned value, the row that follows a
walked state, and whole searches on the compiled path."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import tree_samples
from tree_samples import GivenSample

pytest.importorskip("numba")

from polis.bots import mcts
from polis.bots.budget import Budget
from polis.bots.mcts import MctsAgent
from polis.games.metropolys.compiled.bridge import to_row
from polis.games.metropolys.compiled.layout import NUM_ACTIONS, POSITION
from polis.games.metropolys.compiled.rng import below
from polis.games.metropolys.compiled.rng import seed as seed_rng
from polis.games.metropolys.compiled.search import (
    TREE_ROOM,
    TREE_SAMPLE,
    Playouts,
    tree_moves,
)
from polis.games.metropolys.game import GAME
from polis.games.metropolys.knowledge import TREE_WIDTH, MetropolysKnowledge, bid_value, rivals
from polis.games.metropolys.state import MetropolysState
from polis.games.metropolys.value import position_value

TABLES = [(mode, players) for mode in ("family", "expert") for players in (2, 3, 4)]


def positions(mode: str, players: int, seed: int, games: int = 2) -> list[MetropolysState]:
    """Every position of ``games`` random games (the last one over)."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = GAME.new_game(mode, players, seed=seed * 10 + g)
        out.append(state.clone())
        while not state.is_terminal():
            state.apply(state.random_move(rng))
            out.append(state.clone())
    return out


def compiled_sample(row: np.ndarray, value: int, k: int, m: int) -> list[int]:
    """The indices of the legal moves the compiled tree samples (its shuffle, redone)."""
    return tree_samples.compiled_sample(row, value, k, m, seed_rng, below)


@pytest.mark.parametrize(("mode", "players"), TABLES)
def test_tree_moves_are_the_python_ones(mode: str, players: int) -> None:
    """Given the same sample of legal moves, the compiled tree keeps the very moves the
    Python knowledge keeps, in its order; its values are the Python bid values exactly."""
    python = MetropolysKnowledge(GAME)
    ids = np.zeros(NUM_ACTIONS, np.int64)
    values = np.zeros(TREE_SAMPLE, np.float64)
    out = np.zeros(TREE_ROOM, np.int64)
    sampled = 0
    checked = 0
    for i, state in enumerate(positions(mode, players, 3)):
        if state.is_terminal():
            continue
        row = to_row(state)
        legal_moves = state.legal_moves()
        k = len(legal_moves)
        value = i * 7919 + 1
        count = tree_moves(row, value, TREE_WIDTH, TREE_SAMPLE, ids, values, out)
        got = out[:count].tolist()
        assert np.array_equal(row[POSITION], to_row(state)[POSITION])  # the row is unchanged
        if k <= TREE_WIDTH:
            assert got == [m.id for m in legal_moves]
            continue
        m = min(k, TREE_SAMPLE)
        order = compiled_sample(row, value, k, m)
        want = [mv.id for mv in python.tree_moves(state, GivenSample(order))]
        assert got == want, (state.history, got, want)
        player = state.current_player()
        rival = rivals(state, player)
        by_id = {mv.id: mv for mv in legal_moves}
        for a, v in zip(ids[:m].tolist(), values[:m].tolist(), strict=True):
            assert v == bid_value(state, by_id[a], player, rival)  # to the last bit
        assert sorted(ids[:m].tolist()) == sorted(by_id[legal_moves[j].id].id for j in order)
        sampled += 1
        checked += m
    assert sampled > 20 and checked > 500


def test_tree_samples_are_uniform() -> None:
    """The compiled tree's sample is uniform without replacement: every legal move of an
    opening position is in it as often as in ``random.sample`` (24 of k), and first in the
    sample's order as often as any other."""
    state = GAME.new_game("family", 2, seed=4)
    row = to_row(state)
    k = len(state.legal_moves())
    m = TREE_SAMPLE
    draws = 3000
    inside = np.zeros(k)
    first = np.zeros(k)
    for value in range(draws):
        order = compiled_sample(row, value + 1, k, m)
        assert len(set(order)) == m and all(0 <= j < k for j in order)
        inside[order] += 1
        first[order[0]] += 1
    tree_samples.assert_uniform(inside, first, draws, m, within=0.03)


@pytest.mark.parametrize(("mode", "players"), TABLES)
def test_leaf_values_are_the_python_ones(mode: str, players: int) -> None:
    """The compiled learned value equals ``value.position_value`` to the last bit (None
    where it is None), at every position of random games."""
    search = Playouts()
    valued = 0
    for state in positions(mode, players, 5):
        want = position_value(state)
        got = search.position_value(state)
        assert got == want, (state.history, got, want)
        valued += want is not None
    if mode == "family" and players in (2, 4):
        assert valued > 50
    else:
        assert valued == 0


def test_leaf_values_of_many_family_positions() -> None:
    """More Family positions, 2 and 4 players, values compared exactly."""
    search = Playouts()
    for players in (2, 4):
        for seed in range(6):
            for state in positions("family", players, 100 + seed, games=1):
                assert search.position_value(state) == position_value(state)


@pytest.mark.parametrize(("mode", "players"), TABLES)
def test_the_row_follows_the_walked_state(mode: str, players: int) -> None:
    """A tracked state's row, brought up to date move by move, is its exact row; another
    state gets its own; a playout leaves the row as it was."""
    search = Playouts()
    rng = random.Random(players)
    base = GAME.new_game(mode, players, seed=players)
    for _ in range(9):
        base.apply(base.random_move(rng))
    for _ in range(5):
        state = base.clone()
        search.track(state)
        while not state.is_terminal() and rng.random() < 0.9:
            state.apply(state.random_move(rng))
            assert np.array_equal(search.row(state)[POSITION], to_row(state)[POSITION])
            if rng.random() < 0.3:
                scores, ranking = search(state, rng)
                assert len(scores) == players and sorted(p for g in ranking for p in g) == list(
                    range(players)
                )
                assert np.array_equal(search.row(state)[POSITION], to_row(state)[POSITION])
        other = base.clone()
        assert np.array_equal(search.row(other)[POSITION], to_row(other)[POSITION])


@pytest.mark.parametrize(("mode", "players"), TABLES)
def test_searches_on_the_compiled_path_return_legal_moves(
    mode: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POLIS_COMPILED", "on")
    rng = random.Random(players)
    state = GAME.new_game(mode, players, seed=players)
    agent = MctsAgent(random.Random(1))
    for _ in range(6):
        if state.is_terminal():
            break
        p = state.current_player()
        legal_moves = state.legal_moves()
        move = agent.act(state.view(p), legal_moves, GAME, Budget(iterations=150))
        assert move in legal_moves
        knowledge = agent._knowledge
        assert isinstance(knowledge, MetropolysKnowledge) and knowledge._search is not None
        state.apply(move)
        for _ in range(rng.randrange(3)):
            if not state.is_terminal():
                state.apply(state.random_move(rng))


def test_the_knowledge_takes_the_compiled_path_only_when_allowed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = GAME.new_game("family", 2, seed=3)
    view = state.view(state.current_player())
    knowledge = MetropolysKnowledge(GAME)
    knowledge.observe(view)
    assert knowledge._search is None  # the tests' default: off
    monkeypatch.setenv("POLIS_COMPILED", "on")
    knowledge.observe(view)
    knowledge.start_search()
    assert knowledge._search is not None
    sample = knowledge.sample(view, random.Random(2))
    moves = knowledge.tree_moves(sample, random.Random(3))
    assert set(moves) <= set(sample.legal_moves()) and len(moves) == TREE_WIDTH
    assert knowledge.leaf_value(sample) == position_value(sample)


@pytest.mark.parametrize(
    ("mode", "players", "compiled", "width"),
    [
        ("family", 2, True, MetropolysKnowledge.compiled_root_width),
        ("family", 2, False, MetropolysKnowledge.root_width),
        ("expert", 4, True, MetropolysKnowledge.compiled_root_width_many),
        ("expert", 4, False, MetropolysKnowledge.root_width),
    ],
)
def test_the_compiled_search_weighs_more_root_moves(
    mode: str, players: int, compiled: bool, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hard`` on the compiled engine weighs ``compiled_root_width`` opening bids at its
    root at two players and ``compiled_root_width_many`` at four; ``mcts-python`` (the
    reference a gain is measured by) keeps ``root_width``."""
    monkeypatch.setenv("POLIS_COMPILED", "on")
    state = GAME.new_game(mode, players, seed=4)
    legal_moves = state.legal_moves()
    assert len(legal_moves) > MetropolysKnowledge.compiled_root_width  # an opening: hundreds
    widths: list[int] = []
    chosen = mcts.candidates

    def recorded(*args: Any) -> Any:
        widths.append(args[3])
        return chosen(*args)

    monkeypatch.setattr(mcts, "candidates", recorded)
    agent = MctsAgent(random.Random(1), compiled=compiled)
    move = agent.act(state.view(0), legal_moves, GAME, Budget(iterations=100))
    assert move in legal_moves
    narrow = MetropolysKnowledge.root_width
    assert MetropolysKnowledge.compiled_root_width > MetropolysKnowledge.compiled_root_width_many
    assert MetropolysKnowledge.compiled_root_width_many > narrow
    assert widths == [width]
