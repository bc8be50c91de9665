"""PettingZoo AEC environments: PettingZoo's own API and seed tests, reproducibility, rules."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from polis.core.errors import IllegalMove, InputError
from polis.research.pettingzoo_env import PolisAECEnv, PolisParallelEnv
from research.helpers import CONFIGS


@pytest.mark.parametrize(("game", "mode", "players"), CONFIGS)
def test_pettingzoo_api_test(game: str, mode: str, players: int) -> None:
    api_test(PolisAECEnv(game, mode, players), num_cycles=60)


@pytest.mark.parametrize(("game", "mode", "players"), CONFIGS)
def test_pettingzoo_seed_test(game: str, mode: str, players: int) -> None:
    seed_test(lambda: PolisAECEnv(game, mode, players), num_cycles=60)


def play(env: PolisAECEnv, seed: int, policy_seed: int) -> list[tuple[str, bytes, float]]:
    """A full masked-random game: (agent, observation bytes, reward) at every step."""
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    out = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        out.append((agent, obs["observation"].tobytes() + obs["action_mask"].tobytes(), reward))
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return out


@pytest.mark.parametrize(("game", "mode", "players"), CONFIGS)
def test_same_seed_same_trajectory(game: str, mode: str, players: int) -> None:
    a = play(PolisAECEnv(game, mode, players), seed=5, policy_seed=1)
    b = play(PolisAECEnv(game, mode, players), seed=5, policy_seed=1)
    c = play(PolisAECEnv(game, mode, players), seed=6, policy_seed=1)
    assert a == b
    assert a != c
    finals = [r for _, _, r in a[-players:]]
    assert sum(finals) == pytest.approx(1.0)  # win shares are handed out once, at the end


def test_reset_without_seed_continues_the_seeded_stream() -> None:
    env = PolisAECEnv("metropolys", "family", 2)
    env.reset(seed=3)
    first = env.session.state.setup()  # type: ignore[union-attr]
    env.reset()
    second = env.session.state.setup()  # type: ignore[union-attr]
    env.reset(seed=3)
    assert env.session.state.setup() == first  # type: ignore[union-attr]
    env.reset()
    assert env.session.state.setup() == second  # type: ignore[union-attr]


def test_masked_out_action_is_refused_with_the_rule() -> None:
    env = PolisAECEnv("metropolys", "family", 2)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.session.state.view(None)  # type: ignore[union-attr]
    with pytest.raises(IllegalMove) as err:
        env.step(illegal)
    assert str(err.value)  # a rulebook message, not a traceback
    assert env.session.state.view(None) == before  # type: ignore[union-attr]


def test_only_the_acting_agent_has_a_mask() -> None:
    env = PolisAECEnv("quadropolis", "classic", 3)
    env.reset(seed=2)
    acting = env.agent_selection
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == acting)


def test_margin_rewards_and_explicit_setup() -> None:
    env = PolisAECEnv("metropolys", "expert", 3, reward="margin")
    env.reset(seed=4)
    setup = env.session.state.setup()  # type: ignore[union-attr]
    rewards = {}
    rng = np.random.default_rng(0)
    env.reset(options={"setup": setup})
    assert env.session.state.setup() == setup  # type: ignore[union-attr]
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        rewards[agent] = reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    scores = env.session.state.result().scores  # type: ignore[union-attr]
    for p, s in enumerate(scores):
        best_other = max(o for q, o in enumerate(scores) if q != p)
        assert rewards[f"player_{p}"] == s - best_other


def test_bad_configuration_is_an_input_error() -> None:
    with pytest.raises(InputError):
        PolisAECEnv("metropolys", "classic", 2)
    with pytest.raises(InputError):
        PolisAECEnv("quadropolis", "classic", 5)
    with pytest.raises(InputError):
        PolisAECEnv("quadropolis", "classic", 2, reward="points")


@pytest.mark.parametrize(("game", "mode", "players"), CONFIGS)
def test_parallel_api_and_seed_tests(game: str, mode: str, players: int) -> None:
    parallel_api_test(PolisParallelEnv(game, mode, players), num_cycles=60)
    parallel_seed_test(lambda: PolisParallelEnv(game, mode, players), num_cycles=60)


def play_parallel(env: PolisParallelEnv, seed: int) -> list[bytes]:
    """A full masked-random game through the parallel API: every agent's data each step."""
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    while env.agents:
        masks = {a: o["action_mask"] for a, o in obs.items()}
        movers = [a for a, m in masks.items() if m.any()]
        assert len(movers) == 1  # one agent acts per step: the others' masks are empty
        actions = {a: int(rng.choice(np.flatnonzero(masks[movers[0]]))) for a in movers}
        actions.update({a: 0 for a in env.agents if a not in movers})  # ignored
        obs, rewards, terms, truncs, _ = env.step(actions)
        out.append(b"".join(o["observation"].tobytes() for o in obs.values()))
        assert not any(truncs.values())
        if any(terms.values()):
            assert all(terms.values()) and sum(rewards.values()) == pytest.approx(1.0)
    return out


def test_parallel_games_match_the_aec_env_and_are_reproducible() -> None:
    a = play_parallel(PolisParallelEnv("quadropolis", "classic", 3), 4)
    b = play_parallel(PolisParallelEnv("quadropolis", "classic", 3), 4)
    assert a == b and len(a) == 4 * 4 * 3  # 4 rounds x 4 turns x 3 players


def test_parallel_illegal_action_ends_the_game_with_the_rule() -> None:
    env = PolisParallelEnv("metropolys", "family", 2, illegal_reward=-2.0)
    obs, _ = env.reset(seed=1)
    mover = next(a for a, o in obs.items() if o["action_mask"].any())
    illegal = int(np.flatnonzero(obs[mover]["action_mask"] == 0)[0])
    _, rewards, terms, _, infos = env.step({mover: illegal})
    assert all(terms.values()) and rewards[mover] == -2.0 and infos[mover]["illegal_move"]
    assert env.agents == []
