"""``polis bot connect``: an agent on a running server through the bot API, against a person.

Whole games of both games (two players) through the command in a subprocess against
``polis serve`` in another, killed and started again mid-game; the toy game, a factory of
one's own, ``--join`` and the refusals against a server in this process (it knows the toy).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import threading
import time
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
from waiting import eventually

pytest.importorskip("httpx")
runner = CliRunner()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[ThreadServer]:
    VIOLATIONS.clear()
    with ThreadServer(f"sqlite:///{tmp_path / 'bots.db'}") as server:
        yield server
    assert not VIOLATIONS, VIOLATIONS


#: ``python -c`` for the ``polis`` command with the toy game of the tests registered (the
#: servers in this process serve it).
WITH_TOY = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); "
    "from polis.core.registry import register_game; from toygame import GAME; "
    "register_game(GAME); from polis.cli.main import app; app(prog_name='polis')"
)


def connect(base: str, token: str, *args: str, toy: bool = False) -> subprocess.Popen[str]:
    """``polis bot connect`` in a subprocess (the token in the environment; ``toy``: it knows
    the tests' toy game)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "POLIS_BOT_TOKEN": token}
    polis = ["-c", WITH_TOY, str(ROOT / "tests")] if toy else ["-m", "polis.cli.main"]
    command = [sys.executable, *polis, "bot", "connect", "--server", base, *args]
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


# -- events (tournaments) ------------------------------------------------------------------------
def new_event(person: Person, **extra: Any) -> str:
    body = {"name": "Spring open", "game": "counting", "mode": "basic", "players": 2}
    r = person.post("/api/events", {**body, "format": "swiss", "rounds": 3, **extra})
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def plays_event(person: Person, base: str, event_id: str, seed: int) -> dict[str, Any]:
    """``person`` plays every table the event gives them (random legal moves over the
    WebSocket, a seat key from "My games") until it is over; the event then."""
    rng = random.Random(seed)
    played: set[str] = set()
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        time.sleep(1)  # gently: a busy poll is rate-limited
        answer = person.get(f"/api/events/{event_id}")
        if answer.status_code != 200:
            continue
        data: dict[str, Any] = answer.json()
        if data["status"] in ("finished", "cancelled"):
            return data
        for table in (t for r in data["schedule"] for t in r["tables"]):
            gid = table["game_id"]
            if gid and gid not in played and person.name in {s["name"] for s in table["seats"]}:
                play_person(base, gid, person.seat_token(gid), rng)
                played.add(gid)
    raise TimeoutError(f"event {event_id} did not end")


def test_a_bot_joins_an_event_and_plays_its_tables_to_the_final_standings(
    live: ThreadServer,
) -> None:
    """``polis bot connect --event``: the bot enters through its token, then plays its
    table of every round (the event stream's ``game_start``) until the final table."""
    ada, bea = Person(live.base, "Ada"), Person(live.base, "Bea")
    _owner, token = bot_account(live.base, "Robo")
    eid = new_event(ada)
    for person in (ada, bea):
        assert person.post(f"/api/events/{eid}/join").status_code == 200
    bot = connect(live.base, token, "--agent", "random", "--event", eid, toy=True)

    def entered() -> bool:
        answer = ada.get(f"/api/events/{eid}")
        return answer.status_code == 200 and "Robo" in {e["name"] for e in answer.json()["roster"]}

    # a process of its own: its start is slow on a busy machine
    eventually(entered, "the bot did not enter the event", timeout=90, interval=0.5)
    started = ada.post(f"/api/events/{eid}/start")
    assert started.status_code == 200, started.text
    done: dict[str, dict[str, Any]] = {}
    people = [
        threading.Thread(
            target=lambda p=p, n=n: done.update({p.name: plays_event(p, live.base, eid, n)})
        )
        for n, p in enumerate((ada, bea))
    ]
    for t in people:
        t.start()
    for t in people:
        t.join(200)
    try:
        out, _ = bot.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        bot.kill()
        out, _ = bot.communicate(timeout=30)
        raise AssertionError(f"the bot did not stop once the event was over:\n{out}") from None
    assert bot.returncode == 0, out
    assert f"joined event Spring open ({eid})" in out
    final = done["Ada"]["final"]
    assert done["Ada"]["status"] == "finished" and final is not None
    robo = next(line for line in final if line["name"] == "Robo")
    # three entrants, three rounds at tables of two: each sits one round out, plays two
    assert robo["bot"] is True and robo["played"] == 2 and robo["byes"] == 1
    tables = [t for r in done["Ada"]["schedule"] for t in r["tables"]]
    mine = [t["game_id"] for t in tables if "Robo" in {s["name"] for s in t["seats"]}]
    assert len(mine) == 2 and all(t["finished"] for t in tables)
    for gid in mine:
        assert f"playing game {gid}" in out
        record = httpx.get(f"{live.base}/api/games/{gid}/record").json()
        assert "bot:" not in "".join(a or "" for a in record.get("authors", []))  # no stand-in
    assert "2 game(s) played to the end" in out
    place = {1: "1st", 2: "2nd", 3: "3rd"}[robo["rank"]]
    assert f"event Spring open finished: Robo {place} of 3, {robo['points']:g} points" in out


def test_the_client_joins_lists_and_leaves_events(live: ThreadServer) -> None:
    from polis.client import ApiError, BotClient

    ada = Person(live.base, "Ada")
    _owner, token = bot_account(live.base, "Robo")
    eid = new_event(ada)
    with BotClient(live.base, token) as client:
        assert [e["id"] for e in client.list_events()["upcoming"]] == [eid]
        assert client.event(eid)["joined"] is False
        assert client.join_event(eid) == {"event_id": eid, "joined": True, "withdrawn": False}
        assert client.event(eid)["joined"] is True
        with pytest.raises(ApiError) as again:
            client.join_event(eid)
        assert again.value.status == 400 and "entered already" in again.value.message
        assert client.leave_event(eid)["joined"] is False
        assert client.event(eid)["roster"] == []
        with pytest.raises(ApiError) as unknown:
            client.event("../games")  # one path segment, whatever is typed
        assert unknown.value.status == 404


def test_an_event_it_cannot_enter_is_one_line(live: ThreadServer) -> None:
    ada, bea = Person(live.base, "Ada"), Person(live.base, "Bea")
    _owner, token = bot_account(live.base, "Robo")
    eid = new_event(ada)
    for person in (ada, bea):
        person.post(f"/api/events/{eid}/join")
    assert ada.post(f"/api/events/{eid}/start").status_code == 200
    args = ["bot", "connect", "--server", live.base, "--token", token, "--event"]
    for event_id, words in [(eid, "running: too late to enter"), ("nosuchevent", "no such event")]:
        run = runner.invoke(app, [*args, event_id])
        assert run.exit_code == 2, run.output
        assert words in run.output and "Traceback" not in run.output
    listed = runner.invoke(app, ["bot", "events", "--server", live.base])
    assert listed.exit_code == 0, listed.output
    assert f"{eid}  Spring open: counting basic" in listed.output and "round 1" in listed.output


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


def readme_block(after: str) -> list[str]:
    """The command lines of the README's first ```sh block after the words ``after``."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"```sh\n(.*?)```", readme[readme.index(after) :], flags=re.S)
    assert found is not None, after
    return [line for line in found.group(1).splitlines() if line.strip()]


@pytest.mark.slow
def test_the_readmes_three_commands_put_a_trained_policy_on_a_server(
    live: ThreadServer, tmp_path: Path
) -> None:
    """The README's "trained policy, in three commands", run as written by bash in a fresh
    folder (the checkout's examples/ beside it), against this test's server: only the
    server's address, the token, and a budget for training (a few hundred steps, one
    evaluation game) and for playing (``--games 1``) are put in."""
    pytest.importorskip("sb3_contrib")
    lines = readme_block("A trained policy, in three commands")
    assert len(lines) == 3, lines
    train, export, connect = lines
    assert train.startswith("python examples/train_maskable_ppo.py ") and "--save ppo.zip" in train
    assert export == "export POLIS_BOT_TOKEN=polis_bot_..."
    assert connect.startswith("POLIS_PPO_MODEL=ppo.zip polis bot connect --server https://")
    ada = Person(live.base, "Ada")
    _owner, token = bot_account(live.base, "Robo")
    ada.challenge("Robo", "metropolys", "family")
    script = "\n".join(
        [
            "set -euo pipefail",
            f"{train} --steps 256 --envs 2 --games 1 --against random --threads 1",
            export.replace("polis_bot_...", token),
            re.sub(r"--server \S+", f"--server {live.base}", connect) + " --games 1",
        ]
    )
    (tmp_path / "examples").symlink_to(EXAMPLES)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT / "src"),
    }
    env.pop("POLIS_BOT_TOKEN", None)
    env.pop("POLIS_PPO_MODEL", None)
    shell = subprocess.Popen(
        ["bash", "-c", script],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        gid = ""
        deadline = time.monotonic() + 400
        while not gid and time.monotonic() < deadline and shell.poll() is None:
            time.sleep(1)  # the bot accepts once trained and connected (polled gently)
            mine = ada.get("/api/account/games").json()
            gid = next((str(g["id"]) for g in mine["turn"] + mine["playing"]), "")
        assert gid, shell.communicate(timeout=30)[0] if shell.poll() is not None else "no table"
        last = play_person(live.base, gid, ada.seat_token(gid), random.Random(4), timeout=300)
        out, _ = shell.communicate(timeout=120)
    finally:
        if shell.poll() is None:
            shell.kill()
            shell.wait(10)
    assert shell.returncode == 0, out
    assert (tmp_path / "ppo.zip").is_file() and (tmp_path / "ppo.normalize.pkl").is_file()
    assert "1 game(s) played to the end" in out, out
    assert "agent failed" not in out and "no agent" not in out and "random one" not in out
    assert last["finished"] and last["seats"][1]["account"] == "Robo"


def test_without_a_token_it_says_where_to_put_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("POLIS_BOT_TOKEN", raising=False)
    run = runner.invoke(app, ["bot", "connect", "--server", "http://127.0.0.1:9"])
    assert run.exit_code == 2 and "POLIS_BOT_TOKEN" in run.output
