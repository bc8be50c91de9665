"""Train an agent on a polis game with sb3-contrib's MaskablePPO, then measure it.

The learner plays one seat (drawn per game) of ``--envs`` tables of the Gymnasium vector
environment (:class:`polis.research.gym_vector.PolisVectorEnv`) against ``--opponent``
bots, with the legal-action mask handed to the policy at every step. It is rewarded at the
end of each game with its score margin over the best opponent times ``--scale`` (a graded
signal learns faster than the bare win; ``--reward win_share`` for that), and sees its
observations standardized by running statistics (``--no-normalize`` to switch off).
Training stops after ``--minutes`` (wall clock, or CPU time with ``--clock cpu``) or
``--steps``; then the deterministic
policy plays ``--games`` games against each of ``--against`` (seats drawn per game), and
its wins (sole first place) and win shares are printed as JSON, each with its 95% interval
(Wilson's: 2 games won out of 2 say only that the rate lies between 0.34 and 1).

    pip install -e '.[rl,rl-train]'
    python examples/train_maskable_ppo.py --game metropolys --mode family --minutes 14
    python examples/train_maskable_ppo.py --game quadropolis --mode classic --minutes 14

``--smoke`` trains a few hundred steps and plays 50 games against random (the check that it
runs; the interval it prints says how little 50 games tell).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnv, VecNormalize

from polis.bots.intervals import wilson
from polis.research.gym_vector import PolisVectorEnv

#: Evaluation games of ``--smoke``: enough for an interval narrower than a coin's guess.
SMOKE_GAMES = 50


def score_margin(state: Any, seat: int) -> float:
    """The seat's score minus the best other score if the game ended now (this example's
    shaping potential; it reads each game's own scorer, so it names the games)."""
    if state.game.name == "quadropolis":
        from polis.games.quadropolis.scoring import score_city

        a10, a14, after = state.rules.scoring
        scores = [
            score_city(
                state.mode,
                state.city(p),
                *state.resources(p),
                playground_absorbs_pollution=a10,
                office_tower_group_cap=a14,
                empty_squares_after_removal=after,
            ).total
            for p in range(state.num_players)
        ]
    elif state.game.name == "metropolys":
        scores = list(state.scores_now())
    else:
        raise ValueError(f"no shaping potential for {state.game.name}")
    return float(scores[seat] - max(s for p, s in enumerate(scores) if p != seat))


class PolisSB3VecEnv(VecEnv):  # type: ignore[misc]
    """Stable-Baselines3's VecEnv over the polis vector env: the policy sees the observation
    vector, MaskablePPO asks ``env_method("action_masks")`` for the masks.

    With ``shaping`` (and ``reward="margin"``), the margin reward is paid as it grows:
    each step's reward is the change of the score margin the game would give if it ended
    now (measured at the learner's next turn, after the opponents' moves), and the last
    step's brings it to the final margin, so a game's rewards add up to its final margin
    less the margin at the learner's first turn (potential-based shaping: the best policy
    does not change, credit arrives sooner).
    """

    def __init__(
        self, venv: PolisVectorEnv, seed: int, scale: float = 1.0, shaping: bool = False
    ) -> None:
        self.venv = venv
        self._seed = seed
        self.scale = scale
        self.shaping = shaping
        self._potential = np.zeros(venv.num_envs)
        self._actions: np.ndarray[Any, Any] | None = None
        super().__init__(
            venv.num_envs,
            venv.single_observation_space["observation"],
            venv.single_action_space,
        )

    def reset(self) -> np.ndarray[Any, Any]:
        obs, _ = self.venv.reset(seed=self._seed)
        self._seed += 1
        self._potential[:] = [self._margin(i) for i in range(self.num_envs)]
        return np.asarray(obs["observation"])

    def _margin(self, i: int) -> float:
        if not self.shaping:
            return 0.0
        return score_margin(self.venv.states[i], self.venv.seats[i])

    def step_async(self, actions: np.ndarray[Any, Any]) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[Any, ...]:
        assert self._actions is not None
        obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        done = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(done):
            infos[i]["terminal_observation"] = info["final_obs"][i]["observation"]
        return (
            np.asarray(obs["observation"]),
            (rewards * self.scale).astype(np.float32),
            done,
            infos,
        )

    def action_masks(self) -> np.ndarray[Any, Any]:
        return self.venv.action_masks().astype(bool)

    def close(self) -> None:
        pass

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kw: Any) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(method_name)
        return list(self.action_masks()[self._get_indices(indices)])

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.venv, attr_name)] * len(list(self._get_indices(indices)))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.venv, attr_name, value)

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))


class Deadline(BaseCallback):  # type: ignore[misc]
    """Stops training after ``seconds`` of wall-clock time, or of this process's CPU time
    (``clock="cpu"``: the same amount of training on a loaded machine as on an idle one)."""

    def __init__(self, seconds: float, clock: str = "wall") -> None:
        super().__init__()
        if clock not in ("wall", "cpu"):
            raise ValueError(f"clock is 'wall' or 'cpu', not {clock!r}")
        self.now = time.monotonic if clock == "wall" else time.process_time
        self.deadline = self.now() + seconds

    def _on_step(self) -> bool:
        return bool(self.now() < self.deadline)


def make_env(
    game: str,
    mode: str,
    players: int,
    envs: int,
    opponent: str,
    seed: int,
    reward: str = "win_share",
    scale: float = 1.0,
    shaping: bool = False,
) -> PolisSB3VecEnv:
    if shaping and reward != "margin":
        raise ValueError("shaping pays the margin reward as it grows: use reward='margin'")
    venv = PolisVectorEnv(game, mode, players, envs, seat=None, opponents=opponent, reward=reward)
    return PolisSB3VecEnv(venv, seed, scale, shaping)


def train(
    game: str,
    mode: str,
    players: int = 2,
    *,
    opponent: str = "random",
    minutes: float = 14.0,
    steps: int = 50_000_000,
    envs: int = 16,
    n_steps: int = 128,
    seed: int = 0,
    reward: str = "win_share",
    scale: float = 1.0,
    normalize: bool = False,
    epochs: int = 4,
    batch: int = 512,
    net: tuple[int, ...] = (256, 256),
    shaping: bool = False,
    verbose: int = 0,
    clock: str = "wall",
) -> MaskablePPO:
    """A MaskablePPO policy trained for ``minutes`` (of wall-clock time, or of CPU time with
    ``clock="cpu"``) or ``steps``, whichever ends first;
    with ``normalize`` the observations are standardized by running statistics
    (Stable-Baselines3's ``VecNormalize``, kept with the model as ``model.get_env()``)."""
    env: Any = make_env(game, mode, players, envs, opponent, seed, reward, scale, shaping)
    if normalize:
        env = VecNormalize(env, norm_obs=True, norm_reward=False, clip_obs=10.0)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=min(batch, n_steps * envs),
        n_epochs=epochs,
        learning_rate=3e-4,
        gamma=0.99,
        ent_coef=0.01,
        policy_kwargs={"net_arch": list(net)},
        seed=seed,
        verbose=verbose,
        device="cpu",
    )
    model.learn(total_timesteps=steps, callback=Deadline(minutes * 60, clock))
    return model


def observations(model: MaskablePPO) -> Any:
    """The function the trained policy's observations go through (identity without
    normalization)."""
    env = model.get_env()
    if isinstance(env, VecNormalize):
        env.training = False
        return env.normalize_obs
    return lambda obs: obs


def evaluate(
    model: MaskablePPO, game: str, mode: str, players: int, opponent: str, games: int, seed: int
) -> dict[str, Any]:
    """The deterministic policy's wins and mean win share over ``games`` games, each with
    its 95% interval (Wilson's score interval; for the win share, whose games may end in a
    shared first place, a conservative one)."""
    venv = PolisVectorEnv(game, mode, players, min(games, 16), seat=None, opponents=opponent)
    obs, _ = venv.reset(seed=seed)
    prepare = observations(model)
    shares: list[float] = []
    started = venv.num_envs
    active = np.ones(venv.num_envs, bool)  # tables whose current game still counts
    while len(shares) < games:
        masks = obs["action_mask"].astype(bool)
        seen = prepare(obs["observation"])
        actions, _ = model.predict(seen, action_masks=masks, deterministic=True)
        obs, rewards, terminated, _, _ = venv.step(actions)  # win shares
        for i in np.flatnonzero(terminated):
            if active[i]:
                shares.append(float(rewards[i]))
            active[i] = started < games
            started += 1
    won = sum(1 for s in shares if s == 1.0)
    rate, share = won / games, sum(shares) / games
    return {
        "games": games,
        "wins": won,
        "win_rate": rate,
        "win_rate_95": [round(x, 3) for x in wilson(rate, games)],
        "win_share": share,
        "win_share_95": [round(x, 3) for x in wilson(share, games)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="metropolys")
    parser.add_argument("--mode", default=None)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="random", help="training opponents")
    parser.add_argument("--minutes", type=float, default=14.0, help="training time")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what --minutes counts: wall-clock time, or this process's CPU time (a shared "
        "machine)",
    )
    parser.add_argument("--steps", type=int, default=50_000_000)
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--games", type=int, default=200, help="evaluation games per opponent")
    parser.add_argument("--against", default="random,easy")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="where to save the model (.zip)")
    parser.add_argument("--reward", default="margin", help="margin or win_share")
    parser.add_argument("--scale", type=float, default=0.1, help="reward factor")
    parser.add_argument(
        "--no-normalize", dest="normalize", action="store_false", help="raw observations"
    )
    parser.add_argument("--epochs", type=int, default=4, help="PPO epochs per rollout")
    parser.add_argument("--net", default="256,256", help="hidden layer sizes")
    parser.add_argument("--shaping", action="store_true", help="pay the margin as it grows")
    parser.add_argument("--batch", type=int, default=512, help="PPO minibatch size")
    parser.add_argument("--verbose", type=int, default=0, help="Stable-Baselines3 logging")
    parser.add_argument(
        "--smoke", action="store_true", help=f"a few hundred steps, {SMOKE_GAMES} games"
    )
    args = parser.parse_args()
    from polis.core.registry import get_game

    mode = args.mode or get_game(args.game).default_mode
    torch.set_num_threads(args.threads)
    if args.smoke:
        args.steps, args.envs, args.games, args.against = 256, 2, SMOKE_GAMES, "random"
    start, cpu_start = time.monotonic(), time.process_time()
    model = train(
        args.game,
        mode,
        args.players,
        opponent=args.opponent,
        minutes=args.minutes,
        steps=args.steps,
        envs=args.envs,
        n_steps=64 if args.smoke else 128,
        seed=args.seed,
        reward=args.reward,
        scale=args.scale,
        normalize=args.normalize,
        epochs=args.epochs,
        batch=args.batch,
        net=tuple(int(x) for x in args.net.split(",")),
        shaping=args.shaping,
        verbose=args.verbose,
        clock=args.clock,
    )
    trained = time.monotonic() - start
    cpu = time.process_time() - cpu_start
    if args.save:
        model.save(args.save)
        env = model.get_env()
        if isinstance(env, VecNormalize):  # the statistics the policy's inputs go through
            env.save(args.save.removesuffix(".zip") + ".normalize.pkl")  # examples/bot_connect.py
    report: dict[str, Any] = {
        "game": args.game,
        "mode": mode,
        "players": args.players,
        "training_opponent": args.opponent,
        "reward": args.reward,
        "scale": args.scale,
        "normalize": args.normalize,
        "epochs": args.epochs,
        "batch": args.batch,
        "net": args.net,
        "shaping": args.shaping,
        "clock": args.clock,
        "training_seconds": round(trained, 1),
        "training_cpu_seconds": round(cpu, 1),
        "training_steps": int(model.num_timesteps),
        "evaluation": {},
    }
    for k, opponent in enumerate(args.against.split(",")):
        report["evaluation"][opponent] = evaluate(
            model, args.game, mode, args.players, opponent, args.games, 10_000 + k
        )
    report["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    report["evaluation_cpu_seconds"] = round(time.process_time() - cpu_start - cpu, 1)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
