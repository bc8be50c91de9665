"""The games' fast paths give exactly the numbers of the definitions: observations straight
from the state equal the view encoding (every seat, and a spectator seated anywhere), masks
and legal ids equal ``legal_moves()``, and batches (row by row or compiled) equal both, at
every position of many random games of every game, mode, player count and rules option."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from polis.core.protocol import GameState
from polis.core.registry import get_game
from polis.research.actions import action_mask, legal_actions, legal_ids
from polis.research.observations import Encoder, encoder
from research.helpers import ALL_CONFIGS

#: Rules options that change what is legal or what is seen, per game.
OPTIONS: dict[str, list[dict[str, Any] | None]] = {
    "quadropolis": [None, {"face_down_tiles": "unselectable"}],
    "metropolys": [None, {"lake_groups": "per_three", "field_51_outskirts": False}],
}
CASES = [(g, m, n, o) for g, m, n in ALL_CONFIGS for o in OPTIONS[g]]


def games_positions(
    game: str, mode: str, players: int, options: dict[str, Any] | None, seeds: range
) -> list[GameState]:
    """Every position of seeded random games, the end included."""
    out = []
    for seed in seeds:
        state = get_game(game).new_game(mode, players, seed=seed, options=options)
        rng = random.Random(seed)
        while True:
            out.append(state.clone())
            if state.is_terminal():
                break
            state.apply(state.random_move(rng))
    return out


def reference_mask(state: GameState, size: int) -> np.ndarray[Any, Any]:
    out = np.zeros(size, np.int8)
    out[state.legal_moves().ids()] = 1
    return out


@pytest.mark.slow  # whole games against the definitions
@pytest.mark.parametrize(("game", "mode", "players", "options"), CASES)
def test_state_encoding_and_masks_equal_the_definitions(
    game: str, mode: str, players: int, options: dict[str, Any] | None
) -> None:
    enc = encoder(get_game(game), mode, players)
    size = len(get_game(game).action_space(mode))
    distinct_obs: set[bytes] = set()
    distinct_masks: set[bytes] = set()
    for state in games_positions(game, mode, players, options, range(6)):
        for seat in range(players):
            fast = enc.encode_state(state, seat)
            assert fast.dtype == np.float32 and fast.shape == (enc.size,)
            assert np.array_equal(fast, enc.encode(state.view(seat)))
            public = enc.encode_state(state, seat, public=True)
            assert np.array_equal(public, enc.encode(state.view(None), seat=seat))
            distinct_obs.add(fast.tobytes())
        mask = enc.legal_mask(state)
        assert mask.dtype == np.int8 and np.array_equal(mask, reference_mask(state, size))
        ids = enc.legal_ids(state)
        assert ids.tolist() == sorted(state.legal_moves().ids()) == legal_actions(state)
        assert np.array_equal(legal_ids(state), ids)
        assert np.array_equal(action_mask(state, size), mask)
        distinct_masks.add(mask.tobytes())
    assert len(distinct_obs) > 100 and len(distinct_masks) > 50  # the positions differ


@pytest.mark.slow  # whole games against the definitions
@pytest.mark.parametrize(("game", "mode", "players", "options"), CASES)
def test_batches_equal_one_table_at_a_time(
    game: str, mode: str, players: int, options: dict[str, Any] | None
) -> None:
    enc = encoder(get_game(game), mode, players)
    states = games_positions(game, mode, players, options, range(3))
    rng = random.Random(7)
    for size in (1, 2, 3, 16, 64):  # one table from the bytes, batches by compiled loops
        start = 0
        while start < len(states):
            batch = states[start : start + size]
            seats = [rng.randrange(players) for _ in batch]
            obs, masks = enc.encode_batch(batch, seats)
            assert obs.shape == (len(batch), enc.size) and masks.dtype == np.int8
            for row, (state, seat) in enumerate(zip(batch, seats, strict=True)):
                assert np.array_equal(obs[row], enc.encode(state.view(seat)))
                assert np.array_equal(masks[row], reference_mask(state, masks.shape[1]))
            start += size


@pytest.mark.parametrize(("game", "mode", "players"), ALL_CONFIGS)
def test_batch_kernels_write_every_entry(game: str, mode: str, players: int) -> None:
    """Batches come in uninitialised memory: an output full of NaN is wholly overwritten,
    and the masks (allocated uninitialised by the batch) are exactly the legal moves."""
    enc = encoder(get_game(game), mode, players)
    b = enc.batch  # type: ignore[attr-defined]
    states = games_positions(game, mode, players, None, range(2))
    seats = np.array([s.current_player() if not s.is_terminal() else 0 for s in states])
    raw = b.matrix(states)
    clean = np.zeros((len(states), enc.size), np.float32)
    dirty = np.full((len(states), enc.size), np.nan, np.float32)
    b.encode(raw, seats, clean)
    b.encode(raw, seats, dirty)
    assert np.array_equal(clean, dirty)
    masks = b.mask(raw)
    for row, state in enumerate(states):  # finished tables too: their rows are all zero
        assert np.array_equal(masks[row].view(np.int8), reference_mask(state, masks.shape[1]))


def test_the_a5_option_changes_the_mask_where_the_rules_say() -> None:
    """Face-down tiles may be selected by default but not under A5 "unselectable" while
    anything else can be: the masks differ at some positions (so the option is read)."""
    game = get_game("quadropolis")
    enc = encoder(game, "classic", 3)
    strict_options = {"face_down_tiles": "unselectable"}
    differ = 0
    for strict in games_positions("quadropolis", "classic", 3, strict_options, range(4)):
        plain = game.new_game("classic", 3, setup=strict.setup())
        for move in strict.history:  # legal under A5, so legal by default too
            plain.apply(move)
        a, b = enc.legal_mask(plain), enc.legal_mask(strict)
        assert np.array_equal(b, reference_mask(strict, len(b)))
        differ += not np.array_equal(a, b)
    assert differ > 5


def test_the_comparison_can_fail() -> None:
    """Another seat's observation and another position's mask are different numbers."""
    enc: Encoder[Any] = encoder(get_game("metropolys"), "expert", 3)
    a, b = games_positions("metropolys", "expert", 3, None, range(1))[10:12]
    assert not np.array_equal(enc.encode_state(a, 0), enc.encode(a.view(1)))
    assert not np.array_equal(enc.legal_mask(a), enc.legal_mask(b))


def test_a_game_without_fast_paths_uses_the_defaults() -> None:
    """The toy game's encoder overrides nothing: the base class goes through the view and
    the legal moves, and gives the same numbers as the toy's own encoding."""
    from research.toy_research import GAME

    enc = encoder(GAME, "basic", 2)
    state = GAME.new_game("basic", 2, seed=1)
    state.apply(state.legal_moves()[0])
    assert np.array_equal(enc.encode_state(state, 1), enc.encode(state.view(1)))
    ids = enc.legal_ids(state)
    assert ids.tolist() == sorted(state.legal_moves().ids())
    obs, masks = enc.encode_batch([state, state], [0, 1])
    assert np.array_equal(obs[1], enc.encode(state.view(1)))
    assert masks[0].tolist() == enc.legal_mask(state).tolist()
