"""The Redis bus between server processes: a process hears the games it holds, and only them;
a game it starts to follow is heard from the moment :meth:`RedisBus.follow` returns."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from polis.server.live.bus import RedisBus

from .services import Redis


async def started(url: str, instance: str, heard: list[dict[str, Any]]) -> RedisBus:
    made = RedisBus(url, instance)
    made.start(heard.append, lambda: None)
    for _ in range(200):
        if made.healthy:
            return made
        await asyncio.sleep(0.02)
    raise AssertionError("the bus did not connect")


async def until(condition: Callable[[], bool]) -> None:
    for _ in range(300):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def settle() -> None:
    """Long enough for a published message to arrive (it comes in well under a millisecond)."""
    await asyncio.sleep(0.3)


def test_a_process_hears_the_games_it_follows_and_no_others(bus: Redis) -> None:
    async def scenario() -> None:
        heard_a: list[dict[str, Any]] = []
        heard_b: list[dict[str, Any]] = []
        a = await started(bus.url, "a", heard_a)
        b = await started(bus.url, "b", heard_b)
        try:
            await b.follow("g1")
            # no sleep: once follow() returns, a move published at once is heard
            a.publish({"t": "move", "g": "g1", "i": 0, "m": "x"})
            a.publish({"t": "move", "g": "g2", "i": 0, "m": "y"})
            await settle()
            assert [(m["g"], m["m"]) for m in heard_b] == [("g1", "x")]
            b.unfollow("g1")
            await settle()
            a.publish({"t": "move", "g": "g1", "i": 1, "m": "z"})
            await b.follow("g2")
            a.publish({"t": "move", "g": "g2", "i": 1, "m": "w"})
            await settle()
            assert [(m["g"], m["m"]) for m in heard_b] == [("g1", "x"), ("g2", "w")]
            assert heard_a == []  # a process never hears itself
            await a.close()  # its goodbye goes to every process
            await settle()
            assert heard_b[-1]["t"] == "bye" and heard_b[-1]["o"] == "a"
        finally:
            await a.close()
            await b.close()

    asyncio.run(scenario())


def test_followed_games_are_heard_again_after_redis_comes_back(bus: Redis) -> None:
    async def scenario() -> None:
        heard: list[dict[str, Any]] = []
        a = await started(bus.url, "a", [])
        b = await started(bus.url, "b", heard)
        try:
            await b.follow("g1")
            bus.kill()
            await until(lambda: not a.healthy and not b.healthy)
            bus.start()
            await until(lambda: a.healthy and b.healthy)  # back-off: a few seconds at most
            a.publish({"t": "move", "g": "g1", "i": 5, "m": "after"})
            await settle()
            assert [m["m"] for m in heard if m.get("t") == "move"] == ["after"]
        finally:
            await a.close()
            await b.close()

    asyncio.run(scenario())
