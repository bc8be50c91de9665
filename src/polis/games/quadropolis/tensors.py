"""Quadropolis observations and legal-action masks straight from engine states, as bytes.

The view encoder (:mod:`~polis.games.quadropolis.observation`) defines every feature, from
a typed view; building that view costs more than encoding it, and numpy's per-call overhead
dwarfs arrays this small. So this module reads the state's own lists and assembles each
observation from rows tabulated once per table (mode and player count): every site square,
spot, city square and one-hot is a ready ``float32`` byte string, picked by C-level ``map``
and joined once (one numpy call per observation, or per batch). The legal mask is built
the same way from per-architect rows of the city's target squares. The numbers are exactly
the view encoder's and ``legal_moves()``'s (``tests/research`` checks every position of many
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
from operator import add, itemgetter
from typing import Final

import numpy as np
import numpy.typing as npt

from polis.games.quadropolis.moves import STRIDE
from polis.games.quadropolis.observation import CELL_ROWS, SITE_ROWS
from polis.games.quadropolis.site import ARCHITECTS, BLOCKED, GEOMETRY, MAX_FLOORS, N_SPOTS, SELECT
from polis.games.quadropolis.state import QuadropolisState
from polis.games.quadropolis.tiles import FACE_UP, ROUNDS, T_KIND, TILES

#: Mask classes of a site square: nothing there, a face-down tile, a Tower Block, an Office
#: Tower, another building. A spot that may not be played adds ``BLOCKED_C`` (rows 6-7: zeros).
EMPTY_C, DOWN_C, TOWER_C, OFFICE_C, OTHER_C = range(5)
BLOCKED_C: Final = 6
#: Rows per architect in the per-call row table (classes, then the zero rows).
ROWS_PER_ARCHITECT: Final = 8
#: Where the low byte of a 16-bit int is in memory.
LOW_BYTE: Final = 0 if sys.byteorder == "little" else 1


def _f32(values: object) -> bytes:
    return np.asarray(values, dtype=np.float32).tobytes()


def _one_hot(index: int | None, size: int) -> bytes:
    row = np.zeros(size, np.float32)
    if index is not None:
        row[index] = 1
    return row.tobytes()


def _spread(flags: list[int] | tuple[int, ...]) -> int:
    """One byte per flag (0 or 1), as an int: byte-wise logic on whole rows at once."""
    return int.from_bytes(bytes(flags), "little")


class QuadropolisTensors:
    """Byte tables and encoders of one mode and player count."""

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
            _one_hot(r, rounds) + _one_hot(t, 4) for r in range(rounds) for t in range(4)
        ]
        #: slot[me][player] (player -1: nobody) -> an n one-hot of the relative seat.
        self.slot = [
            [_one_hot((p - me) % n, n) for p in range(n)] + [_one_hot(None, n)] for me in range(n)
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
        self.urbanist = [_one_hot(q, 26) for q in range(26)]
        self.unused = [
            _f32([not mask >> k & 1 for k in range(1, a + 1)]) for mask in range(1 << (a + 1))
        ]
        self.other_architects = bytes(4 * a * (n - 1))
        self.cell = [row.tobytes() for row in CELL_ROWS]
        self.pack_pool = struct.Struct(f"<{a}f").pack
        self.pack_resources = struct.Struct(f"<{2 * n}f").pack
        self.orders = [tuple((me + s) % n for s in range(n)) for me in range(n)]

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
        cells, cell = s._cells, self.cell.__getitem__
        for p in order:
            parts += map(cell, cells[p * size : (p + 1) * size])
        inh, en = s._inhabitants, s._energy
        values: list[int] = []
        for p in order:
            values += (inh[p], en[p])
        parts.append(self.pack_resources(*values))
        return parts

    # -- mask tables ----------------------------------------------------------------------------
    def _mask_tables(self) -> None:
        a, n, size, stride = self.arch, self.n, self.size, self.stride
        up = FACE_UP[n]
        tiles = len(TILES)
        assert tiles < 255
        classes = bytearray(256)
        for t in range(tiles):
            kind = T_KIND[t]
            if not up[t]:
                classes[t] = DOWN_C
            else:
                classes[t] = TOWER_C if kind == 1 else OFFICE_C if kind == 2 else OTHER_C
        classes[255] = EMPTY_C
        self.site_class = bytes(classes)
        #: The site square each (architect, spot) pair selects, architect-major.
        self.select_all = itemgetter(
            *[SELECT[s][k] for k in range(1, a + 1) for s in range(N_SPOTS)]
        )
        self.row_offset = int.from_bytes(
            bytes(ROWS_PER_ARCHITECT * k for k in range(a) for _ in range(N_SPOTS)), "little"
        )
        #: blocked_lo/hi[10 spot bits]: BLOCKED_C on the bytes of occupied or blocked spots.
        self.blocked_lo = [
            _spread([BLOCKED_C if m >> j & 1 else 0 for j in range(10)]) for m in range(1024)
        ]
        self.blocked_hi = [x << 80 for x in self.blocked_lo]
        self.all_blocked = _spread([BLOCKED_C] * N_SPOTS)
        #: Selectable classes (A5): row index -> 1 for a square that is not face down.
        selectable = bytearray(256)
        for k in range(a):
            for c in (EMPTY_C, TOWER_C, OFFICE_C, OTHER_C):
                selectable[ROWS_PER_ARCHITECT * k + c] = 1
        self.selectable = bytes(selectable)
        # City squares: cell code -> flags (bit 0 empty, 1 Tower Block that may grow, 2 Office
        # Tower that may grow, 2 + f: the building has f floors).
        max_floors = MAX_FLOORS[self.mode]
        flags = bytearray(256)
        for c in range(80):
            kind, floors = c >> 3, c & 7
            f = 1 if c == 0 else 0
            if c and kind == 1 and floors < max_floors[1]:
                f |= 2
            if c and kind == 2 and floors < max_floors[2]:
                f |= 4
            if c and 1 <= floors <= 5:
                f |= 1 << (2 + floors)
            flags[c] = f
        self.cell_flags = bytes(flags)
        self.offices_grow = max_floors[2] > 0
        self.ones = _spread([1] * size)
        geo = GEOMETRY[self.mode]
        self.reach = [0] + [
            _spread([geo.reach_mask[k] >> q & 1 for q in range(size)]) for k in range(1, a + 1)
        ]
        #: The discard byte of a target row (and the "nothing" byte left 0).
        self.discard = 1 << (8 * size)
        self.nothing_row = bytes(stride - 1) + b"\x01"
        self.zero_row = bytes(stride)
        self.zero_rows = (self.zero_row,) * ROWS_PER_ARCHITECT
        self.no_moves = bytes(self.num_actions)

    def mask(self, state: QuadropolisState) -> bytes:
        """The legal-action mask of the player to move, one byte (0/1) per action id."""
        s = state
        p = s._current
        if p < 0:
            return self.no_moves
        size = self.size
        # Each square's low byte: the tile index, or 255 for an empty square (-1).
        classes = array("h", s._site).tobytes()[LOW_BYTE::2].translate(self.site_class)
        m = s._occupied | BLOCKED[s._urbanist]
        free = self.blocked_lo[m & 1023] | self.blocked_hi[m >> 10]
        if self.expert:
            pool = s._pool
            ks: tuple[int | bool, ...] = (pool[1], pool[2], pool[3], pool[4], pool[5])
        else:
            used = s._used[p]
            ks = (not used & 2, not used & 4, not used & 8, not used & 16)
        # Row index of each (architect, spot): 8 * (k - 1) + class, + 6 if it may not play.
        invalid = shift = 0
        for ok in ks:
            invalid |= (free if ok else self.all_blocked) << shift
            shift += 8 * N_SPOTS
        selected = int.from_bytes(bytes(self.select_all(classes)), "little")
        codes = ((selected | invalid) + self.row_offset).to_bytes(self.arch * N_SPOTS, "little")
        down = self.nothing_row
        if DOWN_C in classes and s._unselectable and 1 in codes.translate(self.selectable):
            down = self.zero_row  # A5: something else can be selected
        base = p * size
        flags = int.from_bytes(
            bytes(s._cells[base : base + size]).translate(self.cell_flags), "little"
        )
        ones = self.ones
        empty = flags & ones
        rows: list[bytes] = []
        nothing, zero = self.nothing_row, self.zero_row
        width = size + 2
        lo = 0
        for k, ok in enumerate(ks, 1):
            if not ok:
                rows += self.zero_rows
            else:
                reach = self.reach[k]
                other = reach & empty | self.discard
                other_row = other.to_bytes(width, "little")
                mine = codes[lo : lo + N_SPOTS]
                first = ROWS_PER_ARCHITECT * (k - 1)
                tower_row = office_row = other_row
                if first + TOWER_C in mine or (first + OFFICE_C in mine and self.offices_grow):
                    # A floor goes in reach, or off reach as floor k (on k - 1 floors).
                    grows = reach | ((flags >> (k + 1)) & ones if k > 1 else 0)
                    if first + TOWER_C in mine:
                        tower_row = (other | (flags >> 1 & ones & grows)).to_bytes(width, "little")
                    if first + OFFICE_C in mine and self.offices_grow:
                        office_row = (other | (flags >> 2 & ones & grows)).to_bytes(width, "little")
                rows += (nothing, down, tower_row, office_row, other_row, zero, zero, zero)
            lo += N_SPOTS
        return b"".join(map(rows.__getitem__, codes))


# -- many tables at once ------------------------------------------------------------------------
#: Columns of a raw row before the lists: round index, turn index, player to move, first
#: player of the round, Mayor, Urbanist square (-1 beside the board), A5 "unselectable".
HEAD: Final = 7
SITE_SQUARES: Final = 25
#: Mask classes in the batch tables, then the class of a pair that may not play.
NONE_C: Final = 5
CLASSES: Final = 6
#: BLOCKED_ROWS[urbanist] (index -1 beside the board): the spots the Urbanist blocks.
BLOCKED_ROWS: Final = np.array(
    [[b >> s & 1 for s in range(N_SPOTS)] for b in BLOCKED], dtype=np.bool_
)

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]


class QuadropolisBatch:
    """Many states at once: one int row of facts per state (:meth:`raw_row`), one matrix per
    batch, every block and the masks computed for all rows with numpy gathers (the per-call
    cost of numpy is paid once per batch, not once per table)."""

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
        self.below = np.arange(a)[:, None]
        self.max_floors = MAX_FLOORS[mode]

    def raw_row(self, s: QuadropolisState) -> list[int]:
        """The facts of ``s`` the batch encoders read, as one list of ints."""
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
        arch = s._pool if self.expert else s._used
        return head + s._site + s._spots + arch + s._cells + s._inhabitants + s._energy

    def matrix(self, states: Sequence[QuadropolisState]) -> Ints:
        """The raw rows of ``states`` as one int64 matrix."""
        rows = [self.raw_row(s) for s in states]
        return np.array(rows, dtype=np.int64)

    def encode(self, raw: Ints, seats: Ints, out: Floats) -> None:
        """Write the observations of ``seats`` (one per row of ``raw``) into zeroed ``out``."""
        n, a, size = self.n, self.arch, self.size
        o = self.offsets
        count = raw.shape[0]
        rows = np.arange(count)
        me = seats
        order = (me[:, None] + np.arange(n)) % n
        cur = raw[:, 2]
        out[rows, o["round"] + raw[:, 0]] = 1
        out[rows, o["turn"] + raw[:, 1]] = 1
        out[rows, o["to_move"] + (cur - me) % n] = cur >= 0
        out[rows, o["first_player"] + (raw[:, 3] - me) % n] = 1
        out[rows, o["mayor"] + (raw[:, 4] - me) % n] = 1
        out[:, o["finished"]] = cur < 0
        cs = self.c_site
        site = self.site_rows[raw[:, cs : cs + SITE_SQUARES]]
        out[:, o["site"] : o["site"] + site[0].size] = site.reshape(count, -1)
        urb = raw[:, 5]
        spots = self.spot_rows[me[:, None], raw[:, self.c_spots : self.c_spots + N_SPOTS]]
        spots[:, :, -1] = BLOCKED_ROWS[urb]
        out[:, o["spots"] : o["spots"] + spots[0].size] = spots.reshape(count, -1)
        out[rows, o["urbanist"] + urb % (SITE_SQUARES + 1)] = 1
        ca = self.c_arch
        if self.expert:
            out[:, o["architects"] : o["architects"] + a] = raw[:, ca + 1 : ca + 1 + a]
        else:
            used = np.take_along_axis(raw[:, ca : ca + n], order, axis=1)
            out[:, o["architects"] : o["architects"] + n * a] = self.unused_rows[used].reshape(
                count, -1
            )
        cells = raw[:, self.c_cells : self.c_inh].reshape(count, n, size)
        cells = np.take_along_axis(cells, order[:, :, None], axis=1)
        city = CELL_ROWS[cells]
        out[:, o["cities"] : o["cities"] + city[0].size] = city.reshape(count, -1)
        res = out[:, o["resources"] : o["resources"] + 2 * n].reshape(count, n, 2)
        res[:, :, 0] = np.take_along_axis(raw[:, self.c_inh : self.c_en], order, axis=1)
        res[:, :, 1] = np.take_along_axis(raw[:, self.c_en : self.width], order, axis=1)

    def mask(self, raw: Ints) -> Bools:
        """The legal-action masks [rows, actions] of the players to move (zeros when over)."""
        n, a, size, stride = self.n, self.arch, self.size, self.stride
        count = raw.shape[0]
        cur = raw[:, 2]
        live = cur >= 0
        p = np.where(live, cur, 0)
        cs = self.c_site
        cls = self.site_class[raw[:, cs : cs + SITE_SQUARES][:, self.select]]
        spots = raw[:, self.c_spots : self.c_spots + N_SPOTS]
        free = (spots == 0) & ~BLOCKED_ROWS[raw[:, 5]]
        ca = self.c_arch
        if self.expert:
            avail = raw[:, ca + 1 : ca + 1 + a] > 0
        else:
            avail = self.unused_rows[raw[np.arange(count), ca + p]]
        valid = avail[:, :, None] & free[:, None, :] & live[:, None, None]
        strict = (raw[:, 6] != 0) & (valid & (cls != DOWN_C)).any(axis=(1, 2))
        cls = np.where(valid, cls, NONE_C)
        cells = raw[:, self.c_cells : self.c_inh].reshape(count, n, size)[np.arange(count), p]
        empty = cells == 0
        kind = cells >> 3
        floors = cells & 7
        reach = self.reach[None, :, :]
        other_t = reach & empty[:, None, :]
        own_floor = floors[:, None, :] == self.below[None, :, :]
        table = np.zeros((count, a, CLASSES, stride), np.bool_)
        table[:, :, EMPTY_C, stride - 1] = True
        table[:, :, DOWN_C, stride - 1] = ~strict[:, None]
        for c, k in ((TOWER_C, 1), (OFFICE_C, 2)):
            stack = (kind == k) & (floors < self.max_floors[k])
            table[:, :, c, :size] = other_t | (stack[:, None, :] & (reach | own_floor))
        table[:, :, OTHER_C, :size] = other_t
        table[:, :, TOWER_C : OTHER_C + 1, stride - 2] = True
        flat = table.reshape(count * a * CLASSES, stride)
        index = (np.arange(count * a).reshape(count, a, 1) * CLASSES) + cls
        return flat[index].reshape(count, self.num_actions)


__all__ = ["QuadropolisBatch", "QuadropolisTensors"]
