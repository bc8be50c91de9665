"""Observation encoding of a Metropolys view (see :class:`MetropolysEncoder`).

The encoder reads the typed :class:`~polis.games.metropolys.view.MetropolysView` (packed
fields, supply masks), never its JSON; the board's fixed features (colour, district) are
tabulated once at import.

The view encoding defines the features. The adapters ask for them (and for the legal-action
mask) straight from the state, through :meth:`MetropolysEncoder.encode_state`,
``legal_mask``, ``legal_ids`` and ``encode_batch``, which use
:mod:`~polis.games.metropolys.tensors`: byte tables for one table at a time, compiled loops
(:mod:`~polis.games.metropolys.batch_kernels`) over a matrix of raw facts for batches. Both give
exactly the numbers of the view encoding and of ``legal_moves()`` (``tests/research``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import numpy as np

from polis.core.parts.observation import Ids, Layout, Mask, Obs, TableEncoder, slot
from polis.games.metropolys.board import COLOUR, COLOURS, DISTRICT, DISTRICTS, TOKENS
from polis.games.metropolys.moves import FIELDS, VALUES
from polis.games.metropolys.view import MetropolysView

if TYPE_CHECKING:
    from polis.core.protocol import GameState
    from polis.games.metropolys.tensors import MetropolysBatch, MetropolysTensors

#: Area cards of both versions (Family uses the first four, Expert 0-2 and 4-5).
AREA_CARDS: Final = ("bridges", "statues", "lakes", "outskirts", "districts", "chains")
_AREA: Final = {c: i for i, c in enumerate(AREA_CARDS)}
_COLOUR: Final = {c: i for i, c in enumerate(COLOURS)}
#: cells[f] of a field out of play.
_OUT_OF_PLAY: Final = -2


def _board_rows() -> Obs:
    """Per field: its colour one-hot, then its district one-hot."""
    rows = np.zeros((FIELDS, len(COLOURS) + len(DISTRICTS)), np.float32)
    for f in range(FIELDS):
        rows[f, _COLOUR[COLOUR[f]]] = 1
        rows[f, len(COLOURS) + DISTRICT[f]] = 1
    return rows


BOARD_ROWS: Final = _board_rows()
#: Row = a supply bit mask (bit v = building v): a flag per building value 1-13.
SUPPLY_ROWS: Final = (
    (np.arange(1 << (VALUES + 1))[:, None] >> np.arange(1, VALUES + 1)) & 1
).astype(np.float32)


class MetropolysEncoder(TableEncoder[MetropolysView]):
    """Blocks (n = players):

    ``to_move`` / ``start_player`` n one-hot slots, ``terminal`` flag, ``unused`` 5 district
    flags; ``fields`` 55 x [in play, 3 token types still lying there, n built-by slot, n
    bid-by slot, building value (0-13), last bid, 5 colours, 5 districts]; ``bid_value``
    14 one-hot (0 = no bid yet this round); ``passed`` n; ``supplies`` n x 13 (building
    value still in supply); ``built`` n counts; ``tokens`` n x 3 counts collected;
    ``metro_card`` / ``archaeology_card`` n+1 one-hot (last = nobody); ``area_card`` 6
    one-hot and ``neighbourhood_card`` 5 one-hot: the observer's own secret cards only.
    """

    def __init__(self, mode: str, players: int) -> None:
        self.mode, self.n = mode, players
        lay = Layout()
        lay.add("to_move", players)
        lay.add("start_player", players)
        lay.add("terminal", 1)
        lay.add("unused", len(DISTRICTS))
        self.field_width = 1 + len(TOKENS) + 2 * players + 2 + len(COLOURS) + len(DISTRICTS)
        lay.add("fields", FIELDS, self.field_width)
        lay.add("bid_value", VALUES + 1)
        lay.add("passed", players)
        lay.add("supplies", players, VALUES)
        lay.add("built", players)
        lay.add("tokens", players, len(TOKENS))
        lay.add("metro_card", players + 1)
        lay.add("archaeology_card", players + 1)
        lay.add("area_card", len(AREA_CARDS))
        lay.add("neighbourhood_card", len(COLOURS))
        self.layout = lay
        from polis.games.metropolys.tensors import shared_tensors

        #: The byte tables of this table kind (made once per process: a few ms).
        self._fast: MetropolysTensors = shared_tensors(mode, players)

    # -- straight from the state (same numbers, no view) ----------------------------------------
    @property
    def tensors(self) -> MetropolysTensors:
        """The byte-table encoders of this table (:mod:`~polis.games.metropolys.tensors`)."""
        return self._fast

    def encode_state(self, state: GameState, seat: int, *, public: bool = False) -> Obs:
        parts = self._fast.observation(state, seat, public)  # type: ignore[arg-type]
        return np.frombuffer(bytearray().join(parts), np.float32)

    def legal_mask(self, state: GameState) -> Mask:
        return np.frombuffer(bytearray(self._fast.mask(state)), np.int8)  # type: ignore[arg-type]

    def legal_ids(self, state: GameState) -> Ids:
        mask = np.frombuffer(self._fast.mask(state), np.bool_)  # type: ignore[arg-type]
        ids: Ids = mask.nonzero()[0]
        return ids

    def pick_legal_id(self, state: GameState, draw: float) -> int:
        return self._fast.pick_legal_id(state, draw)  # type: ignore[arg-type]

    def make_batch(self, offsets: dict[str, int]) -> MetropolysBatch:
        """The encoders of many states at once (:mod:`~polis.games.metropolys.tensors`)."""
        from polis.games.metropolys.tensors import MetropolysBatch

        return MetropolysBatch(self.mode, self.n, offsets)

    def fill(self, b: dict[str, Obs], view: MetropolysView, me: int) -> None:
        n = self.n
        # order[s]: the player at relative seat s
        order = [(me + s) % n for s in range(n)]
        cur = slot(view.current_player, me, n)
        if cur >= 0:
            b["to_move"][cur] = 1
        b["start_player"][slot(view.start_player, me, n)] = 1
        b["terminal"][0] = 1 if view.finished else 0
        for d in view.unused_districts:
            b["unused"][DISTRICTS.index(d)] = 1
        fields = b["fields"]
        value = 4 + 2 * n
        fields[:, 0] = 1
        fields[:, value + 2 :] = BOARD_ROWS
        bids = view.bids
        # Per-element writes: cheaper than numpy's vector calls at this size.
        for f, (c, token) in enumerate(zip(view.cells, view.tokens, strict=True)):
            if c >= 0:
                who = ((c >> 4) - me) % n
                fields[f, 4 + (n + who if f in bids else who)] = 1  # bid-by / built-by slot
                fields[f, value] = c & 15
            elif c == _OUT_OF_PLAY:
                fields[f, 0] = 0
            if token:
                fields[f, token] = 1  # token code 1-3 is its feature column
        if bids:
            last = bids[-1]
            fields[last, value + 1] = 1
            b["bid_value"][view.cells[last] & 15] = 1
        else:
            b["bid_value"][0] = 1
        passed, supplies, built, tokens = b["passed"], b["supplies"], b["built"], b["tokens"]
        for s, p in enumerate(order):
            passed[s] = view.passed >> p & 1
            supplies[s] = SUPPLY_ROWS[view.supplies[p]]
            built[s] = view.built[p]
            tokens[s] = view.collected[p * 4 + 1 : p * 4 + 4]
        for key, holder in (
            ("metro_card", view.metro_card),
            ("archaeology_card", view.archaeology_card),
        ):
            b[key][n if holder < 0 else slot(holder, me, n)] = 1
        if view.area_card is not None:
            b["area_card"][_AREA[view.area_card]] = 1
        if view.neighbourhood_card is not None:
            b["neighbourhood_card"][_COLOUR[view.neighbourhood_card]] = 1


if TYPE_CHECKING:
    from polis.core.parts import ObservationFactory

    _PART: ObservationFactory = MetropolysEncoder  # mypy checks it against the interface


__all__ = ["AREA_CARDS", "MetropolysEncoder"]
