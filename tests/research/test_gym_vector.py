"""The Gymnasium vector environment: spaces, rows equal to the single-table encoding, bots as
opponents, same-step auto-reset, reproducible seeding, illegal actions."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from polis.core.errors import InputError
from polis.core.registry import get_game
from polis.research.gym_vector import PolisVectorEnv
from polis.research.observations import encoder
from research.helpers import CONFIGS


def pick(mask: np.ndarray[Any, Any], rng: random.Random) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(len(legal))])


def episode_log(env: PolisVectorEnv, seed: int, steps: int) -> list[bytes]:
    obs, _ = env.reset(seed=seed)
    rng = random.Random(seed)
    out = [obs["observation"].tobytes()]
    for _ in range(steps):
        actions = np.array([pick(m, rng) for m in obs["action_mask"]])
        obs, rewards, term, _, _ = env.step(actions)
        out.append(obs["observation"].tobytes() + rewards.tobytes() + term.tobytes())
    return out


@pytest.mark.parametrize(("game", "mode", "players"), CONFIGS)
def test_rows_spaces_and_autoreset(game: str, mode: str, players: int) -> None:
    env = PolisVectorEnv(game, mode, players, num_envs=3, seat=None, opponents="random")
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    enc = encoder(get_game(game), mode, players)
    obs, info = env.reset(seed=1)
    assert obs in env.observation_space and info == {}
    rng = random.Random(0)
    finished = 0
    for _ in range(120):
        for i, state in enumerate(env.states):
            seat = env.seats[i]
            assert state.current_player() == seat  # the bots moved until the learner's turn
            assert np.array_equal(obs["observation"][i], enc.encode(state.view(seat)))
            assert np.flatnonzero(obs["action_mask"][i]).tolist() == sorted(
                state.legal_moves().ids()
            )
        assert np.array_equal(env.action_masks(), obs["action_mask"])
        before = [s.clone() for s in env.states]
        actions = np.array([pick(m, rng) for m in obs["action_mask"]])
        obs, rewards, term, trunc, info = env.step(actions)
        assert obs in env.observation_space and not trunc.any()
        for i in np.flatnonzero(term):
            finished += 1
            final = info["final_obs"][i]
            assert info["_final_obs"][i] and final["observation"].shape == (enc.size,)
            assert 0.0 <= rewards[i] <= 1.0
            assert len(env.states[i].history) <= len(before[i].history) + players
        assert not rewards[~term].any()
    assert finished > 3


def test_same_seed_same_run_with_bots() -> None:
    make = lambda: PolisVectorEnv("metropolys", "expert", 3, num_envs=2, opponents="greedy")  # noqa: E731
    a, b = episode_log(make(), 4, 60), episode_log(make(), 4, 60)
    c = episode_log(make(), 5, 60)
    assert a == b and a != c


def test_seats_are_drawn_per_game_when_not_fixed() -> None:
    env = PolisVectorEnv("quadropolis", "classic", 2, num_envs=8, seat=None)
    env.reset(seed=0)
    assert set(env.seats) == {0, 1}
    env = PolisVectorEnv("quadropolis", "classic", 2, num_envs=4, seat=1)
    env.reset(seed=0)
    assert set(env.seats) == {1}


def test_an_illegal_action_ends_that_table_only() -> None:
    env = PolisVectorEnv("quadropolis", "expert", 2, num_envs=2, illegal_reward=-5.0)
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
    legal = int(np.flatnonzero(obs["action_mask"][1])[0])
    before = env.states[1].clone()
    _, rewards, term, _, info = env.step(np.array([illegal, legal]))
    assert term.tolist() == [True, False] and rewards[0] == -5.0
    assert info["illegal_move"][0] and info["_illegal_move"].tolist() == [True, False]
    assert len(env.states[0].history) <= 1  # table 0 started its next game
    assert len(env.states[1].history) > len(before.history)


def test_bad_configuration_is_an_input_error() -> None:
    with pytest.raises(InputError):
        PolisVectorEnv("metropolys", "family", 3, opponents=["random"])
    with pytest.raises(InputError):
        PolisVectorEnv("metropolys", "family", 2, seat=2)
    with pytest.raises(InputError):
        PolisVectorEnv("metropolys", "family", 2, num_envs=0)
    with pytest.raises(InputError):
        PolisVectorEnv("metropolys", "family", 2, opponents="grandmaster")


def test_make_vec_builds_the_vector_env_from_the_registered_id() -> None:
    import gymnasium as gym

    import polis.research.gym_env  # noqa: F401  (registers the ids)

    env = gym.make_vec("polis/Metropolys-v0", num_envs=4, players=3, opponents="random")
    assert isinstance(env, PolisVectorEnv) and env.num_envs == 4 and env.players == 3
    obs, _ = env.reset(seed=1)
    assert obs["observation"].shape == (4, env.encoder.size)
