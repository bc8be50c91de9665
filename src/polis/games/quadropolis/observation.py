"""Observation encoding of a Quadropolis view (see :class:`QuadropolisEncoder`).

The encoder reads the typed :class:`~polis.games.quadropolis.view.QuadropolisView` (tile
indices, packed city squares), never its JSON; per-tile and per-square feature rows are
tabulated once at import, so encoding copies rows instead of decoding tiles.

The view encoding defines the features. The adapters ask for them (and for the legal-action
mask) straight from the state, through :meth:`QuadropolisEncoder.encode_state`,
``legal_mask``, ``legal_ids`` and ``encode_batch``, which use
:mod:`~polis.games.quadropolis.tensors`: byte tables for one table at a time, compiled loops
(:mod:`~polis.games.quadropolis.batch_kernels`) over a matrix of raw facts for batches. Both give
exactly the numbers of the view encoding and of ``legal_moves()`` (``tests/research``).
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Final

import numpy as np

from polis.core.parts.observation import Ids, Layout, Mask, Obs, TableEncoder, slot
from polis.games.quadropolis.scoring import use_compiled_keys
from polis.games.quadropolis.site import ARCHITECTS, BLOCKED, GEOMETRY, N_SPOTS, SITE
from polis.games.quadropolis.tiles import KIND_CODES, ROUNDS, T_EN, T_INH, T_KIND, T_MAYOR, TILES
from polis.games.quadropolis.view import QuadropolisView

if TYPE_CHECKING:
    from polis.core.protocol import GameState
    from polis.games.quadropolis.tensors import QuadropolisBatch, QuadropolisTensors

#: Building codes of formats §1.1, in feature order (kind k is feature k - 1).
Q_KINDS: Final = KIND_CODES[1:]
KINDS: Final = len(Q_KINDS)
SITE_SQUARES: Final = SITE * SITE
#: Features of one site square: empty, face-down, face-up, the kinds, gives inhabitants,
#: gives energy, printed VP, Mayor tile.
SITE_WIDTH: Final = 3 + KINDS + 4


def _site_rows() -> Obs:
    """Row ``t`` is face-up tile ``t``; row -1 (EMPTY) an empty square, row -2 (FACE_DOWN)
    a face-down tile (its back is not encoded: the tile is not in play, A5)."""
    rows = np.zeros((len(TILES) + 2, SITE_WIDTH), np.float32)
    for t in range(len(TILES)):
        rows[t, 2] = 1
        rows[t, 3 + T_KIND[t] - 1] = 1
        rows[t, 3 + KINDS] = T_INH[t]
        rows[t, 4 + KINDS] = T_EN[t]
        rows[t, 5 + KINDS] = TILES[t].vp
        rows[t, 6 + KINDS] = 1 if T_MAYOR[t] else 0
    rows[-1, 0] = 1
    rows[-2, 1] = 1
    return rows


def _cell_rows() -> Obs:
    """Row ``kind << 3 | floors`` (a packed city square): the kind one-hot and the floors."""
    rows = np.zeros((len(KIND_CODES) << 3, KINDS + 1), np.float32)
    for kind in range(1, len(KIND_CODES)):
        for floors in range(8):
            rows[kind << 3 | floors, kind - 1] = 1
            rows[kind << 3 | floors, -1] = floors
    return rows


SITE_ROWS: Final = _site_rows()
CELL_ROWS: Final = _cell_rows()


class QuadropolisEncoder(TableEncoder[QuadropolisView]):
    """Blocks (n = players, A = architects, N = city squares, R = rounds):

    ``round`` R one-hot, ``turn`` 4 one-hot, ``to_move`` / ``first_player`` / ``mayor`` n
    one-hot slots, ``finished`` flag; ``site`` 25 x [empty, face-down, face-up, 9 kinds
    T O S U P p F H M, gives inhabitants, gives energy, printed VP, Mayor tile];
    ``spots`` 20 x [taken, A architect one-hot, n owner slot, blocked by the Urbanist];
    ``urbanist`` 26 one-hot (25 squares, beside the board); ``architects`` n x A (Classic:
    own architects not yet used; Expert: row 0 holds the pool count of each number);
    ``cities`` n x N x [9 kinds, floors]; ``resources`` n x [inhabitants, energy].
    """

    def __init__(self, mode: str, players: int) -> None:
        architects = ARCHITECTS[mode]
        self.mode, self.n, self.arch = mode, players, architects
        self.squares = GEOMETRY[mode].size
        self.rounds = ROUNDS[mode]
        lay = Layout()
        lay.add("round", self.rounds)
        lay.add("turn", 4)
        lay.add("to_move", players)
        lay.add("first_player", players)
        lay.add("mayor", players)
        lay.add("finished", 1)
        lay.add("site", SITE_SQUARES, SITE_WIDTH)
        lay.add("spots", N_SPOTS, 1 + architects + players + 1)
        lay.add("urbanist", SITE_SQUARES + 1)
        lay.add("architects", players, architects)
        lay.add("cities", players, self.squares, KINDS + 1)
        lay.add("resources", players, 2)
        self.layout = lay
        from polis.games.quadropolis.tensors import shared_tensors

        #: The byte tables of this table kind (made once per process: a few ms).
        self._fast: QuadropolisTensors = shared_tensors(mode, players)
        # Research environments finish games by the thousand: with numba installed (their
        # extras), results take their totals and places from the compiled scorer.
        if importlib.util.find_spec("numba") is not None:
            use_compiled_keys()

    # -- straight from the state (same numbers, no view) ----------------------------------------
    @property
    def tensors(self) -> QuadropolisTensors:
        """The byte-table encoders of this table (:mod:`~polis.games.quadropolis.tensors`)."""
        return self._fast

    def encode_state(self, state: GameState, seat: int, *, public: bool = False) -> Obs:
        # Quadropolis has no private facts: a spectator seated at ``seat`` sees the same.
        parts = self._fast.observation(state, seat)  # type: ignore[arg-type]
        return np.frombuffer(bytearray().join(parts), np.float32)

    def legal_mask(self, state: GameState) -> Mask:
        rows = self._fast.mask_rows(state)  # type: ignore[arg-type]
        mask: Mask = rows.reshape(-1).view(np.int8)
        return mask

    def legal_ids(self, state: GameState) -> Ids:
        return self._fast.legal_ids(state)  # type: ignore[arg-type]

    def make_batch(self, offsets: dict[str, int]) -> QuadropolisBatch:
        """The encoders of many states at once (:mod:`~polis.games.quadropolis.tensors`)."""
        from polis.games.quadropolis.tensors import QuadropolisBatch

        return QuadropolisBatch(self.mode, self.n, offsets)

    def fill(self, b: dict[str, Obs], view: QuadropolisView, me: int) -> None:
        n = self.n
        # order[s]: the player at relative seat s
        order = [(me + s) % n for s in range(n)]
        b["round"][min(view.round, self.rounds) - 1] = 1
        b["turn"][view.turn - 1] = 1
        cur = slot(view.current_player, me, n)
        if cur >= 0:
            b["to_move"][cur] = 1
        b["first_player"][slot(view.first_player, me, n)] = 1
        b["mayor"][slot(view.mayor, me, n)] = 1
        b["finished"][0] = 1.0 if view.finished else 0.0
        b["site"][:] = SITE_ROWS[np.fromiter(view.site, np.intp, SITE_SQUARES)]
        spots = b["spots"]
        owner = 1 + self.arch
        for s, v in enumerate(view.spots):
            if v:
                spots[s, 0] = 1
                spots[s, v & 7] = 1
                spots[s, owner + slot(v >> 3, me, n)] = 1
        blocked = BLOCKED[view.urbanist]
        if blocked:
            for s in range(N_SPOTS):
                if blocked >> s & 1:
                    spots[s, -1] = 1
        b["urbanist"][view.urbanist if view.urbanist >= 0 else SITE_SQUARES] = 1
        arch = b["architects"]
        if view.pool:
            arch[0, :] = view.pool[1:]
        else:
            for s, p in enumerate(order):
                used = view.used[p]
                for k in range(1, self.arch + 1):
                    if not used >> k & 1:
                        arch[s, k - 1] = 1
        cells = np.fromiter(view.cells, np.intp, n * self.squares).reshape(n, self.squares)
        b["cities"][:] = CELL_ROWS[cells[order]]
        res = b["resources"]
        res[:, 0] = [view.inhabitants[p] for p in order]
        res[:, 1] = [view.energy[p] for p in order]


if TYPE_CHECKING:
    from polis.core.parts import ObservationFactory

    _PART: ObservationFactory = QuadropolisEncoder  # mypy checks it against the interface


__all__ = ["QuadropolisEncoder"]
