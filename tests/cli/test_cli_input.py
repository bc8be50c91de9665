"""Bad input to ``polis score`` and ``polis replay``: one clear line, exit code 2, bounded
resources; cities and end positions that no game can end with are refused naming the rule."""

from __future__ import annotations

import json
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from polis.cli.common import MAX_BYTES, MAX_DEPTH
from polis.cli.main import app
from polis.games.quadropolis.city import parse_city
from polis.games.quadropolis.scoring import score_city

runner = CliRunner()

#: The formats.md §1.2 city with the energy its tiles can give (the Factory gives 1 to 3).
CITY: dict[str, Any] = {
    "game": "quadropolis",
    "mode": "classic",
    "city": ["T3 S  .  U*1", "P  F  H*2 .", ".  .  .  .", ".  .  .  ."],
    "inhabitants": 9,
    "energy": 3,
}
EMPTY_ROWS = {"classic": [". . . ."] * 4, "expert": [". . . . ."] * 4}


def write(tmp_path: Path, data: object, name: str = "in.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def refused(result: Any) -> str:
    """The one error line of a refused command (exit 2, no traceback)."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return str(lines[0])


def city(mode: str, rows: list[str], inhabitants: int = 0, energy: int = 0) -> dict[str, Any]:
    return {
        "game": "quadropolis",
        "mode": mode,
        "city": rows,
        "inhabitants": inhabitants,
        "energy": energy,
    }


# -- JSON limits --------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["score", "replay"])
def test_deep_nesting_is_refused_not_a_recursion_error(tmp_path: Path, command: str) -> None:
    path = write(tmp_path, "[" * 100000 + "]" * 100000)
    result = runner.invoke(app, [command, path])
    assert "nests arrays or objects more than" in refused(result)
    if command == "replay":  # the verdict is printed all the same
        verdict = json.loads(result.stdout)
        assert verdict["ok"] is False and "nests" in verdict["error"]


def test_nesting_just_over_the_limit_is_refused(tmp_path: Path) -> None:
    deep: Any = CITY
    for _ in range(MAX_DEPTH):
        deep = [deep]
    assert "nests" in refused(runner.invoke(app, ["score", write(tmp_path, deep)]))


@pytest.mark.parametrize("command", ["score", "replay"])
def test_a_file_over_the_size_limit_is_refused(tmp_path: Path, command: str) -> None:
    path = write(tmp_path, json.dumps({"game": "x", "pad": "a" * MAX_BYTES}))
    assert "larger than" in refused(runner.invoke(app, [command, path]))


def test_standard_input_over_the_size_limit_is_refused() -> None:
    result = runner.invoke(app, ["score", "-"], input=" " * (MAX_BYTES + 10) + "{}")
    assert "larger than" in refused(result)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"game": "quadropolis", "energy": ' + "9" * 5000 + "}", "not usable JSON"),
        ('{"game": "quadropolis", "energy": NaN}', "NaN is not a JSON number"),
        ("\udcff", "not UTF-8"),
    ],
)
def test_unusable_json_is_one_line(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "in.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    assert words in refused(runner.invoke(app, ["score", str(path)]))


def test_a_folder_is_not_a_file(tmp_path: Path) -> None:
    assert "cannot read" in refused(runner.invoke(app, ["replay", str(tmp_path)]))


def test_long_messages_are_cut(tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", write(tmp_path, {"game": "x" * 100000})])
    assert len(refused(result)) < 500


# -- Quadropolis cities that no game ends with ---------------------------------------------------


def test_huge_resources_are_refused_at_once(tmp_path: Path) -> None:
    """Issue 16: 100000000 inhabitants and energy ran 78 s and peaked at 12.5 GB."""
    data = {**CITY, "inhabitants": 100_000_000, "energy": 100_000_000}
    start = time.perf_counter()
    message = refused(runner.invoke(app, ["score", write(tmp_path, data)]))
    assert time.perf_counter() - start < 2
    assert "no Classic city owns more than 36" in message and "§5.5" in message


def test_the_scorer_needs_no_memory_for_unusable_resources() -> None:
    """Resources beyond what a city can place are a plain penalty: the optimiser's tables
    must not grow with them (they held about 125 bytes per inhabitant)."""
    c = parse_city("classic", CITY["city"])
    tracemalloc.start()
    try:
        report = score_city("classic", c, 1_000_000, 1_000_003)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000
    assert report.categories["inhabitants_penalty"] == 7 - 1_000_000
    assert report.categories["energy_penalty"] == 3 - 1_000_003
    assert report.total == 25 + (7 - 1_000_000) + (3 - 1_000_003)  # 25: the categories


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (city("classic", ["S S S S"] * 4), "16 Shop tiles, but the Classic box has only 12"),
        (city("expert", ["O5 O5 O5 O5 O5"] * 4), "100 Office Tower tiles, but the Expert box"),
        (city("expert", ["O5 O5 O5 O5 .", ". . . . .", ". . . . .", ". . . . ."]), "only 17"),
        (
            city("classic", ["U*2 U*2 U*2 U*2", "U*2 . . .", ". . . .", ". . . ."]),
            "5 Public Service tiles showing 2 VP, but the Classic box has only 4",
        ),
        (
            city("classic", ["T4 T4 T4 T4", "T4 . . .", ". . . .", ". . . ."]),
            "20 tiles, but a player takes at most 16 in a Classic game",
        ),
        ({**CITY, "inhabitants": 1_000_000}, "'inhabitants' is 1000000"),
        (  # the box's 16 best inhabitant tiles: four give 3 inhabitants, twelve give 2
            city("classic", ["T4 T4 T4 T4", ". . . .", ". . . .", ". . . ."], 37),
            "no Classic city owns more than 36 (",
        ),
        ({**CITY, "energy": 35}, "'energy' is 35, but no Classic city owns more than 34"),
        (city("classic", ["M . . .", ". . . .", ". . . .", ". . . ."]), "no Monument tiles"),
    ],
)
def test_cities_that_cannot_exist_are_refused_naming_the_rule(
    tmp_path: Path, data: dict[str, Any], words: str
) -> None:
    message = refused(runner.invoke(app, ["score", write(tmp_path, data)]))
    assert words in message
    assert "rules §" in message or "box" in message


@pytest.mark.parametrize(
    "data",
    [
        CITY,
        city("classic", ["T4 T4 T4 T4", ". . . .", ". . . .", ". . . ."], 4 * 3 + 12 * 2, 0),
        city("classic", ["H H H .", ". . . .", ". . . .", ". . . ."], 5, 1),
        city("expert", ["O5 O5 O5 . .", "O2 . . . .", ". . . . .", ". . . . ."]),
    ],
)
def test_cities_the_box_allows_are_scored(tmp_path: Path, data: dict[str, Any]) -> None:
    result = runner.invoke(app, ["score", write(tmp_path, data)])
    assert result.exit_code == 0, result.output


def test_the_formats_example_scores_as_formats_md_says(tmp_path: Path) -> None:
    """formats.md §1.2's city owns 4 energy (more than its one Factory gives): the contract's
    own example must keep scoring, so resources are bounded by the box, not the city."""
    formats = json.loads(
        (Path(__file__).parents[1] / "data" / "formats_quadropolis.json").read_text()
    )
    result = runner.invoke(app, ["score", write(tmp_path, formats["city_file"])])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == formats["report"]


# -- Metropolys end positions --------------------------------------------------------------------


def test_a_player_holds_at_most_one_token_per_building(tmp_path: Path) -> None:
    position = {
        "game": "metropolys",
        "mode": "family",
        "players": 4,
        "unused_districts": [],
        "buildings": [{"player": 0, "field": 22, "value": 13}],
        "tokens": [{"chic": 9, "metro": 5, "archaeology": 0}] + [{}] * 3,
        "metro_card": 0,
        "archaeology_card": None,
        "area_cards": ["bridges", "statues", "lakes", "outskirts"],
    }
    message = refused(runner.invoke(app, ["score", write(tmp_path, position)]))
    assert "player 0 holds 14 tokens" in message and "13 buildings" in message
    # 13 tokens from the one building: as impossible (formats.md's old example held 3 from 1)
    position["tokens"] = [{"chic": 9, "metro": 4, "archaeology": 0}] + [{}] * 3
    message = refused(runner.invoke(app, ["score", write(tmp_path, position)]))
    assert "player 0 holds 13 tokens, but their 1 building can have collected at most 1" in (
        message
    )
    # from 13 buildings, none on a dead end, 7 in the center: possible
    fields = [0, 2, 4, 5, 6, 7, 8, 15, 16, 17, 18, 19, 25]
    position["buildings"] = [
        {"player": 0, "field": f, "value": v} for v, f in enumerate(fields, start=1)
    ]
    assert runner.invoke(app, ["score", write(tmp_path, position)]).exit_code == 0
