"""The games' encoders read the typed view and give exactly the numbers of the old encoders,
which read the view's JSON (kept in ``reference_encoders.py``), over many random positions of
every game, mode and player count, from every seat and from a spectator's chair."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from polis.core.parts import CHANCE
from polis.core.protocol import GameState
from polis.core.registry import get_game
from polis.research.observations import encoder
from research import reference_encoders as ref
from research.helpers import ALL_CONFIGS

REFERENCE = {"quadropolis": ref.QuadropolisEncoder, "metropolys": ref.MetropolysEncoder}
#: The old information-state keys of each game's view (``RECALL_KEYS`` of the old adapter).
RECALL_KEYS = {
    "quadropolis": ("player", "starting_player", "public_rounds", "moves"),
    "metropolys": (
        "player",
        "first_player",
        "unused_districts",
        "layout",
        "area_card",
        "neighbourhood_card",
        "moves",
    ),
}
SEEDS = range(8)


def positions(game: str, mode: str, players: int, seed: int) -> list[GameState]:
    """Every position of one seeded random game, from the first move to the end."""
    state = get_game(game).new_game(mode, players, seed=seed)
    rng = random.Random(seed)
    out = [state.clone()]
    while not state.is_terminal():
        state.apply(state.random_move(rng))
        out.append(state.clone())
    return out


@pytest.mark.slow  # whole games against the JSON reference
@pytest.mark.parametrize(("game", "mode", "players"), ALL_CONFIGS)
def test_typed_encoder_equals_the_json_reference(game: str, mode: str, players: int) -> None:
    new = encoder(get_game(game), mode, players)
    old = REFERENCE[game](mode, players)
    assert new.layout.describe() == old.layout.describe()
    distinct: set[bytes] = set()
    checked = 0
    for seed in SEEDS:
        for state in positions(game, mode, players, seed):
            for player in (*range(players), None):
                view = state.view(player)
                data = view.to_json()
                for seat in (None, 0, players - 1) if player is None else (None, 1):
                    a = new.encode(view, seat=seat)
                    b = old.encode(data, seat=seat)
                    assert a.dtype == b.dtype == np.float32
                    assert np.array_equal(a, b), (seed, len(state.history), player, seat)
                    distinct.add(a.tobytes())
                    checked += 1
    assert checked > 500
    assert len(distinct) > checked // 10  # the positions really differ


@pytest.mark.parametrize(("game", "mode", "players"), ALL_CONFIGS[::3])
def test_the_comparison_can_fail(game: str, mode: str, players: int) -> None:
    """A view with one changed fact encodes differently in both encoders."""
    new = encoder(get_game(game), mode, players)
    old = REFERENCE[game](mode, players)
    state = positions(game, mode, players, 1)[5]
    view = state.view(0)
    changed = dataclasses.replace(view, current_player=(view.current_player + 1) % players)
    assert not np.array_equal(new.encode(view), new.encode(changed))
    assert not np.array_equal(old.encode(view.to_json()), old.encode(changed.to_json()))


@pytest.mark.parametrize(("game", "mode", "players"), ALL_CONFIGS)
def test_recall_equals_the_old_information_state_keys(game: str, mode: str, players: int) -> None:
    model = get_game(game).plugin(CHANCE)
    for state in positions(game, mode, players, 2)[::7]:
        for player in (*range(players), None):
            view = state.view(player)
            data = view.to_json()
            assert model.recall(view) == {k: data[k] for k in RECALL_KEYS[game]}
