"""The batched self-play API: arrays of the documented shapes, the same numbers as one table
at a time, auto-reset with the final rewards, reproducible seeding per table."""

from __future__ import annotations

import random

import numpy as np
import pytest

from polis.core.errors import IllegalMove, InputError, PolisError
from polis.core.match import derive_seed
from polis.core.registry import get_game
from polis.research.batch import Batch, BatchEnv
from polis.research.observations import encoder
from polis.research.session import final_rewards
from research.helpers import CONFIGS


def run(env: BatchEnv, steps: int, seed: int) -> list[Batch]:
    rng = random.Random(seed)
    out = [env.reset(seed=seed)]
    for _ in range(steps):
        out.append(env.step(env.random_actions(rng)))
    return out


def same(a: Batch, b: Batch) -> bool:
    return all(
        np.array_equal(getattr(a, k), getattr(b, k))
        for k in ("observation", "action_mask", "current_player", "rewards", "terminated")
    )


@pytest.mark.parametrize(("game", "mode", "players"), CONFIGS)
def test_rows_are_the_tables_seen_one_at_a_time(game: str, mode: str, players: int) -> None:
    env = BatchEnv(game, mode, players, num_envs=5, seed=3)
    enc = encoder(get_game(game), mode, players)
    batch = env.reset()
    rng = random.Random(0)
    ended = 0
    for _ in range(160):
        assert batch.observation.shape == (5, env.obs_size)
        assert batch.observation.dtype == np.float32
        assert batch.action_mask.shape == (5, env.num_actions)
        assert batch.action_mask.dtype == np.int8
        assert batch.rewards.shape == (5, players) and batch.terminated.shape == (5,)
        for i, state in enumerate(env.states):
            p = state.current_player()
            assert batch.current_player[i] == p
            assert np.array_equal(batch.observation[i], enc.encode(state.view(p)))
            assert batch.action_mask[i].nonzero()[0].tolist() == sorted(state.legal_moves().ids())
        before = [s.clone() for s in env.states]
        actions = env.random_actions(rng)
        batch = env.step(actions)
        for i, state in enumerate(before):
            state.apply(env.space[actions[i]])
            if state.is_terminal():  # the finished game's rewards; the row is the next game
                ended += 1
                assert batch.terminated[i]
                expected = final_rewards(state.result(), "win_share")
                assert batch.rewards[i].tolist() == pytest.approx(expected)
                assert sum(batch.rewards[i]) == pytest.approx(1.0)
                assert len(env.states[i].history) == 0
            else:
                assert not batch.terminated[i] and not batch.rewards[i].any()
                assert list(env.states[i].history) == list(state.history)
    assert ended >= 5  # every table finished games on the way


@pytest.mark.parametrize(("game", "mode", "players"), CONFIGS[::3])
def test_seeded_runs_are_reproducible_and_tables_independent(
    game: str, mode: str, players: int
) -> None:
    a = run(BatchEnv(game, mode, players, num_envs=3), 120, seed=5)
    b = run(BatchEnv(game, mode, players, num_envs=3), 120, seed=5)
    c = run(BatchEnv(game, mode, players, num_envs=3), 120, seed=6)
    assert all(same(x, y) for x, y in zip(a, b, strict=True))
    assert not all(same(x, y) for x, y in zip(a, c, strict=True))
    # Table i's g-th game is dealt from derive_seed(seed, "table", i, g), whatever the batch.
    env = BatchEnv(game, mode, players, num_envs=2, seed=9)
    env.reset()
    alone = get_game(game).new_game(mode, players, seed=derive_seed(9, "table", 1, 0))
    assert env.states[1].setup() == alone.setup()


def test_a_masked_out_action_raises_and_bad_input_is_refused() -> None:
    env = BatchEnv("metropolys", "family", 2, num_envs=2, seed=1)
    batch = env.reset()
    illegal = int(np.flatnonzero(batch.action_mask[0] == 0)[0])
    legal = int(np.flatnonzero(batch.action_mask[1])[0])
    with pytest.raises(IllegalMove):
        env.step([illegal, legal])
    with pytest.raises(InputError):
        env.step([legal])
    before = [s.clone() for s in env.states]
    for bad in ([legal, 10_000], [legal, -1], [float(legal), 0.0], [[legal, legal]]):
        with pytest.raises(InputError):
            env.step(bad)
        # refused before any table moved
        assert [s.history for s in env.states] == [s.history for s in before]
    with pytest.raises(InputError):
        BatchEnv("metropolys", "family", 2, num_envs=0)
    with pytest.raises(InputError):
        BatchEnv("metropolys", "family", 2, reward="points")
    with pytest.raises(PolisError):
        BatchEnv("metropolys", "family", 2).step([0] * 16)


def test_options_and_margin_rewards_reach_every_table() -> None:
    env = BatchEnv(
        "quadropolis",
        "classic",
        2,
        num_envs=3,
        seed=2,
        reward="margin",
        options={"face_down_tiles": "unselectable"},
    )
    env.reset()
    assert all(s.options()["face_down_tiles"] == "unselectable" for s in env.states)
    rng = random.Random(1)
    for _ in range(40):
        before = [s.clone() for s in env.states]
        actions = env.random_actions(rng)
        batch = env.step(actions)
        for i, state in enumerate(before):
            state.apply(env.space[actions[i]])
            if state.is_terminal():
                scores = state.result().scores
                assert batch.rewards[i, 0] == scores[0] - scores[1]


@pytest.mark.parametrize(("game", "mode", "players"), CONFIGS)
def test_random_actions_are_the_drawn_legal_ids(game: str, mode: str, players: int) -> None:
    """Row i gets its int(random() * count)-th legal id, one draw per row in row order."""
    env = BatchEnv(game, mode, players, num_envs=6, seed=4)
    batch = env.reset()
    rng, ref = random.Random(9), random.Random(9)
    for _ in range(40):
        actions = env.random_actions(rng)
        expected = []
        for row in batch.action_mask:
            legal = np.flatnonzero(row)
            expected.append(int(legal[int(ref.random() * len(legal))]))
        assert actions == expected
        batch = env.step(actions)


def test_random_actions_name_a_table_without_legal_actions() -> None:
    """A mask row with no legal id is an error naming its table, not an arbitrary id."""
    env = BatchEnv("metropolys", "family", 2, num_envs=4, seed=1)
    batch = env.reset()
    batch.action_mask[2] = 0
    with pytest.raises(PolisError, match="table 2 "):
        env.random_actions(random.Random(0))


def test_tables_must_hold_states_of_one_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """step() maps one state class's methods over every table, so a deal of another class is
    refused at once (not played with the wrong methods)."""
    from polis.games.metropolys.state import MetropolysState

    class Other(MetropolysState):
        __slots__ = ()

    env = BatchEnv("metropolys", "family", 2, num_envs=3, seed=1)
    deal = env.game.new_game
    dealt: list[int] = []

    def new_game(*args: object, **kwargs: object) -> MetropolysState:
        state = deal(*args, **kwargs)  # type: ignore[arg-type]
        dealt.append(1)
        if len(dealt) == 2:
            state.__class__ = Other
        return state  # type: ignore[return-value]

    monkeypatch.setattr(env.game, "new_game", new_game)
    with pytest.raises(PolisError, match="one class"):
        env.reset()
