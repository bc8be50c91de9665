"""Quadropolis observations and legal-action masks straight from engine states, as bytes.

The view encoder (:mod:`~polis.games.quadropolis.observation`) defines every feature, from
a typed view; building that view costs more than encoding it, and numpy's per-call overhead
dwarfs arrays this small. So this module reads the state's own lists and assembles each
observation from rows tabulated once per table (mode and player count): every site square,
spot, city square and one-hot is a ready ``float32`` byte string, picked by C-level ``map``
and joined once (one numpy call per observation, or per batch); a city's rows are joined
once and cached per city (a city changes only when its owner builds). The legal mask is a
table of rows, one per (architect, class of the selected square) pair, worked out for the
player's city for all architects at once (the city's square keys repeated once per
architect with its reach and number, then one ``translate`` per class) and cached per
city, from which one numpy ``take`` picks the row of every (architect, spot) pair; the
pairs' row indices come from byte ``translate`` calls on the site. The numbers are exactly the
view encoder's and ``legal_moves()``'s (``tests/research`` checks every position of many
random games, in every mode, player count and rules option).

Nothing hidden enters: a tile face down with this many players picks the face-down row (the
view's FACE_DOWN), so its identity reaches no feature and no mask. Quadropolis has no
private facts, so a seat's observation and a spectator's (seated there) are the same.

The mask follows :meth:`QuadropolisState.legal_moves` rule by rule: an architect available to
the player (§5.1) on a free spot (§5.1: not occupied, not blocked by the Urbanist) selects a
site square (§5.2); a face-up tile there gives the squares of the player's city where it may
be built (§6) plus discard; an empty square (or a face-down tile, unless A5 "unselectable"
and some architect can select something else) gives the "nothing taken" move.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Sequence
from functools import cache
from operator import add
from typing import Final

import numpy as np
import numpy.typing as npt

from polis.core.parts.observation import one_hot_bytes, ordered, repeated_struct
from polis.games.quadropolis.moves import STRIDE
from polis.games.quadropolis.observation import CELL_ROWS, SITE_ROWS
from polis.games.quadropolis.site import ARCHITECTS, BLOCKED, GEOMETRY, MAX_FLOORS, N_SPOTS, SELECT
from polis.games.quadropolis.state import QuadropolisState
from polis.games.quadropolis.tiles import FACE_UP, ROUNDS, T_KIND, TILES

#: Mask classes of a site square: nothing there, a face-down tile, a Tower Block, an Office
#: Tower, another building.
EMPTY_C, DOWN_C, TOWER_C, OFFICE_C, OTHER_C = range(5)
#: Added to the row index of an (architect, spot) pair that may not be played (a zero row).
INVALID: Final = 0x80
#: Keys of a city square in the row tables (a Tower Block / Office Tower key + floors - 1),
#: and of the discard and nothing actions.
EMPTY_K, TOWER_K, OFFICE_K, OTHER_K, DISCARD_K, NOTHING_K = 0, 1, 5, 9, 10, 11
#: Rows of a mask, one per (architect, spot) pair or (architect, class) pair.
Table = npt.NDArray[np.bool_]
#: Where the low byte of a 16-bit int is in memory.
LOW_BYTE: Final = 0 if sys.byteorder == "little" else 1


def _f32(values: object) -> bytes:
    return np.asarray(values, dtype=np.float32).tobytes()


def _spread(flags: list[int] | tuple[int, ...]) -> int:
    """One byte per flag (0 or 1), as an int: byte-wise logic on whole rows at once."""
    return int.from_bytes(bytes(flags), "little")


class QuadropolisTensors:
    """Byte tables and encoders of one mode and player count."""

    def __reduce__(self) -> tuple[object, tuple[str, int]]:
        """Pickled as its table kind: unpickling gives the process's shared tables (the
        caches are not worth carrying, and some tables cannot be pickled)."""
        return shared_tensors, (self.mode, self.n)

    def __init__(self, mode: str, players: int) -> None:
        n = players
        self.mode, self.n = mode, n
        a = self.arch = ARCHITECTS[mode]
        self.expert = a == 5
        self.size = GEOMETRY[mode].size
        self.stride = STRIDE[mode]
        self.rounds = ROUNDS[mode]
        self.num_actions = a * N_SPOTS * self.stride
        self._observation_tables()
        self._mask_tables()

    # -- observation tables ---------------------------------------------------------------------
    def _observation_tables(self) -> None:
        n, a, rounds = self.n, self.arch, self.rounds
        up = FACE_UP[n]
        #: (round, turn) -> the ``round`` and ``turn`` one-hots.
        self.round_turn = [
            one_hot_bytes(r, rounds) + one_hot_bytes(t, 4) for r in range(rounds) for t in range(4)
        ]
        #: slot[me][player] (player -1: nobody) -> an n one-hot of the relative seat.
        self.slot = [
            [one_hot_bytes((p - me) % n, n) for p in range(n)] + [one_hot_bytes(None, n)]
            for me in range(n)
        ]
        self.finished = (_f32([0]), _f32([1]))
        #: site[tile] (index -1: an empty square); face-down tiles show only their back.
        rows = [SITE_ROWS[t] if up[t] else SITE_ROWS[-2] for t in range(len(TILES))]
        self.site = [r.tobytes() for r in rows] + [SITE_ROWS[-1].tobytes()]
        #: spot[me][v + 8n * blocked]: taken, architect one-hot, owner slot, blocked.
        width = 1 + a + n + 1
        self.spot: list[list[bytes]] = []
        for me in range(n):
            table = []
            for blocked in (0, 1):
                for v in range(8 * n):
                    row = np.zeros(width, np.float32)
                    k, owner = v % 8, v // 8
                    if v and 1 <= k <= a:
                        row[0] = row[k] = 1
                        row[1 + a + (owner - me) % n] = 1
                    row[-1] = blocked
                    table.append(row.tobytes())
            self.spot.append(table)
        #: blocked_offset[urbanist] (index -1 beside the board): per spot, 8n if blocked.
        self.blocked_offset = [tuple(8 * n * (b >> s & 1) for s in range(N_SPOTS)) for b in BLOCKED]
        #: urbanist[square] (index -1 / 25: beside the board).
        self.urbanist = [one_hot_bytes(q, 26) for q in range(26)]
        self.unused = [
            _f32([not mask >> k & 1 for k in range(1, a + 1)]) for mask in range(1 << (a + 1))
        ]
        self.other_architects = bytes(4 * a * (n - 1))
        self.cell = [row.tobytes() for row in CELL_ROWS]
        self.pack_pool = struct.Struct(f"<{a}f").pack
        self.pack_resources = struct.Struct(f"<{2 * n}f").pack
        self.orders = [tuple((me + s) % n for s in range(n)) for me in range(n)]
        self._cities: dict[bytes, bytes] = {}

    def observation(self, state: QuadropolisState, me: int) -> list[bytes]:
        """The observation of seat ``me`` as float32 byte strings, in layout order."""
        s = state
        n, size = self.n, self.size
        cur = s._current
        if cur < 0:
            parts = [self.round_turn[-1], self.slot[me][-1]]
        else:
            r = s._round
            parts = [
                self.round_turn[min(r, self.rounds - 1) * 4 + s._turn // n],
                self.slot[me][cur],
            ]
        slot = self.slot[me]
        parts += (slot[s._first], slot[s._mayor], self.finished[cur < 0])
        parts += map(self.site.__getitem__, s._site)
        urb = s._urbanist
        parts += map(self.spot[me].__getitem__, map(add, s._spots, self.blocked_offset[urb]))
        parts.append(self.urbanist[urb])
        order = self.orders[me]
        if self.expert:
            pool = s._pool
            parts += (self.pack_pool(*pool[1:]), self.other_architects)
        else:
            used = s._used
            parts += [self.unused[used[p]] for p in order]
        cells, cities = s._cells, self._cities
        for p in order:
            # A city changes only when its owner builds: its rows are cached per city.
            key = bytes(cells[p * size : (p + 1) * size])
            city = cities.get(key)
            if city is None:
                city = self._city(key)
            parts.append(city)
        inh, en = s._inhabitants, s._energy
        values: list[int] = []
        for p in order:
            values += (inh[p], en[p])
        parts.append(self.pack_resources(*values))
        return parts

    def _city(self, key: bytes) -> bytes:
        """The feature rows of one city (its squares' codes), joined and cached."""
        if len(self._cities) >= 4096:  # keep the memory bounded
            self._cities.clear()
        city = self._cities[key] = b"".join(map(self.cell.__getitem__, key))
        return city

    # -- mask tables ----------------------------------------------------------------------------
    def _mask_tables(self) -> None:
        """Tables of the mask. Rows of every (architect, class) pair come from the player's
        city repeated once per architect (one block of ``stride`` bytes each: the city
        squares, discard, nothing) and translated, so no work is done per architect."""
        a, size, stride = self.arch, self.size, self.stride
        up = FACE_UP[self.n]
        tiles = len(TILES)
        assert tiles < 255
        #: Row index of an (architect k, class c) pair: c * A + k - 1; + INVALID: a zero row.
        classes = bytearray(256)
        for t in range(tiles):
            kind = T_KIND[t]
            c = TOWER_C if kind == 1 else OFFICE_C if kind == 2 else OTHER_C
            c = c if up[t] else DOWN_C
            classes[t] = c * a
        classes[255] = EMPTY_C * a
        self.site_class = bytes(classes)
        self.down_code = DOWN_C * a
        pairs = a * N_SPOTS
        #: The site square each (architect, spot) pair selects, architect-major, as a
        #: translate key (the table is the 25 class bytes of the site, padded to 256).
        self.select_keys = bytes(SELECT[s][k] for k in range(1, a + 1) for s in range(N_SPOTS))
        self.pad = bytes(256 - 25)
        self.architect_offset = int.from_bytes(
            bytes(k for k in range(a) for _ in range(N_SPOTS)), "little"
        )
        every_pair = sum(1 << (8 * N_SPOTS * k) for k in range(a))
        #: spot_bad_lo/hi[10 spot bits]: INVALID on every architect's occupied/blocked spots.
        lo = [_spread([INVALID if m >> j & 1 else 0 for j in range(10)]) for m in range(1024)]
        self.spot_bad_lo = [x * every_pair for x in lo]
        self.spot_bad_hi = [x << 80 for x in self.spot_bad_lo]
        #: arch_bad[flags]: INVALID on the spots of the architects not available (key: one
        #: byte per architect number 0-5, 1 when not available; Classic: the used bit mask).
        block = _spread([INVALID] * N_SPOTS)
        self.arch_bad_used = [
            sum(block << (8 * N_SPOTS * (k - 1)) for k in range(1, a + 1) if mask >> k & 1)
            for mask in range(1 << (a + 1))
        ]
        self.arch_bad_pool: dict[bytes, int] = {}
        for m in range(1 << a):
            key = bytes([1] + [m >> (k - 1) & 1 for k in range(1, 6)])
            self.arch_bad_pool[key] = sum(
                block << (8 * N_SPOTS * (k - 1)) for k in range(1, a + 1) if m >> (k - 1) & 1
            )
        self.is_zero = bytes([1] + [0] * 255)
        #: Selectable row indices (A5): not face down, not invalid.
        self.selectable = bytes(
            1 if i < INVALID and i // a in (EMPTY_C, TOWER_C, OFFICE_C, OTHER_C) else 0
            for i in range(256)
        )
        # City squares. A cell code (kind << 3 | floors) first becomes its key: 0 empty, 1-4 a
        # Tower Block and 5-8 an Office Tower of that many floors that may grow, 9 any other
        # building (it takes nothing more); row tables are cached per key string, which
        # cities that differ only in buildings that take nothing share. Keys 10 and 11 stand
        # for the discard and the nothing action after the squares.
        max_floors = MAX_FLOORS[self.mode]
        city_keys = bytearray([OTHER_K] * 256)
        city_keys[0] = EMPTY_K
        for kind, first in ((1, TOWER_K), (2, OFFICE_K)):
            for f in range(1, max_floors[kind]):
                city_keys[kind << 3 | f] = first + f - 1
        self.key_t = bytes(city_keys)
        self.key_tail = bytes([DISCARD_K, NOTHING_K])
        # Repeated once per architect block (squares, discard, nothing), a key byte gets the
        # architect's reach (bit 4) and number - 1 (bits 5-7): one translate per class then
        # gives every architect's row of moves at once.
        geo = GEOMETRY[self.mode]
        self.repeat = sum(1 << (8 * stride * k) for k in range(a))
        self.block_bits = int.from_bytes(
            b"".join(
                bytes((geo.reach_mask[k] >> q & 1) << 4 | (k - 1) << 5 for q in range(size))
                + bytes([(k - 1) << 5] * 2)
                for k in range(1, a + 1)
            ),
            "little",
        )

        def row_byte(x: int, kind: int) -> int:
            """Is the action of key/reach/architect byte ``x`` legal for a tile of ``kind``
            (0: a building that cannot be stacked)?"""
            key, reach, below = x & 15, x >> 4 & 1, x >> 5
            if key == DISCARD_K:
                return 1
            if key == EMPTY_K:
                return reach
            first = TOWER_K if kind == 1 else OFFICE_K if kind == 2 else -1
            if first < 0 or not first <= key < first + 4:
                return 0
            return 1 if reach or key - first + 1 == below else 0  # a floor: in reach, or as k

        self.other_t = bytes(row_byte(x, 0) for x in range(256))
        self.tower_t = bytes(row_byte(x, 1) for x in range(256))
        self.office_t = bytes(row_byte(x, 2) for x in range(256))
        self.length = a * stride
        self.nothing_block = (bytes(stride - 1) + b"\x01") * a
        self.zero_row = bytes(stride)
        #: Row indices of invalid pairs (INVALID set) go to the zero row after the 5 classes;
        #: under A5 "strict", face-down squares go there too.
        zero = 5 * a
        self.clamp = bytes(i if i < INVALID else zero for i in range(256))
        self.strict = bytes(zero if DOWN_C * a <= i < (DOWN_C + 1) * a else i for i in range(256))
        self.pairs = pairs
        self._rows: dict[bytes, Table] = {}

    def codes(self, state: QuadropolisState) -> bytes:
        """Per (architect, spot) pair, architect-major: the row of :meth:`rows` it plays."""
        s = state
        # Each square's low byte: the tile index, or 255 for an empty square (-1).
        classes = array("h", s._site).tobytes()[LOW_BYTE::2].translate(self.site_class)
        m = s._occupied | BLOCKED[s._urbanist]
        if self.expert:
            bad = self.arch_bad_pool[bytes(s._pool).translate(self.is_zero)]
        else:
            bad = self.arch_bad_used[s._used[s._current]]
        bad |= self.spot_bad_lo[m & 1023] | self.spot_bad_hi[m >> 10]
        selected = int.from_bytes(self.select_keys.translate(classes + self.pad), "little")
        codes = ((selected + self.architect_offset) | bad).to_bytes(self.pairs, "little")
        if s._unselectable and self.down_code in classes and 1 in codes.translate(self.selectable):
            # A5: something else can be selected, so face-down squares give no move.
            codes = codes.translate(self.strict)
        return codes.translate(self.clamp)

    def rows(self, city: bytes) -> Table:
        """The row of every (architect, class) pair for a player's city (its squares' keys):
        its moves' flags, one byte per action of a spot (squares, discard, nothing). Cached
        per city: a city often comes back (a turn that builds nothing, every game's first
        turns, buildings that take nothing more)."""
        found = self._rows.get(city)
        if found is not None:
            return found
        spread = int.from_bytes(city + self.key_tail, "little") * self.repeat | self.block_bits
        keys = spread.to_bytes(self.length, "little")
        tower_b, office_b = keys.translate(self.tower_t), keys.translate(self.office_t)
        other_b = keys.translate(self.other_t)
        nothing = self.nothing_block
        flat = b"".join((nothing, nothing, tower_b, office_b, other_b, self.zero_row))
        table: Table = np.frombuffer(flat, np.bool_).reshape(-1, self.stride)
        if len(self._rows) >= 4096:  # keep the memory bounded
            self._rows.clear()
        self._rows[city] = table
        return table

    def mask_rows(self, state: QuadropolisState) -> Table:
        """The legal-action mask of the player to move as [pairs, stride] flags: row
        ``(k - 1) * 20 + spot`` holds the actions of architect ``k`` at that spot."""
        s = state
        p = s._current
        if p < 0:
            return np.zeros((self.pairs, self.stride), np.bool_)
        base = p * self.size
        table = self.rows(bytes(s._cells[base : base + self.size]).translate(self.key_t))
        picked: Table = table.take(np.frombuffer(self.codes(s), np.uint8), axis=0)
        return picked

    def mask(self, state: QuadropolisState) -> bytes:
        """The legal-action mask of the player to move, one byte (0/1) per action id."""
        return self.mask_rows(state).tobytes()

    def legal_ids(self, state: QuadropolisState) -> npt.NDArray[np.intp]:
        """Ascending legal action ids of the player to move (the mask's non-zero bytes;
        :meth:`mask_rows` inlined: this is the random opponents' hot path)."""
        s = state
        p = s._current
        if p < 0:
            return np.zeros(0, np.intp)
        size = self.size
        key = bytes(s._cells[p * size : (p + 1) * size]).translate(self.key_t)
        table = self._rows.get(key)
        if table is None:
            table = self.rows(key)
        # :meth:`codes`, inlined.
        classes = array("h", s._site).tobytes()[LOW_BYTE::2].translate(self.site_class)
        m = s._occupied | BLOCKED[s._urbanist]
        if self.expert:
            bad = self.arch_bad_pool[bytes(s._pool).translate(self.is_zero)]
        else:
            bad = self.arch_bad_used[s._used[p]]
        bad |= self.spot_bad_lo[m & 1023] | self.spot_bad_hi[m >> 10]
        selected = int.from_bytes(self.select_keys.translate(classes + self.pad), "little")
        codes = ((selected + self.architect_offset) | bad).to_bytes(self.pairs, "little")
        if s._unselectable and self.down_code in classes and 1 in codes.translate(self.selectable):
            codes = codes.translate(self.strict)
        picked = table.take(np.frombuffer(codes.translate(self.clamp), np.uint8), axis=0)
        ids: npt.NDArray[np.intp] = picked.reshape(-1).nonzero()[0]
        return ids


@cache
def shared_tensors(mode: str, players: int) -> QuadropolisTensors:
    """One QuadropolisTensors per table kind for the whole process: the tables and their caches
    (filled as positions come) serve every encoder, environment and benchmark loop."""
    return QuadropolisTensors(mode, players)


# -- many tables at once ------------------------------------------------------------------------
#: Columns of a raw row before the lists: round index, turn index, player to move, first
#: player of the round, Mayor, Urbanist square (-1 beside the board), A5 "unselectable".
HEAD: Final = 7
SITE_SQUARES: Final = 25
#: BLOCKED_ROWS[urbanist] (index -1 beside the board): the spots the Urbanist blocks.
BLOCKED_ROWS: Final = np.array(
    [[b >> s & 1 for s in range(N_SPOTS)] for b in BLOCKED], dtype=np.bool_
)

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]


class QuadropolisBatch:
    """Many states at once: one int row of facts per state in one matrix per batch
    (:meth:`matrix`), the observations and masks written from it by compiled loops
    (:mod:`~polis.games.quadropolis.batch_kernels`)."""

    def __init__(self, mode: str, players: int, offsets: dict[str, int]) -> None:
        n = players
        self.mode, self.n = mode, n
        self.arch = ARCHITECTS[mode]
        self.expert = self.arch == 5
        self.size = GEOMETRY[mode].size
        self.rounds = ROUNDS[mode]
        self.stride = STRIDE[mode]
        self.num_actions = self.arch * N_SPOTS * self.stride
        self.offsets = offsets
        self.c_site = HEAD
        self.c_spots = self.c_site + SITE_SQUARES
        self.c_arch = self.c_spots + N_SPOTS
        self.c_cells = self.c_arch + (6 if self.expert else n)
        self.c_inh = self.c_cells + n * self.size
        self.c_en = self.c_inh + n
        self.width = self.c_en + n
        a = self.arch
        up = FACE_UP[n]
        t = len(TILES)
        site = np.empty((t + 1, SITE_ROWS.shape[1]), np.float32)
        site[:t] = np.where(np.array(up)[:, None], SITE_ROWS[:t], SITE_ROWS[-2])
        site[t] = SITE_ROWS[-1]
        self.site_rows = site
        width = 1 + a + n + 1
        spot = np.zeros((n, 8 * n, width), np.float32)
        for me in range(n):
            for v in range(1, 8 * n):
                k, owner = v % 8, v // 8
                if 1 <= k <= a:
                    spot[me, v, 0] = 1
                    spot[me, v, k] = 1
                    spot[me, v, 1 + a + (owner - me) % n] = 1
        self.spot_rows = spot
        self.unused_rows = np.array(
            [[not mask >> k & 1 for k in range(1, a + 1)] for mask in range(1 << (a + 1))],
            dtype=np.bool_,
        )
        cls = np.full(t + 1, EMPTY_C, np.int64)
        for i in range(t):
            kind = T_KIND[i]
            cls[i] = (
                DOWN_C
                if not up[i]
                else (TOWER_C if kind == 1 else OFFICE_C if kind == 2 else OTHER_C)
            )
        self.site_class = cls
        self.select = np.array([[SELECT[s][k] for s in range(N_SPOTS)] for k in range(1, a + 1)])
        geo = GEOMETRY[mode]
        self.reach = np.array(
            [[geo.reach_mask[k] >> q & 1 for q in range(self.size)] for k in range(1, a + 1)],
            dtype=np.bool_,
        )
        self.max_floors = np.array(MAX_FLOORS[mode], np.int64)
        # What the compiled loops read: this object's sizes and columns and the observation's
        # block starts (numba is imported with the first batch: it is for batches only).
        from polis.games.quadropolis import batch_kernels

        self.layout = ordered(vars(self), batch_kernels.LAYOUT)
        self.block_starts = ordered(offsets, batch_kernels.BLOCKS)

    def raw_row_head(self, s: QuadropolisState) -> list[int]:
        """The columns before the lists (:data:`HEAD`)."""
        cur = s._current
        rounds = self.rounds
        if cur < 0:
            head = [rounds - 1, 3, -1, s._first, s._mayor, s._urbanist, s._unselectable]
        else:
            r = s._round
            head = [
                r if r < rounds else rounds - 1,
                s._turn // self.n,
                cur,
                s._first,
                s._mayor,
                s._urbanist,
                s._unselectable,
            ]
        return head

    def matrix(self, states: Sequence[QuadropolisState]) -> Ints:
        """The raw rows of ``states`` as one int64 matrix (the head columns of :data:`HEAD`,
        the site, spots, architects, cities, inhabitants and energy), read in three blocks for
        all states at once (numpy reading nested lists costs more than the rest of the
        encoding): the head, the site as int16 (-1 for an empty square) and everything after
        it as bytes (all small and never negative; int16 if a count grew beyond a byte)."""
        heads: list[int] = []
        sites: list[int] = []
        rest: list[int] = []
        expert = self.expert
        for s in states:
            row = self.raw_row_head(s)
            heads += row
            sites += s._site
            rest += s._spots
            rest += s._pool if expert else s._used
            rest += s._cells
            rest += s._inhabitants
            rest += s._energy
        count = len(states)
        raw: Ints = np.empty((count, self.width), np.int64)
        raw[:, : self.c_site] = np.array(heads, np.int64).reshape(count, HEAD)
        # struct packs a list of ints faster than array() or numpy; bytearray() faster still
        # (three times bytes()), but only for values that fit in a byte
        site_bytes = repeated_struct("h", len(sites)).pack(*sites)
        raw[:, self.c_site : self.c_spots] = np.frombuffer(site_bytes, np.int16).reshape(
            count, SITE_SQUARES
        )
        try:
            block = np.frombuffer(bytearray(rest), np.uint8)
        except ValueError:  # a count beyond a byte: read the slow way
            block = np.frombuffer(array("h", rest).tobytes(), np.int16)
        raw[:, self.c_spots :] = block.reshape(count, self.width - self.c_spots)
        return raw

    def encode(self, raw: Ints, seats: Ints, out: Floats) -> None:
        """Write the observations of ``seats`` (one per row of ``raw``) into every entry of
        ``out``."""
        from polis.games.quadropolis.batch_kernels import encode_rows

        encode_rows(
            raw,
            seats,
            out,
            self.block_starts,
            self.layout,
            self.site_rows,
            self.spot_rows,
            BLOCKED_ROWS,
            self.unused_rows,
            CELL_ROWS,
        )

    def mask(self, raw: Ints) -> Bools:
        """The legal-action masks [rows, actions] of the players to move (zeros when over)."""
        out = np.empty((raw.shape[0], self.num_actions), np.bool_)
        from polis.games.quadropolis.batch_kernels import mask_rows

        mask_rows(
            raw,
            out,
            self.layout,
            self.site_class,
            self.select,
            BLOCKED_ROWS,
            self.unused_rows,
            self.reach,
            self.max_floors,
        )
        return out


__all__ = ["QuadropolisBatch", "QuadropolisTensors", "shared_tensors"]
