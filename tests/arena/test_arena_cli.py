"""``polis arena`` as issue 16 found it: a crash on an agent without games, unequal game
counts, ``--workers 0`` accepted, no progress off a terminal, a slow Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from polis.arena import Tournament, run_tournament
from polis.cli.main import app
from polis.core.errors import InputError
from waiting import eventually

TOY = "toygame:GAME"
TESTS = str(Path(__file__).parents[1])
runner = CliRunner()


def arena(*args: str) -> Result:
    return runner.invoke(app, ["arena", TOY, "--mode", "basic", *args])


def test_an_agent_without_games_does_not_crash_the_table() -> None:
    """Three agents, two seats, one game: one agent plays none (was a TypeError on None)."""
    result = arena("--agents", "random,greedy,mcts:10i", "--players", "2", "--games", "1")
    assert result.exit_code == 0, (result.output, result.exception)
    row = next(line for line in result.stdout.splitlines() if "mcts:10i" in line)
    assert " 0 " in row and "-" in row
    assert "cannot be shared out evenly" in result.stderr


def test_three_agents_at_two_seats_play_two_games_each() -> None:
    args = ["--agents", "random,greedy,mcts:10i", "--players", "2", "--games", "3", "--json"]
    result = arena(*args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert [row["games"] for row in summary["agents"]] == [2, 2, 2]
    assert "evenly" not in result.stderr


def test_uneven_counts_are_announced_with_the_fix() -> None:
    result = arena("--agents", "random,greedy,mcts:10i", "--players", "2", "--games", "4")
    assert result.exit_code == 0
    counts = re.search(r"games per agent: random (\d), greedy (\d), mcts:10i (\d)", result.stderr)
    assert counts is not None and sorted(counts.groups()) == ["2", "3", "3"]
    assert "Use a multiple of 3 games" in result.stderr


@pytest.mark.parametrize("workers", ["0", "-2"])
def test_workers_must_be_at_least_one(workers: str) -> None:
    result = arena("--agents", "random", "--workers", workers)
    assert result.exit_code == 2
    assert "--workers" in result.output


def test_the_library_refuses_zero_workers_too() -> None:
    with pytest.raises(InputError, match="at least 1 worker"):
        run_tournament(Tournament(TOY, "basic", 2, ("random",), 2), workers=0)


def test_progress_off_a_terminal_is_one_line_per_game_with_the_time_left() -> None:
    result = arena("--agents", "random,greedy", "--games", "4")
    assert result.exit_code == 0
    lines = [ln for ln in result.stderr.splitlines() if ln.startswith("game ")]
    assert [ln.split()[1] for ln in lines] == ["1/4", "2/4", "3/4", "4/4"]
    assert all("elapsed, about" in ln and ln.endswith("left") for ln in lines)


def _interruptible() -> None:
    """In the child before it starts: Ctrl-C as in a terminal. A child inherits an ignored
    or blocked SIGINT from the process that starts it (a test runner's worker may have one),
    and Python then never turns it into KeyboardInterrupt."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def pool_workers(parent: int) -> list[int]:
    """The worker processes of ``parent``'s multiprocessing pool that are ready for work: a
    pool worker (``spawn_main``) runs the pool's initializer, which ignores SIGINT, before it
    takes its first game (Linux: read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue  # gone meanwhile
        fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
        ignored = int(fields.get("SigIgn", "0"), 16)
        if (
            fields.get("PPid", "").strip() == str(parent)
            and b"spawn_main" in command
            and ignored & (1 << (signal.SIGINT - 1))
        ):
            found.append(int(entry.name))
    return found


@pytest.mark.slow  # worker processes thinking for seconds
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="process groups, SIGINT, /proc")
def test_ctrl_c_with_workers_stops_at_once() -> None:
    """Ctrl-C reaches the whole process group, as in a terminal; the running games (a
    2-second budget per move) must not be waited for."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([TESTS, os.environ.get("PYTHONPATH", "")]))
    command = [sys.executable, "-m", "polis.cli.main", "arena", TOY, "--agents"]
    command += ["mcts:2s,random", "--games", "6", "--workers", "2"]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=_interruptible,
    )
    try:
        # the two workers have started and taken a game each (no fixed wait: a busy machine
        # may take longer than any)
        eventually(
            lambda: process.poll() is not None or len(pool_workers(process.pid)) == 2,
            "the arena never started its two workers",
            timeout=60,
        )
        assert process.poll() is None, process.communicate()
        os.killpg(process.pid, signal.SIGINT)
        start = time.monotonic()
        _, err = process.communicate(timeout=60)
        stopped = time.monotonic() - start
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert stopped < 3, err
    assert process.returncode == 130
    assert "interrupted: stopped after" in err and "Traceback" not in err
