"""Hypothesis properties over random legal games: Family and Expert, 2/3/4 players."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import permutations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from polis.games.metropolys.board import TOKEN_COUNTS, TOKENS
from polis.games.metropolys.cards import NEIGHBOURHOOD_CARDS, area_deck
from polis.games.metropolys.game import GAME
from polis.games.metropolys.moves import PASS
from polis.games.metropolys.state import MetropolysState

GAMES = st.tuples(
    st.sampled_from(["family", "expert"]),
    st.integers(2, 4),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
)


def token_totals(state: MetropolysState) -> Counter[str]:
    totals: Counter[str] = Counter()
    for f in range(55):
        token = state.token_at(f)
        if token:
            totals[token] += 1
    for p in range(state.num_players):
        totals.update(state.collected(p))
    return totals


def play_checked(mode: str, players: int, seed: int, play_seed: int) -> MetropolysState:
    state = GAME.new_game(mode, players, seed=seed)
    rng = random.Random(play_seed)
    expected_tokens = Counter(TOKEN_COUNTS[players])
    rounds = 0
    while not state.is_terminal():
        legal = state.legal_moves()
        move = state.random_move(rng)
        assert move in legal
        codes = [m.code for m in legal]  # field * 16 + value, pass = 0: a stable order
        assert len(set(legal)) == len(legal) and codes == sorted(codes)
        values = [value for _, value, _ in state.bids]
        assert values == sorted(set(values))  # each bid higher than the last: at most 13 a round
        if state.bids:
            assert state.current_player() not in state.passed
            assert state.current_player() != state.bids[-1][2]  # never raises his own bid
        else:
            assert PASS not in legal
        player = state.current_player()
        built_before = sum(state.built_count(p) for p in range(players))
        last = state.bids[-1] if move is PASS else (move.field, move.value, player)
        state.apply(move)
        if not state.bids:  # the round is over
            rounds += 1
            assert sum(state.built_count(p) for p in range(players)) == built_before + 1
            field, value, bidder = last
            assert state.building_at(field) == (bidder, value, True)
            assert state.is_terminal() or state.current_player() == bidder == state.start_player
            assert token_totals(state) == expected_tokens
            buildings = [state.building_at(f) for f in range(55)]
            assert all(b is None or b[2] for b in buildings)  # no bid is left on the board
            metro = [state.collected(p)["metro"] for p in range(players)]
            if state.metro_card is None:
                assert max(metro) == 0
            else:
                assert metro[state.metro_card] == max(metro) > 0
            if state.archaeology_card is not None:
                assert state.collected(state.archaeology_card)["archaeology"] > 0
        else:
            assert sum(state.built_count(p) for p in range(players)) == built_before
    assert max(state.built_count(p) for p in range(players)) == 13
    assert rounds == sum(state.built_count(p) for p in range(players))
    for p in range(players):  # no bids remain; supplies are exactly the unbuilt values
        assert len(state.supply(p)) == 13 - state.built_count(p)
    return state


@settings(max_examples=30, deadline=None)
@given(GAMES)
def test_random_games_follow_the_rules(params: tuple[str, int, int, int]) -> None:
    mode, players, seed, play_seed = params
    state = play_checked(mode, players, seed, play_seed)
    result = state.result()
    assert len(result.scores) == players
    assert sorted(p for g in result.ranking for p in g) == list(range(players))
    for line, total in zip(result.players, result.scores, strict=True):
        report = line.report
        assert report["total"] == total == sum(report["breakdown"].values())
        assert line.total == total and dict(line.categories) == report["breakdown"]
        assert line.tie_breaks == {"built": report["built"]}
    assert (result.game, result.mode) == ("metropolys", mode)
    record = state.to_record(seed=seed)
    json.dumps(record)
    replay = GAME.from_record(json.loads(json.dumps(record)))
    assert list(replay.history) == list(state.history)
    assert replay.result() == result
    assert replay.result().to_json() == record["result"] == result.to_json()
    assert record["options"] == {"lake_groups": "one_per_lake", "field_51_outskirts": True}


def alternative_deals(state: MetropolysState, player: int | None) -> list[dict[str, Any]]:
    """Set-ups equal to the true one except for cards ``player`` cannot see."""
    setup = state.setup()
    n = state.num_players
    others = [p for p in range(n) if p != player]
    decks = [("area_cards", area_deck(state.mode, n))]
    if state.mode == "expert":
        decks.append(("neighbourhood_cards", NEIGHBOURHOOD_CARDS))
    out = []
    for key, deck in decks:
        own = {setup[key][player]} if player is not None else set()
        left = [c for c in deck if c not in own]
        for deal in list(permutations(left, len(others)))[:6]:
            alt = json.loads(json.dumps(setup))
            for p, card in zip(others, deal, strict=True):
                alt[key][p] = card
            out.append(alt)
    return out


@settings(max_examples=20, deadline=None)
@given(GAMES, st.floats(0, 1))
def test_views_leak_nothing_and_determinize_agrees(
    params: tuple[str, int, int, int], cut: float
) -> None:
    mode, players, seed, play_seed = params
    full = GAME.new_game(mode, players, seed=seed)
    rng = random.Random(play_seed)
    while not full.is_terminal():
        full.apply(full.random_move(rng))
    moves = full.history[: int(cut * len(full.history))]
    state = GAME.new_game(mode, players, setup=full.setup())
    for move in moves:
        state.apply(move)
    for viewer in [None, *range(players)]:
        view = state.view(viewer)
        data = view.to_json()
        assert view.moves == tuple(moves)
        assert data["moves"] == [m.text for m in moves]
        if view.finished:
            # Game over: every card is revealed to everybody, with the result.
            setup = state.setup()
            colours = setup.get("neighbourhood_cards")
            assert data["cards"] == [
                {"area_card": area, "neighbourhood_card": colours[p] if colours else None}
                for p, area in enumerate(setup["area_cards"])
            ]
            assert data["result"] == state.result().to_json()
            assert GAME.determinize(view, random.Random(seed)).setup() == setup
            continue
        assert "cards" not in data and "result" not in data
        # The running score holds no secret card's points (the public part only).
        for row in data["running_score"]:
            assert not {"area", "neighbourhood"} & set(row["categories"])
        # The view is the same whatever the cards it may not show (its running score too).
        for alt in alternative_deals(state, viewer):
            other = GAME.new_game(mode, players, setup=alt)
            for move in moves:
                other.apply(move)
            assert other.view(viewer) == view
            assert other.view(viewer).to_json() == data
        if viewer is not None:
            assert view.area_card == data["area_card"] == state.setup()["area_cards"][viewer]
        else:
            assert view.area_card is None and view.neighbourhood_card is None
            assert data["area_card"] is None and data["neighbourhood_card"] is None
        text = json.dumps(data)
        for name in ("bridges", "statues", "lakes", "outskirts", "districts", "chains"):
            if viewer is None or name != view.area_card:
                assert f'"{name}"' not in text
        # determinize: equal in everything visible, cards consistent with the deck.
        sample = GAME.determinize(view, random.Random(seed))
        assert sample.view(viewer) == view
        assert sample.view(viewer).to_json() == data
        setup = sample.setup()
        assert len(set(setup["area_cards"])) == players
        assert set(setup["area_cards"]) <= set(area_deck(mode, players))
        if mode == "expert":
            assert len(set(setup["neighbourhood_cards"])) == players
        assert setup["tokens"] == state.setup()["tokens"]
        assert sample.legal_moves() == state.legal_moves()


def test_determinize_with_card_weights() -> None:
    state = GAME.new_game("expert", 3, seed=4)
    view = state.view(0)
    own = view.area_card
    left = [c for c in area_deck("expert", 3) if c != own]
    favourite = left[0]
    weights = {1: {c: (1.0 if c == favourite else 0.0) for c in left}, 2: {favourite: 0.0}}
    rng = random.Random(1)
    for _ in range(30):
        setup = GAME.determinize(view, rng, card_weights=weights).setup()
        assert setup["area_cards"][0] == own
        assert setup["area_cards"][1] == favourite
        assert setup["area_cards"][2] != favourite
    seen = Counter(GAME.determinize(view, rng).setup()["area_cards"][1] for _ in range(200))
    assert set(seen) == set(left)  # unweighted: every unseen card is possible


def test_tokens_names() -> None:
    assert TOKENS == ("chic", "metro", "archaeology")
