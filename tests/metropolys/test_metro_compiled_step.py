"""The compiled Metropolys engine (games/metropolys/compiled) against the Python engine:
every position of random games, the deal, the scores, and compiled random games replayed."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from polis.games.metropolys.board import DEAD_ENDS, NUM_FIELDS, TOKEN_FIELDS
from polis.games.metropolys.compiled.bridge import new_row, setup_of_row, to_row
from polis.games.metropolys.compiled.check import (
    OPTION_SETS,
    compare,
    compare_game,
    compare_groups,
    compare_values,
    places_of,
)
from polis.games.metropolys.compiled.deal import deal_random
from polis.games.metropolys.compiled.engine import apply
from polis.games.metropolys.compiled.layout import POSITION, S_MOVES, S_RNG
from polis.games.metropolys.compiled.playouts import play, random_games
from polis.games.metropolys.compiled.policy import policy_move
from polis.games.metropolys.compiled.rng import next32
from polis.games.metropolys.compiled.rng import seed as seed_rng
from polis.games.metropolys.compiled.score import score, scratch
from polis.games.metropolys.game import GAME
from polis.games.metropolys.knowledge import MetropolysKnowledge
from polis.games.metropolys.moves import move_of
from polis.games.metropolys.setup import make_setup
from polis.games.metropolys.state import MetropolysState

MODES = st.sampled_from(["family", "expert"])
PLAYERS = st.integers(2, 4)
SEEDS = st.integers(0, 2**40)


@settings(max_examples=60, deadline=None)
@given(mode=MODES, players=PLAYERS, seed=SEEDS)
def test_every_position_matches_the_python_engine(mode: str, players: int, seed: int) -> None:
    counts = compare(mode, players, 2, seed)
    assert counts["games"] == 2 and counts["positions"] > 20


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: str(o.to_json()))
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["family", "expert"])
def test_every_option_set(mode: str, players: int, options: object) -> None:
    assert compare_game(mode, players, 7, options) > 20  # type: ignore[arg-type]


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_expert_card_groups_match_the_python_scorer(seed: int) -> None:
    assert compare_groups(seed, 100) == 100 * 5 * 2


def _compiled_game(mode: str, players: int, seed: int) -> tuple[np.ndarray, list[int]]:
    """A set-up dealt and a game played by the compiled random policy: the row, the moves."""
    row = new_row(mode, players, seed=seed)
    deal_random(row)
    record = np.full(2000, -1, np.int64)
    played = play(row, record, False)
    assert 0 < played == row[S_MOVES] <= record.shape[0]
    return row, record[:played].tolist()


@settings(max_examples=40, deadline=None)
@given(mode=MODES, players=PLAYERS, seed=SEEDS)
def test_compiled_random_games_replay_in_python(mode: str, players: int, seed: int) -> None:
    """The compiled deal is a valid set-up, the compiled policy plays only legal moves, and
    the Python engine reaches the same final position and result from them."""
    row, moves = _compiled_game(mode, players, seed)
    setup, options = setup_of_row(row)
    assert make_setup(mode, players, None, setup.to_json()) == setup  # type: ignore[arg-type]
    state = MetropolysState(setup, options)
    for action in moves:
        assert not state.is_terminal()
        state.apply(move_of(action))  # raises on an illegal move
    assert state.is_terminal()
    assert np.array_equal(to_row(state)[POSITION], row[POSITION])
    totals, places = np.zeros(4, np.int64), np.zeros(4, np.int64)
    score(row, totals, places, scratch())
    result = state.result()
    assert totals[:players].tolist() == list(result.scores)
    assert places[:players].tolist() == places_of(result.ranking, players)


def test_random_games_are_seeded_and_play_whole_games() -> None:
    moves, checksum = random_games("family", 4, 50, 3)
    assert (moves, checksum) == random_games("family", 4, 50, 3)
    assert random_games("family", 4, 50, 4) != (moves, checksum)
    assert 100 * 50 < moves < 200 * 50  # about 141 moves a game, as the C yardstick plays
    for mode in ("family", "expert"):
        for players in (2, 3):
            assert random_games(mode, players, 20, 5)[0] > 0
    with pytest.raises(ValueError):
        random_games("classic", 4, 1, 1)
    with pytest.raises(ValueError):
        random_games("family", 5, 1, 1)


def test_a_row_copy_replays_the_same_randomness() -> None:
    row = new_row("expert", 3, seed=11)
    twin = row.copy()
    deal_random(row)
    deal_random(twin)
    assert np.array_equal(row, twin)
    play(row, np.zeros(0, np.int64), False)
    play(twin, np.zeros(0, np.int64), False)
    assert np.array_equal(row, twin)


@settings(max_examples=6, deadline=None)
@given(mode=MODES, players=PLAYERS, seed=SEEDS)
def test_playout_values_match_the_bots_policy(mode: str, players: int, seed: int) -> None:
    """The compiled playout policy values every legal move of random positions exactly as
    the bots' Python policy does."""
    assert compare_values(mode, players, 1, seed) > 1000


def _frequencies(picks: list[int]) -> dict[int, float]:
    return {m: picks.count(m) / len(picks) for m in set(picks)}


@pytest.mark.parametrize("mode", ["family", "expert"])
def test_playout_moves_follow_the_bots_distribution(mode: str) -> None:
    """At raise decisions the compiled policy chooses with the Python policy's frequencies
    (total variation distance small against the sampling noise of 6000 draws each)."""
    knowledge = MetropolysKnowledge(GAME)
    rng = random.Random(5)
    state = GAME.new_game(mode, 3, seed=5)
    tested = 0
    while tested < 4:
        state.apply(state.random_move(rng))
        if not state.bids or len(state.legal_moves()) < 3:
            continue
        python = _frequencies([knowledge.playout_move(state, rng).id for _ in range(6000)])
        row = to_row(state)
        seed_rng(row, tested + 1)
        compiled = _frequencies([int(policy_move(row)) for _ in range(6000)])
        distance = sum(abs(python.get(m, 0) - compiled.get(m, 0)) for m in {*python, *compiled})
        assert distance / 2 < 0.05, (state.history, python, compiled)
        tested += 1


@settings(max_examples=20, deadline=None)
@given(mode=MODES, players=PLAYERS, seed=SEEDS)
def test_compiled_playouts_replay_in_python(mode: str, players: int, seed: int) -> None:
    row = new_row(mode, players, seed=seed)
    deal_random(row)
    record = np.full(2000, -1, np.int64)
    played = play(row, record, True)
    assert 0 < played <= record.shape[0]
    setup, options = setup_of_row(row)
    state = MetropolysState(setup, options)
    for action in record[:played].tolist():
        state.apply(move_of(action))
    assert state.is_terminal()
    assert np.array_equal(to_row(state)[POSITION], row[POSITION])


def test_random_deals_are_uniform() -> None:
    """The compiled deal draws each chance outcome uniformly: the unused pair (2p), the
    first player, each seat's cards and which allowed fields get a token (R13, R19)."""
    deals = 4000
    row = new_row("expert", 2, seed=17)
    unused: dict[tuple[str, ...], int] = {}
    first = area = colour = 0
    token_fields = np.zeros(NUM_FIELDS)
    for _ in range(deals):
        deal_random(row)
        setup, _ = setup_of_row(row)
        unused[setup.unused] = unused.get(setup.unused, 0) + 1
        first += setup.first_player
        area += setup.area_cards[1] == "chains"
        colour += setup.neighbourhood_cards == ("gray", "blue")
        token_fields += np.array(setup.tokens) > 0
    assert len(unused) == 4 and all(abs(c / deals - 1 / 4) < 0.04 for c in unused.values())
    assert abs(first / deals - 1 / 2) < 0.04
    assert abs(area / deals - 1 / 5) < 0.03
    assert abs(colour / deals - 1 / 20) < 0.015
    share = token_fields / deals
    center = TOKEN_FIELDS[0]
    assert all(abs(share[f] - 7 / len(center)) < 0.05 for f in center)
    assert all(share[f] == 0 for f in DEAD_ENDS)


class SameDraws(random.Random):
    """A Python generator whose ``random()`` is the next draw of a row's generator over
    2**32: the Python policy fed it sees the uniforms the compiled one draws."""

    def __init__(self, row: np.ndarray) -> None:
        super().__init__()
        self.row = row

    def random(self) -> float:
        return int(next32(self.row)) / 2**32


@settings(max_examples=12, deadline=None)
@given(mode=MODES, players=PLAYERS, seed=SEEDS)
def test_playouts_are_the_bots_playouts_draw_for_draw(mode: str, players: int, seed: int) -> None:
    """Given the same uniforms, the compiled policy plays the Python policy's very moves
    through whole games, and uses as many draws for each."""
    knowledge = MetropolysKnowledge(GAME)
    state = GAME.new_game(mode, players, seed=seed)
    row = to_row(state)
    seed_rng(row, seed)
    draws = SameDraws(row.copy())
    while not state.is_terminal():
        want = knowledge.playout_move(state, draws).id
        got = int(policy_move(row))
        assert got == want, (state.history, got, want)
        assert np.array_equal(row[S_RNG:], draws.row[S_RNG:])
        state.apply(move_of(want))
        assert apply(row, got)
    assert np.array_equal(to_row(state)[POSITION], row[POSITION])
