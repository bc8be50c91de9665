"""What several server processes tell each other: moves, who is online, rematches, and who
plays a game's bots.

One process needs none of it (:class:`LocalBus`). Several processes sharing a PostgreSQL
store use Redis (:class:`RedisBus`): each accepted move is published on one channel, and
every process that has the game in memory applies it and tells its own connections, so a
table can be watched and played through any process. The database stays the authority: the
position guard decides which move is accepted, and a process that missed messages (Redis
down, restarted) catches up from the store (the hub checks loaded games' positions when the
bus reconnects and, while it is down, every couple of seconds). A game's bots are played by
the process holding its lease (a Redis key with a time to live): exactly one at a time, and
another one takes over when the holder dies.

Messages are JSON objects with ``o`` (the sending process), ``t`` (kind) and ``g`` (game id):
``move`` (``i`` index, ``m`` notation or a take-back, ``a`` its author), ``seats`` (``s``
seats online through the sender), ``seat`` (a vacant seat was taken: read the seats again),
``takeback`` (``k`` "ask", "yes" or "no", ``s`` the seat, ``p`` the position), ``hands`` (a
bot took a person's seat over, or the person took it back: read the seats and the clock
again), ``rematch`` (``r`` the new game's id) and ``bye`` (the sender stops: forget its
seats).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from polis.server.jsontext import dumps, loads

log = logging.getLogger("polis.server")

#: Handles one message from another process.
Handler = Callable[[dict[str, Any]], None]

#: Seconds a process's word on who is online holds without being repeated.
PRESENCE_TTL = 60.0

#: Most messages published in one round trip to Redis.
PUBLISH_BATCH = 100

_CLAIM = """
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class LocalBus:
    """One process: nothing to tell anyone, every bot lease granted."""

    #: True when messages reach the other processes (always, when there are none).
    healthy = True
    #: True when other processes may share the store.
    shared = False

    def __init__(self, instance: str = "local") -> None:
        self.instance = instance

    def start(self, handler: Handler, on_connect: Callable[[], None]) -> None:
        """Start listening (``on_connect`` runs on each (re)connection)."""

    def publish(self, message: dict[str, Any]) -> None:
        """Send ``message`` to the other processes (never waits)."""

    async def claim(self, game_id: str, ttl: float) -> bool:
        """Take (or keep) the lease on ``game_id``'s bots for ``ttl`` seconds."""
        return True

    async def release(self, game_id: str) -> None:
        """Give the lease back (if this process holds it)."""

    async def close(self) -> None:
        """Stop listening."""


class RedisBus(LocalBus):
    """Several processes, through one Redis channel and bot lease keys."""

    shared = True

    def __init__(self, url: str, instance: str, prefix: str = "polis") -> None:
        import redis.asyncio as redis

        super().__init__(instance)
        self.url = url
        self.channel = f"{prefix}:events"
        self.prefix = prefix
        self.healthy = False
        self._redis = redis.Redis.from_url(
            url, socket_timeout=2, socket_connect_timeout=2, health_check_interval=5
        )
        self._claim = self._redis.register_script(_CLAIM)
        self._release = self._redis.register_script(_RELEASE)
        self._out: asyncio.Queue[str] = asyncio.Queue(maxsize=10_000)
        self._tasks: list[asyncio.Task[None]] = []
        #: Messages not published (Redis down, or the queue full).
        self.dropped = 0

    def start(self, handler: Handler, on_connect: Callable[[], None]) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(handler, on_connect)),
            loop.create_task(self._publish()),
        ]

    def publish(self, message: dict[str, Any]) -> None:
        if not self.healthy:
            self.dropped += 1  # the others poll the store meanwhile
            return
        try:
            self._out.put_nowait(dumps({**message, "o": self.instance}))
        except asyncio.QueueFull:
            self.dropped += 1

    async def _publish(self) -> None:
        from redis.exceptions import RedisError

        out = self._out
        while True:
            texts = [await out.get()]
            while not out.empty() and len(texts) < PUBLISH_BATCH:
                texts.append(out.get_nowait())
            if not self.healthy:
                self.dropped += len(texts)
                continue
            try:
                if len(texts) == 1:
                    await self._redis.publish(self.channel, texts[0])
                else:  # what queued meanwhile goes in one round trip
                    pipe = self._redis.pipeline(transaction=False)
                    for text in texts:
                        pipe.publish(self.channel, text)
                    await pipe.execute()
            except (RedisError, OSError) as exc:
                self.dropped += len(texts)
                self._down(exc)

    async def _listen(self, handler: Handler, on_connect: Callable[[], None]) -> None:
        from redis.exceptions import RedisError

        pause = 0.1
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                if not self.healthy:
                    log.info("connected to Redis at %s", self._shown())
                self.healthy = True
                pause = 0.1
                on_connect()
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None or message.get("type") != "message":
                        continue
                    try:
                        data = loads(message["data"])
                    except ValueError:
                        continue
                    if isinstance(data, dict) and data.get("o") != self.instance:
                        handler(data)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                self._down(exc)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
            await asyncio.sleep(pause)
            pause = min(pause * 2, 5.0)

    def _down(self, exc: BaseException) -> None:
        if self.healthy:
            log.warning("Redis unreachable (%s): polling the store until it is back", exc)
        self.healthy = False

    def _shown(self) -> str:
        from sqlalchemy import make_url

        try:
            return make_url(self.url).render_as_string(hide_password=True)
        except Exception:
            return "the configured address"

    async def claim(self, game_id: str, ttl: float) -> bool:
        """The lease, or True when Redis cannot say (the store's guard still keeps one move
        per position; at worst two processes think about the same turn)."""
        from redis.exceptions import RedisError

        if not self.healthy:
            return True
        try:
            got = await self._claim(
                keys=[f"{self.prefix}:bot:{game_id}"], args=[self.instance, int(ttl * 1000)]
            )
        except (RedisError, OSError) as exc:
            self._down(exc)
            return True
        return bool(got)

    async def release(self, game_id: str) -> None:
        from redis.exceptions import RedisError

        if not self.healthy:
            return
        try:
            await self._release(keys=[f"{self.prefix}:bot:{game_id}"], args=[self.instance])
        except (RedisError, OSError) as exc:
            self._down(exc)

    async def close(self) -> None:
        if self.healthy:
            with contextlib.suppress(Exception):
                await self._redis.publish(
                    self.channel, dumps({"o": self.instance, "t": "bye", "g": ""})
                )
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self._redis.aclose()
