"""The `polis` command: formats.md contracts, exit codes, and clear errors without tracebacks."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from polis.cli.main import app
from polis.cli.play import TerminalGame
from polis.core.registry import get_game

runner = CliRunner()

FORMATS = json.loads((Path(__file__).parents[1] / "data" / "formats_quadropolis.json").read_text())
FORMATS_CITY = FORMATS["city_file"]
FORMATS_REPORT = FORMATS["report"]


def write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_help_lists_every_command() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("score", "replay", "play", "simulate", "arena", "serve"):
        assert command in result.output


def test_score_prints_the_formats_report(tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", write(tmp_path, "city.json", FORMATS_CITY)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == FORMATS_REPORT


def test_score_reads_standard_input() -> None:
    result = runner.invoke(app, ["score", "-"], input=json.dumps(FORMATS_CITY))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["total"] == FORMATS_REPORT["total"]


def test_score_text_prints_the_pad(tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", "--text", write(tmp_path, "c.json", FORMATS_CITY)])
    assert result.exit_code == 0
    assert "Tower Blocks" in result.output and str(FORMATS_REPORT["total"]) in result.output


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"city": ["T5 . . .", ". . . .", ". . . .", ". . . ."]}, "floor"),
        ({"city": ["O . . .", ". . . .", ". . . .", ". . . ."]}, "Office Tower"),
        ({"city": [". . . .", ". . . ."]}, "row"),
        ({"city": ["Z . . .", ". . . .", ". . . .", ". . . ."]}, "Z"),
        ({"inhabitants": -1}, "inhabitants"),
    ],
)
def test_score_rejects_impossible_cities(tmp_path: Path, change: dict, needle: str) -> None:
    result = runner.invoke(app, ["score", write(tmp_path, "c.json", {**FORMATS_CITY, **change})])
    assert result.exit_code == 2
    assert needle.lower() in result.stderr.lower()
    assert "Traceback" not in result.output + result.stderr


def test_score_rejects_malformed_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["score", str(path)])
    assert result.exit_code == 2
    assert "not valid JSON" in result.stderr


def test_score_metropolys_end_position(tmp_path: Path) -> None:
    position = {
        "game": "metropolys",
        "mode": "family",
        "players": 2,
        "unused_districts": ["south", "west"],
        "buildings": [
            {"player": 0, "field": 22, "value": 13},
            {"player": 1, "field": 3, "value": 2},
            {"player": 1, "field": 5, "value": 3},
        ],
        "tokens": [
            {"chic": 1, "metro": 0, "archaeology": 0},
            {"chic": 0, "metro": 1, "archaeology": 1},
        ],
        "metro_card": 1,
        "archaeology_card": 1,
        "area_cards": ["bridges", "statues"],
    }
    result = runner.invoke(app, ["score", write(tmp_path, "m.json", position)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    # player 0: chic 3 + bridges card (22 is a bridge end) 3;
    # player 1: metro 1 + metro card 3 - archaeology 1 - card 2 + statues card (3 touches S4) 3
    assert [p["total"] for p in report["players"]] == [6, 4]
    assert report["ranking"] == [[0], [1]]


@pytest.mark.parametrize(("game", "mode"), [("quadropolis", "expert"), ("metropolys", "family")])
def test_simulate_writes_records_that_replay(tmp_path: Path, game: str, mode: str) -> None:
    out = tmp_path / "records"
    args = [
        "simulate",
        game,
        "--mode",
        mode,
        "--players",
        "3",
        "--games",
        "2",
        "--seed",
        "5",
        "--records",
        str(out),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 2 and len(summary["win_share"]) == 3
    assert sum(summary["win_share"]) == pytest.approx(1.0)
    files = sorted(out.glob("*.json"))
    assert len(files) == 2
    replayed = runner.invoke(app, ["replay", str(files[0])])
    assert replayed.exit_code == 0, replayed.output
    verdict = json.loads(replayed.stdout)
    assert verdict["ok"] is True
    assert verdict["ranking"] == json.loads(files[0].read_text())["result"]["ranking"]


def test_replay_names_the_illegal_move(tmp_path: Path) -> None:
    state = get_game("metropolys").new_game("family", 2, seed=3)
    rng = random.Random(0)
    for _ in range(5):
        state.apply(state.random_move(rng))
    record = state.to_record(seed=3)
    record["moves"][3] = "99@12"
    result = runner.invoke(app, ["replay", write(tmp_path, "r.json", record)])
    assert result.exit_code == 2
    verdict = json.loads(result.stdout)
    assert verdict["ok"] is False and verdict["move_index"] == 3
    assert verdict["error"] in result.stderr


def test_replay_of_a_record_of_another_game_is_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", write(tmp_path, "r.json", {"game": "chess"})])
    assert result.exit_code == 2
    assert json.loads(result.stdout)["ok"] is False


@pytest.mark.parametrize(("game", "mode"), [("quadropolis", "classic"), ("metropolys", "expert")])
def test_terminal_game_explains_a_wrong_move_and_saves_the_record(
    tmp_path: Path, game: str, mode: str
) -> None:
    engine = get_game(game)
    state = engine.new_game(mode, 2, seed=11)
    answers: list[str] = []
    rng = random.Random(1)

    def ask(_: str) -> str:
        # first a nonsense answer, then a legal move every time
        if not answers:
            answers.append("nonsense")
            return "nonsense"
        move = rng.choice(session.state.legal_moves())
        answers.append(str(move))
        return answers[-1]

    record = tmp_path / "game.json"
    console = Console(record=True, width=120)
    session = TerminalGame(engine, state, 0, ["me", "bot:random"], 11, record, ask, console)
    assert session.run() is True
    assert "Not allowed" in console.export_text()
    saved = json.loads(record.read_text())
    assert engine.from_record(saved).result() == session.state.result()


def test_terminal_game_quit_keeps_the_moves_so_far(tmp_path: Path) -> None:
    engine = get_game("quadropolis")
    state = engine.new_game("classic", 2, seed=2)
    record = tmp_path / "g.json"
    session = TerminalGame(
        engine, state, 1, ["bot:random", "me"], 2, record, lambda _: "quit", Console(width=120)
    )
    assert session.run() is False
    saved = json.loads(record.read_text())
    assert saved["moves"] == [m.text for m in state.history]
    assert state.current_player() == 1  # stopped at the human's turn, bot moves kept


def test_replay_refuses_a_record_without_setup_or_seed(tmp_path: Path) -> None:
    record = get_game("quadropolis").new_game("classic", 2, seed=1).to_record()
    del record["setup"]
    record["seed"] = None
    result = runner.invoke(app, ["replay", write(tmp_path, "r.json", record)])
    assert result.exit_code == 2
    assert "neither a 'setup' nor a 'seed'" in json.loads(result.stdout)["error"]


def test_replay_refuses_a_tampered_result(tmp_path: Path) -> None:
    state = get_game("metropolys").new_game("family", 3, seed=4)
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply(state.random_move(rng))
    record = state.to_record(seed=4)
    record["result"]["ranking"] = list(reversed(record["result"]["ranking"]))
    result = runner.invoke(app, ["replay", write(tmp_path, "r.json", record)])
    assert result.exit_code == 2
    assert "does not match" in result.stderr


def test_play_with_an_unknown_bot_is_a_clear_error() -> None:
    result = runner.invoke(app, ["play", "metropolys", "--bot", "grandmaster"])
    assert result.exit_code == 2
    assert "unknown agent 'grandmaster'" in result.stderr


def test_play_against_easy_bots_saves_a_replayable_record(tmp_path: Path) -> None:
    """The human keeps typing pass (refused when opening); the easy bots answer."""
    moves = "\n".join(["pass"] * 400)
    record = tmp_path / "g.json"
    args = [
        "play",
        "metropolys",
        "--mode",
        "family",
        "--players",
        "2",
        "--seed",
        "3",
        "--bot",
        "easy",
        "--record",
        str(record),
    ]
    result = runner.invoke(app, args, input=moves)
    saved = json.loads(record.read_text())
    assert saved["names"] == ["you", "bot:easy"]
    assert result.exit_code == 0, result.output
    replayed = get_game("metropolys").from_record(saved)
    assert [m.text for m in replayed.history] == saved["moves"]


@pytest.mark.parametrize("command", ["score", "replay", "play", "simulate", "arena", "serve"])
def test_every_command_has_help_with_an_example(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert "Example: polis " + command in " ".join(result.output.split())


def test_play_without_record_still_saves_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    result = runner.invoke(app, ["play", "quadropolis", "--seed", "4"], input="quit\n")
    assert result.exit_code == 0, result.output
    saved = list((tmp_path / "polis" / "games").glob("quadropolis-*-4.json"))
    assert len(saved) == 1
    assert "--resume" in result.output
    data = json.loads(saved[0].read_text())
    assert [m.text for m in get_game("quadropolis").from_record(data).history] == data["moves"]
