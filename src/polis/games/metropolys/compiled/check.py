"""The equivalence check: the compiled engine against the Python engine, position by position.

Random games are played on the Python engine (a mix of its own random moves, uniform legal
moves and attempted illegal ones) with every option set in turn; at every position the
row the compiled :func:`~.engine.apply` made from the previous row must equal
:func:`~.bridge.to_row` of the Python state, the legal id sets, the player to move and
the end flag must agree, and at the end (and at each round's start) the compiled scores and
places must equal the Python ones. The compiled deal of each Python set-up must give the
row of the Python initial state. :func:`compare_groups` holds the Expert area-card
counts (the exact packings) to the Python scorer's on crowded random sets of fields, and
:func:`compare_values` the compiled playout policy's values to the bots' own.
"""

from __future__ import annotations

import itertools
import random
from typing import Final

import numpy as np

from polis.games.metropolys.board import ADJACENT, NUM_FIELDS, field_mask
from polis.games.metropolys.cards import EXPERT_AREA_CARDS
from polis.games.metropolys.compiled.bridge import install, new_row, to_row
from polis.games.metropolys.compiled.engine import apply, current_player, is_terminal, legal
from polis.games.metropolys.compiled.layout import (
    AREA_CARDS,
    NUM_ACTIONS,
    PASS_ID,
    POSITION,
    S_NBIDS,
)
from polis.games.metropolys.compiled.policy import bid_value
from polis.games.metropolys.compiled.score import expert_groups, score, scratch
from polis.games.metropolys.game import GAME
from polis.games.metropolys.knowledge import bid_value as python_bid_value
from polis.games.metropolys.knowledge import rivals
from polis.games.metropolys.moves import move_of
from polis.games.metropolys.options import LAKE_GROUPS, Options
from polis.games.metropolys.scoring import expert_area_groups
from polis.games.metropolys.state import MetropolysState

#: Every option set the engine has (options.py): both lake rules x field 51 in or out.
OPTION_SETS: Final = tuple(
    Options(lakes, field_51) for lakes, field_51 in itertools.product(LAKE_GROUPS, (True, False))
)


def places_of(ranking: tuple[tuple[int, ...], ...], players: int) -> list[int]:
    """Each player's place (index of its group) in a Python result's ranking."""
    out = [0] * players
    for place, group in enumerate(ranking):
        for p in group:
            out[p] = place
    return out


class _Compared:
    """The running comparison of one game (names the game in every failure)."""

    def __init__(self, mode: str, players: int, seed: int, options: Options) -> None:
        self.where = f"{mode} {players}p seed {seed} options {options.to_json()}"
        self.ids = np.zeros(NUM_ACTIONS, np.int64)
        self.totals = np.zeros(4, np.int64)
        self.places = np.zeros(4, np.int64)
        self.work = scratch()

    def fail(self, move: int, what: str) -> AssertionError:
        return AssertionError(f"{self.where}, move {move}: {what}")

    def position(self, state: MetropolysState, row: np.ndarray, move: int) -> list[int]:
        """Check ``row`` against ``state``; the Python legal ids (in the engine's order)."""
        want = to_row(state)
        if not np.array_equal(row[POSITION], want[POSITION]):
            diff = np.flatnonzero(row[POSITION] != want[POSITION]).tolist()
            raise self.fail(move, f"rows differ at slots {diff}")
        ids = [m.id for m in state.legal_moves()]
        n = legal(row, self.ids)
        if self.ids[:n].tolist() != ids:
            raise self.fail(move, f"legal ids {sorted(self.ids[:n].tolist())} != {sorted(ids)}")
        if current_player(row) != state.current_player():
            raise self.fail(move, "player to move differs")
        if is_terminal(row) != state.is_terminal():
            raise self.fail(move, "end of game differs")
        return ids

    def scores(self, state: MetropolysState, row: np.ndarray, move: int) -> None:
        """Compiled scores (and at the end places) against the Python scorer."""
        n = state.num_players
        score(row, self.totals, self.places, self.work)
        if state.is_terminal():
            result = state.result()
            want, places = list(result.scores), places_of(result.ranking, n)
            if self.places[:n].tolist() != places:
                raise self.fail(move, f"places {self.places[:n].tolist()} != {places}")
        else:
            want = list(state.scores_now())
        if self.totals[:n].tolist() != want:
            raise self.fail(move, f"scores {self.totals[:n].tolist()} != {want}")


def compare_game(mode: str, players: int, seed: int, options: Options) -> int:
    """One random game checked at every position; the number of positions."""
    state = GAME.new_game(mode, players, seed=seed, options=dict(options.to_json()))
    check = _Compared(mode, players, seed, options)
    row = new_row(mode, players, options)
    install(row, state.setup_data)
    if not np.array_equal(row[POSITION], to_row(state)[POSITION]):
        raise check.fail(0, "the compiled deal of the set-up differs from the initial state")
    rng = random.Random(seed)
    positions = 0
    while True:
        ids = check.position(state, row, positions)
        positions += 1
        if row[S_NBIDS] == 0:
            check.scores(state, row, positions)
        if state.is_terminal():
            return positions
        if rng.random() < 0.2:  # an illegal id must be refused with the row untouched
            wrong = rng.randrange(NUM_ACTIONS + 2) - 1
            if wrong not in ids:
                before = row.copy()
                if apply(row, wrong) or not np.array_equal(row, before):
                    raise check.fail(positions, f"illegal action {wrong} was played")
        move = state.random_move(rng) if rng.random() < 0.5 else move_of(rng.choice(ids))
        if move.id != PASS_ID and rng.random() < 0.1 and PASS_ID in ids:
            move = move_of(PASS_ID)
        state.apply(move)
        if not apply(row, move.id):
            raise check.fail(positions, f"legal action {move.id} ({move}) was refused")


def compare(mode: str, players: int, games: int, seed: int) -> dict[str, int]:
    """Check ``games`` random games (seeds ``seed``, ``seed + 1``, ...), the option sets in
    turn; AssertionError names mode, players, seed and move at the first difference."""
    positions = 0
    for i in range(games):
        options = OPTION_SETS[(seed + i) % len(OPTION_SETS)]
        positions += compare_game(mode, players, seed + i, options)
    return {"games": games, "positions": positions}


def compare_groups(seed: int, samples: int) -> int:
    """The compiled Expert area-card counts against the Python scorer's on ``samples``
    random sets of up to 13 fields grown from a random field along the adjacency (where
    the groups crowd and a wrong packing would show); the number of counts compared."""
    rng = random.Random(seed)
    work = scratch()
    compared = 0
    for _ in range(samples):
        fields = {rng.randrange(NUM_FIELDS)}
        size = rng.randint(3, 13)
        while len(fields) < size:
            near = ADJACENT[rng.choice(sorted(fields))]
            fields.add(rng.choice(near) if rng.random() < 0.8 else rng.randrange(NUM_FIELDS))
        owned = field_mask(fields)
        for code, card in enumerate(AREA_CARDS):
            if card not in EXPERT_AREA_CARDS:
                continue
            for options in OPTION_SETS[::2]:
                want = expert_area_groups(card, sorted(fields), options)
                got = expert_groups(code, owned, options.lake_groups == "per_three", work)
                if got != want:
                    raise AssertionError(
                        f"seed {seed}: {card} ({options.lake_groups}) on {sorted(fields)}: "
                        f"{got} groups, not {want}"
                    )
                compared += 1
    return compared


def compare_values(mode: str, players: int, games: int, seed: int) -> int:
    """The compiled playout policy's values (:func:`.policy.bid_value`) against
    ``knowledge.bid_value`` for every legal move of every position of ``games`` random
    games; the number of values compared (they must be equal to the last bit)."""
    values = 0
    for i in range(games):
        state = GAME.new_game(mode, players, seed=seed + i)
        rng = random.Random(seed + i)
        while not state.is_terminal():
            row = to_row(state)
            player = state.current_player()
            legal_moves = state.legal_moves()
            rival = rivals(state, player)
            for move in legal_moves:
                want = python_bid_value(state, move, player, rival)
                got = bid_value(row, player, move.id)
                if got != want:
                    raise AssertionError(
                        f"{mode} {players}p seed {seed + i}, move {len(state.history)}: "
                        f"{move} is worth {want} to the Python policy, {got} compiled"
                    )
                values += 1
            state.apply(state.random_move(rng))
    return values
