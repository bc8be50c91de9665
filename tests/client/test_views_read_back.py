"""A seat's view back from its JSON (each game's ``read_view`` part), as a bot client rebuilds
it from the state message: equal to the view that wrote it at every position in play, for
every seat and the spectator, in every mode and table size; agents decide and determinize
from it as from the server's own; a game without the part gives a :class:`JsonView`."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from polis.client import JsonView, legal_moves, seat_view
from polis.core.errors import InputError
from polis.core.parts import READ_VIEW
from polis.core.registry import get_game

GAMES = ["metropolys", "quadropolis"]


@pytest.mark.parametrize("name", GAMES)
def test_every_view_of_random_games_reads_back_equal(name: str) -> None:
    game = get_game(name)
    read = game.plugin(READ_VIEW)
    for mode in game.modes:
        for players in range(game.min_players, game.max_players + 1):
            rng = random.Random(f"{name}{mode}{players}")
            state = game.new_game(mode, players, seed=rng.randrange(2**31))
            while True:
                for seat in [None, *range(players)]:
                    view = state.view(seat)
                    back = read(json.loads(json.dumps(view.to_json())))
                    assert back == replace(view, result=None), (mode, players, seat)
                if state.is_terminal():
                    break
                state.apply(state.random_move(rng))


@pytest.mark.parametrize("name", GAMES)
def test_a_view_read_back_determinizes_and_decides_like_the_original(name: str) -> None:
    from polis.bots import make_agent

    game = get_game(name)
    rng = random.Random(5)
    state = game.new_game(game.default_mode, 2, seed=5)
    for _ in range(7):
        state.apply(state.random_move(rng))
    seat = state.current_player()
    view = state.view(seat)
    back = seat_view(game, json.loads(json.dumps(view.to_json())))
    world = game.determinize(back, random.Random(1))
    assert world.view(seat) == view  # a possible world of exactly what the seat knows
    legal = legal_moves(game, game.default_mode, [m.text for m in state.legal_moves()])
    first, budget = make_agent("greedy", 3)
    second, _ = make_agent("greedy", 3)
    assert first.act(back, legal, game, budget) == second.act(view, legal, game, budget)


@pytest.mark.parametrize("name", GAMES)
def test_json_no_view_writes_is_refused_by_name(name: str) -> None:
    read = get_game(name).plugin(READ_VIEW)
    with pytest.raises(InputError, match="not the JSON of a"):
        read({"game": name})
    with pytest.raises(InputError):
        read({"game": "other"})


def test_a_game_without_the_part_gives_a_json_view() -> None:
    toy = get_game("counting")
    state = toy.new_game("basic", 2, seed=1)
    state.apply_str("2")
    data = json.loads(json.dumps(state.view(1).to_json()))
    view = seat_view(toy, data)
    assert isinstance(view, JsonView)
    mover = state.current_player()
    assert (view.player, view.current_player, [m.text for m in view.moves]) == (1, mover, ["2"])
    assert view.to_json() == data
