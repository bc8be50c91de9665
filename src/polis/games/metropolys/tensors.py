"""Metropolys observations and legal-action masks straight from engine states, as bytes.

The view encoder (:mod:`~polis.games.metropolys.observation`) defines every feature, from a
typed view; building that view costs more than encoding it, and numpy's per-call overhead
dwarfs arrays this small. So this module reads the state's own lists and assembles each
observation from rows tabulated once per table (mode and player count): every field row is
three ready ``float32`` byte strings (in play and token; who built or bid there, value and
last bid; colour and district), picked by C-level ``map`` and joined once. The legal mask
is one 55-byte row of bid-able fields per building value. The numbers are exactly the view
encoder's and ``legal_moves()``'s (``tests/research`` checks every position of many random
games, in every mode and player count).

Only the observing seat's own secret cards are read (``area_card``/``neighbourhood_card``
of the seat; none for a spectator), exactly as in its view.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Sequence
from functools import cache
from operator import add, itemgetter
from typing import Final

import numpy as np
import numpy.typing as npt

from polis.games.metropolys.board import ADJACENT_MASK, COLOUR, DISTRICTS, NUM_FIELDS
from polis.games.metropolys.moves import PASS_ID, VALUES
from polis.games.metropolys.observation import _AREA, _COLOUR, BOARD_ROWS, SUPPLY_ROWS
from polis.games.metropolys.setup import Setup
from polis.games.metropolys.state import MetropolysState

#: Field bytes: a free field, a field out of play, else player * 16 + value.
FREE_B: Final = 255
OUT_B: Final = 254
#: Added to a field's byte-code key when its building is a bid of this round / the last bid.
BID_KEY: Final = 64
LAST_KEY: Final = 128


def _f32(values: list[int]) -> bytes:
    return np.asarray(values, dtype=np.float32).tobytes()


def _one_hot(index: int | None, size: int) -> bytes:
    row = np.zeros(size, np.float32)
    if index is not None:
        row[index] = 1
    return row.tobytes()


@cache
def _by_value() -> list[int]:
    """by_value[supply >> 1]: a 1 at the first field of the rows of the values in supply, so
    ``fields * by_value[...]`` copies a 55-byte field row to each of them (made once)."""
    return [
        sum(1 << (8 * NUM_FIELDS * v) for v in range(VALUES) if mask >> v & 1)
        for mask in range(1 << VALUES)
    ]


class FieldRows(dict[int, bytes]):
    """The float32 row of one field seen from seat ``me``, by key ``(field * 4 + token dealt)
    << 8 | field byte`` (+ BID_KEY / LAST_KEY): in play, token still lying there, built-by
    or bid-by slot, value, last bid, colour, district. Rows are made when first asked for."""

    def __init__(self, players: int, me: int) -> None:
        super().__init__()
        self.n, self.me = players, me

    def __missing__(self, key: int) -> bytes:
        n = self.n
        f, dealt, code = key >> 10, key >> 8 & 3, key & 255
        row = np.zeros(4 + 2 * n + 2, np.float32)
        if code != OUT_B:
            row[0] = 1
            built = code < BID_KEY
            if code != FREE_B:
                c = code & (BID_KEY - 1)
                row[4 + ((c >> 4) - self.me) % n + (0 if built else n)] = 1
                row[4 + 2 * n] = c & 15
                row[4 + 2 * n + 1] = 1 if code & LAST_KEY else 0
            if dealt and not built:  # a token leaves only with the building (§5.2)
                row[dealt] = 1
        out: bytes = row.tobytes() + BOARD_ROWS[f].tobytes()
        self[key] = out
        return out


class MetropolysTensors:
    """Byte tables and encoders of one mode and player count."""

    def __init__(self, mode: str, players: int) -> None:
        n = players
        self.mode, self.n = mode, n
        self.num_actions = PASS_ID + 1
        self.slot = [
            [_one_hot((p - me) % n, n) for p in range(n)] + [_one_hot(None, n)] for me in range(n)
        ]
        #: n + 1 one-hots: the holder's slot, or nobody (index -1).
        self.holder = [
            [_one_hot((p - me) % n, n + 1) for p in range(n)] + [_one_hot(n, n + 1)]
            for me in range(n)
        ]
        #: A 0/1 float.
        self.flag = (_one_hot(None, 1), _one_hot(0, 1))
        self._unused: dict[tuple[str, ...], bytes] = {}
        # Field rows, looked up by field, the token dealt there and the field's byte key.
        self.fields = [FieldRows(n, me) for me in range(n)]
        self._bases: dict[int, tuple[object, tuple[int, ...]]] = {}
        self.bid_value = [_one_hot(v, VALUES + 1) for v in range(VALUES + 1)]
        self.supply = [row.tobytes() for row in SUPPLY_ROWS]
        self.pack_counts = struct.Struct(f"<{4 * n}f").pack
        self.area = {card: _one_hot(i, len(_AREA)) for card, i in _AREA.items()}
        self.no_area = _one_hot(None, len(_AREA))
        self.colour = {c: _one_hot(i, len(_COLOUR)) for c, i in _COLOUR.items()}
        self.no_colour = _one_hot(None, len(_COLOUR))
        orders = [tuple((me + s) % n for s in range(n)) for me in range(n)]
        #: in_order[me](per-player list): the entries of the players from seat ``me`` on.
        self.in_order = [itemgetter(*order) for order in orders]
        self.collected_in_order = [
            itemgetter(*[p * 4 + i for p in order for i in (1, 2, 3)]) for order in orders
        ]
        #: passed[me][bit mask]: the ``passed`` flags of the players from seat ``me`` on.
        self.passed = [
            [_f32([mask >> p & 1 for p in order]) for mask in range(1 << n)] for order in orders
        ]
        # Mask tables.
        free = bytearray(256)
        free[FREE_B] = 1
        self.free_byte = bytes(free)
        self.adjacent = [
            int.from_bytes(bytes(m >> g & 1 for g in range(NUM_FIELDS)), "little")
            for m in ADJACENT_MASK
        ]
        self.by_value = _by_value()
        self.no_moves = bytes(self.num_actions)
        assert len(COLOUR) == NUM_FIELDS

    def _base(self, setup: Setup) -> tuple[int, ...]:
        """Per field, the first key of its rows given the token dealt there (cached per
        set-up object, which every clone of a game shares; the entry keeps it alive)."""
        found = self._bases.get(id(setup))
        if found is not None and found[0] is setup:
            return found[1]
        if len(self._bases) >= 1024:  # one entry per game: keep the memory bounded
            self._bases.clear()
        base = tuple((f * 4 + token) << 8 for f, token in enumerate(setup.tokens))
        self._bases[id(setup)] = (setup, base)
        return base

    def _unused_row(self, unused: tuple[str, ...]) -> bytes:
        row = self._unused.get(unused)
        if row is None:
            flags = np.zeros(len(DISTRICTS), np.float32)
            for d in unused:
                flags[DISTRICTS.index(d)] = 1
            row = self._unused[unused] = flags.tobytes()
        return row

    def observation(self, state: MetropolysState, me: int, public: bool = False) -> list[bytes]:
        """The observation of seat ``me`` (with ``public``: of a spectator seated there) as
        float32 byte strings, in layout order."""
        s = state
        setup = s._facts.setup
        cur = s._current
        slot = self.slot[me]
        parts = [slot[cur], slot[s._start], self.flag[cur < 0], self._unused_row(setup.unused)]
        cells = array("b", s._cells).tobytes()  # free -1 -> 255, out of play -2 -> 254
        keys = bytearray(cells)
        bids = s._bids
        for f in bids:
            keys[f] |= BID_KEY
        if bids:
            last = bids[-1]
            keys[last] |= LAST_KEY
            parts_bid = self.bid_value[s._cells[last] & 15]
        else:
            parts_bid = self.bid_value[0]
        # A token leaves its field only when the field is built (§5.2), so the field's key and
        # the token dealt there tell which token still lies on it.
        parts += map(self.fields[me].__getitem__, map(add, self._base(setup), keys))
        parts.append(parts_bid)
        parts.append(self.passed[me][s._passed])
        in_order = self.in_order[me]
        parts += map(self.supply.__getitem__, in_order(s._supply))
        packed = self.pack_counts(*in_order(s._built), *self.collected_in_order[me](s._collected))
        n = self.n
        parts += (packed[: 4 * n], packed[4 * n :])
        holder = self.holder[me]
        parts += (holder[s._metro_holder], holder[s._archaeology_holder])
        if public:
            parts += (self.no_area, self.no_colour)
        else:
            colours = setup.neighbourhood_cards
            parts.append(self.area[setup.area_cards[me]])
            parts.append(self.no_colour if colours is None else self.colour[colours[me]])
        return parts

    def mask(self, state: MetropolysState) -> bytes:
        """The legal-action mask of the player to move, one byte (0/1) per action id."""
        s = state
        cur = s._current
        if cur < 0:
            return self.no_moves
        cells = s._cells
        free = int.from_bytes(array("b", cells).tobytes().translate(self.free_byte), "little")
        supply = s._supply[cur]
        bids = s._bids
        if bids:
            last = bids[-1]
            free &= self.adjacent[last]
            supply &= -1 << ((cells[last] & 15) + 1)  # only higher values (§5.1.2)
            tail = b"\x01"
        else:
            tail = b"\x00"
        return (free * self.by_value[supply >> 1]).to_bytes(PASS_ID, "little") + tail


# -- many tables at once ------------------------------------------------------------------------
Ints = npt.NDArray[np.int64]
Int8s = npt.NDArray[np.int8]
Floats = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]

#: Columns of a raw row before the lists: player to move, start player, passed bit mask,
#: last bid field (-1: none), metro and archaeology card holders (-1: nobody), unused
#: districts bit mask, a spare 0; then the secret cards, the fields, bid flags, tokens,
#: supplies (2 bytes each), buildings built and tokens collected.
HEAD: Final = 8
#: ADJACENT_ROWS[field] (index -1: every field): the fields a raise over ``field`` may take.
ADJACENT_ROWS: Final = np.array(
    [[m >> g & 1 for g in range(NUM_FIELDS)] for m in ADJACENT_MASK] + [[1] * NUM_FIELDS],
    dtype=np.bool_,
)
UNUSED_ROWS: Final = np.array(
    [[m >> d & 1 for d in range(len(DISTRICTS))] for m in range(1 << len(DISTRICTS))],
    dtype=np.float32,
)
TOKEN_ROWS: Final = np.eye(4, dtype=np.float32)[:, 1:]
ALL_VALUES: Final = np.arange(1, VALUES + 1)


class MetropolysBatch:
    """Many states at once: one row of small ints per state (:meth:`raw_row`, as int8 bytes:
    a list of ints costs more to turn into an array than to write), one matrix per batch,
    every block and the masks computed for all rows with numpy (the per-call cost of numpy
    is paid once per batch, not once per table)."""

    def __init__(self, mode: str, players: int, offsets: dict[str, int]) -> None:
        n = self.n = players
        self.mode = mode
        self.offsets = offsets
        self.num_actions = PASS_ID + 1
        self.c_cards = HEAD
        self.c_cells = HEAD + 2 * n
        self.c_bids = self.c_cells + NUM_FIELDS
        self.c_tokens = self.c_bids + NUM_FIELDS
        self.c_supply = self.c_tokens + NUM_FIELDS  # 2 bytes per player (a 14-bit mask)
        self.c_built = self.c_supply + 2 * n
        self.c_collected = self.c_built + n
        self.width = self.c_collected + 4 * n
        self.field_width = 4 + 2 * n + 2 + BOARD_ROWS.shape[1]
        self._facts: dict[int, tuple[Setup, bytes]] = {}

    def raw_row(self, s: MetropolysState) -> bytes:
        """The facts of ``s`` the batch encoders read (every player's secret cards too: the
        encoder picks the observing seat's own), as int8 bytes (supplies as uint16)."""
        bids = s._bids
        flags = bytearray(NUM_FIELDS)
        for f in bids:
            flags[f] = 1
        head = array(
            "b",
            (
                s._current,
                s._start,
                s._passed,
                bids[-1] if bids else -1,
                s._metro_holder,
                s._archaeology_holder,
            ),
        ).tobytes()
        return b"".join(
            (
                head,
                self._game_facts(s._facts.setup),
                array("b", s._cells).tobytes(),
                flags,
                bytes(s._tokens),
                array("H", s._supply).tobytes(),
                bytes(s._built),
                bytes(s._collected),
            )
        )

    def _game_facts(self, setup: Setup) -> bytes:
        """The columns fixed for a whole game (unused districts, a spare 0, every player's
        secret cards), cached per set-up object (the entry keeps it alive)."""
        found = self._facts.get(id(setup))
        if found is not None and found[0] is setup:
            return found[1]
        if len(self._facts) >= 1024:  # one entry per game: keep the memory bounded
            self._facts.clear()
        unused = 0
        for d in setup.unused:
            unused |= 1 << DISTRICTS.index(d)
        row = [unused, 0, *[_AREA[c] for c in setup.area_cards]]
        colours = setup.neighbourhood_cards
        row += [-1] * self.n if colours is None else [_COLOUR[c] for c in colours]
        packed = array("b", row).tobytes()
        self._facts[id(setup)] = (setup, packed)
        return packed

    def matrix(self, states: Sequence[MetropolysState]) -> Int8s:
        """The raw rows of ``states`` as one int8 matrix (supplies: :meth:`supplies`)."""
        rows = b"".join([self.raw_row(s) for s in states])
        return np.frombuffer(rows, np.int8).reshape(len(states), self.width)

    def supplies(self, raw: Int8s) -> Ints:
        """Each player's supply bit mask [rows, players]."""
        cols = np.ascontiguousarray(raw[:, self.c_supply : self.c_built])
        supply: Ints = cols.view(np.uint16).astype(np.int64)
        return supply

    def encode(self, raw8: Int8s, seats: Ints, out: Floats) -> None:
        """Write the observations of ``seats`` (one per row of ``raw``) into zeroed ``out``."""
        n = self.n
        o = self.offsets
        count = raw8.shape[0]
        rows = np.arange(count)
        me = seats
        order = (me[:, None] + np.arange(n)) % n
        supplies = self.supplies(raw8)
        raw = raw8.astype(np.int64)
        cur, last = raw[:, 0], raw[:, 3]
        out[rows, o["to_move"] + (cur - me) % n] = cur >= 0
        out[rows, o["start_player"] + (raw[:, 1] - me) % n] = 1
        out[:, o["terminal"]] = cur < 0
        out[:, o["unused"] : o["unused"] + len(DISTRICTS)] = UNUSED_ROWS[raw[:, 6]]
        cells = raw[:, self.c_cells : self.c_bids]
        width = self.field_width
        start = o["fields"]
        fields = out[:, start : start + NUM_FIELDS * width].reshape(count, NUM_FIELDS, width)
        fields[:, :, 0] = cells != -2
        fields[:, :, 1:4] = TOKEN_ROWS[raw[:, self.c_tokens : self.c_supply]]
        built = cells >= 0
        bid = raw[:, self.c_bids : self.c_tokens]
        who = 4 + ((cells >> 4) - me[:, None]) % n + n * bid
        np.put_along_axis(fields, who[:, :, None], built[:, :, None], axis=2)
        fields[:, :, 4 + 2 * n] = np.where(built, cells & 15, 0)
        fields[:, :, 4 + 2 * n + 2 :] = BOARD_ROWS
        with_bid = last >= 0
        fields[rows[with_bid], last[with_bid], 4 + 2 * n + 1] = 1
        value = np.where(with_bid, cells[rows, last] & 15, 0)
        out[rows, o["bid_value"] + value] = 1
        out[:, o["passed"] : o["passed"] + n] = (raw[:, 2:3] >> order) & 1
        supply = np.take_along_axis(supplies, order, axis=1)
        flat = SUPPLY_ROWS[supply].reshape(count, -1)
        out[:, o["supplies"] : o["supplies"] + flat.shape[1]] = flat
        out[:, o["built"] : o["built"] + n] = np.take_along_axis(
            raw[:, self.c_built : self.c_collected], order, axis=1
        )
        collected = raw[:, self.c_collected : self.width].reshape(count, n, 4)[:, :, 1:]
        collected = np.take_along_axis(collected, order[:, :, None], axis=1)
        out[:, o["tokens"] : o["tokens"] + 3 * n] = collected.reshape(count, -1)
        for key, column in (("metro_card", 4), ("archaeology_card", 5)):
            holder = raw[:, column]
            out[rows, o[key] + np.where(holder < 0, n, (holder - me) % n)] = 1
        cards = raw[:, self.c_cards : self.c_cells]
        out[rows, o["area_card"] + cards[rows, me]] = 1
        colour = cards[rows, n + me]
        has = colour >= 0
        out[rows[has], o["neighbourhood_card"] + colour[has]] = 1

    def mask(self, raw: Int8s) -> Bools:
        """The legal-action masks [rows, actions] of the players to move (zeros when over)."""
        count = raw.shape[0]
        rows = np.arange(count)
        cur, last = raw[:, 0].astype(np.int64), raw[:, 3].astype(np.int64)
        cells = raw[:, self.c_cells : self.c_bids].astype(np.int64)
        fields = (cells == -1) & ADJACENT_ROWS[last]
        supply = self.supplies(raw)[rows, np.maximum(cur, 0)]
        lowest = np.where(last >= 0, cells[rows, last] & 15, 0)
        values = (SUPPLY_ROWS[supply] != 0) & (lowest[:, None] < ALL_VALUES) & (cur >= 0)[:, None]
        out = np.empty((count, self.num_actions), np.bool_)
        out[:, :PASS_ID] = (values[:, :, None] & fields[:, None, :]).reshape(count, PASS_ID)
        out[:, PASS_ID] = (last >= 0) & (cur >= 0)
        return out


__all__ = ["MetropolysBatch", "MetropolysTensors"]
