"""Move notation (formats §1.4): exact texts, round trips, and NotationError for non-moves."""

from __future__ import annotations

import pickle
import random

import pytest
from quadro_helpers import new

from polis.core.errors import IllegalMove, NotationError
from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.moves import (
    DISCARD,
    NOTHING,
    SPACES,
    QuadropolisMove,
    find,
    move_of,
    parse_move,
)
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
    parsed = parse_move(mode, text)
    assert (parsed.architect, parsed.spot, parsed.target) == move
    assert parsed is find(mode, *move)
    assert str(parsed) == parsed.text == text
    assert GAME.parse_move(text, mode) is parsed


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
    with pytest.raises(NotationError):
        GAME.parse_move(text, "classic")


def test_square_outside_the_mat() -> None:
    with pytest.raises(NotationError, match="not on the classic city"):
        parse_move("classic", "1L1 r1c5")
    assert parse_move("expert", "1L1 r1c5").target == 4
    with pytest.raises(NotationError):
        parse_move("expert", "1L1 r5c1")


def test_lenient_spacing_and_case_parse_to_the_canonical_move() -> None:
    assert parse_move("classic", " 3l4   R2C1 ") is parse_move("classic", "3L4 r2c1")
    assert parse_move("classic", "2T5 X") is parse_move("classic", "2T5 x")


def test_architect_out_of_range_is_notation_but_illegal() -> None:
    """The text is well formed, the rules forbid the architect (§2): IllegalMove naming the
    rule, not NotationError; a malformed square is still reported as bad notation first."""
    state = new("classic", 2)
    with pytest.raises(IllegalMove, match="there is no architect 5 in classic mode") as err:
        state.parse_move("5L1 x")
    assert not isinstance(err.value, NotationError) and err.value.rule == "quadropolis §2"
    with pytest.raises(IllegalMove, match="there is no architect 6 in expert mode"):
        parse_move("expert", "6L1 r1c1")
    with pytest.raises(NotationError, match="not on the classic city"):
        state.parse_move("5L1 r5c1")


def test_action_ids_follow_the_research_formula() -> None:
    """id = ((architect - 1) * 20 + spot) * (N + 2) + t, N = city size (x: N, -: N + 1)."""
    for mode, size, total in (("classic", 16, 1440), ("expert", 20, 2200)):
        space = SPACES[mode]
        assert len(space) == total and GAME.action_space(mode) is space
        for move in space:
            t = move.target if move.target >= 0 else size - 1 - move.target
            assert move.id == ((move.architect - 1) * 20 + move.spot) * (size + 2) + t
            assert move_of(mode, move.id) is move is space.parse(move.text)
            assert find(mode, move.architect, move.spot, move.target) is move
            assert move.builds == (move.target >= 0)


def test_moves_are_interned_values() -> None:
    move = parse_move("expert", "5B2 r3c3")
    assert isinstance(move, QuadropolisMove) and move.mode == "expert"
    assert pickle.loads(pickle.dumps(move)) is move
    assert parse_move("classic", "1L1 x") is not parse_move("expert", "1L1 x")
    assert repr(move) == f"<QuadropolisMove 5B2 r3c3 #{move.id}>"


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_every_legal_move_round_trips(mode: str) -> None:
    state = new(mode, 3)
    rng = random.Random(0)
    while not state.is_terminal():
        legal = state.legal_moves()
        for move in legal:
            assert state.parse_move(str(move)) is move
            assert legal.find(move.text) is move
        state.apply(state.random_move(rng))
    assert len(state.history) == 4 * 3 * (4 if mode == "classic" else 5)
