"""The batched self-play API on the compiled engines: many tables stepped in one call.

:class:`CompiledBatchEnv` has the API and the :class:`~polis.research.batch.Batch` of
:class:`~polis.research.batch.BatchEnv` (same observations, masks, players to move, rewards
and auto-reset of finished tables), for the games with a compiled (numba) engine (their
``compiled_batch`` part, :data:`polis.core.parts.COMPILED_BATCH`). The tables are one int32
array of engine rows (:attr:`CompiledBatchEnv.rows`) and each
:meth:`~CompiledBatchEnv.step` is one compiled call (the game's ``compiled.observe.advance``)
that plays every table's action, scores the finished games, deals their next ones and
writes the observations and masks: no Python per table.

Seeding: table ``i``'s row generator is seeded from ``derive_seed(seed, "table", i)``
(:func:`polis.core.match.derive_seed`) at a seeded reset (or the first one), and every game
of the table is then dealt from that generator in turn (a later ``reset()`` without a seed
deals each table's next game). So a seeded run is reproducible and a table's games do not
depend on the others; they are not the games :class:`BatchEnv` deals from the same seed
(the compiled engines draw their set-ups with their own generators).

Actions are checked against the last masks before any table moves: an id outside the action
space is an :class:`~polis.core.errors.InputError`, an id the mask forbids an
:class:`~polis.core.errors.IllegalMove`, both naming the table (and nothing has moved). The
check reads the returned mask arrays themselves: read them, never write into them.

By default every :class:`Batch` has its own arrays; ``reuse=True`` writes every step into
the same arrays (a learner that copies what it keeps saves the allocation: the returned
arrays then change with the next step). ``observe=False`` leaves the observations out (an
[N, 0] array): for policies that read the rows, and to measure the rest.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from polis.core.errors import IllegalMove, InputError, PolisError
from polis.core.match import derive_seed
from polis.core.parts import COMPILED_BATCH
from polis.core.protocol import JSON, Game
from polis.research.batch import Batch, Tables
from polis.research.observations import Encoder, TableEncoder
from polis.research.session import REWARDS

if TYPE_CHECKING:  # numba is imported by make_tables only: only batches need it
    from polis.core.parts.batch_kernel import CompiledTables


def make_tables(game: Game, encoder: Encoder[Any], tables: int, options: Any) -> CompiledTables:
    """The compiled tables of ``game`` (its ``compiled_batch`` part; numba is imported with
    it: only batches need it)."""
    assert isinstance(encoder, TableEncoder)
    if COMPILED_BATCH.name not in game.plugins:
        raise InputError(f"{game.name} has no compiled engine: use BatchEnv")
    made = game.plugin(COMPILED_BATCH)(encoder.batch, tables, options)
    assert getattr(made, "obs_size", encoder.size) == encoder.size  # every entry written
    return made


class CompiledBatchEnv(Tables):
    """``num_envs`` self-play tables of ``game`` on its compiled engine; see the module doc
    (the arguments are :class:`~polis.research.batch.BatchEnv`'s, and ``reuse``)."""

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
        reuse: bool = False,
        observe: bool = True,
    ) -> None:
        super().__init__(game, mode, players, num_envs, reward, options, seed)
        self.tables = make_tables(self.game, self.encoder, num_envs, self.options)
        self.num_actions = self.tables.num_actions
        self.reuse = reuse
        self.observe = observe
        self._kind = REWARDS.index(reward)
        self._seeded = False
        self._none = np.zeros(0, np.int64)

    @property
    def rows(self) -> npt.NDArray[np.int32]:
        """The engine rows of the tables (read them; writing them is playing the game)."""
        rows: npt.NDArray[np.int32] = self.tables.rows
        return rows

    def _out(self) -> Batch:
        """The arrays of the next batch: the last ones again with ``reuse``, else new."""
        last = self._last
        if self.reuse and last is not None:
            return last
        n = self.num_envs
        return Batch(
            np.empty((n, self.obs_size) if self.observe else (n, 0), np.float32),
            np.empty((n, self.num_actions), np.bool_).view(np.int8),
            np.empty(n, np.int64),
            np.empty((n, self.players), np.float32),
            np.empty(n, np.bool_),
        )

    def _advance(self, actions: npt.NDArray[np.int64], masks: Any) -> int:
        out = self._out()
        found = self.tables.advance(
            actions,
            masks,
            self._kind,
            out.rewards,
            out.terminated,
            out.current_player,
            out.observation,
            out.action_mask.view(np.bool_),
        )
        if found < 0:
            self._last = out
        return found

    # -- the API --------------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> Batch:
        """Deal a new game on every table (``seed`` re-seeds every table's generator)."""
        if seed is not None:
            self._seed = seed
            self._seeded = False
        if self._seeded:
            self.tables.deal(self._none)
        else:
            seeds = [derive_seed(self._seed, "table", i) for i in range(self.num_envs)]
            self.tables.deal(np.array(seeds, np.int64))
            self._seeded = True
        self._advance(self._none, np.zeros((1, 1), np.bool_))
        assert self._last is not None
        return self._last

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> Batch:
        """Play ``actions[i]`` (an action id) for the player to move on table ``i``, all
        tables in one compiled call. Anything but one legal id per table (by the last masks)
        is refused before any table moves: InputError for no id, IllegalMove for a masked one.
        """
        last = self._last
        if last is None:
            raise PolisError("no games yet: call reset() first")
        ids = self._given(actions).astype(np.int64, copy=False)
        # advance() checks every action before it writes anything: the masks may be the
        # arrays it then overwrites (``reuse``)
        found = self._advance(ids, last.action_mask.view(np.bool_))
        if found >= 0:
            a = int(ids[found])
            if not 0 <= a < self.num_actions:
                raise InputError(
                    f"table {found}: {a!r} is not an action id (0-{self.num_actions - 1})"
                )
            raise IllegalMove(f"table {found}: action {a} is not legal there (its mask is 0)")
        assert self._last is not None
        return self._last

    def random_actions(self, rng: random.Random | np.random.Generator) -> npt.NDArray[np.int64]:
        """A uniformly drawn legal action per table, from the last masks: row i takes its
        ``int(u * count)``-th legal id, ``u`` drawn per row in row order (``rng.random()`` of
        a :class:`random.Random` as :meth:`BatchEnv.random_actions`, or all at once from a
        numpy Generator, the fast way)."""
        if self._last is None:
            raise PolisError("no games yet: call reset() first")
        from polis.research.batch_kernels import pick_counted

        masks = self._last.action_mask.view(np.uint8)
        count = masks.shape[0]
        draws: npt.NDArray[np.float64]
        if isinstance(rng, np.random.Generator):
            draws = np.asarray(rng.random(count), np.float64)
        else:
            draws = np.array([rng.random() for _ in range(count)])
        picks = np.empty(count, np.int64)
        tables = self.tables
        empty = pick_counted(masks, tables.counts, tables.block, draws, picks)
        if empty >= 0:
            raise PolisError(f"table {empty} has no legal action")
        return picks


__all__ = ["CompiledBatchEnv", "make_tables"]
