"""The row of one Metropolys table: every fact and every piece of state in one flat int32
array, at the named offsets below.

One row per table makes a copy ``row.copy()`` and a batch of tables a 2-D array whose rows
the compiled functions step one by one, with no Python object anywhere. The numbers are the
Python engine's own (:mod:`~polis.games.metropolys.state`): cells hold ``player * 16 +
value`` for a building, :data:`FREE` or :data:`OUT_OF_PLAY`; supplies are bit masks (bit v =
building v); token codes are 0 none, 1 chic, 2 metro, 3 archaeology. So
:func:`~polis.games.metropolys.compiled.bridge.to_row` is a copy, and two rows are equal
exactly when the two positions are.

Facts (set once by the deal, never changed by play):

==================  =====  =========================================================
``F_PLAYERS``       1      number of players (2-4)
``F_EXPERT``        1      1 for the Expert version, 0 for Family
``F_LAKES_THREE``   1      option ``lake_groups == "per_three"`` (R10)
``F_FIELD_51``      1      option ``field_51_outskirts`` (R17)
``F_UNUSED``        1      bit mask of the unused districts (bit d = district code d)
``F_FIRST``         1      the first start player
``F_AREA``          4      each player's area card, a code of :data:`AREA_CARDS` (-1 unseated)
``F_COLOUR``        4      each player's neighbourhood card, a colour code (-1: Family)
``F_TOKENS``        55     the token dealt on each field
==================  =====  =========================================================

State:

==================  =====  =========================================================
``S_CELLS``         55     each field's cell code
``S_TOKENS``        55     the token still on each field
``S_SUPPLY``        4      each player's supply bit mask
``S_BUILT``         4      buildings each player built
``S_COLLECTED``     16     tokens collected, ``player * 4 + token code`` (slot 0 unused)
``S_METRO``         1      holder of the metro card (-1 nobody)
``S_ARCHAEOLOGY``   1      holder of the archaeology card (-1 nobody)
``S_PASSED``        1      bit mask of the players who passed this round
``S_CURRENT``       1      player to move, -1 once the game is over
``S_START``         1      who opened (or opens) this round
``S_TERMINAL``      1      1 once the game is over
``S_MOVES``         1      moves played since the deal
``S_NBIDS``         1      bids placed this round
``S_BIDS``          13     their fields in order, then -1 (the last is the current bid;
                           values rise, so a round has at most 13)
``S_FREE``          2      the free fields as a bit mask (bit f = field f, low and high
                           32 bits): what the cells say, kept for the raises' and the
                           end of round's questions about a bid's free neighbours
``S_RNG``           2      the table's own random generator (splitmix64, low and high
                           32 bits): not part of the position, so :data:`POSITION` ends
                           before it
==================  =====  =========================================================
"""

from __future__ import annotations

from typing import Final

import numpy as np

from polis.games.metropolys.board import NUM_FIELDS

ROW_DTYPE: Final = np.int32
MAX_PLAYERS: Final = 4
#: Values rise within a round, so it holds at most 13 bids.
MAX_BIDS: Final = 13
#: Action ids as in :mod:`~polis.games.metropolys.moves`: (value - 1) * 55 + field, pass last.
PASS_ID: Final = 13 * NUM_FIELDS
NUM_ACTIONS: Final = PASS_ID + 1

FREE: Final = 255
OUT_OF_PLAY: Final = 254
FULL_SUPPLY: Final = 0x3FFE

#: Area card codes: the Family deck first, then the two Expert-only cards.
AREA_CARDS: Final = ("bridges", "statues", "lakes", "outskirts", "districts", "chains")
A_BRIDGES, A_STATUES, A_LAKES, A_OUTSKIRTS, A_DISTRICTS, A_CHAINS = range(6)

F_PLAYERS: Final = 0
F_EXPERT: Final = 1
F_LAKES_THREE: Final = 2
F_FIELD_51: Final = 3
F_UNUSED: Final = 4
F_FIRST: Final = 5
F_AREA: Final = 6
F_COLOUR: Final = F_AREA + MAX_PLAYERS
F_TOKENS: Final = F_COLOUR + MAX_PLAYERS
S_CELLS: Final = F_TOKENS + NUM_FIELDS
S_TOKENS: Final = S_CELLS + NUM_FIELDS
S_SUPPLY: Final = S_TOKENS + NUM_FIELDS
S_BUILT: Final = S_SUPPLY + MAX_PLAYERS
S_COLLECTED: Final = S_BUILT + MAX_PLAYERS
S_METRO: Final = S_COLLECTED + 4 * MAX_PLAYERS
S_ARCHAEOLOGY: Final = S_METRO + 1
S_PASSED: Final = S_ARCHAEOLOGY + 1
S_CURRENT: Final = S_PASSED + 1
S_START: Final = S_CURRENT + 1
S_TERMINAL: Final = S_START + 1
S_MOVES: Final = S_TERMINAL + 1
S_NBIDS: Final = S_MOVES + 1
S_BIDS: Final = S_NBIDS + 1
S_FREE: Final = S_BIDS + MAX_BIDS
S_RNG: Final = S_FREE + 2
ROW_LEN: Final = S_RNG + 2
#: The slots that make the position (everything but the generator): rows compare on these.
POSITION: Final = slice(0, S_RNG)


def empty_rows(tables: int) -> np.ndarray:
    """``tables`` blank rows (a 2-D array) for the deal to fill."""
    return np.zeros((tables, ROW_LEN), ROW_DTYPE)
