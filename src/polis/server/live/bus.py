"""What several server processes tell each other: moves, who is online, rematches, and who
plays a game's bots.

One process needs none of it (:class:`LocalBus`). Several processes sharing a PostgreSQL
store use Redis (:class:`RedisBus`): each accepted move is published on its game's channel,
and every process that has the game in memory (and so listens to that channel) applies it and
tells its own connections, so a table can be watched and played through any process. A
process hears only the games it holds: with more processes, each one's share of the messages
shrinks instead of staying all of them. The database stays the authority: the
position guard decides which move is accepted, and a process that missed messages (Redis
down, restarted) catches up from the store (the hub checks loaded games' positions when the
bus reconnects and, while it is down, every couple of seconds). Any failed call to Redis marks
the bus down until the listener has connected again (so a process never believes Redis gone
while its listener looks healthy, or the reverse), and what it publishes meanwhile waits in
a bounded queue and goes out in order once Redis answers. A game's bots are played by
the process holding its lease (a Redis key with a time to live): exactly one at a time, and
another one takes over when the holder dies.

Messages are JSON objects with ``o`` (the sending process), ``t`` (kind) and ``g`` (game id),
typed in the wire contract (:mod:`polis.server.wire.bus`, which says what each key means):
``change`` (a change the sender stored through its room's pipeline,
:func:`polis.server.live.pipeline.published`; the receiver commits it as a ``Heard``
change), ``seats`` (the seats online through the sender), ``takeback`` (a request or an
answer), ``chat`` (a line), ``rematch`` (the new game's id) and ``bye`` (the sender stops:
forget its seats). Processes publish through :meth:`polis.server.live.hub.Hub.publish`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from polis.server.config import require
from polis.server.live.jsontext import dumps, loads
from polis.server.wire.bus import BusBye, BusMessage

log = logging.getLogger("polis.server")

#: Handles one message from another process.
Handler = Callable[[dict[str, Any]], None]

#: Seconds a process's word on who is online holds without being repeated.
PRESENCE_TTL = 60.0

#: Most messages published in one round trip to Redis.
PUBLISH_BATCH = 100

#: Seconds a process waits for Redis to confirm it hears a game before reading it anyway.
FOLLOW_WAIT = 2.0

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

    def publish(self, message: BusMessage) -> None:
        """Send ``message`` to the other processes (never waits)."""

    async def follow(self, game_id: str) -> None:
        """Hear ``game_id``'s messages from now on (call it before reading the game from the
        store: a move stored after that read is then heard)."""

    def unfollow(self, game_id: str) -> None:
        """Stop hearing ``game_id``'s messages (its room left memory)."""

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
        require("redis", "Redis (--redis, POLIS_REDIS_URL)", "cluster")
        import redis.asyncio as redis

        super().__init__(instance)
        self.url = url
        #: Messages for every process (``bye``); a game's go to :meth:`game_channel`.
        self.channel = f"{prefix}:events"
        self.prefix = prefix
        self.healthy = False
        #: The games this process holds (subscribed again after a reconnection).
        self._followed: set[str] = set()
        self._pubsub: Any = None
        #: Channels subscribed to and not yet confirmed by Redis.
        self._confirming: dict[str, asyncio.Future[None]] = {}
        self._redis = redis.Redis.from_url(
            url, socket_timeout=2, socket_connect_timeout=2, health_check_interval=5
        )
        self._claim = self._redis.register_script(_CLAIM)
        self._release = self._redis.register_script(_RELEASE)
        self._out: asyncio.Queue[tuple[str, str]] = asyncio.Queue(maxsize=10_000)
        self._tasks: list[asyncio.Task[None]] = []
        #: Unsubscriptions under way.
        self._chores: set[asyncio.Task[None]] = set()
        #: Messages not published (the queue full during a long outage).
        self.dropped = 0
        #: Set while Redis answers: what waits to be published goes out.
        self._up = asyncio.Event()

    def start(self, handler: Handler, on_connect: Callable[[], None]) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(handler, on_connect)),
            loop.create_task(self._publish()),
        ]

    def game_channel(self, game_id: str) -> str:
        return f"{self.prefix}:game:{game_id}"

    def publish(self, message: BusMessage) -> None:
        """Queue ``message``; it is sent once Redis answers (dropped only when the queue is
        full: the others catch up from the store)."""
        game_id = message["g"]
        channel = self.game_channel(game_id) if game_id else self.channel
        try:
            self._out.put_nowait((channel, dumps({**message, "o": self.instance})))
        except asyncio.QueueFull:
            self.dropped += 1

    async def follow(self, game_id: str) -> None:
        """Subscribe to the game's channel and wait until Redis confirms it (then a move
        stored after the caller's read of the store is heard). Without Redis the game is
        followed all the same: the subscription is made on reconnection, and the hub catches
        up from the store meanwhile."""
        from redis.exceptions import RedisError

        self._followed.add(game_id)
        pubsub = self._pubsub
        if pubsub is None or not self.healthy:
            return
        channel = self.game_channel(game_id)
        confirmed = self._confirming.get(channel)
        if confirmed is None:
            confirmed = asyncio.get_running_loop().create_future()
            self._confirming[channel] = confirmed
            try:
                await pubsub.subscribe(channel)
            except (RedisError, OSError) as exc:
                self._confirming.pop(channel, None)
                self._down(exc)
                return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(confirmed), FOLLOW_WAIT)

    def unfollow(self, game_id: str) -> None:
        self._followed.discard(game_id)
        pubsub = self._pubsub
        if pubsub is not None and self.healthy:
            task = asyncio.get_running_loop().create_task(self._unsubscribe(pubsub, game_id))
            self._chores.add(task)
            task.add_done_callback(self._chores.discard)

    async def _unsubscribe(self, pubsub: Any, game_id: str) -> None:
        from redis.exceptions import RedisError

        if game_id in self._followed:  # followed again meanwhile
            return
        with contextlib.suppress(RedisError, OSError):
            await pubsub.unsubscribe(self.game_channel(game_id))

    async def _publish(self) -> None:
        from redis.exceptions import RedisError

        out = self._out
        items: list[tuple[str, str]] = []
        while True:
            if not items:
                items = [await out.get()]
                while not out.empty() and len(items) < PUBLISH_BATCH:
                    items.append(out.get_nowait())
            await self._up.wait()
            try:
                if len(items) == 1:
                    await self._redis.publish(*items[0])
                else:  # what queued meanwhile goes in one round trip
                    pipe = self._redis.pipeline(transaction=False)
                    for channel, text in items:
                        pipe.publish(channel, text)
                    await pipe.execute()
                items = []
            except (RedisError, OSError) as exc:
                self._down(exc)  # kept: sent again once the listener has reconnected

    async def _listen(self, handler: Handler, on_connect: Callable[[], None]) -> None:
        from redis.exceptions import RedisError

        pause = 0.1
        while True:
            pubsub = self._redis.pubsub()
            try:
                await pubsub.subscribe(self.channel, *map(self.game_channel, self._followed))
                if not self.healthy:
                    log.info("connected to Redis at %s", self._shown())
                self._pubsub = pubsub
                self.healthy = True
                self._up.set()
                pause = 0.1
                on_connect()
                while self.healthy:  # another call to Redis failed: connect again
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    kind = message.get("type")
                    if kind == "subscribe":
                        self._confirmed(message.get("channel"))
                        continue
                    if kind != "message":
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
                self._pubsub = None
                for waiting in self._confirming.values():  # followed on reconnection
                    if not waiting.done():
                        waiting.set_result(None)
                self._confirming.clear()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
            await asyncio.sleep(pause)
            pause = min(pause * 2, 5.0)

    def _confirmed(self, channel: bytes | str | None) -> None:
        name = channel.decode() if isinstance(channel, bytes) else channel
        waiting = self._confirming.pop(name or "", None)
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    def _down(self, exc: BaseException) -> None:
        if self.healthy:
            log.warning("Redis unreachable (%s): polling the store until it is back", exc)
        self.healthy = False
        self._up.clear()

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
                bye = BusBye(o=self.instance, t="bye", g="")
                await self._redis.publish(self.channel, dumps(bye))
        tasks = [*self._tasks, *self._chores]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self._redis.aclose()
