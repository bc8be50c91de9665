"""Bots think in worker processes, from their seat's view only; a bot that crashes or runs
past its time limit is restarted, a fallback move is played, and the game goes on."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from polis.bots import Budget
from polis.core.registry import games
from polis.server import create_app
from polis.server.bots import driver as bot_driver
from polis.server.config import ServerConfig
from waiting import eventually

from .agents import CrashAgent, SleepAgent, SpyAgent

BOTS = [
    {"name": "B1", "kind": "bot", "level": "easy"},
    {"name": "B2", "kind": "bot", "level": "easy"},
]


@pytest.fixture
def app_with(tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """A server on SQLite with the given config changes (each a fresh TestClient)."""
    opened: list[TestClient] = []

    def make(**changes: Any) -> TestClient:
        config = ServerConfig.from_env(bot_delay=0.0, **changes)
        db = f"sqlite:///{tmp_path / 'bots.db'}"
        app = create_app(db, games=games().values(), config=config)
        client = TestClient(app)
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def use_agent(monkeypatch: pytest.MonkeyPatch, agent: Callable[[str, int], Any]) -> None:
    monkeypatch.setattr(
        bot_driver, "make_agent", lambda spec, seed: (agent(spec, seed), Budget(iterations=1))
    )


def play_to_end(client: TestClient, seats: list[dict[str, Any]], timeout: float = 60) -> str:
    gid = client.post("/api/games", json={"game": "counting", "mode": "basic", "seats": seats})
    assert gid.status_code == 200, gid.text
    game_id: str = gid.json()["id"]
    eventually(
        lambda: client.get(f"/api/games/{game_id}").json()["finished"],
        "the bots did not finish their game",
        timeout=timeout,
    )
    return game_id


def test_bots_think_in_other_processes_from_their_seats_view(
    app_with: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    spied = tmp_path / "spy.txt"
    use_agent(monkeypatch, lambda spec, seed: SpyAgent(spied))
    client = app_with(bot_workers=2)
    gid = play_to_end(client, BOTS)
    lines = [line.split() for line in spied.read_text().splitlines()]
    record = client.get(f"/api/games/{gid}/record").json()
    assert len(lines) == len(record["moves"])
    views = {kind for kind, _player, _pid, _legal in lines}
    assert views == {"CountingView"}  # a seat's view, never the state
    players = [int(player) for _kind, player, _pid, _legal in lines]
    # each bot saw its own seat's view (the seats take turns)
    assert players == [(players[0] + i) % 2 for i in range(len(players))]
    pids = {int(pid) for _kind, _player, pid, _legal in lines}
    assert os.getpid() not in pids  # not in the web process
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.pool.stats["moves"] == len(record["moves"])


def test_a_crashing_bot_is_restarted_and_the_game_goes_on(
    app_with: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    counter = tmp_path / "crashes"
    use_agent(monkeypatch, lambda spec, seed: CrashAgent(counter, crashes=3))
    client = app_with(bot_workers=1)
    gid = play_to_end(client, BOTS)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert int(counter.read_text()) == 3
    assert hub.pool.stats["restarts"] == 3
    # the first decision crashed twice (a fallback move was played), the next one once
    assert hub.pool.stats["failures"] == 1
    record = client.get(f"/api/games/{gid}/record").json()
    assert "result" in record


def test_a_bot_past_its_time_limit_is_replaced_by_a_fallback_move(
    app_with: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    use_agent(monkeypatch, lambda spec, seed: SleepAgent(30.0))
    client = app_with(bot_workers=1, bot_grace=0.5)
    seats = [{"name": "Ada", "kind": "human"}, {"name": "Slow", "kind": "bot", "level": "easy"}]
    made = client.post("/api/games", json={"game": "counting", "mode": "basic", "seats": seats})
    gid, token = made.json()["id"], made.json()["seats"][0]["token"]
    started = time.monotonic()
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "token": token})
        state: dict[str, Any] = {}
        while not state.get("finished"):
            msg = ws.receive_json()
            if msg["type"] != "state":
                continue
            state = msg
            if state["current_player"] == 0 and state["legal"]:
                ws.send_json({"type": "move", "move": "1", "position": state["position"]})
    hub = client.app.state.hub  # type: ignore[attr-defined]
    bot_moves = len(state["view"]["moves"]) // 2
    assert hub.pool.stats["timeouts"] >= bot_moves >= 2
    # each stuck decision cost its time limit (0.5 s), not the bot's 30 s
    assert time.monotonic() - started < 30


@pytest.mark.skipif(
    not os.environ.get("POLIS_TEST_RAY"), reason="set POLIS_TEST_RAY=1 to start a local Ray"
)
def test_bots_on_ray(app_with: Callable[..., TestClient]) -> None:
    client = app_with(bot_backend="ray", bot_workers=1)
    play_to_end(client, BOTS, timeout=180)
