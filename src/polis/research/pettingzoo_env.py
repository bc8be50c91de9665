"""PettingZoo AEC environments for every registered game (any mode and player count).

Agents are ``player_0 .. player_{n-1}`` in seating order; the agent to act is the engine's
current player. Each observation is ``{"observation": float32 vector of the agent's own
view, "action_mask": int8 vector over the game's fixed action space}`` (see
:mod:`polis.research.actions` and the game's ``observation`` plugin); only the acting agent
has a non-zero mask. Rewards come once, at the end: the win share (``reward="win_share"``)
or the score margin over the best opponent (``reward="margin"``).

``reset(seed=s)`` starts the same game (same set-up) for the same ``s``; a later
``reset()`` without a seed draws the next game from that seed's stream.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

from polis.core.protocol import JSON, Game
from polis.research.session import HIGH, Session, seed_stream


def observation_space(session: Session) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, HIGH, (session.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (session.num_actions,), np.int8),
        }
    )


class PolisAECEnv(AECEnv):  # type: ignore[misc]
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
        self.session = Session(game, mode, players, reward=reward, options=options)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = observation_space(self.session)
        act_space = spaces.Discrete(self.session.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._seeds: random.Random | None = None
        table = f"{self.session.game.name}_{self.session.mode}_{players}p"
        self.metadata = {**self.metadata, "name": f"polis_{table}_v0"}

    # -- spaces ------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- episode -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``options={"setup": {...}}`` fixes the set-up (formats §3)."""
        self._seeds = seed_stream(seed, self._seeds)
        setup = (options or {}).get("setup")
        self.session.new_game(self._seeds.getrandbits(63), setup)
        self.agents = self.possible_agents[:]
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
        self.session.apply(int(action))
        state = self.session.state
        assert state is not None
        self.rewards = {a: 0.0 for a in self.agents}
        if state.is_terminal():
            for a, r in zip(self.possible_agents, self.session.rewards(), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
            self.agent_selection = self._selector.next()
        else:
            self.agent_selection = self._agent_of_current()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _agent_of_current(self) -> str:
        state = self.session.state
        assert state is not None
        return self.possible_agents[state.current_player()]

    # -- output ------------------------------------------------------------------------------
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


def env(game: str | Game, **kwargs: Any) -> PolisAECEnv:
    """PettingZoo-style constructor: ``env(game, mode=..., players=3)``."""
    return PolisAECEnv(game, **kwargs)


__all__ = ["PolisAECEnv", "env", "observation_space"]
