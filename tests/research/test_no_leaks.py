"""Nothing hidden reaches an observation: changing only facts a player cannot see (face-down
tiles, future rounds, other players' secret cards) leaves that player's observation, mask,
information state and OpenSpiel tensors unchanged, move after move."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polis.research.openspiel_game  # noqa: F401  (registers the games)
from polis.core.registry import get_game
from polis.research.session import Session

FACE_DOWN = -2


def face_down_squares(state: Any) -> list[int]:
    """Site squares showing a tile's back (the typed view's FACE_DOWN entries)."""
    return [q for q, t in enumerate(state.view(None).site) if t == FACE_DOWN]


def face_up_squares(state: Any) -> list[int]:
    """Site squares showing a tile's face (a tile index)."""
    return [q for q, t in enumerate(state.view(None).site) if t >= 0]


def sorted_pools(mode: str) -> list[list[str]]:
    """Per round, the tile ids of the mode sorted (any seed's set-up lists them all)."""
    setup = get_game("quadropolis").new_game(mode, 2, seed=0).setup()
    return [sorted(layout) for layout in setup["rounds"]]


def same_obs(a: Session, b: Session, player: int) -> bool:
    oa, ob = a.observe(player), b.observe(player)
    return bool(
        np.array_equal(oa["observation"], ob["observation"])
        and np.array_equal(oa["action_mask"], ob["action_mask"])
    )


def hidden_variant_quadropolis(setup: dict, players: int, rng: random.Random) -> dict:
    """Same set-up, but face-down tiles of round 1 shuffled and every later round re-dealt."""
    probe = get_game("quadropolis").new_game("classic", players, setup=setup)
    down = face_down_squares(probe)
    first = list(setup["rounds"][0])
    tiles = [first[q] for q in down]
    rng.shuffle(tiles)
    for q, t in zip(down, tiles, strict=True):
        first[q] = t
    later = []
    for layout in setup["rounds"][1:]:
        layout = list(layout)
        rng.shuffle(layout)
        later.append(layout)
    return {"first_player": setup["first_player"], "rounds": [first, *later]}


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3]))
def test_quadropolis_face_down_tiles_and_future_rounds_do_not_show(seed: int, players: int) -> None:
    a = Session("quadropolis", "classic", players)
    b = Session("quadropolis", "classic", players)
    a.new_game(seed)
    rng = random.Random(seed)
    b.new_game(seed, hidden_variant_quadropolis(a.state.setup(), players, rng))  # type: ignore[union-attr]
    assert a.state.setup() != b.state.setup()  # type: ignore[union-attr]
    for _ in range(4 * players):  # all of round 1: only hidden facts differ
        for p in range(players):
            assert same_obs(a, b, p)
        action = int(rng.choice(np.flatnonzero(a.observe(a.state.current_player())["action_mask"])))  # type: ignore[union-attr]
        a.apply(action)
        b.apply(action)


def test_quadropolis_the_leak_check_can_fail() -> None:
    """Swapping two face-up tiles is visible, so the comparison above is not vacuous."""
    a = Session("quadropolis", "classic", 2)
    a.new_game(1)
    setup = a.state.setup()  # type: ignore[union-attr]
    up = face_up_squares(a.state)
    first = list(setup["rounds"][0])
    first[up[0]], first[up[1]] = first[up[1]], first[up[0]]
    b = Session("quadropolis", "classic", 2)
    b.new_game(1, {"first_player": setup["first_player"], "rounds": [first, *setup["rounds"][1:]]})
    assert not same_obs(a, b, 0)


DECKS = {
    "family": ("bridges", "statues", "lakes", "outskirts"),
    "expert": ("bridges", "statues", "lakes", "districts", "chains"),
}
COLOURS = ("gray", "orange", "green", "red", "blue")


def other_cards(
    cards: list[str], deck: tuple[str, ...], observer: int, rng: random.Random
) -> list[str]:
    """A different deal of the cards the observer cannot see (its own card is kept)."""
    while True:
        pool = [c for c in deck if c != cards[observer]]
        rng.shuffle(pool)
        out = [cards[observer] if p == observer else pool.pop() for p in range(len(cards))]
        if out != cards:
            return out


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.sampled_from([2, 3, 4]),
    mode=st.sampled_from(["family", "expert"]),
)
def test_metropolys_other_players_secret_cards_do_not_show(
    seed: int, players: int, mode: str
) -> None:
    rng = random.Random(seed)
    observer = rng.randrange(players)
    a = Session("metropolys", mode, players)
    a.new_game(seed)
    setup = dict(a.state.setup())  # type: ignore[union-attr]
    deck = DECKS[mode] if not (mode == "family" and players == 2) else DECKS[mode][:3]
    variant = dict(setup, area_cards=other_cards(setup["area_cards"], deck, observer, rng))
    if mode == "expert":
        variant["neighbourhood_cards"] = other_cards(
            setup["neighbourhood_cards"], COLOURS, observer, rng
        )
    b = Session("metropolys", mode, players)
    b.new_game(seed, variant)
    while not a.state.is_terminal():  # type: ignore[union-attr]
        assert same_obs(a, b, observer)
        mover = a.state.current_player()  # type: ignore[union-attr]
        action = int(rng.choice(np.flatnonzero(a.observe(mover)["action_mask"])))
        a.apply(action)
        b.apply(action)


def test_metropolys_own_card_does_show() -> None:
    a = Session("metropolys", "family", 3)
    a.new_game(2)
    setup = a.state.setup()  # type: ignore[union-attr]
    cards = list(setup["area_cards"])
    spare = next(c for c in DECKS["family"] if c not in cards)
    b = Session("metropolys", "family", 3)
    b.new_game(2, dict(setup, area_cards=[spare, *cards[1:]]))
    assert not same_obs(a, b, 0)
    assert same_obs(a, b, 1) and same_obs(a, b, 2)


def deal(state: pyspiel.State, outcomes: list[int]) -> None:
    for o in outcomes:
        assert state.is_chance_node()
        state.apply_action(o)


@pytest.mark.parametrize("players", [2, 3])
def test_openspiel_information_ignores_face_down_squares(players: int) -> None:
    game = pyspiel.load_game(f"polis_quadropolis(players={players},first_player=0)")
    order = list(range(25))
    random.Random(players).shuffle(order)
    pools = sorted_pools("classic")  # chance outcome i deals the i-th tile id of the pool
    probe = get_game("quadropolis").new_game(
        "classic",
        players,
        setup={"first_player": 0, "rounds": [[pools[0][i] for i in order], *pools[1:]]},
    )
    down = face_down_squares(probe)
    swapped = list(order)
    swapped[down[0]], swapped[down[1]] = swapped[down[1]], swapped[down[0]]
    a, b = game.new_initial_state(), game.new_initial_state()
    deal(a, order)
    deal(b, swapped)
    assert str(a) != str(b)
    rng = np.random.RandomState(0)
    for _ in range(4 * players):
        for p in range(players):
            assert a.information_state_string(p) == b.information_state_string(p)
            assert a.observation_string(p) == b.observation_string(p)
            assert a.observation_tensor(p) == b.observation_tensor(p)
            assert a.information_state_tensor(p) == b.information_state_tensor(p)
        action = int(rng.choice(a.legal_actions()))
        a.apply_action(action)
        b.apply_action(action)
    assert a.is_chance_node()  # round 2 is not dealt before round 1 is over


def test_openspiel_metropolys_information_ignores_other_players_cards() -> None:
    game = pyspiel.load_game("polis_metropolys(mode=expert,players=2,first_player=0)")
    a, b = game.new_initial_state(), game.new_initial_state()
    rng = np.random.RandomState(4)
    changed = 0
    while a.is_chance_node():
        outcomes = [o for o, _ in a.chance_outcomes()]
        label = a.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0])
        choice = int(rng.choice(outcomes))
        a.apply_action(choice)
        if label.endswith("to player 1"):  # player 1's secret cards: deal another one
            choice = next(o for o in outcomes if o != choice)
            changed += 1
        b.apply_action(choice)
    assert changed == 2 and str(a) != str(b)
    while not a.is_terminal():
        assert a.information_state_string(0) == b.information_state_string(0)
        assert a.information_state_tensor(0) == b.information_state_tensor(0)
        assert a.observation_string(0) == b.observation_string(0)
        assert a.information_state_string(1) != b.information_state_string(1)
        action = int(rng.choice(a.legal_actions()))
        a.apply_action(action)
        b.apply_action(action)
