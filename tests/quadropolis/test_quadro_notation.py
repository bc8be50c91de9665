"""Move notation (formats §1.4): exact texts, round trips, and NotationError for non-moves."""

from __future__ import annotations

import random

import pytest
from quadro_helpers import new

from polis.core.errors import NotationError
from polis.games.quadropolis.moves import DISCARD, NOTHING, move_to_str, parse_move
from polis.games.quadropolis.site import SPOT_INDEX


@pytest.mark.parametrize(
    ("mode", "text", "move"),
    [
        ("classic", "3L4 r2c1", (3, SPOT_INDEX["L4"], 4)),
        ("classic", "2T5 x", (2, SPOT_INDEX["T5"], DISCARD)),
        ("expert", "5B2 r3c3", (5, SPOT_INDEX["B2"], 12)),
        ("classic", "1R1 -", (1, SPOT_INDEX["R1"], NOTHING)),
        ("expert", "4R3 r4c5", (4, SPOT_INDEX["R3"], 19)),
    ],
)
def test_formats_examples(mode: str, text: str, move: tuple[int, int, int]) -> None:
    assert parse_move(mode, text) == move
    assert move_to_str(mode, move) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "3L4",
        "3L4 r2",
        "3X4 r2c1",
        "3L6 r2c1",
        "L4 r2c1",
        "33L4 x",
        "3L4 y",
        "3L4 r2c1 x",
        "3L4 rc1",
        "pass",
    ],
)
def test_not_notation(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move("classic", text)


def test_square_outside_the_mat() -> None:
    with pytest.raises(NotationError, match="not on the classic city"):
        parse_move("classic", "1L1 r1c5")
    assert parse_move("expert", "1L1 r1c5")[2] == 4
    with pytest.raises(NotationError):
        parse_move("expert", "1L1 r5c1")


def test_lenient_spacing_and_case_parse_to_the_canonical_move() -> None:
    assert parse_move("classic", " 3l4   R2C1 ") == parse_move("classic", "3L4 r2c1")
    assert parse_move("classic", "2T5 X") == parse_move("classic", "2T5 x")


def test_architect_out_of_range_is_a_move_but_illegal() -> None:
    state = new("classic", 2)
    move = state.parse_move("5L1 x")  # notation is fine; the rules forbid it
    assert move[0] == 5


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_every_legal_move_round_trips(mode: str) -> None:
    state = new(mode, 3)
    rng = random.Random(0)
    while not state.is_terminal():
        for move in state.legal_moves():
            assert state.parse_move(state.move_to_str(move)) == move
        state.apply(state.random_move(rng))
    assert len(state.history) == 4 * 3 * (4 if mode == "classic" else 5)
