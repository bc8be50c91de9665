"""The compiled batch (:class:`~polis.research.compiled_batch.CompiledBatchEnv`) against the
Python engine: every table's games replayed on the Python engine from the deal its row holds,
and every observation, mask, player to move, reward and termination the batch returned held
equal to the Python encoder's (``encode_state``, ``legal_mask``: the byte-table path, not the
kernels the batch reuses) and to ``final_rewards`` of the Python result."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from polis.core.errors import IllegalMove, InputError, PolisError
from polis.core.protocol import GameState
from polis.research.compiled_batch import CompiledBatchEnv
from polis.research.session import final_rewards

#: (game, mode, players, options, reward, steps): every mode and player count, both rewards.
TABLES: list[Table] = [
    ("metropolys", mode, players, None, reward, 300)
    for mode in ("family", "expert")
    for players, reward in ((2, "win_share"), (3, "margin"), (4, "win_share"))
] + [
    ("quadropolis", mode, players, None, reward, 130)
    for mode in ("classic", "expert")
    for players, reward in ((2, "margin"), (3, "win_share"), (4, "margin"))
]
OPTIONS: list[Table] = [
    ("metropolys", "expert", 2, {"lake_groups": "per_three"}, "margin", 300),
    ("metropolys", "family", 3, {"field_51_outskirts": False}, "win_share", 300),
    ("quadropolis", "classic", 2, {"face_down_tiles": "unselectable"}, "win_share", 130),
    ("quadropolis", "expert", 3, {"face_down_tiles": "unselectable"}, "margin", 130),
]

Seen = tuple[Any, Any, int]
Table = tuple[str, str, int, Any, str, int]


def start_of(env: CompiledBatchEnv, row: Any) -> GameState:
    """The Python state at the start of the game ``row`` was dealt (its set-up from the row;
    a Quadropolis row holds the layouts of the rounds drawn so far, enough for its moves)."""
    if env.game.name == "metropolys":
        from polis.games.metropolys.compiled.bridge import setup_of_row
        from polis.games.metropolys.state import MetropolysState

        setup, options = setup_of_row(row)
        return MetropolysState(setup, options)
    from polis.games.quadropolis.compiled.bridge import setup_of
    from polis.games.quadropolis.options import parse_options
    from polis.games.quadropolis.state import QuadropolisState

    return QuadropolisState(setup_of(row), parse_options(env.options))


def replay(
    env: CompiledBatchEnv, row: Any, seen: list[Seen], moves: list[int], rewards: Any
) -> int:
    """Replay one table's game on the Python engine and hold every position the batch showed
    to it (``rewards``: the batch's at the end, or None for a game still running); the number
    of positions compared."""
    state = start_of(env, row)
    enc = env.encoder
    space = env.game.action_space(env.mode).moves
    for j, (obs, mask, seat) in enumerate(seen):
        assert state.current_player() == seat, f"position {j}: player to move"
        np.testing.assert_array_equal(obs, enc.encode_state(state, seat), f"position {j}: obs")
        np.testing.assert_array_equal(mask, enc.legal_mask(state), f"position {j}: mask")
        if j < len(moves):
            state.apply(space[moves[j]])
    if rewards is None:
        assert len(moves) == len(seen) - 1 and not state.is_terminal()
    else:
        assert len(moves) == len(seen) and state.is_terminal()
        expected = final_rewards(state.result(), env.reward)
        np.testing.assert_array_equal(rewards, np.array(expected, np.float32))
    return len(seen)


def follow(env: CompiledBatchEnv, steps: int, seed: int) -> tuple[int, int]:
    """Play ``steps`` random steps and compare every table's games; (games finished and
    compared, positions compared)."""
    rng = random.Random(seed)
    batch = env.reset()
    n = env.num_envs
    seen: list[list[Seen]] = [[] for _ in range(n)]
    moves: list[list[int]] = [[] for _ in range(n)]

    def note(i: int) -> None:
        seat = int(batch.current_player[i])
        seen[i].append((batch.observation[i].copy(), batch.action_mask[i].copy(), seat))

    for i in range(n):
        note(i)
    games = positions = 0
    for _ in range(steps):
        before = env.rows.copy()
        actions = env.random_actions(rng)
        batch = env.step(actions)
        assert batch.observation.shape == (n, env.obs_size)
        assert batch.action_mask.dtype == np.int8
        for i in range(n):
            moves[i].append(int(actions[i]))
            if batch.terminated[i]:
                positions += replay(env, before[i], seen[i], moves[i], batch.rewards[i])
                games += 1
                seen[i], moves[i] = [], []
            else:
                assert not batch.rewards[i].any()
            note(i)
    for i in range(n):
        positions += replay(env, env.rows[i], seen[i], moves[i], None)
    return games, positions


@pytest.mark.parametrize(
    ("game", "mode", "players", "options", "reward", "steps"), TABLES + OPTIONS
)
def test_every_table_kind_is_the_python_engine_encoded(
    game: str, mode: str, players: int, options: Any, reward: str, steps: int
) -> None:
    """Well under a second each with a warm numba cache: 6 tables, every table finishing
    one game at least and most two."""
    env = CompiledBatchEnv(game, mode, players, 6, reward=reward, options=options, seed=7)
    games, positions = follow(env, steps, 2)
    assert games >= 6 and positions == 6 * (steps + 1)


@pytest.mark.parametrize("game", ["metropolys", "quadropolis"])
def test_quadropolis_and_metropolys_default_tables(game: str) -> None:
    """The default mode, 2 players: many tables, finished games compared (the fast check)."""
    env = CompiledBatchEnv(game, None, 2, 6, reward="margin", seed=11)
    games, _ = follow(env, 100, 3)
    assert games >= 6


@pytest.mark.parametrize("game", ["metropolys", "quadropolis"])
def test_seeded_runs_repeat_and_reuse_gives_the_same_numbers(game: str) -> None:
    def run(seed: int, reuse: bool) -> list[np.ndarray]:
        env = CompiledBatchEnv(game, None, 2, 5, seed=seed, reuse=reuse)
        rng = np.random.default_rng(0)
        out: list[np.ndarray] = []
        batch = env.reset()
        for _ in range(60):
            out += [batch.observation.copy(), batch.action_mask.copy(), batch.rewards.copy()]
            batch = env.step(env.random_actions(rng))
        return out

    first = run(3, False)
    assert all(np.array_equal(a, b) for a, b in zip(first, run(3, True), strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, run(4, False), strict=True))


@pytest.mark.parametrize("game", ["metropolys", "quadropolis"])
def test_without_observations_the_rest_is_the_same(game: str) -> None:
    full = CompiledBatchEnv(game, None, 2, 5, seed=3)
    bare = CompiledBatchEnv(game, None, 2, 5, seed=3, observe=False)
    a, b = full.reset(), bare.reset()
    for _ in range(80):
        assert b.observation.shape == (5, 0)
        for name in ("action_mask", "current_player", "rewards", "terminated"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name
        actions = full.random_actions(random.Random(len(full.rows)))
        a, b = full.step(actions), bare.step(actions)


@pytest.mark.parametrize("game", ["metropolys", "quadropolis"])
def test_bad_actions_are_refused_before_any_table_moves(game: str) -> None:
    env = CompiledBatchEnv(game, None, 2, 4, seed=1)
    batch = env.reset()
    rows = env.rows.copy()
    actions = env.random_actions(random.Random(0))
    illegal = int(np.flatnonzero(batch.action_mask[2] == 0)[0])
    for bad, error in ((illegal, IllegalMove), (env.num_actions, InputError), (-1, InputError)):
        wrong = actions.copy()
        wrong[2] = bad
        with pytest.raises(error, match="table 2"):
            env.step(wrong)
        assert np.array_equal(env.rows, rows)
    with pytest.raises(InputError):
        env.step(actions[:3])
    with pytest.raises(InputError):
        env.step(actions.astype(np.float64))
    env.step(actions)  # the last batch still stands
    assert not np.array_equal(env.rows, rows)


def test_tables_before_reset() -> None:
    env = CompiledBatchEnv("metropolys", None, 2, 2)
    with pytest.raises(PolisError):
        env.step([0, 0])
    with pytest.raises(PolisError):
        env.random_actions(random.Random(0))


@pytest.mark.parametrize("game", ["metropolys", "quadropolis"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_players_tied_first_share_the_win(game: str, players: int) -> None:
    """Random games seldom tie; a game scored as dealt ties every player (nothing built)."""
    env = CompiledBatchEnv(game, None, players, 1, seed=2)
    env.reset()
    row = env.rows[0]
    totals, places = np.zeros(4, np.int64), np.zeros(4, np.int64)
    out = np.zeros(players, np.float32)
    if game == "metropolys":
        from polis.games.metropolys.compiled import observe as metropolys

        work = np.zeros((3, metropolys.WORK), np.int64)
        metropolys.final_rewards(row, metropolys.WIN_SHARE, out, totals, places, work)
        assert out.tolist() == [np.float32(1 / players)] * players
        metropolys.final_rewards(row, metropolys.MARGIN, out, totals, places, work)
    else:
        from polis.games.quadropolis.compiled import observe as quadropolis

        quadropolis.final_rewards(row, quadropolis.WIN_SHARE, out, totals, places)
        assert out.tolist() == [np.float32(1 / players)] * players
        quadropolis.final_rewards(row, quadropolis.MARGIN, out, totals, places)
    assert out.tolist() == [0.0] * players


@pytest.mark.parametrize("game", ["metropolys", "quadropolis"])
def test_the_draws_are_those_of_the_python_batch(game: str) -> None:
    """The draw from the kept counts picks what ``pick_rows`` picks from the masks alone
    (the draw of :meth:`BatchEnv.random_actions`), position after position."""
    from polis.research.batch_kernels import pick_rows

    env = CompiledBatchEnv(game, None, 3, 7, seed=4)
    batch = env.reset()
    for step in range(60):
        expected = np.empty(7, np.int64)
        draws = np.random.default_rng(step).random(7)
        assert pick_rows(batch.action_mask.view(np.uint8), draws, expected) == -1
        picked = env.random_actions(np.random.default_rng(step))
        assert picked.tolist() == expected.tolist()
        batch = env.step(picked)
