"""Records (formats §3), views without leaks, determinization and rendering."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from quadro_helpers import snapshot

from polis.core.errors import InputError, RecordError
from polis.games.metropolys.game import GAME as METROPOLYS
from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.state import QuadropolisState
from polis.games.quadropolis.tiles import FACE_UP, TILE_INDEX


def _partial(mode: str, players: int, moves: int, seed: int = 3) -> QuadropolisState:
    state = GAME.new_game(mode, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(state.random_move(rng))
    return state


@pytest.mark.parametrize(("mode", "players", "moves"), [("classic", 2, 13), ("expert", 4, 41)])
def test_record_round_trip_unfinished(mode: str, players: int, moves: int) -> None:
    state = _partial(mode, players, moves)
    record = json.loads(json.dumps(state.to_record(names=["a"] * players, seed=3)))
    assert record["setup"] == state.setup() and len(record["moves"]) == moves
    assert "result" not in record
    again = GAME.from_record(record)
    assert snapshot(again) == snapshot(state)


def test_record_without_setup_uses_the_seed() -> None:
    state = _partial("classic", 3, 10, seed=8)
    record = state.to_record(seed=8)
    del record["setup"]
    assert snapshot(GAME.from_record(record)) == snapshot(state)


def test_record_with_an_illegal_move() -> None:
    state = _partial("classic", 2, 4)
    record = state.to_record()
    record["moves"].insert(2, record["moves"][0])  # the same architect and spot again
    with pytest.raises(RecordError) as err:
        GAME.from_record(record)
    assert err.value.move_index == 2


def test_record_with_bad_options() -> None:
    record = _partial("classic", 2, 1).to_record()
    record["options"] = {"face_down_tiles": "peek"}
    with pytest.raises(RecordError, match="face_down_tiles"):
        GAME.from_record(record)


def _hidden_ids(state: QuadropolisState) -> set[str]:
    """Ids a player may not see now: face-down tiles and tiles of rounds not yet dealt."""
    up = FACE_UP[state.num_players]
    current = state.view(None).round - 1
    hidden = set()
    for r, layout in enumerate(state.setup()["rounds"]):
        for tid in layout:
            if r > current or not up[TILE_INDEX[tid]]:
                hidden.add(tid)
    return hidden


@pytest.mark.parametrize(("mode", "players"), [("classic", 2), ("classic", 3), ("expert", 2)])
def test_views_do_not_leak(mode: str, players: int) -> None:
    state = _partial(mode, players, 4 * players + 3)
    hidden = _hidden_ids(state)
    assert hidden
    for p in [None, *range(players)]:
        text = json.dumps(state.view(p).to_json())
        assert not any(tid in text for tid in hidden)
        text = state.render_text(p)
        assert "##" in text


@pytest.mark.parametrize(("mode", "players", "moves"), [("classic", 2, 11), ("expert", 3, 30)])
def test_determinize_agrees_with_the_view(mode: str, players: int, moves: int) -> None:
    state = _partial(mode, players, moves)
    view = state.view(1)
    for seed in range(3):
        guess = GAME.determinize(view, random.Random(seed))
        assert guess.view(1) == view
        assert guess.legal_moves() == state.legal_moves()
    guesses = {json.dumps(GAME.determinize(view, random.Random(s)).setup()) for s in range(5)}
    assert len(guesses) > 1  # hidden facts are really sampled


def test_determinize_rejects_nonsense() -> None:
    with pytest.raises(InputError):
        GAME.determinize({"game": "quadropolis"}, random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(InputError, match="not a Quadropolis view"):
        GAME.determinize(METROPOLYS.new_game("family", 2, seed=0).view(0), random.Random(0))
    view = _partial("classic", 2, 5).view(0)
    view = dataclasses.replace(view, moves=(*view.moves, view.moves[0]))
    with pytest.raises(InputError, match="not a reachable position"):
        GAME.determinize(view, random.Random(0))


def test_render_text_shows_the_position() -> None:
    state = _partial("expert", 2, 3)
    text = state.render_text(0)
    assert "round 1/5" in text and "pool:" in text.lower() and "Mayor" in text
    assert text.count("\n") > 10
