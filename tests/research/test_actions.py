"""The fixed action encodings: one-to-one with the notation, and masks equal legality."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polis.core.errors import PolisError
from polis.core.registry import get_game
from polis.research.actions import codec
from research.helpers import ALL_CONFIGS, random_position


@pytest.mark.parametrize(
    ("game", "mode", "size"),
    [
        ("quadropolis", "classic", 1440),
        ("quadropolis", "expert", 2200),
        ("metropolys", "family", 716),
        ("metropolys", "expert", 716),
    ],
)
def test_every_notation_move_has_exactly_one_action(game: str, mode: str, size: int) -> None:
    c = codec(game, mode)
    assert c.n == size
    assert len(set(c.names)) == size
    state = get_game(game).new_game(mode, 2, seed=1)
    for action, name in enumerate(c.names):
        move = state.parse_move(name)  # the engine reads every encoded move...
        assert state.move_to_str(move) == name  # ...and writes it back the same way
        assert c.action_of(state, move) == action
        assert c.from_str(name) == action


def test_documented_formulas() -> None:
    q = codec("quadropolis", "classic")
    assert q.to_str(0) == "1L1 r1c1"
    assert q.to_str(((3 - 1) * 20 + 3) * 18 + 4) == "3L4 r2c1"  # formats §1.4 example
    assert q.to_str(17) == "1L1 -" and q.to_str(16) == "1L1 x"
    e = codec("quadropolis", "expert")
    assert e.to_str(((5 - 1) * 20 + 16) * 22 + 12) == "5B2 r3c3"
    m = codec("metropolys", "family")
    assert m.to_str((7 - 1) * 55 + 12) == "7@12"
    assert m.to_str(715) == "pass"
    with pytest.raises(PolisError):
        m.from_str("14@3")
    with pytest.raises(PolisError):
        m.to_str(716)


@settings(max_examples=30, deadline=None)
@given(
    config=st.sampled_from(ALL_CONFIGS),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 120),
)
def test_mask_is_exactly_what_the_engine_accepts(
    config: tuple[str, str, int], seed: int, moves: int
) -> None:
    game, mode, players = config
    state = random_position(game, mode, players, seed, moves)
    if state.is_terminal():
        return
    c = codec(game, mode)
    mask = c.mask(state)
    assert mask.sum() == len(state.legal_moves()) > 0
    before = state.view(None)
    for action in range(c.n):
        trial = state.clone()
        move = c.move_of(trial, action)
        if mask[action]:
            trial.apply(move)  # every masked-in action is accepted...
        else:
            with pytest.raises(PolisError):  # ...every masked-out one rejected, naming a rule
                trial.apply(move)
            assert trial.view(None) == before
