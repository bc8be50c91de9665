"""``polis play`` as issue 43 found it: Ctrl-C ended a game silently (only ``quit`` printed
the ``--resume`` line), ``--seat`` took 1-4 where the boards letter the seats A-D, the
narration read "A you builds", and ``--resume`` of a finished game announced saving and drew
the board twice."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import polis.cli.play
from polis.cli.main import app
from polis.core import get_game
from waiting import eventually

runner = CliRunner()


def play(*args: str, **kwargs: Any) -> Any:
    return runner.invoke(app, ["play", *args], **kwargs)


def interrupt(*_: Any, **__: Any) -> Any:
    raise KeyboardInterrupt


def test_ctrl_c_at_the_prompt_prints_the_resume_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("rich.console.Console.input", interrupt)
    record = tmp_path / "g.json"
    result = play("metropolys", "--seed", "3", "--record", str(record))
    assert result.exit_code == 130, result.output
    assert f"polis play metropolys --resume {record}" in result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    saved = json.loads(record.read_text())  # every move until Ctrl-C
    assert get_game("metropolys").from_record(saved).current_player() == 0


def test_ctrl_c_while_a_bot_thinks_prints_the_resume_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat B: a bot moves first, and Ctrl-C comes while it searches."""
    monkeypatch.setattr(polis.cli.play, "agent_seat", lambda *a: interrupt)
    record = tmp_path / "g.json"
    result = play("quadropolis", "--seat", "B", "--seed", "3", "--record", str(record))
    assert result.exit_code == 130, result.output
    assert "--resume" in result.output and "Game record saved" in result.output
    resumed = get_game("quadropolis").from_record(json.loads(record.read_text()))
    assert not resumed.history


def _interruptible() -> None:
    """Ctrl-C as in a terminal (a test runner's worker may pass SIGINT on ignored)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_a_real_ctrl_c_prints_the_resume_line_and_no_traceback(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    command = [sys.executable, "-m", "polis.cli.main", "play", "metropolys", "--seed", "5"]
    process = subprocess.Popen(
        [*command, "--record", str(record)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_interruptible,
    )
    try:
        eventually(  # saved before the first move: the game is on
            lambda: process.poll() is not None or record.exists(),
            "the game never started",
            timeout=60,
        )
        assert process.poll() is None, process.communicate()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert "Traceback" not in out + err, err
    assert f"--resume {record}" in out
    assert process.returncode == 130


def finished_record(tmp_path: Path) -> Path:
    game = get_game("metropolys")
    state = game.new_game("family", 2, seed=8)
    while not state.is_terminal():
        state.apply(state.legal_moves()[0])
    path = tmp_path / "done.json"
    path.write_text(json.dumps(state.to_record(["Ann", "bot:easy"], 8)), encoding="utf-8")
    return path


def test_resuming_a_finished_game_shows_it_once_and_saves_nothing(tmp_path: Path) -> None:
    path = finished_record(tmp_path)
    before = path.read_text()
    result = play("metropolys", "--resume", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.count("game over") == 1  # one board, not two
    assert "Winner" in result.output and "Total" in result.output
    for announced in ("Saving the game", "Game record saved", "--resume"):
        assert announced not in result.output
    assert path.read_text() == before


@pytest.mark.parametrize("seat", ["B", "b", "2"])
def test_a_seat_is_a_letter_or_a_number(tmp_path: Path, seat: str) -> None:
    record = tmp_path / "g.json"
    result = play(
        "metropolys", "--seat", seat, "--seed", "3", "--record", str(record), input="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert "You are B." in result.output
    assert json.loads(record.read_text())["names"][1] == "you"


@pytest.mark.parametrize(
    ("seat", "players", "told"),
    [
        ("E", "2", "--seat E: a seat is a letter A-D or a number 1-4"),
        ("0", "2", "a seat is a letter A-D or a number 1-4"),
        ("C", "2", "--seat C: a 2-player game has seats A-B (1-2)"),
        ("4", "3", "--seat 4: a 3-player game has seats A-C (1-3)"),
    ],
)
def test_a_seat_that_does_not_exist_is_refused_in_both_forms(
    seat: str, players: str, told: str
) -> None:
    result = play("metropolys", "--seat", seat, "--players", players)
    assert result.exit_code == 2
    assert told in result.stderr


def test_the_narration_names_the_person_and_the_bots_alike(tmp_path: Path) -> None:
    """Issue 43: "A you builds"; now "A (you) builds", "B (bot easy) ..."."""
    answers = "\n".join(["pass"] * 60)
    result = play(
        "metropolys", "--seed", "3", "--record", str(tmp_path / "g.json"), "--bot", "random",
        input=answers,
    )  # fmt: skip
    assert "B (bot random) " in result.output and "A (you) " in result.output
    assert "A you " not in result.output and "B bot random " not in result.output


def test_review_takes_a_seat_as_a_letter_too(tmp_path: Path) -> None:
    """polis review --seat: the same two forms as polis play (the boards letter the seats)."""
    path = finished_record(tmp_path)
    args = ["review", str(path), "--agent", "mcts:4i", "--samples", "2", "--json"]
    moves = {}
    for seat in ("B", "2"):
        done = runner.invoke(app, [*args, "--seat", seat])
        assert done.exit_code == 0, done.output
        moves[seat] = json.loads(done.stdout)["moves"]
    assert moves["B"] == moves["2"] and {m["player"] for m in moves["B"]} == {1}
    refused = runner.invoke(app, [*args, "--seat", "C"])
    assert refused.exit_code == 2
    assert "--seat C: a 2-player game has seats A-B (1-2)" in refused.stderr
