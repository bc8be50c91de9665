"""One running game seen through the fixed encodings: the part every adapter shares.

PettingZoo, Gymnasium and the benchmark all need the same four things from an engine state:
the observation of one player, the action mask, applying an action id, and rewards at the
end. Keeping them here means the adapters differ only in their library's API. Everything
about the game comes from its :class:`~polis.core.protocol.Game` object: the action space,
the observation encoder (its ``observation`` plugin), the modes and player counts.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from polis.core.errors import InputError, PolisError
from polis.core.moves import ActionSpace, Move
from polis.core.protocol import JSON, Game, GameResult, GameState
from polis.core.registry import get_game
from polis.research.observations import HIGH, Encoder, encoder

REWARDS = ("win_share", "margin")


def final_rewards(result: GameResult, kind: str) -> list[float]:
    """``win_share``: 1 (or 1/k when k share first place) to winners; ``margin``: own score
    minus the best other score (positive only for a sole winner)."""
    if kind == "win_share":
        return [float(x) for x in result.win_shares()]
    scores = result.scores
    return [float(s - max(o for q, o in enumerate(scores) if q != p)) for p, s in enumerate(scores)]


def find_game(game: str | Game) -> Game:
    """A game given by registry name (or as its object)."""
    return game if isinstance(game, Game) else get_game(game)


def find_table(
    game: str | Game, mode: str | None, players: int, reward: str, num_envs: int = 1
) -> tuple[Game, str, int]:
    """The game, mode (``None``: the default) and player count of a table, checked, with the
    reward kind and the number of tables; an InputError names what is wrong."""
    if reward not in REWARDS:
        raise InputError(f"unknown reward {reward!r}: choose one of {', '.join(REWARDS)}")
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise InputError(f"num_envs must be a positive whole number, not {num_envs!r}")
    found = find_game(game)
    checked_mode, checked_players = found.check_table(
        found.default_mode if mode is None else mode, players
    )
    return found, checked_mode, checked_players


class Session:
    """An engine state plus the action space and encoder of its game, mode and player count.

    ``mode=None`` is the game's default mode.
    """

    def __init__(
        self,
        game: str | Game,
        mode: str | None,
        players: int,
        *,
        reward: str = "win_share",
        options: Mapping[str, JSON] | None = None,
    ) -> None:
        self.game, self.mode, self.players = find_table(game, mode, players, reward)
        self.reward = reward
        self.options = dict(options) if options else None
        self.space: ActionSpace[Move] = self.game.action_space(self.mode)
        self.num_actions = len(self.space)
        self.encoder: Encoder[Any] = encoder(self.game, self.mode, self.players)
        self.state: GameState | None = None

    def new_game(self, seed: int, setup: Mapping[str, JSON] | None = None) -> GameState:
        self.state = self.game.new_game(
            self.mode, self.players, seed=seed, setup=setup, options=self.options
        )
        return self.state

    @property
    def obs_size(self) -> int:
        return self.encoder.size

    def observe(self, player: int) -> dict[str, npt.NDArray[Any]]:
        """The observation dict of ``player``: its view encoded (straight from the state, the
        same numbers), and its action mask (zeros unless ``player`` is to move)."""
        state = self._state()
        obs = self.encoder.encode_state(state, player)
        if state.current_player() == player:
            mask = self.encoder.legal_mask(state)
        else:
            mask = np.zeros(self.num_actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def apply(self, action: int) -> None:
        """Play action id ``action`` for the player to move; IllegalMove if it is not legal
        (NotationError if it is no action id at all)."""
        moves = self.space.moves
        if action.__class__ is int and 0 <= action < len(moves):
            self._state().apply(moves[action])
        else:
            self._state().apply(self.space.move(int(action)))

    def rewards(self) -> list[float]:
        return final_rewards(self._state().result(), self.reward)

    def _state(self) -> GameState:
        if self.state is None:
            raise PolisError("no game yet: call reset() first")
        return self.state


def seed_stream(seed: int | None, rng: random.Random | None) -> random.Random:
    """The generator that draws game seeds: re-seeded when a seed is given, else kept."""
    if seed is not None:
        return random.Random(seed)
    return rng if rng is not None else random.Random()


__all__ = [
    "HIGH",
    "REWARDS",
    "Session",
    "final_rewards",
    "find_game",
    "find_table",
    "seed_stream",
]
