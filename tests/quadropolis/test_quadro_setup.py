"""Set-ups and options (formats §3): seeded draws, explicit validation, InputError for nonsense."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from polis.core import get_game
from polis.core.errors import InputError
from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.options import DEFAULT_OPTIONS, Options, parse_options
from polis.games.quadropolis.setup import Setup, draw, parse_setup
from polis.games.quadropolis.tiles import POOLS, TILES

DEFAULTS = {
    "face_down_tiles": "empty",
    "playground_absorbs_pollution": False,
    "office_tower_group_cap": 5,
    "empty_squares_tie_break": "after_removal",
}


def test_registry_and_modes() -> None:
    game = get_game("quadropolis")
    assert game is GAME and game.modes == ("classic", "expert")


@pytest.mark.parametrize(("mode", "rounds"), [("classic", 4), ("expert", 5)])
def test_pools_have_25_tiles_per_round(mode: str, rounds: int) -> None:
    assert len(POOLS[mode]) == rounds
    for r, pool in enumerate(POOLS[mode], start=1):
        assert len(pool) == 25
        assert all(TILES[i].round == r and TILES[i].mode in ("both", mode) for i in pool)
        for n, up in ((2, 16), (3, 20), (4, 25)):
            assert sum(TILES[i].players <= n for i in pool) == up


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_seeded_setup_is_reproducible_and_valid(mode: str) -> None:
    a = GAME.new_game(mode, 3, seed=42).setup()
    b = GAME.new_game(mode, 3, seed=42).setup()
    c = GAME.new_game(mode, 3, seed=43).setup()
    assert a == b and a != c
    assert GAME.new_game(mode, 3, setup=a).setup() == a
    rng = random.Random(42)
    expected = []
    for pool in POOLS[mode]:
        order = list(pool)
        rng.shuffle(order)
        expected.append([TILES[i].id for i in order])
    assert a == {"first_player": rng.randrange(3), "rounds": expected}
    # The Setup value behind it: drawn from the same seed, parsed back from its JSON.
    fixed = draw(mode, 3, random.Random(42))
    assert isinstance(fixed, Setup) and fixed == GAME.new_game(mode, 3, seed=42).setup_data
    assert fixed.to_json() == a and parse_setup(mode, 3, a) == fixed
    assert (fixed.mode, fixed.players, fixed.first_player) == (mode, 3, a["first_player"])
    assert [[TILES[i].id for i in layout] for layout in fixed.rounds] == expected


def _bad(mode: str, change: Any, match: str, players: int = 2) -> None:
    setup = copy.deepcopy(GAME.new_game(mode, players, seed=1).setup())
    change(setup)
    with pytest.raises(InputError, match=match):
        GAME.new_game(mode, players, setup=setup)


def test_setup_validation() -> None:
    _bad("classic", lambda s: s.update(first_player=2), "first_player")
    _bad("classic", lambda s: s.update(first_player="0"), "first_player")
    _bad("classic", lambda s: s.pop("rounds"), "rounds must list the 4 rounds")
    _bad("expert", lambda s: s["rounds"].pop(), "rounds must list the 5 rounds")
    _bad("classic", lambda s: s["rounds"][0].pop(), "round 1 must list 25 tile ids")
    _bad("classic", lambda s: s["rounds"][0].__setitem__(3, "NOPE"), "unknown tile id 'NOPE'")
    _bad(
        "classic",
        lambda s: s["rounds"][0].__setitem__(0, s["rounds"][1][0]),
        "belongs to round 2",
    )
    _bad(
        "classic",
        lambda s: s["rounds"][0].__setitem__(0, s["rounds"][0][1]),
        "appears twice",
    )
    expert_only = next(t for t in TILES if t.mode == "expert" and t.round == 1)
    _bad(
        "classic",
        lambda s: s["rounds"][0].__setitem__(0, expert_only.id),
        "Expert back and is not used in classic mode",
    )
    with pytest.raises(InputError):
        GAME.new_game("classic", 2, setup=[1, 2])  # type: ignore[arg-type]


@pytest.mark.parametrize(("mode", "players"), [("solo", 2), ("classic", 1), ("classic", 5)])
def test_bad_mode_or_players(mode: str, players: int) -> None:
    with pytest.raises(InputError):
        GAME.new_game(mode, players, seed=1)


def test_options_defaults_and_values() -> None:
    state = GAME.new_game("classic", 2, seed=1)
    assert state.options() == DEFAULTS
    assert state.to_record()["options"] == DEFAULTS
    assert state.rules is DEFAULT_OPTIONS and Options() == DEFAULT_OPTIONS
    assert parse_options(None) is DEFAULT_OPTIONS and parse_options(DEFAULTS) == Options()
    opts = {
        "face_down_tiles": "unselectable",
        "empty_squares_tie_break": "before_removal",
        "playground_absorbs_pollution": True,
        "office_tower_group_cap": 4,
    }
    assert GAME.new_game("classic", 2, seed=1, options=opts).options() == opts
    assert parse_options(opts) == Options(
        face_down_tiles="unselectable",
        playground_absorbs_pollution=True,
        office_tower_group_cap=4,
        empty_squares_tie_break="before_removal",
    )
    assert parse_options(opts).scoring == (True, 4, False)


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"colour": "red"}, "unknown Quadropolis option 'colour'"),
        ({"face_down_tiles": "blind"}, "face_down_tiles must be one of empty, unselectable"),
        ({"playground_absorbs_pollution": "yes"}, "true or false"),
        ({"office_tower_group_cap": 0}, "from 1 to 5"),
        ({"office_tower_group_cap": True}, "from 1 to 5"),
        ({"empty_squares_tie_break": "never"}, "after_removal, before_removal"),
        ("fast", "object"),
    ],
)
def test_bad_options(options: Any, match: str) -> None:
    with pytest.raises(InputError, match=match):
        parse_options(options)
