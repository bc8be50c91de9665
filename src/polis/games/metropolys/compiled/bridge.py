"""Between the Python engine and the rows: the exact row of a Python state, a blank row for
a table, a Python set-up installed into a row, and the set-up a row holds as a Python
:class:`~polis.games.metropolys.setup.Setup` (to replay a compiled game in Python).

This module reads the engine's private lists, as the game's own bots do
(:mod:`~polis.games.metropolys.knowledge`): it is part of the game's package.
"""

from __future__ import annotations

import numpy as np

from polis.core.view import TERMINAL
from polis.games.metropolys.board import COLOURS, DISTRICTS, NUM_FIELDS
from polis.games.metropolys.cards import MODES
from polis.games.metropolys.compiled.deal import deal
from polis.games.metropolys.compiled.engine import refresh_free
from polis.games.metropolys.compiled.layout import (
    AREA_CARDS,
    F_AREA,
    F_COLOUR,
    F_EXPERT,
    F_FIELD_51,
    F_FIRST,
    F_LAKES_THREE,
    F_PLAYERS,
    F_TOKENS,
    F_UNUSED,
    MAX_BIDS,
    MAX_PLAYERS,
    ROW_DTYPE,
    ROW_LEN,
    S_ARCHAEOLOGY,
    S_BIDS,
    S_BUILT,
    S_CELLS,
    S_COLLECTED,
    S_CURRENT,
    S_METRO,
    S_MOVES,
    S_NBIDS,
    S_PASSED,
    S_START,
    S_SUPPLY,
    S_TERMINAL,
    S_TOKENS,
)
from polis.games.metropolys.compiled.rng import seed as seed_rng
from polis.games.metropolys.options import DEFAULT_OPTIONS, Options
from polis.games.metropolys.setup import Setup
from polis.games.metropolys.state import MetropolysState


def new_row(
    mode: str, players: int, options: Options = DEFAULT_OPTIONS, seed: int = 0
) -> np.ndarray:
    """A table's row before its deal: the version, players, options and generator seed."""
    if mode not in MODES or not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"no Metropolys table for {mode!r} with {players} players")
    row = np.zeros(ROW_LEN, ROW_DTYPE)
    row[F_PLAYERS] = players
    row[F_EXPERT] = mode == "expert"
    row[F_LAKES_THREE] = options.lake_groups == "per_three"
    row[F_FIELD_51] = options.field_51_outskirts
    seed_rng(row, seed & (2**63 - 1))
    return row


def setup_outcome(setup: Setup) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, int]:
    """A Python set-up as :func:`~.deal.deal`'s arguments (unused mask, tokens, area cards,
    colours, first player)."""
    unused = sum(1 << d for d in setup.unused_codes)
    tokens = np.array(setup.tokens, np.int64)
    area = np.full(MAX_PLAYERS, -1, np.int64)
    colours = np.full(MAX_PLAYERS, -1, np.int64)
    for p, card in enumerate(setup.area_cards):
        area[p] = AREA_CARDS.index(card)
    if setup.neighbourhood_cards is not None:
        for p, colour in enumerate(setup.neighbourhood_cards):
            colours[p] = COLOURS.index(colour)
    return unused, tokens, area, colours, setup.first_player


def install(row: np.ndarray, setup: Setup) -> None:
    """Deal ``setup`` (a Python set-up) onto ``row`` through the compiled deal."""
    deal(row, *setup_outcome(setup))


def setup_of_row(row: np.ndarray) -> tuple[Setup, Options]:
    """The set-up and options a dealt row holds, as the Python engine takes them."""
    n = int(row[F_PLAYERS])
    mode = "expert" if row[F_EXPERT] else "family"
    unused = tuple(d for i, d in enumerate(DISTRICTS) if int(row[F_UNUSED]) >> i & 1)
    colours = tuple(COLOURS[int(row[F_COLOUR + p])] for p in range(n)) if mode == "expert" else None
    setup = Setup(
        mode=mode,
        players=n,
        first_player=int(row[F_FIRST]),
        unused=unused,
        tokens=tuple(int(t) for t in row[F_TOKENS : F_TOKENS + NUM_FIELDS]),
        area_cards=tuple(AREA_CARDS[int(row[F_AREA + p])] for p in range(n)),
        neighbourhood_cards=colours,
    )
    options = Options(
        lake_groups="per_three" if row[F_LAKES_THREE] else "one_per_lake",
        field_51_outskirts=bool(row[F_FIELD_51]),
    )
    return setup, options


#: The facts part of a row per set-up object (one template per determinization: its clones
#: share the set-up): id -> (set-up, options, row). Bounded; cleared when full.
_TEMPLATES: dict[int, tuple[Setup, Options, np.ndarray]] = {}
_TEMPLATES_MAX = 256


def _template(setup: Setup, options: Options) -> np.ndarray:
    """A row holding the facts of ``setup`` and ``options`` and a blank state (generator 0)."""
    hit = _TEMPLATES.get(id(setup))
    if hit is not None and hit[0] is setup and hit[1] is options:
        return hit[2]
    row = new_row(setup.mode, setup.players, options)
    # The facts written here, not by the compiled deal, so the check of the deal against
    # this row compares two independent writings.
    unused, tokens, area, colours, first = setup_outcome(setup)
    row[F_UNUSED] = unused
    row[F_FIRST] = first
    row[F_AREA : F_AREA + MAX_PLAYERS] = area
    row[F_COLOUR : F_COLOUR + MAX_PLAYERS] = colours
    row[F_TOKENS : F_TOKENS + NUM_FIELDS] = tokens
    row[S_BIDS : S_BIDS + MAX_BIDS] = -1
    row.flags.writeable = False
    if len(_TEMPLATES) >= _TEMPLATES_MAX:
        _TEMPLATES.clear()
    _TEMPLATES[id(setup)] = (setup, options, row)
    return row


def to_row(state: MetropolysState) -> np.ndarray:
    """The exact row of a Python state (its generator slots zero: a state has none)."""
    facts = state._facts
    n = facts.players
    row = _template(facts.setup, facts.options).copy()
    row[S_CELLS : S_CELLS + NUM_FIELDS] = np.frombuffer(state._cells, np.uint8)
    row[S_TOKENS : S_TOKENS + NUM_FIELDS] = state._tokens
    row[S_SUPPLY : S_SUPPLY + n] = state._supply
    row[S_BUILT : S_BUILT + n] = state._built
    row[S_COLLECTED : S_COLLECTED + 4 * n] = state._collected
    row[S_METRO] = state._metro_holder
    row[S_ARCHAEOLOGY] = state._archaeology_holder
    row[S_PASSED] = state._passed
    row[S_CURRENT] = state._current
    row[S_START] = state._start
    row[S_TERMINAL] = state._current == TERMINAL
    row[S_MOVES] = len(state._moves)
    bids = state._bids
    row[S_NBIDS] = len(bids)
    if bids:
        row[S_BIDS : S_BIDS + len(bids)] = bids
    refresh_free(row)
    return row
