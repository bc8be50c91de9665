"""The training example runs: a few hundred MaskablePPO steps on each game, then 50
evaluation games whose win rate comes with its 95% interval (the CI version of
``examples/train_maskable_ppo.py --smoke``; skipped without sb3-contrib)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

#: Training runs: not in ``make check``.
pytestmark = pytest.mark.slow

pytest.importorskip("sb3_contrib")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("game", "mode"), [("metropolys", "family"), ("quadropolis", "classic")])
def test_a_few_hundred_steps_train_and_play(game: str, mode: str) -> None:
    import torch

    torch.set_num_threads(1)
    ex = example()
    model = ex.train(
        game,
        mode,
        2,
        steps=256,
        envs=2,
        n_steps=64,
        seed=0,
        minutes=2.0,
        reward="margin",
        scale=0.1,
        normalize=True,
    )
    assert model.num_timesteps >= 256
    result = ex.evaluate(model, game, mode, 2, "random", games=ex.SMOKE_GAMES, seed=1)
    assert result["games"] == ex.SMOKE_GAMES >= 50 and 0.0 <= result["win_share"] <= 1.0
    # every rate with its 95% interval (Wilson's), narrow enough to tell something
    for key in ("win_rate", "win_share"):
        low, high = result[f"{key}_95"]
        assert low <= result[key] <= high and high - low < 0.3
    # The masks reach the policy: its moves are always legal.
    env = ex.make_env(game, mode, 2, 2, "random", 5)
    obs = env.reset()
    for _ in range(30):
        masks = env.action_masks()
        seen = ex.observations(model)(obs)
        actions, _ = model.predict(seen, action_masks=masks, deterministic=False)
        assert all(masks[i, a] for i, a in enumerate(actions))
        obs, _, dones, infos = env.step(np.asarray(actions))
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == obs[i].shape
