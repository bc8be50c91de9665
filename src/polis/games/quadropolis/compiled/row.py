"""The row: one table of Quadropolis as one 1-D ``int32`` numpy array, and the constant tables
the compiled steps read.

A table is a single row so that cloning is ``row.copy()`` and a batch of tables is a 2-D
array whose rows the compiled functions step one by one: no Python object per table. The
offsets below are module constants (numba folds them into the code). Numbers follow the
Python engine (:mod:`~polis.games.quadropolis.state`) so that a row can be compared with
:func:`~polis.games.quadropolis.compiled.bridge.to_row` of a Python state field by field:

* facts (fixed for the table): ``F_*``;
* state: ``S_*``; players and city squares have fixed strides (:data:`MAX_PLAYERS`,
  :data:`MAX_SQUARES`), unused entries stay 0;
* a city square is ``kind << 3 | floors`` (0 = empty, kinds as
  :data:`~polis.games.quadropolis.tiles.KIND_CODES`), its printed VP (Public Services,
  Harbors) beside it in ``S_VP``; which tiles a stack is made of, and the discards, are not
  kept: neither play nor scoring looks at them;
* ``S_DEAL`` holds the layout of every round (25 tile indices each, row-major site squares):
  the Python set-up's ``rounds``. ``F_SHUFFLE`` says which rounds are still undecided: when
  its bit r is set, round r's layout is shuffled by the row's own generator (``S_RNG``,
  xorshift64* in two words) as that round starts (the bag draw of §3.1), so a table's future
  is its own and a clone with another generator state gets another future; when clear, the
  stored layout is laid as it is (a Python deal installed:
  :func:`~polis.games.quadropolis.compiled.bridge.install_layout`).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from polis.games.quadropolis.city import geometry
from polis.games.quadropolis.site import BLOCKED, GEOMETRY, MAX_FLOORS, N_SPOTS, SELECT
from polis.games.quadropolis.tiles import (
    FACE_UP,
    KIND_CODES,
    OFFICE,
    POOLS,
    T_EN,
    T_INH,
    T_KIND,
    T_MAYOR,
    TILES,
    TOWER,
)

MAX_PLAYERS: Final = 4
MAX_SQUARES: Final = 20
MAX_ROUNDS: Final = 5
SITE_SQUARES: Final = 25
#: Room for every legal move of a position (5 architects x 20 spots x 21 targets at most).
MAX_LEGAL: Final = 2200

# -- facts ---------------------------------------------------------------------------------
F_PLAYERS: Final = 0
F_EXPERT: Final = 1  # 0 Classic, 1 Expert
F_SIZE: Final = 2  # city squares: 16 or 20
F_ARCHITECTS: Final = 3  # 4 or 5
F_ROUNDS: Final = 4  # 4 or 5
F_STRIDE: Final = 5  # targets per (architect, spot) in the action ids: size + 2
F_UNSELECTABLE: Final = 6  # option A5: face-down tiles may not be selected
F_PLAYGROUND: Final = 7  # option A10: playgrounds hold surplus energy
F_GROUP_CAP: Final = 8  # option A14: Office Tower group row cap
F_AFTER_REMOVAL: Final = 9  # option A19: empty squares counted after removal
F_SHUFFLE: Final = 10  # bit r: round r's layout is drawn by S_RNG as it starts
F_FIRST_PLAYER: Final = 11  # the set-up's first player
# -- state ---------------------------------------------------------------------------------
S_ROUND: Final = 12  # 0-based; == F_ROUNDS once the game is over
S_TURN: Final = 13  # actions taken this round
S_CURRENT: Final = 14  # player to move, -1 once the game is over
S_FIRST: Final = 15  # first player of this round
S_MAYOR: Final = 16  # holder of the Mayor pawn
S_URBANIST: Final = 17  # site square of the Urbanist, -1 beside the board
S_OCCUPIED: Final = 18  # bit mask of the spots holding an architect
S_MOVES: Final = 19  # actions taken in the game
S_RNG: Final = 20  # two words: the generator's 64-bit state, low word first
S_SPOTS: Final = 22  # 20: 0 free, else architect + 8 * player
S_USED: Final = S_SPOTS + N_SPOTS  # 4: Classic, bit k = own architect k used this round
S_POOL: Final = S_USED + MAX_PLAYERS  # 6: Expert, architects k left in the pool (index 1-5)
S_INH: Final = S_POOL + 6  # 4: inhabitants gained
S_EN: Final = S_INH + MAX_PLAYERS  # 4: energy gained
S_SITE: Final = S_EN + MAX_PLAYERS  # 25: tile index per site square, -1 empty
#: 5 x 4, per architect k (from 1) and class c: ``S_OFFERS + 4 * (k - 1) + c`` is the mask of
#: the spots from which k selects a face-up tile of class c (:data:`OFFER_CLASS`: 0 a kind
#: that does not stack, 1 Tower Block, 2 Office Tower) or, c = 3, a face-down tile. Derived
#: from ``S_SITE`` (kept as tiles are taken), so a random move counts its choices per class
#: instead of per spot.
S_OFFERS: Final = S_SITE + SITE_SQUARES
DOWN: Final = 3
S_CELLS: Final = S_OFFERS + 5 * 4  # 4 x 20: kind << 3 | floors
S_VP: Final = S_CELLS + MAX_PLAYERS * MAX_SQUARES  # 4 x 20: printed VP of the building
S_DEAL: Final = S_VP + MAX_PLAYERS * MAX_SQUARES  # 5 x 25: every round's layout
ROW_LENGTH: Final = S_DEAL + MAX_ROUNDS * SITE_SQUARES
#: The first state offset: everything from here on is reset for a new game.
STATE: Final = S_ROUND
ROW_DTYPE: Final = np.int32

# -- constant tables (numba freezes them into the compiled code) ------------------------------
#: SELECT_SQ[spot, k]: site square architect k selects from ``spot`` (§5.2).
SELECT_SQ: Final = np.array(SELECT, np.int64)
#: SPOTS_OF[k, square]: the spots from which architect k selects that site square.
SPOTS_OF: Final = np.zeros((6, SITE_SQUARES), np.int64)
for _s in range(N_SPOTS):
    for _k in range(1, 6):
        SPOTS_OF[_k, SELECT[_s][_k]] |= 1 << _s
#: OFFER_CLASS[kind]: the class of a face-up tile in ``S_OFFERS``.
OFFER_CLASS: Final = np.array(
    [k if k in (TOWER, OFFICE) else 0 for k in range(len(KIND_CODES))], np.int64
)
#: BLOCKED_BY[square]: spots the Urbanist on that site square blocks; index 25: off board.
BLOCKED_BY: Final = np.array(BLOCKED, np.int64)
#: REACH[expert, k]: city squares where architect k may build (location condition, §6).
REACH: Final = np.array([GEOMETRY[m].reach_mask for m in ("classic", "expert")], np.int64)
#: MAX_FLOORS_OF[expert, kind]: stack height limit of Tower Blocks (1), Office Towers (2).
MAX_FLOORS_OF: Final = np.array([MAX_FLOORS[m] for m in ("classic", "expert")], np.int64)
#: UP[players, tile]: face up with that many players (§3.1).
UP: Final = np.array([FACE_UP[max(n, 2)] for n in range(MAX_PLAYERS + 1)], np.int64)
TILE_KIND: Final = np.array(T_KIND, np.int64)
TILE_INH: Final = np.array(T_INH, np.int64)
TILE_EN: Final = np.array(T_EN, np.int64)
TILE_MAYOR: Final = np.array(T_MAYOR, np.int64)
#: Printed VP of a tile where it counts (Public Services, Harbors: kinds above 2).
TILE_VP: Final = np.array([t.vp if t.kind > 2 else 0 for t in TILES], np.int64)
#: POOL_TILES[expert, round]: the round's 25 tiles in manifest order (the bag).
POOL_TILES: Final = np.full((2, MAX_ROUNDS, SITE_SQUARES), -1, np.int64)
for _e, _mode in enumerate(("classic", "expert")):
    for _r, _pool in enumerate(POOLS[_mode]):
        POOL_TILES[_e, _r] = _pool
#: Per mode (0 Classic, 1 Expert): neighbour masks and districts of the city squares, the
#: number of districts, columns and the Shop capacity: the scorer kernel's arguments.
NEIGHBOURS: Final = np.zeros((2, MAX_SQUARES), np.int64)
DISTRICT: Final = np.zeros((2, MAX_SQUARES), np.int64)
MAT: Final = np.zeros((2, 3), np.int64)  # districts, cols, shop capacity
for _e, _mode in enumerate(("classic", "expert")):
    _g = geometry(_mode)
    NEIGHBOURS[_e, : _g.size] = _g.neighbour_mask
    DISTRICT[_e, : _g.size] = _g.district
    MAT[_e] = (_g.districts, _g.cols, _g.shop_capacity)
