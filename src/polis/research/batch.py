"""Many tables at once, with numpy arrays in and out: batched self-play for learning code.

In the spirit of pgx: one :class:`BatchEnv` holds ``num_envs`` tables of one game, mode and
player count; :meth:`BatchEnv.step` takes one action id per table (for the player to move
there) and returns a :class:`Batch`: the observations of the players to move [N, D], their
legal-action masks [N, A], who is to move [N], the rewards of every seat [N, players] and
which tables finished [N]. A finished table starts its next game in the same step (its row
then shows the new game; the finished game's rewards are in ``rewards``), so a training loop
never stops. Every seat of a table is played through the same call: self-play.

Seeding: table ``i``'s ``g``-th game (counting from the last seeded reset) is dealt from
``derive_seed(seed, "table", i, g)`` (:func:`polis.core.match.derive_seed`), so a seeded run
is reproducible whatever the batch does, and a table's games do not depend on the others.

Observations and masks come from the game's encoder straight from the states, all tables in
one call (:meth:`polis.research.observations.Encoder.encode_batch`): the same numbers as the
single-table environments.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from polis.core.errors import InputError, PolisError
from polis.core.match import derive_seed
from polis.core.moves import Move
from polis.core.protocol import JSON, Game, GameState
from polis.core.view import TERMINAL
from polis.research.observations import Encoder, Mask, Obs
from polis.research.observations import encoder as make_encoder
from polis.research.session import final_rewards, find_table

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]


@dataclass
class Batch:
    """What :meth:`BatchEnv.step` and :meth:`BatchEnv.reset` return; row ``i`` is table ``i``.

    ``rewards[i, p]`` is seat ``p``'s final reward of the game that ended on table ``i`` in
    this step (0 elsewhere); ``terminated[i]`` says that game ended (the row's observation,
    mask and player to move are then those of the table's next game).
    """

    observation: Obs
    action_mask: Mask
    current_player: Ints
    rewards: Floats
    terminated: Bools


def root_seed(seed: int | None) -> int:
    """The run's root seed: ``seed``, or a fresh one when None."""
    return seed if seed is not None else random.SystemRandom().getrandbits(62)


class Tables:
    """What both batches (:class:`BatchEnv`, the compiled one) take and check: the game, mode,
    players, ``num_envs`` tables, the reward, options, encoder and root seed."""

    def __init__(
        self,
        game: str | Game,
        mode: str | None,
        players: int,
        num_envs: int,
        reward: str,
        options: Mapping[str, JSON] | None,
        seed: int | None,
    ) -> None:
        self.game, self.mode, self.players = find_table(game, mode, players, reward, num_envs)
        self.num_envs = num_envs
        self.reward = reward
        self.options = dict(options) if options else None
        self.encoder: Encoder[Any] = make_encoder(self.game, self.mode, self.players)
        self.obs_size = self.encoder.size
        self._seed = root_seed(seed)
        self._last: Batch | None = None

    def _given(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> npt.NDArray[Any]:
        """``actions`` as an array, refused (InputError) unless one integer per table."""
        given = np.asarray(actions)
        if given.shape != (self.num_envs,):
            raise InputError(f"give one action per table ({self.num_envs}), not {given.size}")
        if given.dtype.kind not in "iu":
            raise InputError(f"action ids are integers, not {given.dtype}")
        return given


class BatchEnv(Tables):
    """``num_envs`` self-play tables of ``game`` (registry name or Game); see the module doc.

    ``mode=None`` is the game's default mode; ``options`` the rules options of every table;
    ``reward`` is ``"win_share"`` or ``"margin"`` (as in the other environments).
    """

    def __init__(
        self,
        game: str | Game,
        mode: str | None = None,
        players: int = 2,
        num_envs: int = 16,
        *,
        reward: str = "win_share",
        options: Mapping[str, JSON] | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(game, mode, players, num_envs, reward, options, seed)
        self.space: Sequence[Move] = self.game.action_space(self.mode).moves
        self.num_actions = len(self.space)
        self.states: list[GameState] = []
        self._games = [0] * num_envs
        #: The class of every table's state (step() maps its methods over the tables).
        self._kind: type[GameState] | None = None

    # -- tables ---------------------------------------------------------------------------------
    def _deal(self, i: int) -> GameState:
        """Table ``i``'s next game."""
        g = self._games[i]
        self._games[i] = g + 1
        seed = derive_seed(self._seed, "table", i, g)
        state = self.game.new_game(self.mode, self.players, seed=seed, options=self.options)
        if self._kind is None:  # the first deal since reset() began
            self._kind = type(state)
        elif type(state) is not self._kind:
            raise PolisError(
                f"{self.game.name} dealt a {type(state).__name__} after a "
                f"{self._kind.__name__}: step() needs states of one class"
            )
        return state

    def _batch(self, rewards: Floats, done: Bools, players: list[int]) -> Batch:
        seats = np.array(players, np.int64)
        obs, masks = self.encoder.encode_batch(self.states, seats)
        self._last = Batch(obs, masks, seats, rewards, done)
        return self._last

    # -- the API --------------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> Batch:
        """Deal a new game on every table (``seed`` restarts the seed sequence)."""
        if seed is not None:
            self._seed = seed
            self._games = [0] * self.num_envs
        self._kind = None
        self.states = [self._deal(i) for i in range(self.num_envs)]
        return self._batch(
            np.zeros((self.num_envs, self.players), np.float32),
            np.zeros(self.num_envs, np.bool_),
            [s.current_player() for s in self.states],
        )

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> Batch:
        """Play ``actions[i]`` (an action id) for the player to move on table ``i``.

        Input that is not one integer id per table is refused with an
        :class:`~polis.core.errors.InputError` before any table moves. An action outside a
        table's mask raises :class:`~polis.core.errors.IllegalMove` naming the rule (tables
        before it have moved; use the mask to never get there).
        """
        states = self.states
        if not states:
            raise PolisError("no games yet: call reset() first")
        ids: list[int] = self._given(actions).tolist()
        space = self.space
        size = self.num_actions
        if not 0 <= min(ids) <= max(ids) < size:  # checked before any table moves
            i = next(i for i, a in enumerate(ids) if not 0 <= a < size)
            raise InputError(f"table {i}: {ids[i]!r} is not an action id (0-{size - 1})")
        # Every table holds a state of one class, whose methods are mapped over the tables:
        # no Python loop per table. Who moves next also says which games are over.
        kind = self._kind
        assert kind is not None  # set with the states
        deque(map(kind.apply, states, map(space.__getitem__, ids)), maxlen=0)
        seats: list[int] = list(map(kind.current_player, states))
        rewards = np.zeros((len(states), self.players), np.float32)
        done = np.zeros(len(states), np.bool_)
        if TERMINAL in seats:
            for i, seat in enumerate(seats):
                if seat == TERMINAL:
                    rewards[i] = final_rewards(states[i].result(), self.reward)
                    done[i] = True
                    state = states[i] = self._deal(i)
                    seats[i] = state.current_player()
        return self._batch(rewards, done, seats)

    def random_actions(self, rng: random.Random) -> list[int]:
        """A uniformly drawn legal action per table, from the last masks (for baselines and
        benchmarks): row i takes its ``int(rng.random() * count)``-th legal id, one draw per
        row in row order (a compiled pass per row: :mod:`polis.research.batch_kernels`)."""
        if self._last is None:
            raise PolisError("no games yet: call reset() first")
        from polis.research.batch_kernels import pick_rows

        masks = self._last.action_mask.view(np.uint8)
        draws = np.array([rng.random() for _ in range(masks.shape[0])])
        picks = np.empty(masks.shape[0], np.int64)
        empty = pick_rows(masks, draws, picks)
        if empty >= 0:
            raise PolisError(f"table {empty} has no legal action")
        ids: list[int] = picks.tolist()
        return ids


__all__ = ["Batch", "BatchEnv", "Tables", "root_seed"]
