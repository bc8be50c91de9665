"""Helpers for the Metropolys tests: complete token layouts and mid-game positions."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from polis.core.events import Event
from polis.games.metropolys.board import (
    ADJACENT,
    CENTER_TOKENS,
    DISTRICTS,
    PERIPHERAL_TOKENS,
    TOKEN_COUNTS,
    TOKEN_FIELDS,
)
from polis.games.metropolys.game import GAME
from polis.games.metropolys.moves import PASS, bid
from polis.games.metropolys.state import MetropolysState

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
) -> MetropolysState:
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


def put_built(state: MetropolysState, player: int, field: int, value: int) -> None:
    """Place an already built building before play (test positions only; no token taken)."""
    assert state.in_play(field) and state.building_at(field) is None
    assert value in state.supply(player)
    state._cells[field] = player << 4 | value
    state._supply[player] &= ~(1 << value)
    state._built[player] += 1


def win_round(state: MetropolysState, player: int, field: int) -> list[Event]:
    """Let ``player`` build on ``field`` this round: he bids there, everyone else passes.
    Returns the events of the round's moves."""
    assert not state.bids
    events: list[Event] = []
    start = state.current_player()
    if start == player:
        events += state.play(bid(min(state.supply(player)), field))
    else:
        opening = next(
            g
            for g in ADJACENT[field]
            if state.in_play(g) and state.building_at(g) is None and state.token_at(g) is None
        )
        events += state.play(bid(min(state.supply(start)), opening))
        while state.current_player() != player:
            events += state.play(PASS)
        events += state.play(bid(max(state.supply(player)), field))
    while state.bids:
        assert state.current_player() != player
        events += state.play(PASS)
    return events
