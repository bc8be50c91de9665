"""The ``observation`` part: the base of every game's encoder, numbers from one seat's *view*.

Each game encodes its own typed view (``game.plugin(OBSERVATION)(mode, players)``, in the
game's ``observation`` and ``tensors`` modules; :mod:`polis.core.parts`); this module holds
only what they share, and is the one module of the core that needs numpy (the ``rl`` or
``openspiel`` extra): nothing imports it but the games' encoders and the research layer.

The definition of every feature is the view encoding (:meth:`Encoder.encode`): the view is
already leak-free, so nothing a player may not see can reach a network, and encoders drop
even what is visible but irrelevant. Players are re-seated relative to the observer (slot 0 =
the observing player, slot 1 = the next player clockwise, ...), so one policy can play every
seat.

Building a view costs more than encoding it, so the adapters ask for observations and legal
masks from the *state* (:meth:`Encoder.encode_state`, :meth:`Encoder.legal_mask`,
:meth:`Encoder.encode_batch`). The defaults here go through the view and the legal moves; a
game overrides them with fast paths that read its state directly and give exactly the same
numbers (each game's tests prove it over many random positions).

Every feature is a small non-negative number (one-hots, flags, counts); :meth:`Layout.describe`
lists the named blocks, which the README documents.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from polis.core.protocol import GameState
from polis.core.view import View

#: Upper bound of every feature (counts such as inhabitants stay far below it).
HIGH = 255.0

Obs = npt.NDArray[np.float32]
#: Legal-action masks: 1 for a legal action id, else 0 (one row per table in a batch).
Mask = npt.NDArray[np.int8]
Ids = npt.NDArray[np.intp]
V = TypeVar("V", bound=View)


class Layout:
    """Named contiguous blocks of a flat float32 vector."""

    def __init__(self) -> None:
        self.blocks: dict[str, tuple[int, tuple[int, ...]]] = {}
        self._spans: list[tuple[str, int, int, tuple[int, ...]]] = []
        self.size = 0

    def add(self, name: str, *shape: int) -> None:
        n = int(np.prod(shape))
        self.blocks[name] = (self.size, shape)
        self._spans.append((name, self.size, self.size + n, shape))
        self.size += n

    def views(self, flat: Obs) -> dict[str, Obs]:
        """Writable reshaped views of ``flat``, one per block."""
        return {name: flat[a:b].reshape(shape) for name, a, b, shape in self._spans}

    def describe(self) -> list[tuple[str, tuple[int, ...]]]:
        return [(name, shape) for name, (_, shape) in self.blocks.items()]


class Encoder(Generic[V]):
    """Turns one game's view into a flat float32 vector of :attr:`size` entries.

    A game's encoder builds its :attr:`layout` in ``__init__(mode, players)`` and writes the
    blocks in :meth:`fill`.
    """

    layout: Layout
    #: A scratch vector and its block views, made on the first encoding (the views cost
    #: more to make than the copy that hands out a fresh vector).
    _scratch: Obs | None = None
    _blocks: dict[str, Obs]

    @property
    def size(self) -> int:
        return self.layout.size

    def encode(self, view: V, seat: int | None = None) -> Obs:
        """Encode ``view`` into a new vector; seats are relative to ``seat`` (default: the
        view's player).

        ``seat`` lets a spectator's (public) view be encoded from one player's chair.
        """
        scratch = self._scratch
        if scratch is None:
            scratch = self._scratch = np.zeros(self.layout.size, dtype=np.float32)
            self._blocks = self.layout.views(scratch)
        else:
            scratch.fill(0.0)
        me = view.player if seat is None else seat
        self.fill(self._blocks, view, 0 if me is None else me)
        return scratch.copy()

    def fill(self, blocks: dict[str, Obs], view: V, me: int) -> None:
        """Write the features of ``view`` seen from seat ``me`` into the zeroed ``blocks``."""
        raise NotImplementedError

    # -- straight from the state (games override these with fast paths) ------------------------
    _num_actions: int | None = None

    def num_actions(self, state: GameState) -> int:
        """Size of the action space of ``state``'s game and mode."""
        if self._num_actions is None:
            self._num_actions = len(state.game.action_space(state.mode))
        return self._num_actions

    def encode_state(self, state: GameState, seat: int, *, public: bool = False) -> Obs:
        """The observation of ``seat`` in ``state``: ``encode(state.view(seat))``, and with
        ``public`` the spectator's view seated at ``seat`` (no private facts)."""
        view: V = state.view(None if public else seat)  # type: ignore[assignment]
        return self.encode(view, seat)

    def legal_ids(self, state: GameState) -> Ids:
        """Ascending legal action ids of the player to move (empty when the game is over)."""
        return np.array(sorted(state.legal_moves().ids()), dtype=np.intp)

    def pick_legal_id(self, state: GameState, draw: float) -> int:
        """The ``int(draw * n)``-th of the ``n`` ascending legal ids (``0 <= draw < 1``): a
        uniform random legal action for a uniform ``draw`` (games may find it without
        listing the ids)."""
        ids = self.legal_ids(state)
        return int(ids[int(draw * len(ids))])

    def legal_mask(self, state: GameState) -> Mask:
        """1 for every legal action id of the player to move (zeros when the game is over)."""
        out = np.zeros(self.num_actions(state), dtype=np.int8)
        out[self.legal_ids(state)] = 1
        return out

    def encode_batch(
        self, states: Sequence[GameState], seats: Sequence[int] | npt.NDArray[np.integer[Any]]
    ) -> tuple[Obs, Mask]:
        """For many tables at once: row ``i`` of the observations is ``seats[i]``'s in
        ``states[i]``, row ``i`` of the masks the legal actions of the player to move there
        (zeros when that game is over). Arrays [tables, size] and [tables, actions]."""
        count = len(states)
        obs = np.zeros((count, self.size), np.float32)
        if not count:
            return obs, np.zeros((0, 0), np.int8)
        masks = np.zeros((count, self.num_actions(states[0])), np.int8)
        for i, (state, seat) in enumerate(zip(states, seats, strict=True)):
            obs[i] = self.encode_state(state, int(seat))
            masks[i] = self.legal_mask(state)
        return obs, masks


class ByteTables(Protocol):
    """A game's per-state fast path (its ``tensors`` module): the observation as float32
    bytes in parts, and the legal mask as one byte per action id."""

    num_actions: int

    def observation(self, state: Any, me: int) -> list[bytes]: ...

    def mask(self, state: Any) -> bytes: ...


class BatchTables(Protocol):
    """A game's path for many states: one raw numpy matrix, then observations and masks
    (written by compiled loops: the games' ``batch_kernels``)."""

    def matrix(self, states: Any) -> Any: ...

    def encode(self, raw: Any, seats: Any, out: Obs) -> None:
        """Write every entry of ``out`` (one observation per row of ``raw``): it comes
        uninitialised, since zeroing it first is a second pass over memory."""

    def mask(self, raw: Any) -> Any: ...


class TableEncoder(Encoder[V]):
    """An encoder with a game's byte tables (:class:`ByteTables`) and batch tables
    (:class:`BatchTables`): a single state is encoded from the bytes, batches through the
    raw matrix. A game supplies :attr:`tensors` and :meth:`make_batch`."""

    #: Batches of at least this many states go through the raw matrix (from two states on it
    #: is the faster way), smaller ones row by row.
    batch_from = 2
    _batch: BatchTables | None = None

    @property
    def tensors(self) -> ByteTables:
        raise NotImplementedError

    def make_batch(self, offsets: dict[str, int]) -> BatchTables:
        """The game's batch tables, writing each block at its offset in the vector."""
        raise NotImplementedError

    @property
    def batch(self) -> BatchTables:
        """The encoders of many states at once, made on first use."""
        if self._batch is None:
            offsets = {name: start for name, (start, _) in self.layout.blocks.items()}
            self._batch = self.make_batch(offsets)
        return self._batch

    def encode_batch(
        self, states: Sequence[GameState], seats: Sequence[int] | npt.NDArray[np.integer[Any]]
    ) -> tuple[Obs, Mask]:
        count = len(states)
        if count < self.batch_from:
            t = self.tensors
            parts: list[bytes] = []
            for state, seat in zip(states, seats, strict=True):
                parts += t.observation(state, int(seat))
            obs = np.frombuffer(bytearray().join(parts), np.float32).reshape(count, self.size)
            masks = bytearray().join([t.mask(state) for state in states])
            return obs, np.frombuffer(masks, np.int8).reshape(count, t.num_actions)
        b = self.batch
        raw = b.matrix(states)
        obs = np.empty((count, self.size), np.float32)  # the kernels write every entry
        b.encode(raw, np.asarray(seats, dtype=np.int64), obs)
        mask: Mask = b.mask(raw).view(np.int8)
        return obs, mask


def ordered(values: Mapping[str, Any], names: Sequence[str]) -> npt.NDArray[np.int64]:
    """``values[name]`` for each of ``names``, as one int64 array: how a compiled batch loop
    (which takes arrays, not dicts) gets named sizes and offsets, in the order its module
    declares."""
    return np.array([values[name] for name in names], np.int64)


@lru_cache(maxsize=32)
def repeated_struct(row: str, count: int) -> struct.Struct:
    """A little-endian :class:`struct.Struct` of ``count`` copies of ``row`` (struct codes):
    how the batch encoders pack a whole batch's ints in one call (faster than ``array()`` or
    numpy on a list), made once per row format and batch size."""
    return struct.Struct("<" + row * count)


def one_hot_bytes(index: int | None, size: int) -> bytes:
    """A float32 one-hot row of ``size`` as bytes (all zeros for ``None``): the pieces the
    games' byte tables are built from."""
    row = np.zeros(size, np.float32)
    if index is not None:
        row[index] = 1
    return row.tobytes()


def slot(player: int | None, observer: int, n: int) -> int:
    """Seat of ``player`` relative to ``observer`` (0 = observer); -1 for nobody."""
    return -1 if player is None or player < 0 else (player - observer) % n


__all__ = [
    "HIGH",
    "BatchTables",
    "ByteTables",
    "Encoder",
    "Ids",
    "Layout",
    "Mask",
    "Obs",
    "TableEncoder",
    "one_hot_bytes",
    "ordered",
    "repeated_struct",
    "slot",
]
