"""Board invariants of spec §12 and the raise-adjacency cases of the worked examples."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from metro_helpers import example, new_state, put_built

from polis.games.metropolys import board as B
from polis.games.metropolys.moves import bid
from polis.games.metropolys.state import MetropolysState


def test_fields_per_district_and_colour() -> None:
    assert len(B.DISTRICT) == 55
    assert Counter(B.DISTRICT) == {0: 15, 1: 10, 2: 10, 3: 10, 4: 10}
    assert Counter(B.COLOUR) == dict.fromkeys(B.COLOURS, 11)
    for d in range(5):
        per = Counter(B.COLOUR[f] for f in B.DISTRICT_FIELDS[d])
        assert per == dict.fromkeys(B.COLOURS, 3 if d == 0 else 2)


def test_adjacency_is_symmetric_irreflexive_and_split_by_bridges() -> None:
    for f in range(55):
        assert f not in B.ADJACENT[f]
        for g in B.ADJACENT[f]:
            assert f in B.ADJACENT[g]
        for g in B.NEIGHBORS[f]:
            assert B.DISTRICT[g] == B.DISTRICT[f]
        for g in B.BRIDGE_NEIGHBORS[f]:
            assert B.DISTRICT[g] != B.DISTRICT[f]
    assert len(B.BRIDGES) == 21
    assert len(set(B.BRIDGES)) == 21
    for a, b in B.BRIDGES:
        assert b in B.BRIDGE_NEIGHBORS[a]


def test_dead_ends_outskirts_statues_lakes() -> None:
    assert frozenset(f for f in range(55) if len(B.ADJACENT[f]) == 1) == {11, 21, 28, 35}
    assert {11, 21, 28, 35} == B.DEAD_ENDS
    assert len(B.OUTSKIRTS) == 20 and 51 in B.OUTSKIRTS
    assert not any(B.DISTRICT[f] == 0 for f in B.OUTSKIRTS)
    assert len(B.STATUES) == 11 and len(B.LAKES) == 6
    for statue in B.STATUES:  # the 3 fields around a statue are pairwise adjacent
        a, b, c = statue
        assert b in B.ADJACENT[a] and c in B.ADJACENT[a] and c in B.ADJACENT[b]


def test_building_sizes() -> None:
    assert [B.SIZE_OF[v] for v in range(1, 14)] == [0] * 5 + [1] * 4 + [2] * 4


def _raise_legal(last: int, target: int, players: int, unused: list[str]) -> bool:
    state: MetropolysState = new_state(players=players, unused=unused, avoid=[last, target])
    # An opening bid of 1 on the last-bid field by the opener, then player 1 raises with 13.
    state.apply(bid(1, last))
    return bid(13, target) in state.legal_moves()


@pytest.mark.parametrize(
    "case", example("ADJ-01")["cases"], ids=lambda c: f"{c['last_bid_field']}-{c['target']}"
)
def test_raise_adjacency_cases(case: dict[str, Any]) -> None:
    players = case.get("player_count", 4)
    unused = case.get("unused_districts", [])
    last, target = case["last_bid_field"], case["target"]
    assert _raise_legal(last, target, players, unused) is case["legal"]


def test_isolated_field_ends_round_at_once() -> None:
    state = new_state()
    put_built(state, 1, 10, 5)
    state.apply(bid(1, 11))  # dead end 11: its only exit 10 is built on
    assert state.building_at(11) == (0, 1, True)
    assert state.current_player() == 0 and not state.bids
