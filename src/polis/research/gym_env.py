"""A Gymnasium environment: one seat of any registered game against bundled polis bots.

Opponents are named like everywhere else in polis (``random``, ``greedy``,
``montecarlo:200i``, ``mcts:500i``, or the levels ``easy``/``medium``/``hard``); they see only
their own views, and they are asked for their moves by the core match step
(:class:`polis.core.match.Turn`, :func:`polis.bots.agent_seat`; ``random`` draws from the
legal ids directly, see :mod:`polis.research.opponents`). The learner's observation
is the same dict as in the PettingZoo env (``observation`` + ``action_mask``). The reward
comes at the end (win share or score margin).

Gymnasium has no notion of masks, so an action outside the mask cannot be refused silently:
it ends the episode with ``illegal_reward`` and ``info["illegal_move"]`` naming the rule
(the game state is left unchanged). Use the mask to never get there.

Importing this module registers ``polis/<Title>-v0`` for every registered game that has an
observation encoder (the title as printed on the box); :func:`register_envs` adds games
registered later.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from polis.core.errors import InputError, PolisError
from polis.core.protocol import JSON, Game
from polis.core.registry import games
from polis.core.view import TERMINAL
from polis.research.opponents import Opponent, make_opponent
from polis.research.pettingzoo_env import observation_space
from polis.research.session import Session


class PolisGymEnv(gym.Env[dict[str, Any], np.int64]):
    """``seat`` (0-based) of a ``players``-player game; every other seat is a polis bot.

    ``mode=None`` is the game's default mode.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game,
        mode: str | None = None,
        players: int = 2,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "greedy",
        reward: str = "win_share",
        illegal_reward: float = -1.0,
        options: Mapping[str, JSON] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.session = Session(game, mode, players, reward=reward, options=options)
        players = self.session.players
        if not 0 <= seat < players:
            raise InputError(f"seat must be 0-{players - 1}, not {seat}")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise InputError(f"give one opponent per other seat ({players - 1}), not {len(specs)}")
        from polis.bots import parse_agent_spec

        self.opponent_specs = [parse_agent_spec(s) for s in specs]  # InputError if unknown
        self.seat = seat
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = observation_space(self.session)
        self.action_space = spaces.Discrete(self.session.num_actions)
        self._opponents: dict[int, Opponent] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game (``options={"setup": {...}}`` fixes the set-up); bots move until the
        learner's turn."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        others = [p for p in range(self.session.players) if p != self.seat]
        self._opponents = {}
        s = self.session
        for p, spec in zip(others, self.opponent_specs, strict=True):
            seed_p = int(self.np_random.integers(2**62))
            self._opponents[p] = make_opponent(spec, seed_p, s.game, s.encoder, s.space.moves)
        self.session.new_game(game_seed, (options or {}).get("setup"))
        self._play_opponents()
        return self.session.observe(self.seat), {}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        state = self.session.state
        if state is None or state.is_terminal():
            raise PolisError("the game is over: call reset() before step()")
        try:
            self.session.apply(int(action))
        except PolisError as exc:
            info = {"illegal_move": str(exc)}
            return self.session.observe(self.seat), self.illegal_reward, True, False, info
        self._play_opponents()
        done = state.is_terminal()
        reward = self.session.rewards()[self.seat] if done else 0.0
        if self.render_mode == "human":
            self.render()
        return self.session.observe(self.seat), reward, done, False, {}

    def _play_opponents(self) -> None:
        """The bots' moves until the learner's turn (or the end), one match step each."""
        state = self.session.state
        assert state is not None
        seat, opponents, apply = self.seat, self._opponents, state.apply
        p = state.current_player()
        while p != seat and p != TERMINAL:
            apply(opponents[p](state))
            p = state.current_player()

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legal-action mask (the sb3-contrib ``MaskablePPO`` convention)."""
        mask: np.ndarray[Any, np.dtype[np.int8]] = self.session.observe(self.seat)["action_mask"]
        return mask

    def render(self) -> str | None:
        if self.render_mode is None or self.session.state is None:
            return None
        text = self.session.state.render_text(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def make_env(**kwargs: Any) -> PolisGymEnv:
    return PolisGymEnv(**kwargs)


def env_id(game: Game) -> str:
    """``polis/<Title>-v0``: the game's title without the characters an id cannot hold."""
    return f"polis/{re.sub(r'[^A-Za-z0-9_.]', '', game.title)}-v0"


def register_envs() -> list[str]:
    """Register ``polis/<Title>-v0`` for every registered game with an observation encoder
    (``gymnasium.make("polis/<Title>-v0", mode=..., players=3, opponents="hard")``, and
    ``gymnasium.make_vec(..., num_envs=16)`` for the vector env of
    :mod:`polis.research.gym_vector`); returns the ids."""
    out = []
    for name, game in games().items():
        if "observation" not in game.plugins:
            continue
        found = env_id(game)
        if found not in gym.registry:
            gym.register(
                id=found,
                entry_point="polis.research.gym_env:PolisGymEnv",
                vector_entry_point="polis.research.gym_vector:PolisVectorEnv",
                kwargs={"game": name},
            )
        out.append(found)
    return out


register_envs()

__all__ = ["PolisGymEnv", "env_id", "make_env", "register_envs"]
