"""The compiled rules of Quadropolis on a row (:mod:`~polis.games.quadropolis.compiled.row`):
the legal action ids, applying one, whose turn it is, dealing a new game.

The same rules as :class:`~polis.games.quadropolis.state.QuadropolisState` (spec §3-§6), the
same action ids (:mod:`~polis.games.quadropolis.moves`), in the same order; ``compare`` of
:mod:`~polis.games.quadropolis.compiled.check` holds them equal position by position. A
player's city is read once per decision into six bit masks (:func:`_planes`), after which
the squares a tile may go to are a few bit operations per (architect, kind); the spots
offering each class of tile are kept per architect in the row (``S_OFFERS``), so a random
move counts its choices per (architect, class) and walks the spots of one architect only.

``apply`` trusts its action: it is one of ``legal`` (the Python engine is the one that
explains a refusal); anything else leaves the row in an undefined state.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from polis.games.quadropolis.compiled.bitops import bits as bits
from polis.games.quadropolis.compiled.bitops import lowest
from polis.games.quadropolis.compiled.generator import below
from polis.games.quadropolis.compiled.row import (
    BLOCKED_BY,
    DOWN,
    F_ARCHITECTS,
    F_EXPERT,
    F_FIRST_PLAYER,
    F_PLAYERS,
    F_ROUNDS,
    F_SHUFFLE,
    F_SIZE,
    F_STRIDE,
    F_UNSELECTABLE,
    MAX_FLOORS_OF,
    MAX_PLAYERS,
    MAX_SQUARES,
    OFFER_CLASS,
    POOL_TILES,
    REACH,
    ROW_LENGTH,
    S_CELLS,
    S_CURRENT,
    S_DEAL,
    S_EN,
    S_FIRST,
    S_INH,
    S_MAYOR,
    S_MOVES,
    S_OCCUPIED,
    S_OFFERS,
    S_POOL,
    S_RNG,
    S_ROUND,
    S_SITE,
    S_SPOTS,
    S_TURN,
    S_URBANIST,
    S_USED,
    S_VP,
    SELECT_SQ,
    SITE_SQUARES,
    SPOTS_OF,
    STATE,
    TILE_EN,
    TILE_INH,
    TILE_KIND,
    TILE_MAYOR,
    TILE_VP,
    UP,
)
from polis.games.quadropolis.site import N_SPOTS

_ALL_SPOTS = (1 << N_SPOTS) - 1


@njit(cache=True, nogil=True)
def current_player(row: Any) -> int:
    """The player to move, -1 once the game is over."""
    return int(row[S_CURRENT])


@njit(cache=True, nogil=True)
def is_terminal(row: Any) -> bool:
    return bool(row[S_CURRENT] < 0)


@njit(cache=True, nogil=True, inline="always")
def free_spots(row: Any) -> int:
    """Spots neither occupied nor blocked by the Urbanist (§5.1, A2, A3)."""
    urb = row[S_URBANIST]
    blocked = BLOCKED_BY[urb] if urb >= 0 else 0
    free: int = ~(row[S_OCCUPIED] | blocked) & _ALL_SPOTS
    return free


@njit(cache=True, nogil=True, inline="always")
def available(row: Any, p: int, k: int) -> bool:
    """May player ``p`` place architect ``k`` now (§5.1; Expert: the common pool, A22)?"""
    if row[F_EXPERT]:
        return bool(row[S_POOL + k] > 0)
    return not (row[S_USED + p] >> k) & 1


@njit(cache=True, nogil=True)
def _strict(row: Any, p: int, free: int) -> bool:
    """Under A5 "unselectable": does some available architect select, from a free spot, a
    square that is not face down (outside its ``DOWN`` offers)? Then face-down squares may
    not be selected."""
    if not row[F_UNSELECTABLE]:
        return False
    for k in range(1, row[F_ARCHITECTS] + 1):
        if available(row, p, k) and free & ~row[S_OFFERS + 4 * (k - 1) + DOWN]:
            return True
    return False


@njit(cache=True, nogil=True, inline="always")
def _planes(row: Any, p: int) -> tuple[int, int, int, int, int, int]:
    """Player ``p``'s city as masks: empty squares, Tower Blocks and Office Towers below their
    height limit, and the three bit planes of every square's floors."""
    e = row[F_EXPERT]
    max_t = MAX_FLOORS_OF[e, 1]
    max_o = MAX_FLOORS_OF[e, 2]
    empty = grow_t = grow_o = b0 = b1 = b2 = 0
    base = S_CELLS + p * MAX_SQUARES
    for q in range(row[F_SIZE]):
        c = row[base + q]
        bit = 1 << q
        if c == 0:
            empty |= bit
            continue
        kind = c >> 3
        f = c & 7
        if kind == 1 and f < max_t:
            grow_t |= bit
        elif kind == 2 and f < max_o:
            grow_o |= bit
        if f & 1:
            b0 |= bit
        if f & 2:
            b1 |= bit
        if f & 4:
            b2 |= bit
    return empty, grow_t, grow_o, b0, b1, b2


@njit(cache=True, nogil=True, inline="always")
def _targets(planes: tuple[int, int, int, int, int, int], reach: int, kind: int, k: int) -> int:
    """City squares where architect ``k`` may put a tile of ``kind`` (§6.1-§6.3): empty
    squares within reach, and for Tower Blocks (1) and Office Towers (2) stacks of the same
    kind below their limit within reach or whose new floor would be floor k."""
    empty, grow_t, grow_o, b0, b1, b2 = planes
    if kind > 2:
        return reach & empty
    grow = grow_t if kind == 1 else grow_o
    f = k - 1
    same = (b0 if f & 1 else ~b0) & (b1 if f & 2 else ~b1) & (b2 if f & 4 else ~b2)
    return (reach & (empty | grow)) | (grow & same)


#: The kinds standing for the classes of offer in ``S_OFFERS`` (one kind that does not
#: stack, Tower Block, Office Tower), as an array: numba compiles one version of
#: :func:`_targets` for a kind read from it, where literal kinds would make one each.
_CLASS_KIND = np.array([3, 1, 2], np.int64)


@njit(cache=True, nogil=True)
def legal(row: Any, out: Any) -> int:
    """Write the legal action ids into ``out`` (room for ``MAX_LEGAL``), ascending: the ids
    of ``legal_moves()``; the number written (0 once the game is over)."""
    p = row[S_CURRENT]
    if p < 0:
        return 0
    e = row[F_EXPERT]
    players = row[F_PLAYERS]
    stride = row[F_STRIDE]
    size = row[F_SIZE]
    free = free_spots(row)
    strict = _strict(row, p, free)
    planes = _planes(row, p)
    n = 0
    for k in range(1, row[F_ARCHITECTS] + 1):
        if not available(row, p, k):
            continue
        reach = REACH[e, k]
        for s in range(N_SPOTS):
            if not free >> s & 1:
                continue
            t = row[S_SITE + SELECT_SQ[s, k]]
            base = ((k - 1) * N_SPOTS + s) * stride
            if t >= 0 and UP[players, t]:
                m = _targets(planes, reach, TILE_KIND[t], k)
                for q in range(size):
                    if m >> q & 1:
                        out[n] = base + q
                        n += 1
                out[n] = base + stride - 2
                n += 1
            elif t < 0 or not strict:
                out[n] = base + stride - 1
                n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def _count(row: Any, k: int, free: int, strict: bool, planes: Any, e: int) -> tuple[Any, ...]:
    """Architect ``k``'s moves: (their number, the free spots offering a move that builds
    nothing, those offering a non-stacking tile, a Tower Block, an Office Tower, and the
    number of city squares for each of the three)."""
    at = S_OFFERS + 4 * (k - 1)
    nothing = free & ~row[at + DOWN] if strict else free
    other = free & row[at]
    tower = free & row[at + 1]
    office = free & row[at + 2]
    reach = REACH[e, k]
    n_other = bits(_targets(planes, reach, _CLASS_KIND[0], k)) if other else 0
    n_tower = bits(_targets(planes, reach, _CLASS_KIND[1], k)) if tower else 0
    n_office = bits(_targets(planes, reach, _CLASS_KIND[2], k)) if office else 0
    n = bits(nothing) + bits(other) * n_other + bits(tower) * n_tower + bits(office) * n_office
    return n, nothing, other, tower, office, n_other, n_tower, n_office


@njit(cache=True, nogil=True)
def random_action(row: Any) -> int:
    """A legal action drawn uniformly with the row's generator (the game must not be over):
    the same as ``legal`` into a list and one ``below(n)`` index into it, without the list.
    Moves are counted per architect and class of offer (``S_OFFERS``), so only the drawn
    architect's spots are walked."""
    p = row[S_CURRENT]
    e = row[F_EXPERT]
    free = free_spots(row)
    arch = row[F_ARCHITECTS]
    strict = _strict(row, p, free)
    planes = _planes(row, p)
    total: Any = np.int64(0)  # typed int64, not the literal 0 (one compiled below)
    packed = 0  # each architect's count in 12 bits (at most 420 moves each)
    for k in range(1, arch + 1):
        if available(row, p, k):
            n = _count(row, k, free, strict, planes, e)[0]
            total += n
            packed |= n << (12 * (k - 1))
    r = below(row, total)
    for k in range(1, arch + 1):
        n = packed >> (12 * (k - 1)) & 0xFFF
        if r >= n:
            r -= n
            continue
        n, nothing, other, tower, office, n_other, n_tower, n_office = _count(
            row, k, free, strict, planes, e
        )
        stride = row[F_STRIDE]
        rest = free
        while rest:  # the spots in order, as legal() lists them
            low = rest & -rest
            rest ^= low
            s = lowest(low)
            base = ((k - 1) * N_SPOTS + s) * stride
            c = -1
            cls = 0
            if other & low:
                c, cls = n_other, 0
            elif tower & low:
                c, cls = n_tower, 1
            elif office & low:
                c, cls = n_office, 2
            if c >= 0:
                if r < c:
                    m = _targets(planes, REACH[e, k], _CLASS_KIND[cls], k)
                    while r:  # the r-th target square, ascending
                        m &= m - 1
                        r -= 1
                    action: int = base + lowest(m)
                    return action
                if r == c:
                    action = base + stride - 2
                    return action
                r -= c + 1
            elif nothing & low:
                if r == 0:
                    action = base + stride - 1
                    return action
                r -= 1
    return -1  # unreachable: a legal move always exists (§5.1)


@njit(cache=True, nogil=True)
def offers(row: Any) -> None:
    """Recompute ``S_OFFERS`` from the site (a new layout)."""
    players = row[F_PLAYERS]
    for i in range(20):
        row[S_OFFERS + i] = 0
    for q in range(SITE_SQUARES):
        t = row[S_SITE + q]
        if t < 0:
            continue
        c = OFFER_CLASS[TILE_KIND[t]] if UP[players, t] else DOWN
        for k in range(1, 6):
            row[S_OFFERS + 4 * (k - 1) + c] |= SPOTS_OF[k, q]


@njit(cache=True, nogil=True)
def _deal(row: Any, r: int) -> None:
    """Lay out round ``r`` (§3.1): its stored layout, shuffled first by the row's generator
    when its bit of ``F_SHUFFLE`` says the deal is drawn (the bag, Fisher-Yates)."""
    at = S_DEAL + r * SITE_SQUARES
    if row[F_SHUFFLE] >> r & 1:
        for i in range(SITE_SQUARES - 1, 0, -1):
            j = below(row, i + 1)
            t = row[at + i]
            row[at + i] = row[at + j]
            row[at + j] = t
    for i in range(SITE_SQUARES):
        row[S_SITE + i] = row[at + i]
    offers(row)


@njit(cache=True, nogil=True)
def _reset_architects(row: Any) -> None:
    """All architects back (§4.2): spots free, Classic owners' or the Expert pool (A22)."""
    row[S_URBANIST] = -1
    row[S_OCCUPIED] = 0
    for s in range(N_SPOTS):
        row[S_SPOTS + s] = 0
    for p in range(MAX_PLAYERS):
        row[S_USED + p] = 0
    if row[F_EXPERT]:
        for k in range(1, 6):
            row[S_POOL + k] = row[F_PLAYERS]


@njit(cache=True, nogil=True)
def _end_round(row: Any) -> None:
    """§4.2: architects back, Urbanist beside the board, the Mayor leads the next round's
    deal; after the last round the game is over."""
    r = row[S_ROUND] + 1
    row[S_ROUND] = r
    row[S_TURN] = 0
    _reset_architects(row)
    row[S_FIRST] = row[S_MAYOR]
    if r < row[F_ROUNDS]:
        _deal(row, r)
        row[S_CURRENT] = row[S_FIRST]
    else:
        for i in range(SITE_SQUARES):
            row[S_SITE + i] = -1
        offers(row)
        row[S_CURRENT] = -1


@njit(cache=True, nogil=True)
def apply(row: Any, action: int) -> None:
    """Play the legal ``action`` of the player to move, in place (§5): the architect, the
    Urbanist, the tile built or discarded, its resources, the Mayor pawn, and at the end of
    a round the next round's deal."""
    stride = row[F_STRIDE]
    target = action % stride
    pair = action // stride
    s = pair % N_SPOTS
    k = pair // N_SPOTS + 1
    p = row[S_CURRENT]
    q = SELECT_SQ[s, k]
    t = row[S_SITE + q]
    row[S_SPOTS + s] = k + 8 * p
    row[S_OCCUPIED] |= 1 << s
    if row[F_EXPERT]:
        row[S_POOL + k] -= 1
    else:
        row[S_USED + p] |= 1 << k
    row[S_URBANIST] = q
    if t >= 0 and UP[row[F_PLAYERS], t]:
        row[S_SITE + q] = -1
        at = S_OFFERS + OFFER_CLASS[TILE_KIND[t]]
        for j in range(5):
            row[at + 4 * j] &= ~SPOTS_OF[j + 1, q]
        if target < row[F_SIZE]:
            i = p * MAX_SQUARES + target
            c = row[S_CELLS + i]
            row[S_CELLS + i] = c + 1 if c else TILE_KIND[t] << 3 | 1
            row[S_VP + i] += TILE_VP[t]
            row[S_INH + p] += TILE_INH[t]
            row[S_EN + p] += TILE_EN[t]
            if TILE_MAYOR[t]:
                row[S_MAYOR] = p
    row[S_MOVES] += 1
    turn = row[S_TURN] + 1
    players = row[F_PLAYERS]
    if turn == 4 * players:
        _end_round(row)
    else:
        row[S_TURN] = turn
        row[S_CURRENT] = (row[S_FIRST] + turn) % players


@njit(cache=True, nogil=True)
def new_game(row: Any) -> None:
    """Deal a new game on the row's facts from its generator (§3): the state cleared, every
    round's bag filled, the first player drawn, round 1 laid out; later rounds are drawn as
    they start (every bit of ``F_SHUFFLE`` set)."""
    rng_lo = row[S_RNG]
    rng_hi = row[S_RNG + 1]
    for i in range(STATE, ROW_LENGTH):
        row[i] = 0
    row[S_RNG] = rng_lo
    row[S_RNG + 1] = rng_hi
    e = row[F_EXPERT]
    for r in range(row[F_ROUNDS]):
        for i in range(SITE_SQUARES):
            row[S_DEAL + r * SITE_SQUARES + i] = POOL_TILES[e, r, i]
    row[F_SHUFFLE] = (1 << row[F_ROUNDS]) - 1
    players: Any = np.int64(row[F_PLAYERS])
    first = below(row, players)
    row[F_FIRST_PLAYER] = first
    row[S_FIRST] = first
    row[S_MAYOR] = first
    row[S_CURRENT] = first
    _reset_architects(row)
    zero: Any = np.int64(0)
    _deal(row, zero)
