"""Fuzzing ``polis score`` and ``polis replay``: random and mutated files never end in a
traceback, always exit 0 or 2, and stay within a bounded amount of memory and time.

The mutations start from real files (city files and end positions of finished games, records
of finished and unfinished games) and change values, keys, types and nesting, so most inputs
get past the JSON reader and reach the validators and the engines.
"""

from __future__ import annotations

import copy
import json
import random
import time
import tracemalloc
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from polis.cli.main import app
from polis.core.registry import get_game
from polis.games.metropolys.board import DISTRICTS, TOKENS
from polis.games.quadropolis.city import city_rows

runner = CliRunner()
#: Peak of Python allocations allowed while one command runs on one fuzzed file.
MEMORY_LIMIT = 64 * 1024 * 1024
#: Seconds one command may take on one fuzzed file.
TIME_LIMIT = 10.0


def finished(game: str, mode: str, players: int, seed: int, stop: int | None = None) -> Any:
    state = get_game(game).new_game(mode, players, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal() and (stop is None or len(state.history) < stop):
        state.apply(state.random_move(rng))
    return state


def city_files() -> list[dict[str, Any]]:
    out = []
    for mode, seed in (("classic", 1), ("expert", 2)):
        state = finished("quadropolis", mode, 2, seed)
        for p in range(2):
            inh, en = state.resources(p)
            city = city_rows(mode, state.city(p))
            out.append(
                {
                    "game": "quadropolis",
                    "mode": mode,
                    "city": city,
                    "inhabitants": inh,
                    "energy": en,
                }
            )
    return out


def end_positions() -> list[dict[str, Any]]:
    out = []
    for mode, players, seed in (("family", 3, 3), ("expert", 2, 4)):
        pos = finished("metropolys", mode, players, seed).end_position()
        data: dict[str, Any] = {
            "game": "metropolys",
            "mode": mode,
            "players": players,
            "unused_districts": sorted(DISTRICTS[d] for d in pos.unused),
            "buildings": [
                {"player": p, "field": f, "value": v}
                for p, built in enumerate(pos.buildings)
                for f, v in built
            ],
            "tokens": [dict(zip(TOKENS, t, strict=True)) for t in pos.tokens],
            "metro_card": pos.metro_card,
            "archaeology_card": pos.archaeology_card,
            "area_cards": list(pos.area_cards),
        }
        if pos.neighbourhood_cards is not None:
            data["neighbourhood_cards"] = list(pos.neighbourhood_cards)
        out.append(data)
    return out


def records() -> list[dict[str, Any]]:
    out = []
    for game, mode, players, seed, stop in (
        ("quadropolis", "classic", 2, 5, None),
        ("quadropolis", "expert", 3, 6, 20),
        ("metropolys", "family", 2, 7, None),
        ("metropolys", "expert", 4, 8, 30),
    ):
        state = finished(game, mode, players, seed, stop)
        out.append(state.to_record(seed=seed))
    return out


SCORE_FILES = city_files() + end_positions()
RECORDS = records()

CELLS = ["T5", "O5", "T", "S", "U*2", "H*3", "M", "p", "P", "F", ".", "X", "T0", "O9", "H*9"]
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    st.sampled_from([10**8, -(10**8), 2**63, 10**300, 0.5, 1e308, -0.0]),
    st.text(max_size=12),
    st.sampled_from([*CELLS, "pass", "13@54", "1T2 x", "5L1 r1c1", "classic", "expert"]),
)
json_values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=12,
)


def spots(doc: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) inside ``doc``."""
    out: list[tuple[Any, Any]] = []
    todo = [doc]
    while todo:
        item = todo.pop()
        keys = list(item) if isinstance(item, dict) else range(len(item))
        for key in keys:
            out.append((item, key))
            if isinstance(item[key], dict | list):
                todo.append(item[key])
    return out


@st.composite
def mutated(draw: st.DrawFn, seeds: list[dict[str, Any]]) -> str:
    doc: Any = copy.deepcopy(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        where = spots(doc)
        if not where:
            break
        container, key = draw(st.sampled_from(where))
        value = container[key]
        action = draw(
            st.sampled_from(["replace", "delete", "nest", "tweak", "cell", "add", "grow", "move"])
        )
        if action == "replace":
            container[key] = draw(json_values)
        elif action == "delete":
            del container[key]
        elif action == "nest":
            depth = draw(st.sampled_from([1, 2, 5, 40]))
            for _ in range(depth):
                value = [value] if draw(st.booleans()) else {"k": value}
            container[key] = value
        elif action == "tweak" and isinstance(value, int) and not isinstance(value, bool):
            container[key] = value + draw(st.sampled_from([-1, 1, 13, 10**8, -(10**8)]))
        elif action == "cell" and isinstance(value, str):
            cells = value.split() or ["."]
            cells[draw(st.integers(0, len(cells) - 1))] = draw(st.sampled_from(CELLS))
            container[key] = " ".join(cells)
        elif action == "add" and isinstance(container, dict):
            container[draw(st.text(max_size=10))] = draw(json_values)
        elif action == "grow" and isinstance(value, list) and value:
            container[key] = value * draw(st.sampled_from([2, 30]))
        elif action == "move" and isinstance(container, list) and len(container) > 1:
            other = draw(st.integers(0, len(container) - 1))
            container[key], container[other] = container[other], container[key]
    text = json.dumps(doc)
    damage = draw(st.integers(0, 19))
    if damage == 0:  # damage the text itself now and then
        at = draw(st.integers(0, len(text)))
        text = (
            text[:at] + draw(st.sampled_from(["", "[", "}", '"', "\\", "\x00", "NaN"])) + text[at:]
        )
    elif damage == 1:  # nesting too deep for the JSON reader's recursion
        depth = draw(st.sampled_from([1000, 100000]))
        text = "[" * depth + text + "]" * depth
    return text


def run(command: str, text: str) -> None:
    """``command`` on ``text`` from stdin: exit 0 or 2, no traceback, bounded memory and time."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        result = runner.invoke(app, [command, "-"], input=text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    seconds = time.perf_counter() - start
    assert result.exit_code in (0, 2), (result.exception, text[:300])
    assert "Traceback" not in result.output, text[:300]
    assert peak < MEMORY_LIMIT, (peak, text[:300])
    assert seconds < TIME_LIMIT, (seconds, text[:300])
    if command == "replay":  # the verdict is always printed, as JSON
        verdict = json.loads(result.stdout)
        assert verdict["ok"] is (result.exit_code == 0)
    if result.exit_code == 2:
        assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1


FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.slow  # a long Hypothesis run of the commands
@FUZZ
@given(mutated(SCORE_FILES))
def test_score_survives_mutated_files(text: str) -> None:
    run("score", text)


@pytest.mark.slow  # a long Hypothesis run of the commands
@FUZZ
@given(mutated(RECORDS))
def test_replay_survives_mutated_records(text: str) -> None:
    run("replay", text)


@pytest.mark.slow  # a long Hypothesis run of the commands
@settings(max_examples=60, deadline=None)
@given(st.one_of(st.text(max_size=200), json_values.map(json.dumps)))
@pytest.mark.parametrize("command", ["score", "replay"])
def test_commands_survive_random_text(command: str, text: str) -> None:
    run(command, text)


@pytest.mark.parametrize("command", ["score", "replay"])
def test_the_seed_files_are_valid(command: str) -> None:
    """The mutations start from files the commands accept (else the fuzzing proves little)."""
    for doc in SCORE_FILES if command == "score" else RECORDS:
        result = runner.invoke(app, [command, "-"], input=json.dumps(doc))
        assert result.exit_code == 0, result.output
