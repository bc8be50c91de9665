"""The Gymnasium single-seat environment: Gymnasium's checker, bots as opponents, rules."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from polis.core.errors import InputError
from polis.core.registry import games
from polis.research.gym_env import PolisGymEnv, env_id, register_envs
from research.helpers import CONFIGS


@pytest.mark.parametrize(("game", "mode", "players"), CONFIGS)
def test_gymnasium_check_env(game: str, mode: str, players: int) -> None:
    check_env(PolisGymEnv(game, mode, players, opponents="random"), skip_render_check=False)


def test_check_env_through_the_registry_with_greedy_opponents() -> None:
    env = gym.make("polis/Metropolys-v0", mode="expert", players=3, opponents="greedy")
    check_env(env.unwrapped)
    env = gym.make(
        "polis/Quadropolis-v0", mode="classic", players=2, opponents="easy", render_mode="ansi"
    )
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.strip()


def test_an_env_id_for_every_registered_game_from_its_title() -> None:
    ids = register_envs()
    assert {"polis/Quadropolis-v0", "polis/Metropolys-v0"} <= set(ids)
    for game in games().values():
        if "observation" in game.plugins:
            assert env_id(game) in ids and env_id(game) in gym.registry
    env = gym.make("polis/Metropolys-v0", players=2, opponents="random")  # the default mode
    assert env.unwrapped.session.mode == games()["metropolys"].default_mode


def episode(env: PolisGymEnv, seed: int) -> tuple[list[bytes], float]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = [obs["observation"].tobytes()]
    total = 0.0
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, trunc, info = env.step(action)
        assert not trunc and "illegal_move" not in info
        seen.append(obs["observation"].tobytes())
        total += reward
    return seen, total


@pytest.mark.parametrize(("game", "mode", "players"), CONFIGS)
def test_same_seed_same_episode_against_bots(game: str, mode: str, players: int) -> None:
    env = PolisGymEnv(game, mode, players, seat=players - 1, opponents="greedy")
    a, ra = episode(env, 11)
    b, rb = episode(env, 11)
    assert a == b and ra == rb
    assert 0.0 <= ra <= 1.0
    state = env.session.state
    assert state is not None and state.is_terminal()
    assert ra == state.result().win_shares()[players - 1]


def test_illegal_action_ends_the_episode_without_changing_the_game() -> None:
    env = PolisGymEnv("quadropolis", "expert", 2, opponents="random", illegal_reward=-5.0)
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.session.state.view(None)  # type: ignore[union-attr]
    _, reward, done, trunc, info = env.step(illegal)
    assert done and not trunc and reward == -5.0
    assert info["illegal_move"]
    assert env.session.state.view(None) == before  # type: ignore[union-attr]


def test_opponents_by_name_and_level() -> None:
    env = PolisGymEnv("metropolys", "family", 4, opponents=["random", "easy", "greedy"])
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"].sum() > 0
    with pytest.raises(InputError):
        PolisGymEnv("metropolys", "family", 3, opponents="grandmaster")
    with pytest.raises(InputError):
        PolisGymEnv("metropolys", "family", 3, opponents=["random"])
    with pytest.raises(InputError):
        PolisGymEnv("metropolys", "family", 3, seat=3)
