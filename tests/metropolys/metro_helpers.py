"""Helpers for the Metropolys tests: complete token layouts and mid-game positions."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from polis.games.metropolys.board import (
    CENTER_TOKENS,
    DISTRICTS,
    PERIPHERAL_TOKENS,
    TOKEN_COUNTS,
    TOKEN_FIELDS,
)
from polis.games.metropolys.game import GAME
from polis.games.metropolys.state import MetroState

EXAMPLES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[1] / "data" / "metropolys.json").read_text(encoding="utf-8")
)["examples"]


def example(ident: str) -> dict[str, Any]:
    """The worked example ``ident`` of tests/data/metropolys.json."""
    return next(e for e in EXAMPLES if e["id"] == ident)


def full_layout(
    players: int,
    unused: Iterable[str] = (),
    fixed: Mapping[int, str] | None = None,
    avoid: Iterable[int] = (),
) -> dict[str, str]:
    """A legal token layout that holds ``fixed`` and leaves the ``avoid`` fields empty."""
    fixed = dict(fixed or {})
    avoid = set(avoid) | set(fixed)
    unused = set(unused)
    left: list[str] = []
    for name, count in TOKEN_COUNTS[players].items():
        left += [name] * (count - sum(1 for t in fixed.values() if t == name))
    layout = {str(f): t for f, t in fixed.items()}
    for d, name in enumerate(DISTRICTS):
        if name in unused:
            continue
        want = CENTER_TOKENS if d == 0 else PERIPHERAL_TOKENS
        have = sum(1 for f in fixed if f in TOKEN_FIELDS[d])
        free = [f for f in TOKEN_FIELDS[d] if f not in avoid]
        for f in free[: want - have]:
            layout[str(f)] = left.pop()
    assert not left
    return layout


def new_state(
    mode: str = "family",
    players: int = 4,
    *,
    first: int = 0,
    unused: Iterable[str] = (),
    tokens: Mapping[int, str] | None = None,
    avoid: Iterable[int] = (),
    area: list[str] | None = None,
    colours: list[str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> MetroState:
    unused = list(unused)
    setup: dict[str, Any] = {
        "first_player": first,
        "unused_districts": unused,
        "tokens": full_layout(players, unused, tokens, avoid),
    }
    if area is not None:
        setup["area_cards"] = area
    if colours is not None:
        setup["neighbourhood_cards"] = colours
    return GAME.new_game(mode, players, seed=1, setup=setup, options=options)


def put_built(state: MetroState, player: int, field: int, value: int) -> None:
    """Place an already built building before play (test positions only; no token taken)."""
    assert state._cells[field] == -1 and state._supply[player] >> value & 1
    state._cells[field] = player << 4 | value
    state._supply[player] &= ~(1 << value)
    state._nbuilt[player] += 1


def win_round(state: MetroState, player: int, field: int) -> None:
    """Let ``player`` build on ``field`` this round: he bids there, everyone else passes."""
    assert not state.bids
    start = state.current_player()
    if start == player:
        state.apply_str(f"{min(state.supply(player))}@{field}")
    else:
        opening = next(
            g
            for g in state._t.adjacent[field]
            if state.building_at(g) is None and state.token_at(g) is None
        )
        state.apply_str(f"{min(state.supply(start))}@{opening}")
        while state.current_player() != player:
            state.apply_str("pass")
        state.apply_str(f"{max(state.supply(player))}@{field}")
    while state.bids:
        assert state.current_player() != player
        state.apply_str("pass")
