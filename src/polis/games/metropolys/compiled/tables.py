"""The board and the card facts as numpy arrays and int64 bit masks, for the compiled code.

numba freezes module-level arrays into the machine code, so these are built once at import
from :mod:`~polis.games.metropolys.board` and :mod:`~polis.games.metropolys.cards` (the one
source of the board) and the Python scorer's own sets and weights, and never passed around.
Field sets are int64 masks (bit f = field f; 55 fields and the lakes' 6 virtual bits fit
below bit 63, so no unsigned arithmetic, which numba would turn into floats when mixed with
signed numbers).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from polis.games.metropolys import scoring
from polis.games.metropolys.board import (
    ADJACENT,
    ADJACENT_MASK,
    ADJACENT_PERIPHERAL_PAIRS,
    COLOUR,
    COLOURS,
    DISTRICT,
    DISTRICT_FIELDS,
    DISTRICTS,
    LAKES,
    NUM_FIELDS,
    ON_BRIDGE,
    ON_LAKE,
    ON_STATUE,
    OUTSKIRTS,
    TOKEN_COUNTS,
    TOKEN_FIELDS,
    TOKENS,
    field_mask,
)
from polis.games.metropolys.cards import EXPERT_AREA_POINTS
from polis.games.metropolys.compiled.layout import AREA_CARDS

MAX_DEGREE: Final = max(len(a) for a in ADJACENT)
#: ADJ[f, :ADJ_N[f]]: the fields adjacent to f (land or bridge), ascending as in the engine.
ADJ: Final = np.full((NUM_FIELDS, MAX_DEGREE), -1, np.int64)
ADJ_N: Final = np.array([len(a) for a in ADJACENT], np.int64)
for _f, _near in enumerate(ADJACENT):
    ADJ[_f, : len(_near)] = _near
ADJ_MASK: Final = np.array(ADJACENT_MASK, np.int64)
DISTRICT_OF: Final = np.array(DISTRICT, np.int64)
DISTRICT_MASK: Final = np.array([field_mask(d) for d in DISTRICT_FIELDS], np.int64)
COLOUR_MASK: Final = np.array(
    [field_mask(f for f in range(NUM_FIELDS) if COLOUR[f] == c) for c in COLOURS], np.int64
)
ON_BRIDGE_MASK: Final = field_mask(f for f in range(NUM_FIELDS) if ON_BRIDGE[f])
ON_STATUE_MASK: Final = field_mask(f for f in range(NUM_FIELDS) if ON_STATUE[f])
ON_LAKE_MASK: Final = field_mask(f for f in range(NUM_FIELDS) if ON_LAKE[f])
OUTSKIRTS_MASK: Final = field_mask(OUTSKIRTS)
#: Outskirts without field 51 (option field_51_outskirts false, R17).
OUTSKIRTS_NO_51_MASK: Final = OUTSKIRTS_MASK & ~(1 << 51)
BRIDGE_SETS: Final = np.array(scoring.BRIDGE_SETS, np.int64)
STATUE_SETS: Final = np.array(scoring.STATUE_SETS, np.int64)
LAKE_SETS: Final = np.array([field_mask(lk) for lk in LAKES], np.int64)
#: TOKEN_FIELD[d, :TOKEN_FIELD_N[d]]: fields of district d that may hold a token (R18).
TOKEN_FIELD: Final = np.full((len(DISTRICTS), max(len(t) for t in TOKEN_FIELDS)), -1, np.int64)
TOKEN_FIELD_N: Final = np.array([len(t) for t in TOKEN_FIELDS], np.int64)
for _d, _fields in enumerate(TOKEN_FIELDS):
    TOKEN_FIELD[_d, : len(_fields)] = _fields
#: TOKEN_COUNT[players, code]: tokens of each type in the bag (code 0 unused).
TOKEN_COUNT: Final = np.zeros((5, 4), np.int64)
for _n, _counts in TOKEN_COUNTS.items():
    for _code, _name in enumerate(TOKENS, start=1):
        TOKEN_COUNT[_n, _code] = _counts[_name]
#: Unused-district masks of the 2-player game: the adjacent peripheral pairs (R13).
PAIR_UNUSED: Final = np.array(
    [sum(1 << DISTRICTS.index(d) for d in pair) for pair in ADJACENT_PERIPHERAL_PAIRS], np.int64
)
#: A building's weight in the highest-building key: (#large, #medium, #small) as one int (R22).
SIZE_WEIGHT: Final = np.array(scoring.SIZE_WEIGHT, np.int64)
#: Points per group of each Expert area card, by area code (outskirts is Family only).
EXPERT_POINTS: Final = np.array([EXPERT_AREA_POINTS.get(c, 0) for c in AREA_CARDS], np.int64)
