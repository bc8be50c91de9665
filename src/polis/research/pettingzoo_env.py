"""PettingZoo AEC environments for every registered game (any mode and player count).

Agents are ``player_0 .. player_{n-1}`` in seating order; the agent to act is the engine's
current player. Each observation is ``{"observation": float32 vector of the agent's own
view, "action_mask": int8 vector over the game's fixed action space}`` (see
:mod:`polis.research.actions` and the game's ``observation`` plugin); only the acting agent
has a non-zero mask. Rewards come once, at the end: the win share (``reward="win_share"``)
or the score margin over the best opponent (``reward="margin"``).

``reset(seed=s)`` starts the same game (same set-up) for the same ``s``; a later
``reset()`` without a seed draws the next game from that seed's stream.

:class:`PolisParallelEnv` offers the same tables through the parallel API (one move per
step: the agent to move acts, the others' actions are ignored).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import AgentSelector

from polis.core.errors import PolisError
from polis.core.protocol import JSON, Game
from polis.research.session import HIGH, Session, seed_stream


def observation_space(session: Session) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, HIGH, (session.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (session.num_actions,), np.int8),
        }
    )


class _Table:
    """What both APIs share: the session, the agents, their spaces, seeded games."""

    metadata: dict[str, Any]

    def _seat_table(
        self,
        name: str,
        game: str | Game,
        mode: str | None,
        players: int,
        reward: str,
        options: Mapping[str, JSON] | None,
        render_mode: str | None,
    ) -> None:
        self.session = Session(game, mode, players, reward=reward, options=options)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        obs_space = observation_space(self.session)
        act_space = spaces.Discrete(self.session.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._seeds: random.Random | None = None
        table = f"{self.session.game.name}_{self.session.mode}_{players}p"
        self.metadata = {**self.metadata, "name": f"polis_{name}{table}_v0"}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """A new game; ``options={"setup": {...}}`` fixes the set-up (formats §3)."""
        self._seeds = seed_stream(seed, self._seeds)
        setup = (options or {}).get("setup")
        self.session.new_game(self._seeds.getrandbits(63), setup)
        self.agents = self.possible_agents[:]

    def render(self) -> str | None:
        """The public position as text (a spectator's picture: nothing hidden)."""
        if self.render_mode is None or self.session.state is None:
            return None
        text = self.session.state.render_text(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.session.state = None


class PolisAECEnv(_Table, AECEnv):  # type: ignore[misc]
    """One table of ``game`` (a registry name or the Game) as a PettingZoo AEC env;
    ``mode=None`` is the game's default mode."""

    metadata = {  # noqa: RUF012
        "render_modes": ["ansi", "human"],
        "name": "polis_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game,
        mode: str | None = None,
        players: int = 2,
        *,
        reward: str = "win_share",
        options: Mapping[str, JSON] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self._seat_table("", game, mode, players, reward, options, render_mode)
        self._index = {a: i for i, a in enumerate(self.possible_agents)}

    # -- episode -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``options={"setup": {...}}`` fixes the set-up (formats §3)."""
        self._new_game(seed, options)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_of_current()

    def observe(self, agent: str) -> dict[str, Any]:
        return self.session.observe(self._index[agent])

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Play ``action`` for ``agent_selection``; an action outside the mask raises
        :class:`~polis.core.errors.IllegalMove` (naming the rule) and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("a live agent must act: action None is only for finished agents")
        self._cumulative_rewards[agent] = 0.0
        self.session.apply(action)  # type: ignore[arg-type]
        state = self.session.state
        assert state is not None
        if state.is_terminal():
            self.rewards = dict(zip(self.possible_agents, self.session.rewards(), strict=True))
            for a in self.agents:
                self.terminations[a] = True
            self.agent_selection = self._selector.next()
            self._accumulate_rewards()
        else:
            # Rewards stay 0 until the end (they were set to 0 by reset).
            self.agent_selection = self.possible_agents[state.current_player()]
        if self.render_mode == "human":
            self.render()

    def _agent_of_current(self) -> str:
        state = self.session.state
        assert state is not None
        return self.possible_agents[state.current_player()]


class PolisParallelEnv(_Table, ParallelEnv):  # type: ignore[misc]
    """One table of ``game`` through PettingZoo's parallel API.

    Polis games are turn-based, so each step plays one move: the action of the agent to move
    (the only agent whose mask is not all zeros). The other agents' actions are ignored (they
    may send anything, e.g. a sample of their empty mask, or be left out of the dict). Every
    live agent gets its own observation after every step; rewards come once, at the end, and
    the game ends for all agents at once. An action outside the mover's mask ends the game
    too (the state unchanged): the mover gets ``illegal_reward``, the others 0, and
    ``infos[mover]["illegal_move"]`` names the rule. ``mode=None`` is the default mode.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "polis_parallel_v0"}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game,
        mode: str | None = None,
        players: int = 2,
        *,
        reward: str = "win_share",
        options: Mapping[str, JSON] | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self._seat_table("parallel_", game, mode, players, reward, options, render_mode)
        self.illegal_reward = float(illegal_reward)
        self.agents: list[str] = []

    def _observe_all(self) -> dict[str, dict[str, Any]]:
        return {a: self.session.observe(i) for i, a in enumerate(self.possible_agents)}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game; ``options={"setup": {...}}`` fixes the set-up (formats §3)."""
        self._new_game(seed, options)
        return self._observe_all(), {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Play the action of the agent to move (KeyError if that agent sent none)."""
        state = self.session.state
        if state is None or not self.agents:
            raise PolisError("the game is over: call reset() before step()")
        mover = self.possible_agents[state.current_player()]
        infos: dict[str, Any] = {a: {} for a in self.agents}
        try:
            self.session.apply(actions[mover])
        except PolisError as exc:
            infos[mover]["illegal_move"] = str(exc)
            rewards = {a: self.illegal_reward if a == mover else 0.0 for a in self.agents}
            done = True
        else:
            done = state.is_terminal()
            if done:
                rewards = dict(zip(self.possible_agents, self.session.rewards(), strict=True))
            else:
                rewards = {a: 0.0 for a in self.agents}
        obs = self._observe_all()
        terminations = {a: done for a in self.agents}
        truncations = {a: False for a in self.agents}
        if done:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos


def env(game: str | Game, **kwargs: Any) -> PolisAECEnv:
    """PettingZoo-style constructor: ``env(game, mode=..., players=3)``."""
    return PolisAECEnv(game, **kwargs)


def parallel_env(game: str | Game, **kwargs: Any) -> PolisParallelEnv:
    """PettingZoo-style constructor of the parallel API: ``parallel_env(game, players=3)``."""
    return PolisParallelEnv(game, **kwargs)


__all__ = ["PolisAECEnv", "PolisParallelEnv", "env", "observation_space", "parallel_env"]
