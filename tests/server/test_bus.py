"""The Redis bus between server processes: a process hears the games it holds, and only them;
a game it starts to follow is heard from the moment :meth:`RedisBus.follow` returns."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from polis.server.live.bus import RedisBus
from waiting import eventually_async

from .services import Redis

#: Real PostgreSQL, Redis or nginx servers of the test's own: not in ``make check``.
pytestmark = pytest.mark.cluster


async def started(url: str, instance: str, heard: list[dict[str, Any]]) -> RedisBus:
    made = RedisBus(url, instance)
    made.start(heard.append, lambda: None)
    await eventually_async(lambda: made.healthy, "the bus did not connect", timeout=10)
    return made


def moves(heard: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(m["g"], m["m"]) for m in heard if m.get("t") == "move"]


async def heard_move(heard: list[dict[str, Any]], move: str) -> None:
    """Until ``move`` has arrived. Redis passes one publisher's messages to a subscriber in
    the order they were published, so whatever was published before it that was to be
    heard has been heard too."""
    await eventually_async(
        lambda: move in [m for _g, m in moves(heard)], f"{move!r} was never heard", timeout=15
    )


async def subscribers(url: str, channel: str) -> int:
    """How many connections Redis itself counts as listening to ``channel``."""
    import redis.asyncio as redis

    client = redis.Redis.from_url(url)
    try:
        counts = await client.pubsub_numsub(channel)
    finally:
        await client.aclose()
    return int(counts[0][1])


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
            a.publish({"t": "move", "g": "g1", "i": 1, "m": "x2"})
            await heard_move(heard_b, "x2")  # so y, published before it, would be here too
            assert moves(heard_b) == [("g1", "x"), ("g1", "x2")]
            b.unfollow("g1")
            channel = b.game_channel("g1")

            async def unsubscribed() -> bool:  # Redis itself says so: z will not reach b
                return await subscribers(bus.url, channel) == 0

            await eventually_async(unsubscribed, "b never left g1's channel")
            a.publish({"t": "move", "g": "g1", "i": 2, "m": "z"})
            await b.follow("g2")
            a.publish({"t": "move", "g": "g2", "i": 1, "m": "w"})
            await heard_move(heard_b, "w")  # so z, published before it, would be here too
            assert moves(heard_b) == [("g1", "x"), ("g1", "x2"), ("g2", "w")]
            assert heard_a == []  # a process never hears itself
            await a.close()  # its goodbye goes to every process
            await eventually_async(lambda: heard_b[-1]["t"] == "bye", "no goodbye was heard")
            assert heard_b[-1]["o"] == "a"
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
            await eventually_async(lambda: not a.healthy and not b.healthy, timeout=15)
            bus.start()
            await eventually_async(
                lambda: a.healthy and b.healthy
            )  # back-off: a few seconds at most
            a.publish({"t": "move", "g": "g1", "i": 5, "m": "after"})
            await heard_move(heard, "after")
            assert moves(heard) == [("g1", "after")]
        finally:
            await a.close()
            await b.close()

    asyncio.run(scenario())


def test_one_failed_call_to_redis_costs_no_message(bus: Redis) -> None:
    """A call that fails once (a publish timing out) marks the bus down; its listener
    connects again at once, and the message that failed and those published meanwhile go
    out in order instead of being dropped."""

    async def scenario() -> None:
        from redis.exceptions import TimeoutError as RedisTimeout

        heard: list[dict[str, Any]] = []
        connects: list[float] = []
        a = RedisBus(bus.url, "a")
        a.start(heard.append, lambda: connects.append(asyncio.get_running_loop().time()))
        await eventually_async(lambda: a.healthy, "the bus did not connect", timeout=10)
        b = await started(bus.url, "b", heard)
        try:
            await b.follow("g1")
            real = a._redis.publish
            failures = [RedisTimeout("Timeout reading from socket")]

            async def flaky(*args: Any) -> Any:
                if failures:
                    raise failures.pop()
                return await real(*args)

            a._redis.publish = flaky  # type: ignore[method-assign]
            a.publish({"t": "move", "g": "g1", "i": 0, "m": "first"})
            await eventually_async(lambda: not failures, "the publish was never tried")
            a.publish({"t": "move", "g": "g1", "i": 1, "m": "second"})
            await heard_move(heard, "second")
            assert moves(heard) == [("g1", "first"), ("g1", "second")]
            assert a.healthy and len(connects) == 2 and a.dropped == 0  # connected again
        finally:
            await a.close()
            await b.close()

    asyncio.run(scenario())
