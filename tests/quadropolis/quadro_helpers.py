"""Shared helpers for the Quadropolis engine tests: hand-made set-ups and state snapshots."""

from __future__ import annotations

from typing import Any

from polis.core.protocol import GameState
from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.moves import QuadropolisMove, find
from polis.games.quadropolis.site import GEOMETRY
from polis.games.quadropolis.state import QuadropolisState
from polis.games.quadropolis.tiles import FACE_UP, POOLS, TILE_INDEX, TILES, Tile


def layout_with(mode: str, round_no: int, fixed: dict[int, str]) -> list[str]:
    """Round ``round_no``'s pool, face-up-with-2-players tiles first (rows 1-3 are always
    face-up), with the given tile ids moved to the given squares."""
    pool = sorted(POOLS[mode][round_no - 1], key=lambda i: TILES[i].players)
    ids = [TILES[i].id for i in pool]
    for square, tid in fixed.items():
        j = ids.index(tid)
        ids[j], ids[square] = ids[square], ids[j]
    # verify no earlier fixing got displaced
    for square, tid in fixed.items():
        assert ids[square] == tid, "conflicting fixed squares"
    return ids


def setup_with(
    mode: str, first: int = 0, fixed: dict[int, dict[int, str]] | None = None
) -> dict[str, Any]:
    rounds = [
        layout_with(mode, r, (fixed or {}).get(r, {})) for r in range(1, len(POOLS[mode]) + 1)
    ]
    return {"first_player": first, "rounds": rounds}


def new(
    mode: str = "classic",
    players: int = 4,
    first: int = 0,
    fixed: dict[int, dict[int, str]] | None = None,
    options: dict[str, Any] | None = None,
) -> QuadropolisState:
    return GAME.new_game(mode, players, setup=setup_with(mode, first, fixed), options=options)


def find_tile(
    mode: str, round_no: int, players: int = 4, *, face_up: bool = True, **attrs: Any
) -> Tile:
    """First tile of the round's pool with the given attributes (and face-up state)."""
    for i in POOLS[mode][round_no - 1]:
        t = TILES[i]
        if FACE_UP[players][i] != face_up:
            continue
        if all(getattr(t, k) == v for k, v in attrs.items()):
            return t
    raise LookupError(attrs)


def move(state: QuadropolisState, architect: int, spot: int, target: int) -> QuadropolisMove:
    """The interned move (architect, spot, target) of the state's mode."""
    return find(state.mode, architect, spot, target)


def put_city(
    state: QuadropolisState, player: int, square: int, tile_id: str, floors: int = 1
) -> None:
    """Place a building directly in a city (test set-up only; bypasses the rules)."""
    t = TILE_INDEX[tile_id]
    i = player * GEOMETRY[state.mode].size + square
    state._cells[i] = TILES[t].kind << 3 | floors
    state._stacks[i] = (t,) * floors


def stack(state: QuadropolisState, player: int, square: int) -> tuple[int, ...]:
    """Tile indices built on a city square, bottom floor first (read from the view)."""
    return state.view(None).stacks[player * GEOMETRY[state.mode].size + square]


def codes(state: QuadropolisState, player: int) -> list[str]:
    """Each square of the player's city as a formats §1.1 cell code ("." when empty)."""
    return ["." if b is None else b.code for b in state.city(player)]


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Everything that may change in a state (to check that an illegal move changed nothing):
    the spectator's view holds every public fact, the set-up every hidden one."""
    return (state.view(None), tuple(state.history), state.setup(), state.current_player())
