"""The games' action spaces as research uses them: stable ids, the documented formulas, and
masks (from ``legal.ids()``) that are exactly what the engine accepts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polis.core.errors import PolisError
from polis.core.registry import get_game
from polis.research.actions import action_mask, legal_actions
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
def test_every_move_has_exactly_one_action(game: str, mode: str, size: int) -> None:
    space = get_game(game).action_space(mode)
    assert len(space) == size
    assert len({m.text for m in space}) == size
    state = get_game(game).new_game(mode, 2, seed=1)
    for action in range(size):
        move = space[action]
        assert move.id == action
        assert state.parse_move(move.text) is move  # notation and id name the same move


def test_documented_formulas() -> None:
    q = get_game("quadropolis").action_space("classic")
    assert q[0].text == "1L1 r1c1"
    assert q[((3 - 1) * 20 + 3) * 18 + 4].text == "3L4 r2c1"  # formats §1.4 example
    assert q[17].text == "1L1 -" and q[16].text == "1L1 x"
    e = get_game("quadropolis").action_space("expert")
    assert e[((5 - 1) * 20 + 16) * 22 + 12].text == "5B2 r3c3"
    m = get_game("metropolys").action_space("family")
    assert m[(7 - 1) * 55 + 12].text == "7@12"
    assert m[715].text == "pass"
    with pytest.raises(PolisError):
        m.parse("14@3")
    with pytest.raises(PolisError):
        m.move(716)


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
    space = get_game(game).action_space(mode)
    mask = action_mask(state, len(space))
    legal = legal_actions(state)
    assert legal == sorted(legal) == sorted(set(legal))
    assert list(mask.nonzero()[0]) == legal
    if state.is_terminal():
        assert mask.sum() == 0
        return
    assert mask.sum() == len(state.legal_moves()) > 0
    before = state.view(None)
    for action in range(len(space)):
        trial = state.clone()
        if mask[action]:
            trial.apply(space[action])  # every masked-in action is accepted...
        else:
            with pytest.raises(PolisError):  # ...every masked-out one rejected, naming a rule
                trial.apply(space[action])
            assert trial.view(None) == before
