"""Set-up: random layouts obey §4 (R13, R18, R19); explicit set-ups and options are validated."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from metro_helpers import example, full_layout

from polis.core.errors import InputError
from polis.games.metropolys import board as B
from polis.games.metropolys.game import GAME

RING = {frozenset(p) for p in B.ADJACENT_PERIPHERAL_PAIRS}


@pytest.mark.parametrize("case", example("SETUP-01")["cases"], ids=lambda c: str(c["players"]))
def test_setup_01_layout_constraints(case: dict[str, Any]) -> None:
    players = case["players"]
    for seed in range(40):
        state = GAME.new_game("family", players, seed=seed, setup=None)
        setup = state.setup()
        if players == 3:
            assert len(setup["unused_districts"]) == 1
        if players == 2:
            assert frozenset(setup["unused_districts"]) in RING
        tokens = {int(f): t for f, t in setup["tokens"].items()}
        assert Counter(tokens.values()) == case["tokens"]
        assert not set(tokens) & B.DEAD_ENDS
        per = Counter(B.DISTRICTS[B.DISTRICT[f]] for f in tokens)
        for name in B.DISTRICTS:
            want = 0 if name in setup["unused_districts"] else (7 if name == "center" else 5)
            assert per.get(name, 0) == want
        assert len(set(setup["area_cards"])) == players
        if players == 2:
            assert "outskirts" not in setup["area_cards"]
        assert "neighbourhood_cards" not in setup
        assert 0 <= setup["first_player"] < players


def test_explicit_case_unused_districts_fit_the_example() -> None:
    for case in example("SETUP-01")["cases"]:
        setup = {"unused_districts": case["unused"]}
        state = GAME.new_game("expert", case["players"], seed=3, setup=setup)
        assert state.setup()["unused_districts"] == case["unused"]
        assert len(state.setup()["neighbourhood_cards"]) == case["players"]


def test_seed_reproduces_and_setup_round_trips() -> None:
    a = GAME.new_game("expert", 3, seed=11)
    b = GAME.new_game("expert", 3, seed=11)
    assert a.setup() == b.setup()
    c = GAME.new_game("expert", 3, setup=a.setup())
    assert c.setup() == a.setup()
    seeds = {str(GAME.new_game("expert", 4, seed=s).setup()) for s in range(10)}
    assert len(seeds) == 10


def test_family_two_players_never_deals_outskirts() -> None:
    for seed in range(60):
        setup = GAME.new_game("family", 2, seed=seed).setup()
        assert "outskirts" not in setup["area_cards"]


def _setup(players: int = 3, **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "first_player": 0,
        "unused_districts": ["west"] if players == 3 else [],
        "tokens": full_layout(players, ["west"] if players == 3 else []),
        "area_cards": ["bridges", "lakes", "statues", "outskirts"][:players],
    }
    base.update(changes)
    return base


BAD_SETUPS: list[tuple[str, int, dict[str, Any], str]] = [
    ("family", 3, _setup(unused_districts=[]), "exactly one peripheral district"),
    ("family", 3, _setup(unused_districts=["center"]), "the center is always in play"),
    ("family", 3, _setup(unused_districts=["mars"]), "unknown district"),
    ("family", 4, _setup(4, unused_districts=["west"]), "every district is in play"),
    ("family", 2, {"unused_districts": ["north", "south"]}, "must be adjacent"),
    ("family", 2, {"unused_districts": ["north"]}, "two adjacent peripheral districts"),
    ("family", 3, _setup(first_player=3), "first_player must be a player index"),
    ("family", 3, _setup(first_player=True), "first_player"),
    ("family", 3, _setup(area_cards=["bridges", "bridges", "lakes"]), "same card twice"),
    ("family", 3, _setup(area_cards=["bridges", "lakes"]), "one card to each of the 3"),
    ("family", 3, _setup(area_cards=["bridges", "lakes", "chains"]), "unknown card 'chains'"),
    ("family", 2, {"area_cards": ["outskirts", "lakes"]}, "outskirts area card is not used"),
    ("family", 3, _setup(neighbourhood_cards=["red", "gray", "blue"]), "only in the Expert"),
    ("expert", 3, _setup(neighbourhood_cards=["red", "red", "blue"]), "same card twice"),
    ("expert", 3, _setup(neighbourhood_cards=["red", "pink", "blue"]), "unknown card 'pink'"),
    ("family", 3, _setup(colour="red"), "unknown set-up key 'colour'"),
    ("family", 3, _setup(tokens={**full_layout(3, ["west"]), "11": "chic"}), "dead end"),
    ("family", 3, _setup(tokens={**full_layout(3, ["west"]), "46": "chic"}), "not in play"),
    ("family", 3, _setup(tokens={**full_layout(3, ["west"]), "77": "chic"}), "unknown field"),
    ("family", 3, _setup(tokens={"0": "gold"}), "unknown token 'gold'"),
    ("family", 3, _setup(tokens={"0": "chic"}), "uses 8 chic tokens, not 1"),
    ("family", 3, _setup(tokens=[]), "tokens must be an object"),
    ("family", 5, {}, "2 to 4 players"),
    ("classic", 3, {}, "unknown Metropolys mode"),
]


@pytest.mark.parametrize(("mode", "players", "setup", "message"), BAD_SETUPS)
def test_bad_setup(mode: str, players: int, setup: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        GAME.new_game(mode, players, seed=0, setup=setup)


def test_token_moved_between_districts_is_rejected() -> None:
    layout = full_layout(4)
    center = next(f for f in layout if B.DISTRICT[int(f)] == 0)
    free_north = next(f for f in B.TOKEN_FIELDS[1] if str(f) not in layout)
    token = layout.pop(center)
    layout[str(free_north)] = token
    with pytest.raises(InputError, match="the center must hold 7 tokens, not 6"):
        GAME.new_game("family", 4, setup={"tokens": layout})


def test_options() -> None:
    state = GAME.new_game("expert", 4, seed=0)
    assert state.options() == {"lake_groups": "one_per_lake", "field_51_outskirts": True}
    opts = {"lake_groups": "per_three", "field_51_outskirts": False}
    assert GAME.new_game("expert", 4, seed=0, options=opts).options() == opts
    cases: list[tuple[dict[str, Any], str]] = [
        ({"lake_groups": "two"}, "lake_groups must be one of"),
        ({"field_51_outskirts": "yes"}, "must be true or false"),
        ({"speed": 3}, "unknown Metropolys option 'speed'"),
    ]
    for bad, message in cases:
        with pytest.raises(InputError, match=message):
            GAME.new_game("expert", 4, seed=0, options=bad)


def test_random_layout_is_uniform_enough_over_fields() -> None:
    """R19: every allowed field of a district gets tokens sometimes (no fixed quota)."""
    hits: Counter[int] = Counter()
    rng = random.Random(5)
    for _ in range(200):
        setup = GAME.new_game("family", 4, seed=rng.randrange(10**9)).setup()
        hits.update(int(f) for f in setup["tokens"])
    allowed = {f for f in range(55) if f not in B.DEAD_ENDS}
    assert set(hits) == allowed
