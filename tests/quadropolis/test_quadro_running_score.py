"""The running score (each city's score as it stands, in every view's ``running_score``): the
exact scorer on the city as it is, the same in every seat's view, and at the last position of
a whole game the end result's scores, in both modes with 2 to 4 players and any options."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.scoring import score_city
from polis.games.quadropolis.state import QuadropolisState

OPTIONS = st.fixed_dictionaries(
    {
        "playground_absorbs_pollution": st.booleans(),
        "office_tower_group_cap": st.integers(1, 5),
        "empty_squares_tie_break": st.sampled_from(["after_removal", "before_removal"]),
    }
)


def running(state: QuadropolisState, seat: int | None) -> list[dict[str, Any]]:
    score: list[dict[str, Any]] = state.view(seat).to_json()["running_score"]  # type: ignore[assignment]
    return score


def exact(state: QuadropolisState) -> list[dict[str, Any]]:
    """Each city scored by the public scorer, with the resources gained so far."""
    playground, cap, after_removal = state.rules.scoring
    out = []
    for p in range(state.num_players):
        inh, en = state.resources(p)
        report = score_city(
            state.mode,
            state.city(p),
            inh,
            en,
            playground_absorbs_pollution=playground,
            office_tower_group_cap=cap,
            empty_squares_after_removal=after_removal,
        ).to_json()
        out.append(
            {
                "total": report["total"],
                "categories": report["categories"],
                "inhabitants_on_buildings": report["inhabitants_on_buildings"],
                "empty_squares": report["empty_squares"],
            }
        )
    return out


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(["classic", "expert"]),
    st.integers(2, 4),
    st.integers(0, 10**6),
    OPTIONS,
    st.floats(0, 1),
)
def test_the_running_score_is_the_exact_score_and_at_the_end_the_result(
    mode: str, players: int, seed: int, options: dict[str, Any], cut: float
) -> None:
    state = GAME.new_game(mode, players, seed=seed, options=options)
    rng = random.Random(seed)
    stop = None
    while not state.is_terminal():
        if stop is None and rng.random() < cut / 20:
            stop = len(state.history)
            # a position in play: the exact scorer on each city, the same for every seat
            shown = running(state, None)
            assert shown == exact(state)
            assert all(running(state, p) == shown for p in range(players))
        state.apply(state.random_move(rng))
    result = state.result()
    report = result.to_json()
    ends = [
        {
            "total": r["total"],
            "categories": r["categories"],
            "inhabitants_on_buildings": r["inhabitants_on_buildings"],
            "empty_squares": r["empty_squares"],
        }
        for r in report["players"]
    ]
    for seat in [None, *range(players)]:
        shown = running(state, seat)
        assert shown == ends, (mode, players, seat)
        assert [s["total"] for s in shown] == list(result.scores)
    assert exact(state) == ends


@pytest.mark.parametrize("mode", ["classic", "expert"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_at_the_last_position_of_whole_games_it_equals_the_result(mode: str, players: int) -> None:
    for seed in range(2):
        state = GAME.new_game(mode, players, seed=seed)
        rng = random.Random(f"{mode}{players}{seed}")
        while not state.is_terminal():
            state.apply(state.random_move(rng))
        shown = running(state, 0)
        result = state.result()
        assert [s["total"] for s in shown] == list(result.scores)
        for s, player in zip(shown, result.players, strict=True):
            assert s["categories"] == dict(player.categories)
            assert s["inhabitants_on_buildings"] == player.tie_breaks["inhabitants_on_buildings"]
            assert s["empty_squares"] == player.tie_breaks["empty_squares"]


def test_a_new_game_scores_nothing_and_every_city_counts_its_own_buildings() -> None:
    # empty squares counted before the inactive buildings are removed (A19): the city's own
    state = GAME.new_game(
        "classic", 4, seed=3, options={"empty_squares_tie_break": "before_removal"}
    )
    assert [s["total"] for s in running(state, None)] == [0, 0, 0, 0]
    assert [s["empty_squares"] for s in running(state, None)] == [16, 16, 16, 16]
    rng = random.Random(3)
    while not any(any(b is not None for b in state.city(p)) for p in range(4)):
        state.apply(state.random_move(rng))
    shown = running(state, None)
    for p in range(4):
        built = sum(b is not None for b in state.city(p))
        assert shown[p]["empty_squares"] == 16 - built
