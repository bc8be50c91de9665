"""``polis replay --text``: a record for a person (issue 43: only 70 lines of JSON where a
person wants "A 62, B 34, A wins" and the moves in words)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from polis.cli.main import app
from polis.core import get_game

runner = CliRunner()


def record(tmp_path: Path, game: str, mode: str, players: int, moves: int | None = None) -> Path:
    state = get_game(game).new_game(mode, players, seed=11)
    rng = random.Random(11)
    while not state.is_terminal() and (moves is None or len(state.history) < moves):
        state.apply(rng.choice(list(state.legal_moves())))
    names = ["Ann", *("bot:easy" for _ in range(players - 1))]
    path = tmp_path / f"{game}.json"
    path.write_text(json.dumps(state.to_record(names, 11)), encoding="utf-8")
    return path


@pytest.mark.parametrize(("game", "mode"), [("quadropolis", "expert"), ("metropolys", "family")])
def test_a_finished_game_in_words(tmp_path: Path, game: str, mode: str) -> None:
    path = record(tmp_path, game, mode, 3)
    data = get_game(game).from_record(json.loads(path.read_text()))
    result = data.result()
    done = runner.invoke(app, ["replay", "--text", "--lang", "en", str(path)])
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert lines[0].endswith(f"A (Ann), B (bot easy), C (bot easy); {len(data.history)} moves")
    scores = ", ".join(f"{'ABC'[p]} {s}" for p, s in enumerate(result.scores))
    winners = [f"{'ABC'[p]} ({['Ann', 'bot easy', 'bot easy'][p]})" for p in result.ranking[0]]
    assert lines[1].startswith(f"{scores}: {winners[0]}")
    numbered = [int(m[1]) for line in lines if (m := re.match(r"\s*(\d+)\. ", line))]
    assert numbered == list(range(1, len(data.history) + 1))  # every move, in order
    assert all(len(line) <= 80 for line in lines) and "{" not in done.stdout
    assert "The game is over" in " ".join(done.stdout.split())


def test_an_unfinished_game_says_who_is_to_move_and_keeps_the_secrets(tmp_path: Path) -> None:
    path = record(tmp_path, "metropolys", "expert", 3, moves=5)
    done = runner.invoke(app, ["replay", "--text", "--lang", "en", str(path)])
    assert done.exit_code == 0, done.output
    assert "The game is not over: " in done.stdout and " is to move." in done.stdout
    assert "secret objectives" not in done.stdout  # dealt face down, not revealed yet


def test_the_text_is_in_the_language_asked(tmp_path: Path) -> None:
    path = record(tmp_path, "quadropolis", "classic", 2)
    done = runner.invoke(app, ["replay", "--text", "--lang", "de", str(path)])
    assert done.exit_code == 0, done.output
    assert "Züge" in done.stdout.splitlines()[0] and "setzt Architekt #" in done.stdout


def test_an_illegal_record_is_one_line_without_json(tmp_path: Path) -> None:
    path = record(tmp_path, "metropolys", "family", 2, moves=3)
    data = json.loads(path.read_text())
    data["moves"][1] = "99@99"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = runner.invoke(app, ["replay", "--text", str(path)])
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr.startswith("error: move 1: ")
