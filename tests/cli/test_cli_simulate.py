"""``polis simulate`` on long runs (issue 43: nothing was shown for minutes, and Ctrl-C lost
every figure): a progress bar on a terminal, and on Ctrl-C the summary of the games finished."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from polis.cli.main import app
from polis.cli.simulate import Interrupted, run_random_games
from polis.core import get_game
from waiting import eventually

runner = CliRunner()
ARGS = ["simulate", "metropolys", "--players", "2", "--games", "30"]


def test_a_run_shows_a_progress_bar_on_a_terminal() -> None:
    result = runner.invoke(app, ARGS, env={"FORCE_COLOR": "1", "COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "30/30" in result.stderr and "━" in result.stderr
    assert json.loads(result.stdout)["games"] == 30


def test_off_a_terminal_only_the_summary_is_printed() -> None:
    result = runner.invoke(app, ARGS, env={"FORCE_COLOR": None, "TTY_COMPATIBLE": None})
    assert result.exit_code == 0 and result.stderr == ""
    assert json.loads(result.stdout)["games"] == 30


def test_the_library_gives_the_summary_of_the_games_finished_before_ctrl_c() -> None:
    def progress(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as stopped:
        run_random_games(get_game("metropolys"), "family", 2, 50, 0, progress=progress)
    summary = stopped.value.summary
    assert summary["games"] == 2 and summary["interrupted"] is True
    assert summary["games_asked"] == 50 and sum(summary["win_share"]) == pytest.approx(1.0)
    whole = run_random_games(get_game("metropolys"), "family", 2, 2, 0)
    assert whole["mean_score"] == summary["mean_score"] and "interrupted" not in whole


def _interruptible() -> None:
    """Ctrl-C as in a terminal (a test runner's worker may pass SIGINT on ignored)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_ctrl_c_prints_the_summary_so_far(tmp_path: Path) -> None:
    records = tmp_path / "records"
    command = [sys.executable, "-m", "polis.cli.main", *ARGS[:-1], "1000000"]
    process = subprocess.Popen(
        [*command, "--records", str(records)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_interruptible,
    )
    try:
        eventually(  # a few games are finished
            lambda: process.poll() is not None or len(list(records.glob("*.json"))) >= 3,
            "no game was finished",
            timeout=60,
        )
        assert process.poll() is None, process.communicate()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "Traceback" not in err and "interrupted: the summary covers the" in err
    summary = json.loads(out)
    assert summary["interrupted"] is True and summary["games_asked"] == 1000000
    assert summary["games"] >= 3 and len(summary["win_share"]) == 2
