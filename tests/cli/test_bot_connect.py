"""``polis bot connect``: an agent on a running server through the bot API, against a person.

Whole games of both games (two players) through the command in a subprocess against
``polis serve`` in another, killed and started again mid-game; the toy game, a factory of
one's own, ``--join`` and the refusals against a server in this process (it knows the toy).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from botplay import Pause, Person, ThreadServer, bot_account, play_person
from polis.bots import RandomAgent
from polis.cli.main import app
from polis.core.moves import Move
from polis.server.wire.check import VIOLATIONS
from server.browser_helpers import ROOT, ServerProcess

pytest.importorskip("httpx")
runner = CliRunner()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[ThreadServer]:
    VIOLATIONS.clear()
    with ThreadServer(f"sqlite:///{tmp_path / 'bots.db'}") as server:
        yield server
    assert not VIOLATIONS, VIOLATIONS


def connect(base: str, token: str, *args: str) -> subprocess.Popen[str]:
    """``polis bot connect`` in a subprocess (the token in the environment)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "POLIS_BOT_TOKEN": token}
    command = [sys.executable, "-m", "polis.cli.main", "bot", "connect", "--server", base, *args]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "mode", "agent"),
    [("quadropolis", "classic", "easy"), ("metropolys", "family", "mcts:30i")],
)
def test_a_bot_plays_a_whole_game_against_a_person_through_a_server_restart(
    tmp_path: Path, game: str, mode: str, agent: str
) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'polis.db'}")
    server.start()
    bot: subprocess.Popen[str] | None = None
    try:
        ada = Person(server.base, "Ada")
        _owner, token = bot_account(server.base, "Robo")
        ada.challenge("Robo", game, mode)
        bot = connect(server.base, token, "--agent", agent, "--games", "1")
        gid = ada.first_game(timeout=60)
        pause = Pause(6)  # mid-game: both sides have moved
        last: dict[str, Any] = {}

        def person() -> None:
            last["state"] = play_person(
                server.base, gid, ada.seat_token(gid), random.Random(3), timeout=300, pause=pause
            )

        human = threading.Thread(target=person)
        human.start()
        assert pause.reached.wait(120), "the game never reached its middle"
        server.kill()  # SIGKILL: every connection gone at once
        server.start()
        pause.go.set()
        human.join(300)
        out, _ = bot.communicate(timeout=120)
        assert bot.returncode == 0, out
        assert "1 game(s) played to the end" in out
        assert "connecting again" in out  # it went through the restart
        assert last["state"]["finished"] is True
        summary = httpx.get(f"{server.base}/api/games/{gid}").json()
        assert summary["finished"] and summary["seats"][1]["account"] == "Robo"
        record = httpx.get(f"{server.base}/api/games/{gid}/record").json()
        authors = record.get("authors", [])
        assert "bot:" not in "".join(a or "" for a in authors)  # no stand-in played for it
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
            bot.wait(10)
        server.kill()


def test_the_toy_game_through_a_factory_of_ones_own(live: ThreadServer) -> None:
    """``module:attribute`` (here a file and a function of this module) makes the agent."""
    ada = Person(live.base, "Ada")
    _owner, token = bot_account(live.base, "Robo")
    ada.challenge("Robo", "counting", "basic")
    result: dict[str, Any] = {}

    def bot() -> None:
        args = ["bot", "connect", "--server", live.base, "--token", token, "--games", "1"]
        result["run"] = runner.invoke(app, [*args, "--agent", f"{__file__}:largest"])

    thread = threading.Thread(target=bot)
    thread.start()
    gid = ada.first_game()
    last = play_person(live.base, gid, ada.seat_token(gid), random.Random(5))
    thread.join(60)
    run = result["run"]
    assert run.exit_code == 0, run.output
    assert f"playing game {gid}: Counting basic, seat B" in run.output
    assert "B 1st of 2" in run.output or "B 2nd of 2" in run.output
    record = httpx.get(f"{live.base}/api/games/{gid}/record").json()
    assert all(move == "3" for move in record["moves"][1 - record["setup"]["first_player"] :: 2])
    assert last["finished"]


class Largest(RandomAgent):
    """Always the largest addition (a factory's agent: made once per game, seeded)."""

    name = "largest"

    def act(self, view: Any, legal: Any, game: Any, budget: Any) -> Move:
        move: Move = max(legal, key=lambda m: m.id)
        return move


def largest(seed: int) -> Largest:
    return Largest(random.Random(seed))


def test_join_takes_an_open_seat_at_a_table_that_lets_bots_in(live: ThreadServer) -> None:
    ada = Person(live.base, "Ada")
    _owner, token = bot_account(live.base, "Robo")
    seats = [{"name": "Ada", "kind": "human"}, {"kind": "open"}]
    made = ada.post(
        "/api/games", {"game": "counting", "mode": "basic", "seats": seats, "bots": True}
    ).json()
    gid = made["id"]
    result: dict[str, Any] = {}

    def bot() -> None:
        args = ["bot", "connect", "--server", live.base, "--token", token, "--games", "1"]
        result["run"] = runner.invoke(app, [*args, "--agent", "random", "--join", gid])

    thread = threading.Thread(target=bot)
    thread.start()
    last = play_person(live.base, gid, made["seats"][0]["token"], random.Random(2))
    thread.join(60)
    assert result["run"].exit_code == 0, result["run"].output
    assert f"took seat 2 at table {gid}" in result["run"].output
    assert last["finished"] and last["seats"][1]["account"] == "Robo"


def test_a_refused_token_stops_the_command_with_one_line(live: ThreadServer) -> None:
    run = runner.invoke(app, ["bot", "connect", "--server", live.base, "--token", "polis_bot_nope"])
    assert run.exit_code == 2
    assert "refused the token" in run.output and "Traceback" not in run.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--agent", "telepath"], "unknown agent"),
        (["--agent", "mcts:forever"], "bad budget"),
        (["--agent", "no_such_module_xyz:agent"], "cannot load the agent"),
        (["--server", "localhost:8000"], "http://"),
    ],
)
def test_a_bad_agent_or_address_is_one_line_before_any_connection(
    args: list[str], words: str
) -> None:
    base = ["bot", "connect", "--server", "http://127.0.0.1:9", "--token", "x"]
    run = runner.invoke(app, base + args)
    assert run.exit_code == 2, run.output
    assert words in run.output and "Traceback" not in run.output


# -- examples/bot_connect.py: a trained policy as a bot ------------------------------------------
EXAMPLES = ROOT / "examples"


def test_the_policy_example_without_a_model_says_so_and_exits() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "bot_connect.py"), "--server", "http://127.0.0.1:9"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert done.returncode == 0, done.stderr
    assert "no trained model" in done.stdout


@pytest.mark.slow
def test_a_briefly_trained_policy_plays_a_whole_game_as_a_bot(
    live: ThreadServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The example's factory (``examples/bot_connect.py:policy``) loads what the training
    example saved (the model and its observation statistics) and plays a person."""
    pytest.importorskip("sb3_contrib")
    import importlib.util

    import torch

    torch.set_num_threads(1)
    spec = importlib.util.spec_from_file_location(
        "train_example", EXAMPLES / "train_maskable_ppo.py"
    )
    assert spec is not None and spec.loader is not None
    training = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = training
    spec.loader.exec_module(training)
    model = training.train(
        "metropolys", "family", 2, steps=128, envs=2, n_steps=64, minutes=1.0, normalize=True
    )
    saved = tmp_path / "ppo.zip"
    model.save(saved)
    model.get_env().save(str(tmp_path / "ppo.normalize.pkl"))
    monkeypatch.setenv("POLIS_PPO_MODEL", str(saved))
    ada = Person(live.base, "Ada")
    _owner, token = bot_account(live.base, "Robo")
    ada.challenge("Robo", "metropolys", "family")
    result: dict[str, Any] = {}

    def bot() -> None:
        args = ["bot", "connect", "--server", live.base, "--token", token, "--games", "1"]
        result["run"] = runner.invoke(app, [*args, "--agent", f"{EXAMPLES}/bot_connect.py:policy"])

    thread = threading.Thread(target=bot)
    thread.start()
    gid = ada.first_game()
    last = play_person(live.base, gid, ada.seat_token(gid), random.Random(9), timeout=300)
    thread.join(60)
    run = result["run"]
    assert run.exit_code == 0, run.output
    assert "1 game(s) played to the end" in run.output and "agent failed" not in run.output
    assert last["finished"]


def test_without_a_token_it_says_where_to_put_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("POLIS_BOT_TOKEN", raising=False)
    run = runner.invoke(app, ["bot", "connect", "--server", "http://127.0.0.1:9"])
    assert run.exit_code == 2 and "POLIS_BOT_TOKEN" in run.output
