"""A Gymnasium vector environment: ``num_envs`` tables, one learner seat each, bots elsewhere.

The batched form of :class:`~polis.research.gym_env.PolisGymEnv`: the same observation dict
(``observation`` [N, D] float32, ``action_mask`` [N, A] int8), one action id per table, the
reward at the end of each game (win share or score margin). Observations and masks of all
tables come from one encoder call straight from the states. A finished table starts its
next game in the same step (Gymnasium's ``AutoresetMode.SAME_STEP``): the returned row is
the new game's, the finished game's last observation is in ``info["final_obs"]``.

Opponents are named as everywhere in polis (``random``, ``greedy``, ``easy`` ...; see
:mod:`polis.research.opponents`).

Seeding: table ``i``'s ``g``-th game since the last seeded reset is dealt from
``derive_seed(seed, "table", i, g)``; its opponents and, with ``seat=None``, the learner's
seat come from the same path, so seeded runs are reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from polis.core.errors import InputError, PolisError
from polis.core.match import derive_seed
from polis.core.moves import Move
from polis.core.protocol import JSON, Game, GameState
from polis.core.view import TERMINAL
from polis.research.batch import root_seed
from polis.research.observations import HIGH, Encoder, encoder
from polis.research.opponents import Opponent, make_opponent
from polis.research.session import final_rewards, find_table


def single_spaces(obs_size: int, num_actions: int) -> tuple[spaces.Dict, spaces.Discrete]:
    """One table's observation and action spaces (as in the single-table environments)."""
    obs = spaces.Dict(
        {
            "observation": spaces.Box(0.0, HIGH, (obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
        }
    )
    return obs, spaces.Discrete(num_actions)


class PolisVectorEnv(VectorEnv[dict[str, Any], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` tables of ``game``; the learner plays ``seat`` (None: a seat drawn per
    game) and polis bots named by ``opponents`` play the others."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game,
        mode: str | None = None,
        players: int = 2,
        num_envs: int = 8,
        *,
        seat: int | None = 0,
        opponents: str | Sequence[str] = "random",
        reward: str = "win_share",
        illegal_reward: float = -1.0,
        options: Mapping[str, JSON] | None = None,
    ) -> None:
        from polis.bots import parse_agent_spec

        self.game, self.mode, self.players = find_table(game, mode, players, reward, num_envs)
        if seat is not None and not 0 <= seat < self.players:
            raise InputError(f"seat must be 0-{self.players - 1} or None, not {seat}")
        specs = [opponents] * (self.players - 1) if isinstance(opponents, str) else opponents
        if len(specs) != self.players - 1:
            raise InputError(f"give one opponent per other seat ({players - 1}), not {len(specs)}")
        self.opponent_specs = [parse_agent_spec(s) for s in specs]  # InputError if unknown
        self.num_envs = num_envs
        self.seat = seat
        self.reward = reward
        self.illegal_reward = float(illegal_reward)
        self.options = dict(options) if options else None
        self.space: Sequence[Move] = self.game.action_space(self.mode).moves
        self.num_actions = len(self.space)
        self.encoder: Encoder[Any] = encoder(self.game, self.mode, self.players)
        self.single_observation_space, self.single_action_space = single_spaces(
            self.encoder.size, self.num_actions
        )
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.states: list[GameState] = []
        self.seats: list[int] = []
        self._opponents: list[dict[int, Opponent]] = []
        self._root = root_seed(None)
        self._games = [0] * num_envs
        self._masks: npt.NDArray[np.int8] | None = None

    # -- tables ---------------------------------------------------------------------------------
    def _deal(self, i: int) -> None:
        """Table ``i``'s next game, its learner seat and opponents; bots move until the
        learner's turn."""
        g = self._games[i]
        self._games[i] = g + 1
        root = self._root
        state = self.game.new_game(
            self.mode, self.players, seed=derive_seed(root, "table", i, g), options=self.options
        )
        seat = self.seat
        if seat is None:
            seat = random.Random(derive_seed(root, "seat", i, g)).randrange(self.players)
        opponents: dict[int, Opponent] = {}
        others = [p for p in range(self.players) if p != seat]
        for p, spec in zip(others, self.opponent_specs, strict=True):
            seed = derive_seed(root, "opponent", i, g, p)
            opponents[p] = make_opponent(spec, seed, self.game, self.encoder, self.space)
        if i < len(self.states):
            self.states[i], self.seats[i], self._opponents[i] = state, seat, opponents
        else:
            self.states.append(state)
            self.seats.append(seat)
            self._opponents.append(opponents)
        self._play_opponents(i)

    def _play_opponents(self, i: int) -> None:
        state, seat, opponents = self.states[i], self.seats[i], self._opponents[i]
        p = state.current_player()
        while p != seat and p != TERMINAL:
            state.apply(opponents[p](state))
            p = state.current_player()

    def _observe(self) -> dict[str, Any]:
        obs, masks = self.encoder.encode_batch(self.states, self.seats)
        self._masks = masks
        return {"observation": obs, "action_mask": masks}

    # -- the API --------------------------------------------------------------------------------
    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game on every table (``seed`` restarts the seed sequence)."""
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        if seed is not None or not self.states:
            self._root = root_seed(seed)
            self._games = [0] * self.num_envs
        self.states, self.seats, self._opponents = [], [], []
        for i in range(self.num_envs):
            self._deal(i)
        return self._observe(), {}

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[
        dict[str, Any], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]
    ]:
        if not self.states:
            raise PolisError("no games yet: call reset() before step()")
        ids = np.asarray(actions).reshape(-1).tolist()
        if len(ids) != self.num_envs:
            raise InputError(f"give one action per table ({self.num_envs}), not {len(ids)}")
        n = self.num_envs
        rewards = np.zeros(n, np.float64)
        terminated = np.zeros(n, np.bool_)
        finished: list[int] = []
        illegal: dict[int, str] = {}
        for i, action in enumerate(ids):
            state = self.states[i]
            try:
                if action.__class__ is not int or not 0 <= action < self.num_actions:
                    raise InputError(f"{action!r} is not an action id (0-{self.num_actions - 1})")
                state.apply(self.space[action])
            except PolisError as exc:
                illegal[i] = str(exc)
                rewards[i] = self.illegal_reward
                terminated[i] = True
                finished.append(i)
                continue
            self._play_opponents(i)
            if state.is_terminal():
                rewards[i] = final_rewards(state.result(), self.reward)[self.seats[i]]
                terminated[i] = True
                finished.append(i)
        infos: dict[str, Any] = {}
        if finished:
            final = np.empty(n, dtype=object)
            mask = np.zeros(n, np.bool_)
            for i in finished:
                final[i] = {
                    "observation": self.encoder.encode_state(self.states[i], self.seats[i]),
                    "action_mask": np.zeros(self.num_actions, np.int8),
                }
                mask[i] = True
                self._deal(i)
            infos = {"final_obs": final, "_final_obs": mask}
            if illegal:
                why = np.empty(n, dtype=object)
                why[list(illegal)] = list(illegal.values())
                infos["illegal_move"] = why
                infos["_illegal_move"] = np.isin(np.arange(n), list(illegal))
        return self._observe(), rewards, terminated, np.zeros(n, np.bool_), infos

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal-action masks of the learners [N, A] (sb3-contrib's convention)."""
        if self._masks is None:
            raise PolisError("no games yet: call reset() first")
        return self._masks


__all__ = ["PolisVectorEnv", "single_spaces"]
