"""Between the Python engine and the rows: the exact row of a Python state, a fresh row for
a table, and the set-up a compiled game dealt (to replay it on the Python engine).

:func:`to_row` reads the state's private lists: it is the bridge the equivalence checks
stand on, so it takes the state as it is rather than through views, which hide the future.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from polis.games.quadropolis.compiled.row import (
    DOWN,
    F_AFTER_REMOVAL,
    F_ARCHITECTS,
    F_EXPERT,
    F_FIRST_PLAYER,
    F_GROUP_CAP,
    F_PLAYERS,
    F_PLAYGROUND,
    F_ROUNDS,
    F_SHUFFLE,
    F_SIZE,
    F_STRIDE,
    F_UNSELECTABLE,
    MAX_SQUARES,
    POOL_TILES,
    ROW_DTYPE,
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
    S_ROUND,
    S_SITE,
    S_SPOTS,
    S_TURN,
    S_URBANIST,
    S_USED,
    S_VP,
    SITE_SQUARES,
)
from polis.games.quadropolis.compiled.step import offers
from polis.games.quadropolis.options import DEFAULT_OPTIONS, Options
from polis.games.quadropolis.setup import Setup
from polis.games.quadropolis.site import ARCHITECTS, GEOMETRY, N_SPOTS, SELECT
from polis.games.quadropolis.state import QuadropolisState
from polis.games.quadropolis.tiles import FACE_UP, MODES, ROUNDS, T_KIND, TILES


def facts_row(mode: str, players: int, options: Options = DEFAULT_OPTIONS) -> Any:
    """A row holding only the table's facts (mode, players, options); the state all zeros."""
    if mode not in MODES or not 2 <= players <= 4:
        raise ValueError(f"no Quadropolis table {mode!r} with {players} players")
    row = np.zeros(ROW_LENGTH, ROW_DTYPE)
    size = GEOMETRY[mode].size
    row[F_PLAYERS] = players
    row[F_EXPERT] = MODES.index(mode)
    row[F_SIZE] = size
    row[F_ARCHITECTS] = ARCHITECTS[mode]
    row[F_ROUNDS] = ROUNDS[mode]
    row[F_STRIDE] = size + 2
    row[F_UNSELECTABLE] = options.face_down_tiles == "unselectable"
    playground, cap, after_removal = options.scoring
    row[F_PLAYGROUND] = playground
    row[F_GROUP_CAP] = cap
    row[F_AFTER_REMOVAL] = after_removal
    return row


def to_row(state: QuadropolisState) -> Any:
    """The row of a Python state: the same position, and the same future (the set-up's
    layouts of the rounds to come, laid as they are: ``F_SHUFFLE`` 0). Every slot is written
    here from the Python state, the offers too (by their definition, not by the compiled
    :func:`~.step.offers`), so the check compares two independent writings."""
    row = _position_row(state)
    players = state.setup_data.players
    up = FACE_UP[players]
    for q, t in enumerate(state._site):
        if t >= 0:
            c = (T_KIND[t] if T_KIND[t] <= 2 else 0) if up[t] else DOWN
            for k in range(1, 6):
                for spot in range(N_SPOTS):
                    if SELECT[spot][k] == q:
                        row[S_OFFERS + 4 * (k - 1) + c] |= 1 << spot
    return row


def search_row(state: QuadropolisState) -> Any:
    """:func:`to_row`'s row with the offers worked out by the compiled engine: what the
    searches take for each sampled state (a few times faster; tested equal)."""
    row = _position_row(state)
    offers(row)
    return row


def _position_row(state: QuadropolisState) -> Any:
    """Every slot of the row but the offers."""
    setup = state.setup_data
    players = setup.players
    row = facts_row(setup.mode, players, state.rules)
    row[F_FIRST_PLAYER] = setup.first_player
    row[S_ROUND] = state._round
    row[S_TURN] = state._turn
    row[S_CURRENT] = state._current
    row[S_FIRST] = state._first
    row[S_MAYOR] = state._mayor
    row[S_URBANIST] = state._urbanist
    row[S_OCCUPIED] = state._occupied
    row[S_MOVES] = len(state.history)
    row[S_SPOTS : S_SPOTS + 20] = state._spots
    row[S_USED : S_USED + players] = state._used
    row[S_POOL : S_POOL + 6] = state._pool
    for p in range(players):
        inh, en = state.resources(p)
        row[S_INH + p] = inh
        row[S_EN + p] = en
    row[S_SITE : S_SITE + SITE_SQUARES] = state._site
    size = row[F_SIZE]
    for p in range(players):
        for q in range(size):
            c = state._cells[p * size + q]
            row[S_CELLS + p * MAX_SQUARES + q] = c
            if c >> 3 > 2:
                row[S_VP + p * MAX_SQUARES + q] = sum(
                    TILES[t].vp for t in state._stacks[p * size + q]
                )
    for r, layout in enumerate(setup.rounds):
        row[S_DEAL + r * SITE_SQUARES : S_DEAL + (r + 1) * SITE_SQUARES] = layout
    return row


def setup_of(row: Any) -> Setup:
    """The set-up a row's game was dealt: its first player and every round's layout (a
    compiled game's rounds are recorded in ``S_DEAL`` as they are drawn, so once it is over
    this is its whole deal, and the Python engine can replay it)."""
    mode = MODES[int(row[F_EXPERT])]
    rounds = tuple(
        tuple(int(t) for t in row[S_DEAL + r * SITE_SQUARES : S_DEAL + (r + 1) * SITE_SQUARES])
        for r in range(int(row[F_ROUNDS]))
    )
    return Setup(mode, int(row[F_PLAYERS]), int(row[F_FIRST_PLAYER]), rounds)


def install_layout(row: Any, round_no: int, layout: Sequence[int]) -> None:
    """Fix the layout of a round (0-based ``round_no``) still to come, or of the current one
    before its first move (then laid again): the chance outcome of its deal, so that a
    Python-dealt round is reproduced exactly (tile indices, row-major site squares)."""
    now = int(row[S_ROUND])
    untouched = round_no == now and int(row[S_TURN]) == 0 and int(row[S_CURRENT]) >= 0
    if not (now < round_no < int(row[F_ROUNDS]) or untouched):
        raise ValueError(f"round {round_no + 1} is neither to come nor unplayed")
    if sorted(layout) != sorted(POOL_TILES[int(row[F_EXPERT]), round_no].tolist()):
        raise ValueError(f"a layout of round {round_no + 1} holds that round's 25 tiles")
    row[S_DEAL + round_no * SITE_SQUARES : S_DEAL + (round_no + 1) * SITE_SQUARES] = layout
    row[F_SHUFFLE] &= ~(1 << round_no)
    if untouched:
        row[S_SITE : S_SITE + SITE_SQUARES] = layout
        offers(row)


def undecide_future(row: Any) -> None:
    """Leave the layouts of the rounds after the current one to the row's generator (a
    determinization: each clone, seeded apart, then deals its own future)."""
    rounds = int(row[F_ROUNDS])
    future = ((1 << rounds) - 1) & ~((1 << (int(row[S_ROUND]) + 1)) - 1)
    row[F_SHUFFLE] |= future
