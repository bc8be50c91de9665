"""The compiled scorer key (numba) against the Python solver and the exhaustive reference."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from quadro_scoring_reference import reference_best
from test_scoring_property import Case, cities, hard_cities

from polis.games.quadropolis import scoring
from polis.games.quadropolis.city import parse_city
from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.scoring import _decode, _Options, _solver_key

pytest.importorskip("numba")
from polis.games.quadropolis.scoring_kernel import city_key

OPTIONS = ((False, 5, True), (True, 3, False), (True, 5, True), (False, 1, False))


@pytest.mark.slow  # a long Hypothesis run against the exhaustive reference
@settings(max_examples=150, deadline=None)
@given(st.one_of(cities(), hard_cities()))
def test_compiled_key_is_the_solver_key(case: Case) -> None:
    mode, city, inh, en, playgrounds, group_cap, after = case
    opts = _Options(playgrounds, group_cap, after)
    key = city_key(mode, city, inh, en, opts)
    assert key == _solver_key(mode, city, inh, en, opts)
    total, on_buildings, empty = _decode(key)
    best = reference_best(
        mode,
        city,
        inh,
        en,
        playground_absorbs_pollution=playgrounds,
        group_cap=group_cap,
        empty_after_removal=after,
    )
    assert (total, on_buildings, -empty) == best


#: Mats full of harbour lines, park-side towers short of energy and office groups among
#: factories: where the segment pairs, top-k groups and bounds of the search all work.
CROWDED = (
    ("expert", ("H H H H H",) * 4, 20, 0),
    ("expert", ("H H H H H",) * 4, 7, 3),
    ("expert", ("H*1 H H*2 H H", "H H*3 H H H", "H H H*1 H H", "H H H H H*2"), 12, 5),
    ("classic", ("H H H H",) * 4, 9, 0),
    ("classic", ("H F H .", "H S H .", "H H H H", ". F . U*2"), 8, 2),
    ("expert", ("T3 P T2 P T5", "P T P T4 P", "T2 P T P T3", "P T5 P T P"), 5, 3),
    ("classic", ("T P T P", "P T P T", "T P T P", "P T P T"), 3, 3),
    ("expert", ("O2 F O3 F O", "F O4 S O F", "S F O2 H S", "H S F H S"), 10, 4),
    ("expert", ("O2 O3 O O4 O", "O O2 O O O3", "O4 O O2 O O", "O O O3 O O2"), 10, 6),
    ("expert", ("O2 F O3 F O", "F O4 F O F", "O F O2 F O3", "F O F O F"), 10, 6),
    ("expert", ("H F H F H", "F H F H F", "H F H F H", "F H F H F"), 10, 4),
    ("expert", ("O O O O O", "F S F S F", "H H H H H", "T P T P M"), 9, 4),
    ("expert", ("U U*2 M U U*1", "S M S U H", "P F p F M", "U*2 S U H H"), 9, 2),
    # dense cities short of both resources, from the random search of benchmarks/scorer.py
    # (--search): 16-31 ms for the Python solver's key, 1.2-3.5 ms for the kernel
    ("expert", ("S H*2 H O2 O2", "T2 O3 S F F", "F F O2 S O", "H H O F O2"), 18, 7),
    ("expert", ("O O2 H*2 O2 O2", "O2 H F H H", "O2 S O2 F H*2", "H*2 F O2 F S"), 19, 7),
    ("expert", ("O2 S O2 S F", "F H O O2 S", "H*2 O2 O3 O F", "O S O O O2"), 19, 8),
    ("expert", ("O3 U H O H", "F S F S H", "O F O2 O2 H*2", "O S S F O3"), 29, 7),
    ("expert", ("T2 S O2 S S", "O S O2 F O2", "H F O H O", "O O3 O3 O O"), 31, 6),
)


@pytest.mark.parametrize(("mode", "rows", "inh", "en"), CROWDED)
def test_compiled_key_on_crowded_cities(
    mode: str, rows: tuple[str, ...], inh: int, en: int
) -> None:
    city = parse_city(mode, list(rows))
    for extra in (0, 3):  # also with resources beyond any allocation's use
        for opts in OPTIONS:
            got = city_key(mode, city, inh + extra, en + extra, _Options(*opts))
            assert got == _solver_key(mode, city, inh + extra, en + extra, _Options(*opts))


@pytest.mark.parametrize(("mode", "players"), [("classic", 2), ("classic", 4), ("expert", 3)])
def test_results_of_random_games_are_the_same_with_compiled_keys(
    mode: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole games: the totals and places with the compiled keys are the solver's."""
    rng = random.Random(players)
    finished = []
    for g in range(6):
        state = GAME.new_game(mode, players, seed=100 + g)
        while not state.is_terminal():
            state.apply(state.random_move(rng))
        finished.append(state)

    def outcome() -> list[tuple[object, object]]:
        scoring._best_key.cache_clear()  # (a state keeps its result: score afresh instead)
        results = [scoring.game_result(s) for s in finished]
        return [(r.scores, r.ranking) for r in results]

    monkeypatch.setattr(scoring, "_key_of", scoring._solver_key)
    solver = outcome()
    scoring.use_compiled_keys()
    assert scoring._key_of is city_key
    assert outcome() == solver


def test_research_encoders_turn_the_compiled_keys_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """With numba installed, making a research environment's encoder switches results over."""
    from polis.research.observations import encoder

    monkeypatch.setattr(scoring, "_key_of", scoring._solver_key)
    encoder(GAME, "expert", 3)
    assert scoring._key_of is city_key
