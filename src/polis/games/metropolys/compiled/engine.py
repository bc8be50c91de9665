"""The rules of Metropolys compiled (numba) on one table row: start, legal moves, one move.

The same rules as :class:`~polis.games.metropolys.state.MetropolysState`, on the row of
:mod:`~polis.games.metropolys.compiled.layout` and with the same numbers, so every function
here can be checked position by position against the Python engine
(:mod:`~polis.games.metropolys.compiled.check`). Moves are action ids:
``(value - 1) * 55 + field`` for a bid, :data:`~polis.games.metropolys.compiled.layout.PASS_ID`
for a pass. Everything works in place on one row: a batch of tables is a 2-D array whose
rows are stepped one by one.
"""

from __future__ import annotations

from typing import Any

from numba import njit

from polis.games.metropolys.board import ARCHAEOLOGY as ARCHAEOLOGY_TOKEN
from polis.games.metropolys.board import METRO as METRO_TOKEN
from polis.games.metropolys.board import NUM_FIELDS
from polis.games.metropolys.compiled.layout import (
    F_FIRST,
    F_PLAYERS,
    F_TOKENS,
    F_UNUSED,
    FREE,
    FULL_SUPPLY,
    MAX_BIDS,
    MAX_PLAYERS,
    OUT_OF_PLAY,
    PASS_ID,
    S_ARCHAEOLOGY,
    S_BIDS,
    S_BUILT,
    S_CELLS,
    S_COLLECTED,
    S_CURRENT,
    S_FREE,
    S_METRO,
    S_MOVES,
    S_NBIDS,
    S_PASSED,
    S_START,
    S_SUPPLY,
    S_TERMINAL,
    S_TOKENS,
)
from polis.games.metropolys.compiled.tables import ADJ, ADJ_MASK, ADJ_N, DISTRICT_OF


@njit(cache=True, nogil=True)
def free_mask(row: Any) -> int:
    """The free fields (in play, no building, no bid) as an int64 bit mask."""
    mask: int = (row[S_FREE] & 0xFFFFFFFF) | (row[S_FREE + 1] & 0xFFFFFFFF) << 32
    return mask


@njit(cache=True, nogil=True)
def set_free_mask(row: Any, mask: int) -> None:
    """Store the free-field mask (its low 32 bits as a signed int32, then the rest)."""
    low = mask & 0xFFFFFFFF
    row[S_FREE] = low - (1 << 32) if low >= 1 << 31 else low
    row[S_FREE + 1] = mask >> 32


@njit(cache=True, nogil=True)
def bid_mask(row: Any) -> int:
    """The fields holding a bid of this round (not yet built) as an int64 bit mask."""
    mask = int(0)  # noqa: RUF046, UP018 (int64: numba compiles a literal 0 apart)
    for i in range(row[S_NBIDS]):
        mask |= 1 << row[S_BIDS + i]
    return mask


@njit(cache=True, nogil=True)
def refresh_free(row: Any) -> None:
    """Set the free-field mask from the cells (a row written field by field)."""
    free = int(0)  # noqa: RUF046, UP018 (int64: numba compiles a literal 0 apart)
    for f in range(NUM_FIELDS):
        if row[S_CELLS + f] == FREE:
            free |= 1 << f
    set_free_mask(row, free)


@njit(cache=True, nogil=True)
def reset(row: Any) -> None:
    """Put the table at the start of the game its facts describe (the deal's last step)."""
    n = row[F_PLAYERS]
    unused = row[F_UNUSED]
    free = int(0)  # noqa: RUF046, UP018 (int64: numba compiles a literal 0 apart)
    for f in range(NUM_FIELDS):
        if (unused >> DISTRICT_OF[f]) & 1:
            row[S_CELLS + f] = OUT_OF_PLAY
        else:
            row[S_CELLS + f] = FREE
            free |= 1 << f
        row[S_TOKENS + f] = row[F_TOKENS + f]
    set_free_mask(row, free)
    for p in range(MAX_PLAYERS):
        row[S_SUPPLY + p] = FULL_SUPPLY if p < n else 0
        row[S_BUILT + p] = 0
        for t in range(4):
            row[S_COLLECTED + 4 * p + t] = 0
    row[S_METRO] = -1
    row[S_ARCHAEOLOGY] = -1
    row[S_PASSED] = 0
    row[S_CURRENT] = row[F_FIRST]
    row[S_START] = row[F_FIRST]
    row[S_TERMINAL] = 0
    row[S_MOVES] = 0
    row[S_NBIDS] = 0
    for i in range(MAX_BIDS):
        row[S_BIDS + i] = -1


@njit(cache=True, nogil=True)
def current_player(row: Any) -> int:
    """The player to move, -1 once the game is over."""
    player: int = row[S_CURRENT]
    return player


@njit(cache=True, nogil=True)
def is_terminal(row: Any) -> bool:
    """Whether the game is over (someone built his 13th building)."""
    over: bool = row[S_TERMINAL] != 0
    return over


@njit(cache=True, nogil=True)
def legal(row: Any, out: Any) -> int:
    """Write the legal action ids into ``out`` (716 long suffices) and return how many.

    The order is the Python engine's: an opening bid for every free field (ascending) and
    every value of the supply (ascending); later, pass first, then each free field next to
    the last bid (R1, ascending) with every higher value of the supply (R24).
    """
    cur = row[S_CURRENT]
    if cur < 0:
        return 0
    supply = row[S_SUPPLY + cur]
    nbids = row[S_NBIDS]
    k = 0
    if nbids == 0:
        for f in range(NUM_FIELDS):
            if row[S_CELLS + f] == FREE:
                for v in range(1, 14):
                    if (supply >> v) & 1:
                        out[k] = (v - 1) * NUM_FIELDS + f
                        k += 1
        return k
    last = row[S_BIDS + nbids - 1]
    low = (row[S_CELLS + last] & 15) + 1
    out[0] = PASS_ID
    k = 1
    if supply >> low:
        for i in range(ADJ_N[last]):
            f = ADJ[last, i]
            if row[S_CELLS + f] == FREE:
                for v in range(low, 14):
                    if (supply >> v) & 1:
                        out[k] = (v - 1) * NUM_FIELDS + f
                        k += 1
    return k


@njit(cache=True, nogil=True)
def apply(row: Any, action: int) -> bool:
    """Play ``action`` for the player to move (in place); False, with the row untouched,
    when it is not legal. After every bid and pass the round ends as soon as (a) every
    other player passed, (b) no free field is next to the last bid or (c) nobody left in
    the round holds a higher building (§5.1.4, R6); otherwise the next player clockwise who
    has not passed is to move (R5)."""
    cur = row[S_CURRENT]
    if cur < 0:
        return False
    nbids = row[S_NBIDS]
    if action == PASS_ID:
        if nbids == 0:  # the opening bid is mandatory (R4)
            return False
        row[S_PASSED] |= 1 << cur
    else:
        if action < 0 or action > PASS_ID:
            return False
        value = action // NUM_FIELDS + 1
        field = action % NUM_FIELDS
        if row[S_CELLS + field] != FREE or not (row[S_SUPPLY + cur] >> value) & 1:
            return False
        if nbids:
            last = row[S_BIDS + nbids - 1]
            if value <= row[S_CELLS + last] & 15 or not (ADJ_MASK[last] >> field) & 1:
                return False
        row[S_CELLS + field] = cur << 4 | value
        set_free_mask(row, free_mask(row) & ~(1 << field))
        row[S_SUPPLY + cur] &= ~(1 << value)
        row[S_BIDS + nbids] = field
        nbids += 1
        row[S_NBIDS] = nbids
    row[S_MOVES] += 1
    last = row[S_BIDS + nbids - 1]
    cell = row[S_CELLS + last]
    bidder = cell >> 4
    n = row[F_PLAYERS]
    passed = row[S_PASSED]
    active = ((1 << n) - 1) & ~passed & ~(1 << bidder)
    if active and ADJ_MASK[last] & free_mask(row):
        shift = (cell & 15) + 1
        for p in range(n):
            if (active >> p) & 1 and row[S_SUPPLY + p] >> shift:
                q = cur + 1 if cur + 1 < n else 0
                while (passed >> q) & 1:
                    q = q + 1 if q + 1 < n else 0
                row[S_CURRENT] = q
                return True
    _resolve(row, nbids, last, bidder)
    return True


@njit(cache=True, nogil=True)
def _resolve(row: Any, nbids: int, last: int, winner: int) -> None:
    """§5.2: build the last bid, collect its token (R15, R16), return every other bid."""
    free = free_mask(row)
    for i in range(nbids - 1):
        f = row[S_BIDS + i]
        c = row[S_CELLS + f]
        row[S_SUPPLY + (c >> 4)] |= 1 << (c & 15)
        row[S_CELLS + f] = FREE
        free |= 1 << f
        row[S_BIDS + i] = -1
    set_free_mask(row, free)
    row[S_BIDS + nbids - 1] = -1
    row[S_NBIDS] = 0
    row[S_PASSED] = 0
    token = row[S_TOKENS + last]
    if token:
        row[S_TOKENS + last] = 0
        at = S_COLLECTED + 4 * winner
        row[at + token] += 1
        if token == METRO_TOKEN:
            holder = row[S_METRO]
            if holder < 0 or (
                holder != winner
                and row[at + METRO_TOKEN] > row[S_COLLECTED + 4 * holder + METRO_TOKEN]
            ):
                row[S_METRO] = winner
        elif token == ARCHAEOLOGY_TOKEN:
            row[S_ARCHAEOLOGY] = winner
    row[S_BUILT + winner] += 1
    if row[S_BUILT + winner] == 13:  # R8: the game ends with someone's 13th building
        row[S_CURRENT] = -1
        row[S_TERMINAL] = 1
    else:
        row[S_CURRENT] = winner
        row[S_START] = winner
