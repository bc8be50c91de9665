"""The running score (every view's ``running_score``): during the game only what every seat
may know (tokens, the metro and archaeology cards, in Expert the highest buildings), never a
secret card's points, the same in every seat's view whatever the cards it may not see; at the
last position of a whole game the end result's totals and breakdowns, in both modes with 2
to 4 players."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polis.games.metropolys.cards import area_deck
from polis.games.metropolys.game import GAME
from polis.games.metropolys.scoring import PUBLIC_KEYS, player_breakdowns
from polis.games.metropolys.state import MetropolysState

SECRET_KEYS = {"area", "neighbourhood"}


def running(state: MetropolysState, seat: int | None) -> list[dict[str, Any]]:
    score: list[dict[str, Any]] = state.view(seat).to_json()["running_score"]  # type: ignore[assignment]
    return score


def public_part(state: MetropolysState) -> list[dict[str, Any]]:
    """The full scorer's breakdowns as if the game ended now, the secret entries left out."""
    keys = PUBLIC_KEYS if state.mode == "expert" else PUBLIC_KEYS[:5]
    out = []
    for row in player_breakdowns(state.end_position()):
        part = {k: row[k] for k in keys}
        out.append({"total": sum(part.values()), "categories": part})
    return out


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(["family", "expert"]),
    st.integers(2, 4),
    st.integers(0, 10**6),
    st.floats(0, 1),
)
def test_the_running_score_is_public_and_at_the_end_the_result(
    mode: str, players: int, seed: int, cut: float
) -> None:
    state = GAME.new_game(mode, players, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not state.is_terminal():
        if rng.random() < cut / 10 and checked < 3:
            checked += 1
            shown = running(state, None)
            assert shown == public_part(state)
            for seat in range(players):
                assert running(state, seat) == shown
            for row in shown:
                assert not SECRET_KEYS & set(row["categories"])
        state.apply(state.random_move(rng))
    report = state.result().to_json()
    ends = [{"total": r["total"], "categories": r["breakdown"]} for r in report["players"]]
    for seat in [None, *range(players)]:
        assert running(state, seat) == ends
    assert [row["total"] for row in ends] == list(state.result().scores)


@pytest.mark.parametrize("mode", ["family", "expert"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_at_the_last_position_of_whole_games_it_equals_the_result(mode: str, players: int) -> None:
    for seed in range(2):
        state = GAME.new_game(mode, players, seed=seed)
        rng = random.Random(f"{mode}{players}{seed}")
        while not state.is_terminal():
            state.apply(state.random_move(rng))
        result = state.result()
        shown = running(state, 1)
        assert [s["total"] for s in shown] == list(result.scores)
        for s, player in zip(shown, result.players, strict=True):
            assert s["categories"] == dict(player.categories)


def other_area_cards(state: MetropolysState, seat: int) -> list[dict[str, Any]]:
    """Set-ups equal to the true one but for the area cards of the players other than seat."""
    setup = state.setup()
    own = setup["area_cards"][seat]
    left = [c for c in area_deck(state.mode, state.num_players) if c != own]
    out = []
    for shift in range(1, len(left)):
        alt = json.loads(json.dumps(setup))
        others = [p for p in range(state.num_players) if p != seat]
        for i, p in enumerate(others):
            alt["area_cards"][p] = left[(i + shift) % len(left)]
        out.append(alt)
    return out


@pytest.mark.parametrize("mode", ["family", "expert"])
def test_no_secret_card_moves_the_running_score(mode: str) -> None:
    """A leak would show: a position where the secret cards already score, dealt again with
    other cards for the other players, gives the very same running score to every seat."""
    rng = random.Random(mode)
    state = GAME.new_game(mode, 3, seed=11)
    while len(state.history) < 60 and not state.is_terminal():
        state.apply(state.random_move(rng))
    assert not state.is_terminal()
    secret = [row["area"] + row["neighbourhood"] for row in player_breakdowns(state.end_position())]
    assert any(secret), "the cards score nothing yet: the test would prove nothing"
    for seat in range(3):
        shown = running(state, seat)
        totals = [s["total"] for s in shown]
        # the full score now (secret cards counted) is more than what is shown
        assert totals != list(state.scores_now())
        for alt in other_area_cards(state, seat):
            other = GAME.new_game(mode, 3, setup=alt)
            for move in state.history:
                other.apply(move)
            assert running(other, seat) == shown
