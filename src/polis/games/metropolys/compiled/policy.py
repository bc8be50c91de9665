"""The bots' greedy-biased playout policy compiled (``MetropolysKnowledge.playout_move``).

The same numbers as :mod:`~polis.games.metropolys.knowledge`: a bid is worth the chance it
is the one built this round times (what the field is worth to the bidder minus what the
building costs), less a small loss when it is not; the policy samples
:data:`~polis.games.metropolys.knowledge.PLAYOUT_SAMPLES` moves the way the engine's
``random_move`` draws them and keeps the best, passes instead of a losing raise, and plays a
plain random move with probability
:data:`~polis.games.metropolys.knowledge.PLAYOUT_EPSILON`. The values are the Python
functions' to the last bit (same operations in the same order; the tests compare every
legal move of random positions); the draws come from the row's own generator, so the
games differ from Python's but follow the same distribution.
"""

from __future__ import annotations

import math
from typing import Any, Final

import numpy as np
from numba import njit

from polis.games.metropolys.board import COLOURS, NUM_FIELDS, SIZE_OF
from polis.games.metropolys.compiled.engine import bid_mask, free_mask
from polis.games.metropolys.compiled.layout import (
    A_CHAINS,
    A_DISTRICTS,
    AREA_CARDS,
    F_AREA,
    F_COLOUR,
    F_EXPERT,
    F_PLAYERS,
    F_UNUSED,
    FREE,
    OUT_OF_PLAY,
    PASS_ID,
    S_BIDS,
    S_CELLS,
    S_CURRENT,
    S_NBIDS,
    S_PASSED,
    S_SUPPLY,
    S_TOKENS,
)
from polis.games.metropolys.compiled.rng import below, chance
from polis.games.metropolys.compiled.score import nth_bit, nth_value, popcount
from polis.games.metropolys.compiled.tables import ADJ_MASK, DISTRICT_MASK, DISTRICT_OF
from polis.games.metropolys.knowledge import (
    _CARD_POINTS,
    _EXPERT_POINTS,
    _FAMILY_POINTS,
    _TOKEN_BY_CODE,
    PLAYOUT_EPSILON,
    PLAYOUT_SAMPLES,
    RAISE_CHANCE,
    SIZE_BONUS,
    SPEND_COST,
)

#: TOKEN_WORTH[code]: what a token is worth to the bots.
TOKEN_WORTH: Final = np.array(_TOKEN_BY_CODE, np.float64)
#: CARD_WORTH[card, field]: a Family area card's points on a field (area codes 0-3), an
#: Expert area card's single-field part (codes 0-5, rows 6-11) and an Expert colour card's
#: (rows 12-16): the knowledge module's tables, by the row's card codes.
FAMILY_ROWS: Final = 0
EXPERT_ROWS: Final = len(AREA_CARDS)
COLOUR_ROWS: Final = 2 * len(AREA_CARDS)
CARD_WORTH: Final = np.zeros((COLOUR_ROWS + len(COLOURS), NUM_FIELDS), np.float64)
for _code, _card in enumerate(AREA_CARDS):
    if _card in _FAMILY_POINTS:
        CARD_WORTH[FAMILY_ROWS + _code] = _FAMILY_POINTS[_card]
    if _card in _EXPERT_POINTS:
        CARD_WORTH[EXPERT_ROWS + _code] = _EXPERT_POINTS[_card]
for _code, _colour in enumerate(COLOURS):
    CARD_WORTH[COLOUR_ROWS + _code] = _EXPERT_POINTS[_colour]
#: Per area code, the points the cluster part of card_bonus counts in (chains, districts).
CLUSTER_POINTS: Final = np.array([_CARD_POINTS.get(c, 0.0) for c in AREA_CARDS], np.float64)
SIZE_WORTH: Final = np.array([0.0, *(SIZE_BONUS[SIZE_OF[v]] for v in range(1, 14))], np.float64)
#: The epsilon of the playouts as a threshold on 32 random bits: k < EPSILON_THRESHOLD
#: exactly when k / 2**32 < PLAYOUT_EPSILON, the Python test on the same draw.
EPSILON_THRESHOLD: Final = math.ceil(PLAYOUT_EPSILON * 2**32)


@njit(cache=True, nogil=True)
def win_chance(row: Any, player: int, field: int, value: int) -> float:
    """Chance that ``value`` on ``field`` is the bid built this round (``knowledge.win_chance``
    against the supplies of the opponents still in the round, in seat order)."""
    if not ADJ_MASK[field] & free_mask(row):
        return 1.0
    odds = 1.0
    passed = row[S_PASSED]
    for q in range(row[F_PLAYERS]):
        if q == player or (passed >> q) & 1:
            continue
        higher = popcount(row[S_SUPPLY + q] >> (value + 1))
        if higher:
            odds *= 1.0 - RAISE_CHANCE * min(1.0, 0.4 + higher / 6)
    return odds


@njit(cache=True, nogil=True)
def card_bonus(row: Any, player: int, card: int, field: int) -> float:
    """``knowledge.card_bonus`` of an Expert area ``card`` (a code): its single-field part,
    plus for chains and districts a share for the player's built buildings near ``field``."""
    worth: float = CARD_WORTH[EXPERT_ROWS + card, field]
    if card in (A_CHAINS, A_DISTRICTS):
        near = ADJ_MASK[field] if card == A_CHAINS else DISTRICT_MASK[DISTRICT_OF[field]]
        near &= ~bid_mask(row)
        mine = 0
        for f in range(NUM_FIELDS):
            if (near >> f) & 1:
                c = row[S_CELLS + f]
                if c < OUT_OF_PLAY and c >> 4 == player:
                    mine += 1
        worth += CLUSTER_POINTS[card] * min(mine, 2) * 0.7
    return worth


@njit(cache=True, nogil=True)
def field_value(row: Any, player: int, field: int, value: int) -> float:
    """What building ``value`` on ``field`` is worth to ``player`` (``knowledge.field_value``)."""
    worth: float = TOKEN_WORTH[row[S_TOKENS + field]]
    card = row[F_AREA + player]
    if not row[F_EXPERT]:
        family: float = worth + CARD_WORTH[FAMILY_ROWS + card, field]
        return family
    worth += card_bonus(row, player, card, field)
    worth += CARD_WORTH[COLOUR_ROWS + row[F_COLOUR + player], field]
    expert: float = worth + SIZE_WORTH[value]
    return expert


@njit(cache=True, nogil=True)
def bid_value(row: Any, player: int, action: int) -> float:
    """Expected gain of ``action`` for ``player`` (``knowledge.bid_value``); a pass is 0."""
    if action == PASS_ID:
        return 0.0
    field = action % NUM_FIELDS
    value = action // NUM_FIELDS + 1
    p = win_chance(row, player, field, value)
    gain: float = p * (field_value(row, player, field, value) - SPEND_COST * value)
    return gain - (1 - p) * 0.2


@njit(cache=True, nogil=True)
def play_field(unused: int, i: int) -> int:
    """The i-th field in play, ascending (``GameFacts.play_fields[i]``): the center's 15,
    then the 10 of each peripheral district in play (ids run district by district)."""
    field = i
    for d in range(1, 5):
        if (unused >> d) & 1 and field >= 5 + 10 * d:
            field += 10
    return field


@njit(cache=True, nogil=True)
def random_move(row: Any) -> int:
    """A move drawn as ``MetropolysState.random_move`` draws it, draw for draw: an opening
    field by rejection among the fields in play, then a value of the supply; a raise's
    field-or-pass uniform among the free neighbours and a pass, then a higher value (a pass
    with no draw when no value is higher). Fed the uniforms ``next32 / 2**32`` as
    ``random()``, the Python method picks the same move."""
    cur = row[S_CURRENT]
    supply = row[S_SUPPLY + cur] & 0x3FFF  # as an int64, the one type popcount is compiled for
    nbids = row[S_NBIDS]
    if nbids == 0:  # rejection among the fields in play, as the engine draws
        unused = row[F_UNUSED]
        in_play = NUM_FIELDS - 10 * popcount(unused & 0x1F)
        field = play_field(unused, below(row, in_play))
        while row[S_CELLS + field] != FREE:
            field = play_field(unused, below(row, in_play))
        v = nth_value(supply, below(row, popcount(supply)))
        return (v - 1) * NUM_FIELDS + field
    last = row[S_BIDS + nbids - 1]
    low = (row[S_CELLS + last] & 15) + 1
    higher = supply >> low << low
    if higher == 0:
        return PASS_ID
    near = ADJ_MASK[last] & free_mask(row)
    free = popcount(near)
    k = below(row, free + 1)
    if k == free:
        return PASS_ID
    v = nth_value(higher, below(row, popcount(higher)))
    return (v - 1) * NUM_FIELDS + nth_bit(near, k)


@njit(cache=True, nogil=True)
def policy_move(row: Any) -> int:
    """The playout policy's move for the player to move (``playout_move``): the best of
    a few random moves by :func:`bid_value`, a pass rather than a raise worth less than
    nothing, and now and then a plain random move."""
    if chance(row, int(EPSILON_THRESHOLD)):
        return random_move(row)
    player: Any = np.int64(row[S_CURRENT])  # the type Python callers pass
    best = random_move(row)
    best_value = bid_value(row, player, best)
    for _ in range(PLAYOUT_SAMPLES - 1):
        move = random_move(row)
        value = bid_value(row, player, move)
        if value > best_value:
            best = move
            best_value = value
    if row[S_NBIDS] and best_value < 0:
        return PASS_ID
    return best
