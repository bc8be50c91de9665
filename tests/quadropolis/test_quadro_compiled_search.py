"""The search's work on the compiled Quadropolis engine (games/quadropolis/compiled/search.py)
against the Python knowledge: the gains and moves of the tree, the row that follows a
walked state, its playouts, and whole searches on the compiled path."""

from __future__ import annotations

import random
import statistics

import numpy as np
import pytest

import tree_samples
from tree_samples import GivenSample

pytest.importorskip("numba")

from polis.bots.factory import make_agent
from polis.bots.knowledge import knowledge_for
from polis.games.quadropolis.compiled.bridge import search_row
from polis.games.quadropolis.compiled.generator import below, seed_generator
from polis.games.quadropolis.compiled.row import MAX_LEGAL, MAX_PLAYERS
from polis.games.quadropolis.compiled.search import (
    TREE_SAMPLE,
    Playouts,
    action_gains,
    finish,
    tree_moves,
)
from polis.games.quadropolis.compiled.step import legal
from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.knowledge import (
    PLAYOUT_PICKS,
    SEARCH_PICKS,
    TREE_WIDTH,
    Builder,
    QuadropolisKnowledge,
    quick_gain,
)
from polis.games.quadropolis.moves import QuadropolisMove
from polis.games.quadropolis.state import QuadropolisState

TABLES = [(mode, players) for mode in ("classic", "expert") for players in (2, 3, 4)]


def positions(
    mode: str, players: int, seed: int, games: int = 1, face_down: str = "empty"
) -> list[QuadropolisState]:
    """Every position of ``games`` games of greedy-biased playout moves (cities that grow
    as the bots' do; the last position of each over)."""
    knowledge = QuadropolisKnowledge(GAME)
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = GAME.new_game(
            mode, players, seed=seed * 10 + g, options={"face_down_tiles": face_down}
        )
        assert isinstance(state, QuadropolisState)
        out.append(state.clone())
        while not state.is_terminal():
            state.apply(knowledge.playout_move(state, rng))
            out.append(state.clone())
    return out


def compiled_sample(row: np.ndarray, value: int, k: int, m: int) -> list[int]:
    """The indices of the legal moves the compiled tree samples (its shuffle, redone)."""
    return tree_samples.compiled_sample(row, value, k, m, seed_generator, below)


def buffers() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Scratch for :func:`tree_moves`: ids, sample values, kept ids, kept gains."""
    return (
        np.zeros(MAX_LEGAL, np.int64),
        np.zeros(TREE_SAMPLE, np.float64),
        np.zeros(TREE_WIDTH, np.int64),
        np.zeros(TREE_WIDTH, np.float64),
    )


@pytest.mark.parametrize(("mode", "players"), TABLES)
def test_gains_are_the_python_quick_gains(mode: str, players: int) -> None:
    """The compiled gain of every legal move (building, discarding, taking nothing) is
    ``quick_gain`` to the last bit, at every position of games of both face-down rules."""
    ids = np.zeros(MAX_LEGAL, np.int64)
    values = np.zeros(MAX_LEGAL, np.float64)
    compared = built = 0
    for face_down in ("empty", "unselectable"):
        for state in positions(mode, players, players, face_down=face_down):
            if state.is_terminal():
                continue
            row = search_row(state)
            k = legal(row, ids)
            action_gains(row, ids, k, values)
            legal_moves = state.legal_moves()
            assert ids[:k].tolist() == [m.id for m in legal_moves]
            builder = Builder(state, state.current_player())
            for move, value in zip(legal_moves, values[:k].tolist(), strict=True):
                assert value == quick_gain(state, move, builder), (state.history, move)
                built += move.target >= 0
            compared += k
    assert compared > 5000 and built > 2000


@pytest.mark.parametrize(("mode", "players"), TABLES)
def test_tree_moves_are_the_python_ones(mode: str, players: int) -> None:
    """Given the same sample of legal moves, the compiled tree keeps the very moves the
    Python knowledge keeps, in its order (all of them when there are few), with the Python
    gains; the row is left as it was."""
    python = QuadropolisKnowledge(GAME)
    ids, values, out, gains = buffers()
    sampled = 0
    for i, state in enumerate(positions(mode, players, 3, games=2)):
        if state.is_terminal():
            continue
        row = search_row(state)
        legal_moves = state.legal_moves()
        k = len(legal_moves)
        value = i * 7919 + 1
        count = tree_moves(row, value, TREE_WIDTH, TREE_SAMPLE, ids, values, out, gains)
        got = out[:count].tolist()
        assert np.array_equal(row, search_row(state))  # the generator too
        builder = Builder(state, state.current_player())
        by_id = {m.id: m for m in legal_moves}
        want_gains = [quick_gain(state, by_id[a], builder) for a in got]
        assert gains[:count].tolist() == want_gains
        if k <= TREE_WIDTH:
            assert got == [m.id for m in legal_moves]
            continue
        m = min(k, TREE_SAMPLE)
        order = compiled_sample(row, value, k, m)
        want = [mv.id for mv in python.tree_moves(state, GivenSample(order))]
        assert got == want, (state.history, got, want)
        assert len(got) == TREE_WIDTH and want_gains == sorted(want_gains, reverse=True)
        assert sorted(ids[:m].tolist()) == sorted(legal_moves[j].id for j in order)
        sampled += 1
    assert sampled > 50


def test_tree_moves_are_all_the_legal_moves_when_few() -> None:
    """Late in Classic rounds at four players the legal moves are few: all are kept, in
    the engine's order."""
    search = Playouts()
    rng = random.Random(1)
    few = 0
    for state in positions("classic", 4, 8, games=3):
        if state.is_terminal():
            continue
        legal_moves = list(state.legal_moves())
        if len(legal_moves) <= TREE_WIDTH:
            assert search.tree_moves(state, rng) == legal_moves
            few += 1
    assert few >= 3


def test_tree_samples_are_uniform() -> None:
    """The compiled tree's sample is uniform without replacement: every legal move of an
    opening position is in it as often as in ``random.sample`` (24 of k), and first in the
    sample's order as often as any other."""
    state = GAME.new_game("classic", 2, seed=4)
    assert isinstance(state, QuadropolisState)
    row = search_row(state)
    k = len(state.legal_moves())
    m = TREE_SAMPLE
    ids, values, out, gains = buffers()
    draws = 3000
    inside = np.zeros(k)
    first = np.zeros(k)
    index = {m.id: j for j, m in enumerate(state.legal_moves())}
    for value in range(draws):
        tree_moves(row, value + 1, TREE_WIDTH, m, ids, values, out, gains)
        sample = [index[a] for a in ids[:m].tolist()]  # the sample, sorted by gain
        assert len(set(sample)) == m
        inside[sample] += 1
        order = compiled_sample(row, value + 1, k, m)
        assert sorted(order) == sorted(sample)
        first[order[0]] += 1
    assert k > 3 * m
    tree_samples.assert_uniform(inside, first, draws, m, within=0.04)


@pytest.mark.parametrize(("mode", "players"), TABLES)
def test_the_row_follows_the_walked_state(mode: str, players: int) -> None:
    """A tracked state's row, brought up to date move by move (across rounds and to the
    end), is ``search_row`` of it, slot for slot; clones of one determinization share its
    row; a playout and a tree's sample leave the row as it was; another state gets its
    own row."""
    search = Playouts()
    rng = random.Random(players)
    knowledge = QuadropolisKnowledge(GAME)
    base = GAME.new_game(mode, players, seed=players)
    assert isinstance(base, QuadropolisState)
    for _ in range(9):
        base.apply(base.random_move(rng))
    walked = ended = 0
    for i in range(6):
        state = base.clone()
        search.track(state)
        assert np.array_equal(search.row(state), search_row(state))
        while not state.is_terminal() and (i % 2 == 0 or rng.random() < 0.95):
            for _ in range(rng.choice((1, 1, 2, 3))):  # now and then several at once
                if not state.is_terminal():
                    state.apply(knowledge.playout_move(state, rng))
                    walked += 1
            assert np.array_equal(search.row(state), search_row(state)), state.history
            if rng.random() < 0.3:
                scores, ranking = search(state, rng)
                assert len(scores) == players
                assert sorted(p for g in ranking for p in g) == list(range(players))
                search.tree_moves(state, rng)
                assert np.array_equal(search.row(state), search_row(state))
        ended += state.is_terminal()
        other = base.clone()
        other.apply(other.random_move(rng))
        assert np.array_equal(search.row(other), search_row(other))
    assert len(search._bases) == 1 and walked > 50 and ended >= 3
    base.apply(base.random_move(rng))  # the same determinization, one move on
    search.track(base.clone())
    assert np.array_equal(search.live, search_row(base))


@pytest.mark.parametrize(("mode", "players"), [("classic", 2), ("expert", 4)])
def test_playouts_are_those_of_a_fresh_row(mode: str, players: int) -> None:
    """Playouts from the followed row are those of ``search_row`` seeded the same: the same
    draws, so the same games and results."""
    search = Playouts()
    rng = random.Random(7)
    state = GAME.new_game(mode, players, seed=7)
    assert isinstance(state, QuadropolisState)
    search.track(state)
    totals = np.zeros(MAX_PLAYERS, np.int64)
    places = np.zeros(MAX_PLAYERS, np.int64)
    moves = np.zeros(128, np.int64)
    while not state.is_terminal():
        state.apply(state.random_move(rng))
        seed = rng.randrange(1 << 30)
        scores, _ = search(state, random.Random(seed))
        row = search_row(state)
        seed_generator(row, random.Random(seed).getrandbits(63))
        finish(row, moves, totals, places)
        assert scores == tuple(totals[:players].tolist())


def test_expansion_reuses_the_tree_gains(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled path takes ``POLIS_COMPILED``'s word (and ``compiled=False``'s); there
    the expansion after a tree step ranks by the gains the tree worked out and picks what
    the Python reference picks with the same draws; elsewhere it computes them."""
    state = GAME.new_game("expert", 3, seed=3)
    view = state.view(state.current_player())
    knowledge = QuadropolisKnowledge(GAME)
    knowledge.observe(view)
    knowledge.start_search()
    assert knowledge._search is None  # the tests' default: off
    monkeypatch.setenv("POLIS_COMPILED", "on")
    knowledge.observe(view)
    knowledge.start_search()
    search = knowledge._search
    assert isinstance(search, Playouts)
    python = knowledge_for(GAME, compiled=False)
    python.observe(view)
    python.start_search()
    assert python.compiled is None and python._search is None
    rng = random.Random(2)
    checked = 0
    for _ in range(20):
        sample = knowledge.sample(view, rng)
        assert isinstance(sample, QuadropolisState)
        assert search._state is sample  # followed from the start: no row rebuilt
        while not sample.is_terminal() and rng.random() < 0.9:
            moves = knowledge.tree_moves(sample, rng)
            legal_moves = sample.legal_moves()
            assert set(moves) <= set(legal_moves) and len(set(moves)) == len(moves)
            assert len(moves) == min(TREE_WIDTH, len(legal_moves))
            untried = [m for m in moves if rng.random() < 0.7] or moves
            known = search.gains(sample)
            assert known is not None and set(untried) <= set(known)
            seed = rng.randrange(1 << 30)
            move = knowledge.expansion_move(sample, untried, random.Random(seed))
            assert move is python.expansion_move(sample, untried, random.Random(seed))
            sample.apply(move)
            assert search.gains(sample) is None  # another position: gains are computed
            checked += 1
    assert checked > 30
    # at the root, moves that no tree step ranked: the Python gains
    sample = knowledge.sample(view, rng)
    root: list[QuadropolisMove] = list(sample.legal_moves())[:30]
    seed = rng.randrange(1 << 30)
    move = knowledge.expansion_move(sample, root, random.Random(seed))
    assert move is python.expansion_move(sample, root, random.Random(seed))


@pytest.mark.parametrize(("mode", "players"), TABLES)
def test_searches_on_the_compiled_path(
    mode: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole ``mcts`` moves with the tree walk on the compiled engine: legal moves, and the
    same ones again for the same seed."""
    monkeypatch.setenv("POLIS_COMPILED", "on")

    def game_of(seed: int) -> list[str]:
        rng = random.Random(players)
        state = GAME.new_game(mode, players, seed=players)
        agent, budget = make_agent("mcts:150i", seed)
        chosen = []
        for _ in range(3):
            p = state.current_player()
            legal_moves = state.legal_moves()
            move = agent.act(state.view(p), list(legal_moves), GAME, budget)
            assert move in legal_moves
            chosen.append(move.text)
            state.apply(move)
            for _ in range(rng.randrange(3)):
                state.apply(state.random_move(rng))
        knowledge = getattr(agent, "_knowledge", None)
        assert isinstance(knowledge, QuadropolisKnowledge)
        assert isinstance(knowledge._search, Playouts)
        assert knowledge._search._tree[0] is not None  # its tree walked on the row
        return chosen

    assert game_of(11) == game_of(11)


def test_the_search_playouts_compare_more_tiles() -> None:
    """The compiled search finishes its samples with the policy comparing ``SEARCH_PICKS``
    tiles: its cities score as the Python policy's with that many, and more than with the
    Python playouts' ``PLAYOUT_PICKS``."""
    state = GAME.new_game("classic", 2, seed=8)
    assert isinstance(state, QuadropolisState)
    rng = random.Random(8)
    search = Playouts()
    compiled = [sum(search(state, rng)[0]) for _ in range(300)]
    knowledge = QuadropolisKnowledge(GAME)
    means = {}
    for picks in (PLAYOUT_PICKS, SEARCH_PICKS):
        knowledge.playout_picks = picks
        totals = []
        for _ in range(300):
            sample = state.clone()
            while not sample.is_terminal():
                sample.apply(knowledge.playout_move(sample, rng))
            totals.append(sum(sample.result().scores))
        means[picks] = statistics.mean(totals)
    error = 4 * statistics.pstdev(compiled) / 300**0.5
    assert abs(statistics.mean(compiled) - means[SEARCH_PICKS]) < error
    assert means[SEARCH_PICKS] - means[PLAYOUT_PICKS] > 2 * error
