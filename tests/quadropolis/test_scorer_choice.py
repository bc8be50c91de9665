"""Results take their keys from the compiled scorer wherever numba has it ready, and are the
same as the Python solver's (the readable reference): whole random games, scores, places and
the scoring pad; and the choice itself (``POLIS_SCORER``, numba missing, a cold cache)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from quadro_scoring_reference import reference_best

from polis.core import compiled
from polis.core.errors import InputError
from polis.games.quadropolis import scoring
from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.state import QuadropolisState

OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"playground_absorbs_pollution": True, "office_tower_group_cap": 3},
    {"empty_squares_tie_break": "before_removal"},
)


def finished_game(mode: str, players: int, seed: int, builder: bool, options: int) -> Any:
    """A random game played to its end; a ``builder`` builds whenever it can (dense cities,
    short of resources: where the solver's search is widest)."""
    rng = random.Random(seed)
    state = GAME.new_game(mode, players, seed=seed, options=OPTIONS[options])
    while not state.is_terminal():
        legal = state.legal_moves()
        builds = [m for m in legal if m.target >= 0] if builder else []
        state.apply(rng.choice(builds or legal))
    return state


def outcome(state: QuadropolisState) -> tuple[Any, ...]:
    """Everything a result tells, scored afresh (a state keeps its result)."""
    scoring._best_key.cache_clear()
    scoring._score.cache_clear()
    result = scoring.game_result(state)
    return result.scores, result.ranking, result.players, result.json


games = st.tuples(
    st.sampled_from(["classic", "expert"]),
    st.integers(2, 4),
    st.integers(0, 2**32 - 1),
    st.booleans(),
    st.integers(0, len(OPTIONS) - 1),
)


@settings(max_examples=40, deadline=None)
@given(games)
def test_results_with_the_compiled_scorer_are_the_references(
    game: tuple[str, int, int, bool, int],
) -> None:
    pytest.importorskip("numba")
    state = finished_game(*game)
    previous = scoring._key_of
    try:
        scoring.use_reference_keys()
        reference = outcome(state)
        scoring.use_compiled_keys()
        assert scoring.scorer() == "compiled"
        assert outcome(state) == reference
    finally:
        scoring._key_of = previous


@pytest.mark.slow  # whole games' cities against the exhaustive reference
@settings(max_examples=60, deadline=None)
@given(games)
def test_cities_of_finished_games_score_the_exhaustive_best(
    game: tuple[str, int, int, bool, int],
) -> None:
    """Each city of a finished game, cut down to what the exhaustive search can try (its
    first 9 buildings that need resources, at most 2 Shops; the rest left bare), scores the
    best the search finds, by the compiled key and by the solver's report."""
    numba = pytest.importorskip("numba")
    assert numba
    from polis.games.quadropolis.scoring_kernel import city_key

    state = finished_game(*game)
    playground, cap, after = state.rules.scoring
    opts = scoring._Options(playground, cap, after)
    for p in range(state.num_players):
        kept = shops = 0
        cells = []
        for b in state.city(p):
            if b is not None and b.kind not in "PpM":
                if kept == 9 or (b.kind == "S" and shops == 2):
                    b = None
                else:
                    kept += 1
                    shops += b.kind == "S"
            cells.append(b)
        city = tuple(cells)
        inh, en = state.resources(p)
        best = reference_best(
            state.mode,
            city,
            inh,
            en,
            playground_absorbs_pollution=playground,
            group_cap=cap,
            empty_after_removal=after,
        )
        total, on_buildings, empty = scoring._decode(city_key(state.mode, city, inh, en, opts))
        assert (total, on_buildings, -empty) == best
        report = scoring._score(state.mode, city, inh, en, opts)
        assert (report.total, report.inhabitants_on_buildings, -report.empty_squares) == best


@pytest.fixture
def unchosen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scorer chosen afresh (as in a new process), whatever the test does to it."""
    monkeypatch.setattr(scoring, "_key_of", scoring._choose)
    monkeypatch.delenv(scoring.SCORER_VARIABLE, raising=False)


@pytest.mark.usefixtures("unchosen")
def test_the_reference_is_kept_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(scoring.SCORER_VARIABLE, "reference")
    assert scoring.scorer() == "reference"
    assert scoring._key_of is scoring._solver_key


@pytest.mark.usefixtures("unchosen")
def test_a_misspelt_choice_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(scoring.SCORER_VARIABLE, "fast")
    with pytest.raises(InputError, match="auto, compiled or reference"):
        scoring.scorer()


@pytest.mark.usefixtures("unchosen")
def test_without_numba_results_come_from_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)  # the package's declaration cannot import
    monkeypatch.delitem(sys.modules, f"{scoring.COMPILED_PACKAGE}.freshness", raising=False)
    monkeypatch.setattr(compiled, "_LOADED", {})
    monkeypatch.setenv(compiled.SETTING, "on")
    assert scoring.scorer() == "reference"
    monkeypatch.setattr(scoring, "_key_of", scoring._choose)
    monkeypatch.setenv(scoring.SCORER_VARIABLE, "compiled")
    with pytest.raises(InputError, match="needs numba"):
        scoring.scorer()


@pytest.mark.usefixtures("unchosen")
@pytest.mark.parametrize(("setting", "expected"), [("on", "compiled"), ("off", "reference")])
def test_results_follow_the_compiled_setting(
    monkeypatch: pytest.MonkeyPatch, setting: str, expected: str
) -> None:
    """One switch for all compiled code: ``POLIS_COMPILED=off`` keeps results on the solver
    too; ``on`` loads (or compiles) the game's package here and takes the kernel's keys."""
    pytest.importorskip("numba")
    monkeypatch.setenv(compiled.SETTING, setting)
    assert scoring.scorer() == expected
    if expected == "compiled":
        from polis.games.quadropolis.scoring_kernel import city_key

        assert scoring._key_of is city_key


@pytest.mark.usefixtures("unchosen")
def test_a_cold_cache_is_compiled_aside_and_taken_when_ready(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No compile in the caller's thread: the solver answers while the game's package is
    compiled in another process, and the kernel takes over once the cache holds it."""
    pytest.importorskip("numba")
    found = compiled.package(scoring.COMPILED_PACKAGE)
    assert found is not None
    fresh = replace(found, _spawned=False, _warmed=False, _next_probe=0.0)  # a new process's
    ready = {"now": False}
    started: list[tuple[str, ...]] = []
    monkeypatch.setattr(fresh, "ready", lambda: ready["now"])
    monkeypatch.setattr(compiled, "start_aside", lambda *args: started.append(args) or True)
    monkeypatch.setattr(compiled, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(scoring, "_package", lambda: fresh)
    monkeypatch.setenv(compiled.SETTING, "auto")
    state = finished_game("expert", 3, 5, True, 0)
    reference = scoring.game_result(state).scores
    assert started == [("polis.core.compiled", scoring.COMPILED_PACKAGE)]
    assert scoring.scorer() == "reference"
    ready["now"] = True
    scoring._best_key.cache_clear()
    assert scoring.game_result(state).scores == reference
    assert scoring.scorer() == "compiled"
    assert len(started) == 1


@pytest.mark.slow  # a Python process of its own
def test_numba_that_cannot_cache_leaves_results_to_the_reference(tmp_path: Any) -> None:
    """No writable cache folder (here: numba told to use none that applies): the kernel is
    not used, and results come from the solver without an error."""
    pytest.importorskip("numba")
    script = (
        "import random\n"
        "from polis.games.quadropolis.game import GAME\n"
        "from polis.games.quadropolis import scoring\n"
        "rng = random.Random(3)\n"
        "s = GAME.new_game('expert', 2, seed=3)\n"
        "while not s.is_terminal(): s.apply(rng.choice(s.legal_moves()))\n"
        "print(s.result().scores, scoring.scorer())\n"
    )
    env = {**os.environ, "NUMBA_CACHE_LOCATOR_CLASSES": "ZipCacheLocator"}
    env.pop(scoring.SCORER_VARIABLE, None)
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("reference"), done.stdout
