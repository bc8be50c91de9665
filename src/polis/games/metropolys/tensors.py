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
from collections.abc import Sequence
from functools import cache
from itertools import compress, islice
from operator import getitem, itemgetter
from typing import Final

import numpy as np
import numpy.typing as npt

from polis.core.parts.observation import one_hot_bytes, ordered, repeated_struct
from polis.games.metropolys.board import ADJACENT_MASK, COLOUR, DISTRICTS, NUM_FIELDS
from polis.games.metropolys.moves import PASS_ID, VALUES
from polis.games.metropolys.observation import _AREA, _COLOUR, BOARD_ROWS, SUPPLY_ROWS
from polis.games.metropolys.setup import Setup
from polis.games.metropolys.state import FREE, OUT_OF_PLAY, MetropolysState

#: The field numbers, for picking the n-th free field.
FIELD_NUMBERS: Final = range(NUM_FIELDS)
#: Added to a field's byte-code key when its building is a bid of this round / the last bid.
BID_KEY: Final = 64
LAST_KEY: Final = 128


def _f32(values: list[int]) -> bytes:
    return np.asarray(values, dtype=np.float32).tobytes()


class FieldRows(dict[int, bytes]):
    """The float32 rows of one field with one token dealt there, seen from seat ``me``, by
    the field's byte (+ BID_KEY / LAST_KEY): in play, token still lying there, built-by or
    bid-by slot, value, last bid, colour, district. Rows are made when first asked for; keys
    are small ints, so looking a field's row up allocates nothing."""

    def __init__(self, players: int, me: int, field: int, dealt: int) -> None:
        super().__init__()
        self.n, self.me, self.field, self.dealt = players, me, field, dealt

    def __missing__(self, code: int) -> bytes:
        n, dealt = self.n, self.dealt
        row = np.zeros(4 + 2 * n + 2, np.float32)
        if code != OUT_OF_PLAY:
            row[0] = 1
            built = code < BID_KEY
            if code != FREE:
                c = code & (BID_KEY - 1)
                row[4 + ((c >> 4) - self.me) % n + (0 if built else n)] = 1
                row[4 + 2 * n] = c & 15
                row[4 + 2 * n + 1] = 1 if code & LAST_KEY else 0
            if dealt and not built:  # a token leaves only with the building (§5.2)
                row[dealt] = 1
        out: bytes = row.tobytes() + BOARD_ROWS[self.field].tobytes()
        self[code] = out
        return out


class MetropolysTensors:
    """Byte tables and encoders of one mode and player count."""

    def __reduce__(self) -> tuple[object, tuple[str, int]]:
        """Pickled as its table kind: unpickling gives the process's shared tables (the
        caches are not worth carrying, and some tables cannot be pickled)."""
        return shared_tensors, (self.mode, self.n)

    def __init__(self, mode: str, players: int) -> None:
        n = players
        self.mode, self.n = mode, n
        self.num_actions = PASS_ID + 1
        self.slot = [
            [one_hot_bytes((p - me) % n, n) for p in range(n)] + [one_hot_bytes(None, n)]
            for me in range(n)
        ]
        #: n + 1 one-hots: the holder's slot, or nobody (index -1).
        self.holder = [
            [one_hot_bytes((p - me) % n, n + 1) for p in range(n)] + [one_hot_bytes(n, n + 1)]
            for me in range(n)
        ]
        #: A 0/1 float.
        self.flag = (one_hot_bytes(None, 1), one_hot_bytes(0, 1))
        self._unused: dict[tuple[str, ...], bytes] = {}
        # Field rows, looked up by seat, field and the token dealt there, then the field's byte.
        self.fields = [
            [FieldRows(n, me, f, token) for f in range(NUM_FIELDS) for token in range(4)]
            for me in range(n)
        ]
        self._bases: dict[int, tuple[object, list[tuple[FieldRows, ...]]]] = {}
        self.bid_value = [one_hot_bytes(v, VALUES + 1) for v in range(VALUES + 1)]
        self.supply = [row.tobytes() for row in SUPPLY_ROWS]
        self.pack_counts = struct.Struct(f"<{4 * n}f").pack
        self.area = {card: one_hot_bytes(i, len(_AREA)) for card, i in _AREA.items()}
        self.no_area = one_hot_bytes(None, len(_AREA))
        self.colour = {c: one_hot_bytes(i, len(_COLOUR)) for c, i in _COLOUR.items()}
        self.no_colour = one_hot_bytes(None, len(_COLOUR))
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
        free[FREE] = 1
        self.free_byte = bytes(free)
        self.adjacent = [
            int.from_bytes(bytes(m >> g & 1 for g in range(NUM_FIELDS)), "little")
            for m in ADJACENT_MASK
        ]
        self._selectors: dict[int, bytes] = {}
        self._values: dict[int, tuple[int, ...]] = {}
        self.pad = bytes(256 - NUM_FIELDS)
        self.no_moves = bytes(self.num_actions)
        assert len(COLOUR) == NUM_FIELDS

    def _base(self, setup: Setup) -> list[tuple[FieldRows, ...]]:
        """Per seat, per field, its rows given the token dealt there (cached per set-up
        object, which every clone of a game shares; the entry keeps it alive)."""
        found = self._bases.get(id(setup))
        if found is not None and found[0] is setup:
            return found[1]
        if len(self._bases) >= 1024:  # one entry per game: keep the memory bounded
            self._bases.clear()
        keys = [f * 4 + token for f, token in enumerate(setup.tokens)]
        base = [tuple(map(rows.__getitem__, keys)) for rows in self.fields]
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
        keys = bytearray(s._cells)  # the state's bytes: free 255, out of play 254
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
        parts += map(getitem, self._base(setup)[me], keys)
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
        cur = state._current
        if cur < 0:
            return self.no_moves
        free, supply, can_pass = self._open(state, cur)
        # One row of the free fields per value in supply: the value's selector row picks
        # field bytes 0-54, a value not in supply picks byte 255 (0) throughout.
        selector = self._selectors.get(supply)
        if selector is None:
            selector = self._selector(supply)
        return selector.translate(free + self.pad) + (b"\x01" if can_pass else b"\x00")

    def _open(self, s: MetropolysState, cur: int) -> tuple[bytes | bytearray, int, bool]:
        """What a bid of ``cur`` (the player to move, >= 0) may take: one byte per field, 1
        where it may go (free, and next to the last bid while a round is open); the supply
        bit mask of the values it may use; and whether it may pass (a round is open)."""
        cells = s._cells
        free: bytes | bytearray = cells.translate(self.free_byte)  # 1 where a field is free
        supply = s._supply[cur]
        bids = s._bids
        if not bids:
            return free, supply, False
        last = bids[-1]
        free = (int.from_bytes(free, "little") & self.adjacent[last]).to_bytes(NUM_FIELDS, "little")
        return free, supply & (-1 << ((cells[last] & 15) + 1)), True  # higher values (§5.1.2)

    def pick_legal_id(self, state: MetropolysState, draw: float) -> int:
        """The ``int(draw * n)``-th of the ``n`` ascending legal ids, counted instead of
        listed: ids run value by value, free field by free field, then the pass."""
        cur = state._current
        if cur < 0:
            raise IndexError("no legal action: the game is over")
        free, supply, can_pass = self._open(state, cur)
        values = self._values.get(supply)
        if values is None:  # the rows (value - 1) of the values in supply
            values = tuple(v - 1 for v in range(1, VALUES + 1) if supply >> v & 1)
            self._values[supply] = values
        nfree = free.count(1)
        bidding = len(values) * nfree
        # Never 0 while the game runs: an open round allows passing, and a new round opens
        # on a free field with a building in supply (else the game has ended, §7).
        i = int(draw * (bidding + can_pass))
        if i >= bidding:
            return PASS_ID
        row, nth = divmod(i, nfree)
        field: int = next(islice(compress(FIELD_NUMBERS, free), nth, None))
        return values[row] * NUM_FIELDS + field

    def _selector(self, supply: int) -> bytes:
        """The translate key of the mask rows of a supply bit mask (made when first met)."""
        fields, none = bytes(range(NUM_FIELDS)), b"\xff" * NUM_FIELDS
        key = b"".join(fields if supply >> v & 1 else none for v in range(1, VALUES + 1))
        if len(self._selectors) >= 4096:  # keep the memory bounded
            self._selectors.clear()
        self._selectors[supply] = key
        return key


@cache
def shared_tensors(mode: str, players: int) -> MetropolysTensors:
    """One MetropolysTensors per table kind for the whole process: the tables and their caches
    (filled as positions come) serve every encoder, environment and benchmark loop."""
    return MetropolysTensors(mode, players)


# -- many tables at once ------------------------------------------------------------------------
Ints = npt.NDArray[np.int64]
Int8s = npt.NDArray[np.int8]
Floats = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]

#: Columns of a raw row before the lists: player to move, start player, passed bit mask,
#: last bid field (-1: none), metro and archaeology card holders (-1: nobody), number of
#: bids this round, unused districts bit mask; then the secret cards, the fields, this
#: round's bid fields (padded to MAX_BIDS), the tokens dealt, supplies (2 bytes each),
#: buildings built and tokens collected.
HEAD: Final = 8
#: Bids of one round: each bid is higher than the last (§5.1.2), so at most one per value.
MAX_BIDS: Final = VALUES
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


class MetropolysBatch:
    """Many states at once: one row of small ints per state in one int8 matrix per batch
    (:meth:`matrix`), the observations and masks written from it by compiled loops
    (:mod:`~polis.games.metropolys.batch_kernels`)."""

    def __init__(self, mode: str, players: int, offsets: dict[str, int]) -> None:
        n = self.n = players
        self.mode = mode
        self.offsets = offsets
        self.num_actions = PASS_ID + 1
        self.c_cards = HEAD
        self.c_cells = HEAD + 2 * n
        self.c_bids = self.c_cells + NUM_FIELDS
        self.c_tokens = self.c_bids + MAX_BIDS
        self.c_supply = self.c_tokens + NUM_FIELDS  # 2 bytes per player (a 14-bit mask)
        self.c_built = self.c_supply + 2 * n
        self.c_collected = self.c_built + n
        self.width = self.c_collected + 4 * n
        self.field_width = 4 + 2 * n + 2 + BOARD_ROWS.shape[1]
        # table[token * field_keys + code]: in play, token one-hot, built-by / bid-by slot,
        # value; code 0 out of play, 1 free, 2 + (slot << 4 | value) << 1 | bid.
        self.field_head = 4 + 2 * n + 1
        self.field_keys = 2 + (n << 5)
        table = np.zeros((4 * self.field_keys, self.field_head), np.float32)
        for token in range(4):
            for code in range(self.field_keys):
                row = table[token * self.field_keys + code]
                row[1:4] = TOKEN_ROWS[token]
                if code:
                    row[0] = 1
                if code >= 2:
                    slot, value, bid = (code - 2) >> 5, (code - 2) >> 1 & 15, (code - 2) & 1
                    row[4 + slot + n * bid] = 1
                    row[4 + 2 * n] = value
        #: head_rows[token * field_keys + code]: the start of a field's row; the last-bid
        #: flag follows it, then the field's board columns (colour, district), which
        #: fields_template holds for all fields (zeros elsewhere). Two small tables, not one
        #: row per field and code: that one (1-3 MB) would not stay in cache.
        self.head_rows = table
        template = np.zeros((NUM_FIELDS, self.field_width), np.float32)
        template[:, self.field_head + 1 :] = BOARD_ROWS
        self.fields_template = template.reshape(-1)
        #: cell_code[me, cell byte]: a cell's code without the bid flag, seen from seat me
        #: (a free cell is byte 255, out of play 254).
        codes = np.zeros((n, 256), np.int64)
        for me in range(n):
            for byte in range(256):
                cell = byte - 256 if byte > 127 else byte
                slot = ((cell >> 4) - me) % n
                codes[me, byte] = ((slot << 4 | cell & 15) << 1) + 2 if cell >= 0 else cell + 2
        self.cell_code = codes
        #: holder_slot[me, holder + 1]: a card holder's slot, n for nobody.
        self.holder_slot = np.array(
            [[n] + [(p - me) % n for p in range(n)] for me in range(n)], np.int64
        )
        # What the compiled loops read: this object's sizes and columns and the observation's
        # block starts (numba is imported with the first batch: it is for batches only).
        from polis.games.metropolys import batch_kernels

        self.layout = ordered(vars(self), batch_kernels.LAYOUT)
        self.block_starts = ordered(offsets, batch_kernels.BLOCKS)
        self._facts: dict[int, tuple[Setup, tuple[int, ...], bytes]] = {}
        #: A raw row's struct codes: the head and fixed columns as signed bytes, the cells, the
        #: bid fields and the tokens dealt as byte strings (copied whole; the bids' padded
        #: with zeros), the supplies as uint16, the counts as unsigned bytes.
        self.row_format = f"{self.c_cells}b{NUM_FIELDS}s{MAX_BIDS}s{NUM_FIELDS}s{n}H{5 * n}B"

    def _setup_entry(self, setup: Setup) -> tuple[Setup, tuple[int, ...], bytes]:
        """The columns fixed for a whole game (unused districts, every player's secret cards)
        and the tokens dealt on the fields, stored in :attr:`_facts` by set-up object (the
        entry keeps it alive; :meth:`matrix` reads it)."""
        if len(self._facts) >= 1024:  # one entry per game: keep the memory bounded
            self._facts.clear()
        unused = 0
        for d in setup.unused:
            unused |= 1 << DISTRICTS.index(d)
        row = [unused, *[_AREA[c] for c in setup.area_cards]]
        colours = setup.neighbourhood_cards
        row += [-1] * self.n if colours is None else [_COLOUR[c] for c in colours]
        fixed = tuple(row)
        entry = self._facts[id(setup)] = (setup, fixed, bytes(setup.tokens))
        return entry

    def matrix(self, states: Sequence[MetropolysState]) -> Int8s:
        """The raw rows of ``states`` as one int8 matrix (the columns of :data:`HEAD`): every
        state's values joined into one flat list and packed once (:attr:`row_format`). Every
        player's secret cards are there: the encoder picks the observing seat's own."""
        values: list[object] = []
        cached = self._facts
        for s in states:
            bids = s._bids
            setup = s._facts.setup
            found = cached.get(id(setup))
            if found is None or found[0] is not setup:
                found = self._setup_entry(setup)
            values += (
                s._current,
                s._start,
                s._passed,
                bids[-1] if bids else -1,
                s._metro_holder,
                s._archaeology_holder,
                len(bids),
            )
            values += found[1]
            values += (s._cells, bytes(bids), found[2])
            values += s._supply
            values += s._built
            values += s._collected
        raw = np.empty((len(states), self.width), np.int8)
        repeated_struct(self.row_format, len(states)).pack_into(raw, 0, *values)  # type: ignore[arg-type]
        return raw

    def encode(self, raw8: Int8s, seats: Ints, out: Floats) -> None:
        """Write the observations of ``seats`` (one per row of ``raw``) into ``out`` (every entry):
        the field block from :attr:`fields_template`, each field's head from :attr:`head_rows`
        (by the token still lying there and the cell), the supplies from ``SUPPLY_ROWS``, then
        the counts and one-hots."""
        from polis.games.metropolys.batch_kernels import encode_rows

        encode_rows(
            raw8,
            seats,
            out,
            self.block_starts,
            self.layout,
            self.head_rows,
            self.fields_template,
            self.cell_code,
            self.holder_slot,
            SUPPLY_ROWS,
            UNUSED_ROWS,
        )

    def mask(self, raw: Int8s) -> Bools:
        """The legal-action masks [rows, actions] of the players to move (zeros when over)."""
        out = np.empty((raw.shape[0], self.num_actions), np.bool_)
        from polis.games.metropolys.batch_kernels import mask_rows

        mask_rows(raw, out, self.layout, ADJACENT_ROWS, PASS_ID)
        return out


__all__ = ["MetropolysBatch", "MetropolysTensors", "shared_tensors"]
