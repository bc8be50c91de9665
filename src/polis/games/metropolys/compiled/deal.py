"""The set-up of a table: every chance outcome of Metropolys, drawn from the table's own
generator or installed as given.

All of the game's chance happens before the first bid (unused districts, token layout,
secret cards, first player), so a deal is the whole chance model. :func:`deal` installs an
outcome given explicitly (the Python set-up's, for the equivalence checks);
:func:`deal_random` draws one from the row's generator with the distribution of
:func:`~polis.games.metropolys.setup.make_setup` (R13, R19), but not its draws: Python's
Mersenne Twister and this generator give different games from the same seed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from polis.games.metropolys.board import CENTER_TOKENS, NUM_FIELDS, PERIPHERAL_TOKENS
from polis.games.metropolys.compiled.engine import reset
from polis.games.metropolys.compiled.layout import (
    A_CHAINS,
    A_DISTRICTS,
    F_AREA,
    F_COLOUR,
    F_EXPERT,
    F_FIRST,
    F_PLAYERS,
    F_TOKENS,
    F_UNUSED,
    MAX_PLAYERS,
)
from polis.games.metropolys.compiled.rng import below
from polis.games.metropolys.compiled.tables import (
    PAIR_UNUSED,
    TOKEN_COUNT,
    TOKEN_FIELD,
    TOKEN_FIELD_N,
)


@njit(cache=True, nogil=True)
def deal(row: Any, unused: int, tokens: Any, area: Any, colours: Any, first: int) -> None:
    """Install a given set-up and start the game: the unused districts as a bit mask, the
    token code of each of the 55 fields, each player's area card code and colour code (-1
    in Family) and the first player. The players, version and options already in the row
    stay."""
    n = row[F_PLAYERS]
    row[F_UNUSED] = unused
    row[F_FIRST] = first
    for f in range(NUM_FIELDS):
        row[F_TOKENS + f] = tokens[f]
    for p in range(MAX_PLAYERS):
        row[F_AREA + p] = area[p] if p < n else -1
        row[F_COLOUR + p] = colours[p] if p < n else -1
    reset(row)


@njit(cache=True, nogil=True)
def deal_random(row: Any) -> None:
    """Draw a set-up from the row's generator and start the game (the players, version and
    options already in the row stay)."""
    n = row[F_PLAYERS]
    unused = 0
    if n == 3:
        unused = 1 << (1 + below(row, len(PAIR_UNUSED)))  # any of the 4 peripheral ones
    elif n == 2:
        unused = PAIR_UNUSED[below(row, len(PAIR_UNUSED))]
    row[F_UNUSED] = unused
    # The bag of the player count, shuffled (R19), then 7 tokens on distinct random fields
    # of the center and 5 on each peripheral district in play (partial Fisher-Yates).
    bag = np.empty(27, np.int64)
    size = 0
    for code in range(1, 4):
        for _ in range(TOKEN_COUNT[n, code]):
            bag[size] = code
            size += 1
    for i in range(size - 1, 0, -1):
        j = below(row, i + 1)
        bag[i], bag[j] = bag[j], bag[i]
    for f in range(NUM_FIELDS):
        row[F_TOKENS + f] = 0
    allowed = np.empty(TOKEN_FIELD.shape[1], np.int64)
    for d in range(5):
        if (unused >> d) & 1:
            continue
        na = TOKEN_FIELD_N[d]
        for i in range(na):
            allowed[i] = TOKEN_FIELD[d, i]
        count = CENTER_TOKENS if d == 0 else PERIPHERAL_TOKENS
        for i in range(count):
            j = i + below(row, na - i)
            allowed[i], allowed[j] = allowed[j], allowed[i]
            size -= 1
            row[F_TOKENS + allowed[i]] = bag[size]
    # Secret cards: the area deck (Family 2p without outskirts; Expert has its own five),
    # then in Expert the five colours, each dealt by a partial shuffle.
    expert = row[F_EXPERT]
    deck = np.empty(5, np.int64)
    if expert:
        cards = 5
        for i in range(3):
            deck[i] = i
        deck[3] = A_DISTRICTS
        deck[4] = A_CHAINS
    else:
        cards = 3 if n == 2 else 4
        for i in range(cards):
            deck[i] = i
    for p in range(n):
        j = p + below(row, cards - p)
        deck[p], deck[j] = deck[j], deck[p]
        row[F_AREA + p] = deck[p]
    for p in range(n, MAX_PLAYERS):
        row[F_AREA + p] = -1
        row[F_COLOUR + p] = -1
    for i in range(5):
        deck[i] = i
    for p in range(n):
        if expert:
            j = p + below(row, 5 - p)
            deck[p], deck[j] = deck[j], deck[p]
            row[F_COLOUR + p] = deck[p]
        else:
            row[F_COLOUR + p] = -1
    row[F_FIRST] = below(row, n + 0)  # + 0: an int64, the type of every other draw
    reset(row)
