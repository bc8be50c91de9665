"""The placement worked examples of tests/data/quadropolis.json, played through the engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from quadro_helpers import find_tile, move, new, put_city, stack

from polis.core.errors import IllegalMove
from polis.games.quadropolis.moves import DISCARD, NOTHING
from polis.games.quadropolis.site import GEOMETRY, SELECT, SPOT_INDEX
from polis.games.quadropolis.tiles import TILES
from polis.games.quadropolis.view import EMPTY

DATA = json.loads((Path(__file__).parents[1] / "data" / "quadropolis.json").read_text("utf-8"))
EXAMPLES = {e["id"]: e for e in DATA["placement_examples"]}
SIDE = {"left": "L", "right": "R", "top": "T", "bottom": "B"}


def _spot(side: str, index: int) -> int:
    return SPOT_INDEX[f"{SIDE[side]}{index}"]


@pytest.mark.parametrize("case", EXAMPLES["PL-TAKE-1"]["cases"], ids=str)
def test_targeting(case: dict[str, Any]) -> None:
    mode = case.get("mode", "classic")
    k, spot = case["architect"], _spot(case["side"], case["index"])
    square = (case["takes"]["row"] - 1) * 5 + case["takes"]["col"] - 1
    assert SELECT[spot][k] == square
    # Through the engine: the architect takes the tile on that square, the Urbanist moves there.
    state = new(mode, 4)
    tile = state.view(None).site[square]
    assert tile >= 0 and state.offer(k, spot) == tile
    state.apply(move(state, k, spot, DISCARD))
    view = state.view(None)
    assert view.site[square] == EMPTY
    assert view.discarded == (tile,)
    assert view.urbanist == square
    assert view.to_json()["urbanist"] == f"r{case['takes']['row']}c{case['takes']['col']}"


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_urbanist_blocking(mode: str) -> None:
    ex = EXAMPLES["PL-URBANIST-1"]
    state = new(mode, 4)
    u = ex["state"]["urbanist"]
    state._urbanist = (u["row"] - 1) * 5 + u["col"] - 1  # test position: set directly
    for occ in ex["state"]["occupied_spots"]:
        state._occupied |= 1 << _spot(occ["side"], occ["index"])
    legal = {m.spot for m in state.legal_moves()}
    illegal = {_spot(x["side"], x["index"]) for x in ex["illegal_spots"]}
    assert len(legal) == ex["legal_spot_count"]
    assert legal.isdisjoint(illegal)
    assert legal | illegal == set(range(20))
    view = state.view(None)
    assert all(view.blocked(SPOT_INDEX[s]) for s in ("L2", "R2", "T4", "B4"))
    assert all(
        v["blocked"] for v in view.to_json()["spots"] if v["spot"] in {"L2", "R2", "T4", "B4"}
    )


def _city_targets(example_id: str) -> tuple[set[tuple[int, int]], Any]:
    ex = EXAMPLES[example_id]
    mode, k = ex["mode"], ex["architect"]
    tile = find_tile(mode, 1, 4, type=ex["tile_type"])
    # architect k at the left end of row 1 selects r1c<k>
    state = new(mode, 4, fixed={1: {k - 1: tile.id}})
    cols = GEOMETRY[mode].cols
    if ex["state"]["city"] != "empty":
        for b in ex["state"]["city"]:
            other = next(t for t in TILES if t.type == b["type"] and t.mode != "expert")
            put_city(state, 0, (b["row"] - 1) * cols + b["col"] - 1, other.id, b.get("floors", 1))
    spot = SPOT_INDEX["L1"]
    moves = [m for m in state.legal_moves() if m.architect == k and m.spot == spot]
    assert move(state, k, spot, DISCARD) in moves
    assert move(state, k, spot, NOTHING) not in moves
    squares = {(m.target // cols + 1, m.target % cols + 1) for m in moves if m.target >= 0}
    return squares, (state, k, spot, cols, ex)


@pytest.mark.parametrize(
    "example_id", ["PL-CITY-CLASSIC-1", "PL-CITY-CLASSIC-STACK", "PL-CITY-EXPERT-1"]
)
def test_city_placement(example_id: str) -> None:
    squares, (state, k, spot, cols, ex) = _city_targets(example_id)
    assert squares == {tuple(x) for x in ex["legal_squares"]}
    for bad in ex.get("illegal_examples", []):
        r, c = bad["square"]
        with pytest.raises(IllegalMove, match=r"architect 3|occupied"):
            state.apply(move(state, k, spot, (r - 1) * cols + c - 1))
    for r, c in ex["legal_squares"]:
        trial = state.clone()
        trial.apply(move(state, k, spot, (r - 1) * cols + c - 1))
        assert stack(trial, 0, (r - 1) * cols + c - 1)[-1] == state.view(None).site[k - 1]


def test_expert_reach_matches_the_mat() -> None:
    mats = json.loads(
        (Path(__file__).parents[2] / "src/polis/games/quadropolis/data/mats.json").read_text(
            "utf-8"
        )
    )
    for k, squares in mats["expert"]["reach_by_architect"].items():
        assert GEOMETRY["expert"].reach[int(k)] == tuple(
            sorted((r - 1) * 5 + c - 1 for r, c in squares)
        )
    for k in range(1, 5):
        assert len(GEOMETRY["classic"].reach[k]) == 7
