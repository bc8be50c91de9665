"""The store's health (:mod:`polis.server.store.faults`) without a real outage: a store call that
fails marks the store down and starts a probe that finds it back; an HTTP request waits for
an unreachable store at most ``HTTP_PATIENCE`` (then 503 with ``Retry-After``), and not at
all while the store is known to be down; anything else (a socket's move, a bot, a task an
HTTP request started) keeps the long patience.

The outage of the app-level test is SQLite's engine refusing every statement (an event
hook), so the whole path is real but for the database itself; the PostgreSQL outage is in
``test_faults.py``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from polis.core.registry import games
from polis.server import create_app
from polis.server.config import ServerConfig
from polis.server.errors import ServerError
from polis.server.live.hub import Hub
from polis.server.store.faults import (
    HTTP_PATIENCE,
    StoreHealth,
    contended,
    hurried_until,
    hurry,
    patiently,
    store_message,
)
from waiting import eventually, eventually_async

#: The answer is due within this (HTTP_PATIENCE plus the way there and back).
DUE = 2.0


def refused() -> OperationalError:
    return OperationalError("SELECT 1", None, ConnectionRefusedError("connection refused"))


class Outage:
    """A store that refuses until ``over`` is set; counts the tries."""

    def __init__(self) -> None:
        self.over = False
        self.tries = 0

    async def call(self) -> str:
        self.tries += 1
        if not self.over:
            raise refused()
        return "answer"


def health_for(outage: Outage, told: list[str]) -> StoreHealth:
    tasks: set[asyncio.Task[Any]] = set()

    def spawn(coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        tasks.add(task)
        return task

    return StoreHealth(
        outage.call, spawn, lambda h: told.append(h.message()), every=0.02, clock=lambda: 42.0
    )


def test_a_failure_marks_the_store_down_once_and_the_probe_finds_it_back() -> None:
    async def run() -> None:
        outage, told = Outage(), []
        health = health_for(outage, told)
        health.failed(refused())
        health.failed(refused())  # told once
        assert health.down and health.down_since == 42.0
        assert told == [store_message(42.0)]
        await eventually_async(lambda: outage.tries >= 3)  # the probe keeps trying while it is down
        assert told == [store_message(42.0)]
        outage.over = True
        await eventually_async(lambda: not health.down)
        assert told == [store_message(42.0), store_message(None)]
        health.close()

    asyncio.run(run())
    assert json.loads(store_message(None)) == {"type": "store", "status": "back"}
    down = {"type": "store", "status": "unavailable", "since": 1.5}
    assert json.loads(store_message(1.5)) == down


def test_a_call_that_succeeds_marks_it_back_and_the_probe_stops() -> None:
    async def run() -> None:
        outage, told = Outage(), []
        health = health_for(outage, told)
        health.every = 60.0  # the probe would not look again before the test ends
        health.failed(refused())
        outage.over = True
        assert await patiently(outage.call, 5.0, "a read", health) == "answer"
        assert not health.down and len(told) == 2
        health.close()

    asyncio.run(run())


def test_an_http_request_waits_briefly_and_not_at_all_once_the_store_is_known_down() -> None:
    async def run() -> None:
        outage, told = Outage(), []
        health = health_for(outage, told)
        health.every = 60.0
        hurry()
        started = time.monotonic()
        with pytest.raises(ServerError) as first:
            await patiently(outage.call, 20.0, "a read", health)
        took = time.monotonic() - started
        assert first.value.code == "unavailable" and took < DUE, took
        assert health.down and len(told) == 1
        tries = outage.tries
        hurry()
        started = time.monotonic()
        with pytest.raises(ServerError):
            await patiently(outage.call, 20.0, "another read", health)
        assert time.monotonic() - started < 0.1 and outage.tries == tries  # not even tried
        health.close()

    asyncio.run(run())


def test_an_http_request_does_not_wait_for_a_store_that_hangs() -> None:
    async def run() -> None:
        told: list[str] = []
        health = health_for(Outage(), told)

        async def hangs() -> None:
            await asyncio.sleep(30)

        hurry(0.3)
        started = time.monotonic()
        with pytest.raises(ServerError) as refusal:
            await patiently(hangs, 20.0, "a read", health)
        assert refusal.value.code == "unavailable" and time.monotonic() - started < 1.0
        assert not health.down and not told  # slow is not down: no one is told of an outage

    asyncio.run(run())


def test_only_the_request_itself_is_in_a_hurry_not_the_tasks_it_starts() -> None:
    async def run() -> None:
        assert hurried_until() is None
        hurry()
        mine = hurried_until()
        assert mine is not None and mine <= time.monotonic() + HTTP_PATIENCE

        async def background() -> float | None:
            return hurried_until()

        # a bot or a broadcast started by a request inherits its context, not its hurry
        assert await asyncio.get_running_loop().create_task(background()) is None

    asyncio.run(run())


def test_a_patient_call_still_rides_through() -> None:
    async def run() -> None:
        outage, told = Outage(), []
        health = health_for(outage, told)
        health.every = 60.0
        asyncio.get_running_loop().call_later(0.3, lambda: setattr(outage, "over", True))
        assert await patiently(outage.call, 20.0, "a move", health) == "answer"
        assert told == [store_message(42.0), store_message(None)]
        health.close()

    asyncio.run(run())


# -- through the app ------------------------------------------------------------------------------
@pytest.fixture
def outage_app(tmp_path: Path) -> Iterator[tuple[TestClient, Hub, dict[str, bool]]]:
    """The app on SQLite whose every statement is refused while ``state["down"]``."""
    config = ServerConfig.from_env({})  # the default HTTP patience, not the tests' own
    db = f"sqlite:///{tmp_path / 'polis.db'}"
    app = create_app(db, games=games().values(), bot_delay=0.0, config=config)
    assert app.state.hub.config.http_patience == HTTP_PATIENCE
    state = {"down": False}

    @event.listens_for(app.state.hub.store.engine, "before_cursor_execute")
    def _refuse(*_args: Any) -> None:
        if state["down"]:
            raise refused()

    with TestClient(app) as client:
        yield client, app.state.hub, state


@pytest.mark.timeout(120)
def test_http_answers_503_with_retry_after_within_two_seconds(
    outage_app: tuple[TestClient, Hub, dict[str, bool]],
) -> None:
    client, hub, state = outage_app
    hub.health.every = 0.2
    body = {"game": "counting", "mode": "basic", "seats": [{"name": "A", "kind": "human"}] * 2}
    created = client.post("/api/games", json=body)
    assert created.status_code == 200, created.text
    stored = created.json()["id"]
    hub.evict(hub.rooms[stored])  # not in memory: reading it needs the store
    state["down"] = True
    for method, path, payload in [
        ("GET", "/api/tables", None),  # the first one finds the outage
        ("GET", f"/api/games/{stored}", None),
        ("POST", "/api/games", body),
        ("GET", "/api/games", None),
    ]:
        started = time.monotonic()
        answer = client.request(method, path, json=payload)
        took = time.monotonic() - started
        assert answer.status_code == 503, (path, answer.text)
        assert answer.json()["error"]["code"] == "unavailable" and answer.headers["retry-after"]
        assert took < DUE, (path, took)
        print(f"{method} {path}: 503 in {took:.3f} s")
    assert hub.health.down
    state["down"] = False
    eventually(lambda: not hub.health.down, "the probe never found the store back")
    assert client.get(f"/api/games/{stored}").status_code == 200
    assert client.post("/api/games", json=body).status_code == 200


def test_a_sqlite_lock_held_by_another_writer_is_no_outage() -> None:
    """Two processes on one SQLite file contend for its lock for a moment: tried again, but
    nobody is told the store went away (and HTTP calls are not refused for it)."""
    locked = OperationalError("INSERT", None, Exception("database is locked"))
    assert contended(locked) and not contended(refused())

    async def run() -> list[str]:
        told: list[str] = []
        health = health_for(Outage(), told)
        health.failed(locked)
        assert not health.down
        health.failed(refused())
        assert health.down
        health.close()
        return told

    assert len(asyncio.run(run())) == 1


def test_the_http_patience_is_a_setting_of_the_server() -> None:
    assert ServerConfig.from_env({}).http_patience == HTTP_PATIENCE
    assert ServerConfig.from_env({"POLIS_HTTP_PATIENCE": "4"}).http_patience == 4.0
