"""Riding through a database that goes away for a while (a restart, a fail-over), and saying
so at once.

A store call that fails because the database cannot be reached is tried again with growing
pauses (:func:`patiently`). How long depends on who waits:

* A WebSocket's move, a bot's move, the background work wait ``store_patience`` (20 s by
  default): a restart of a few seconds delays moves but loses none and shows no one an error;
  past that, a socket's move is refused with an ``unavailable`` error (the socket stays open).
* An HTTP request waits at most :data:`HTTP_PATIENCE` for all its store calls together (the
  route's dependency calls :func:`hurry`), each try bounded by what is left of that: a client
  hears 503 with ``Retry-After`` within two seconds instead of hanging. While the store is
  known to be down, an HTTP call does not even try: the answer is immediate.

The first transient failure marks the store down (:class:`StoreHealth`): every socket of the
process is told ``{"type": "store", "status": "unavailable", "since": ...}``, as is any socket
that connects meanwhile, and a probe (``SELECT 1`` every :data:`PROBE_EVERY` seconds, only
while down) looks for its return; the first call that succeeds, the probe's or any other,
marks it back and every socket is told ``{"type": "store", "status": "back"}``. Nothing else
changes while it is down: moves sent meanwhile still wait and are stored when it returns.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from polis.server.errors import ServerError
from polis.server.live.jsontext import dumps
from polis.server.wire.to_client import StoreBackMessage, StoreMessage, StoreUnavailableMessage

log = logging.getLogger("polis.server")

T = TypeVar("T")

#: Longest pause between two tries.
MAX_PAUSE = 2.0
#: Seconds an HTTP request may wait for the store in all (the answer is due within two).
HTTP_PATIENCE = 1.5
#: A store call an HTTP request makes after its time is spent still gets one try this long
#: (a request slow for another reason is not refused for it while the store is up).
LAST_TRY = 0.25
#: Seconds between two probes of a store that is down.
PROBE_EVERY = 1.0
#: Longest a probe is waited for (a connection attempt ends sooner: ``connect_timeout``).
PROBE_TIMEOUT = 10.0


def transient(exc: BaseException) -> bool:
    """True for a failure that may go away by itself (the database unreachable or restarting,
    SQLite busy), False for one that will not (a constraint, a bug)."""
    if isinstance(exc, OperationalError | InterfaceError | PoolTimeout):
        return True
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    return isinstance(exc, ConnectionError | TimeoutError)


def contended(exc: BaseException | None) -> bool:
    """True for SQLite's "database is locked" / "busy": another writer (another process on
    the same file) holds the lock for a moment. Tried again like an outage, but it is none:
    nobody is told the store went away."""
    orig = getattr(exc, "orig", None) or exc
    words = str(orig).lower()
    return isinstance(exc, OperationalError) and ("locked" in words or "busy" in words)


def unavailable() -> ServerError:
    return ServerError(
        "unavailable",
        "the game store cannot be reached just now (it may be restarting): "
        "nothing was lost, please try again in a moment",
    )


# -- who is in a hurry ---------------------------------------------------------------------------
#: The task of an HTTP request and when its patience ends. A task it starts inherits the
#: variable but is not that task, so a bot or a broadcast begun by a request stays patient.
_HURRY: contextvars.ContextVar[tuple[weakref.ref[asyncio.Task[Any]], float] | None] = (
    contextvars.ContextVar("polis_hurry", default=None)
)


def hurry(patience: float = HTTP_PATIENCE) -> None:
    """The running task answers an HTTP request: its store calls from now on wait
    ``patience`` seconds in all, not ``store_patience`` each."""
    task = asyncio.current_task()
    if task is not None:
        _HURRY.set((weakref.ref(task), time.monotonic() + patience))


def hurried_until() -> float | None:
    """When the running task's patience ends (None: it is not in a hurry)."""
    mark = _HURRY.get()
    if mark is None or mark[0]() is not asyncio.current_task():
        return None
    return mark[1]


# -- the store's health --------------------------------------------------------------------------
def store_message(down_since: float | None) -> str:
    """The ``store`` message every socket is sent when the store goes away or comes back
    (:data:`~polis.server.wire.to_client.StoreMessage`), serialized."""
    message: StoreMessage
    if down_since is None:
        message = StoreBackMessage(type="store", status="back")
    else:
        message = StoreUnavailableMessage(type="store", status="unavailable", since=down_since)
    return dumps(message)


def ping(engine: Engine) -> None:
    """One round trip to the database (a fresh connection if the old ones died)."""
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))


class StoreHealth:
    """Whether the store answers, as the last store call found it, and a probe that looks
    for its return while it does not.

    ``probe`` is one try (raises while the store is down), ``spawn`` starts a background task
    (the hub's, cancelled when it closes), ``changed`` is called when the store goes down and
    when it comes back (the hub tells every socket); ``clock`` gives ``since`` (wall time).
    """

    def __init__(
        self,
        probe: Callable[[], Awaitable[object]],
        spawn: Callable[[Coroutine[Any, Any, None]], asyncio.Task[Any]],
        changed: Callable[[StoreHealth], None],
        *,
        every: float = PROBE_EVERY,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._probe_once = probe
        self._spawn = spawn
        self._changed = changed
        self.every = every
        self._clock = clock
        #: Since when (wall time) the store has been found down; None while it answers.
        self.down_since: float | None = None
        self._down_at = 0.0
        self._prober: asyncio.Task[Any] | None = None
        self._closed = False

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def message(self) -> str:
        """The ``store`` message for the present state."""
        return store_message(self.down_since)

    def failed(self, exc: BaseException | None = None) -> None:
        """A store call failed transiently: the store is down (once told, until it answers);
        SQLite's lock held by another writer is no outage (:func:`contended`)."""
        if self.down_since is not None or self._closed or contended(exc):
            return
        self.down_since = self._clock()
        self._down_at = time.monotonic()
        log.warning("the store is unavailable (%s): telling the players", _short(exc))
        if self._prober is None or self._prober.done():
            self._prober = self._spawn(self._probe())
        self._changed(self)

    def answered(self) -> None:
        """A store call succeeded: the store is back, if it was down."""
        if self.down_since is None:
            return
        self.down_since = None
        log.warning("the store is back after %.1f s", time.monotonic() - self._down_at)
        if not self._closed:
            self._changed(self)

    def close(self) -> None:
        """No more probes or announcements (the server is stopping)."""
        self._closed = True
        if self._prober is not None:
            self._prober.cancel()

    async def _probe(self) -> None:
        logged = False
        while self.down_since is not None and not self._closed:
            await asyncio.sleep(self.every)
            if self.down_since is None:
                return  # another call found it back
            try:
                await asyncio.wait_for(self._probe_once(), PROBE_TIMEOUT)
            except Exception as exc:
                if not transient(exc) and not logged:
                    log.error("probing the store failed: %s", _short(exc))
                    logged = True
                continue
            self.answered()


async def waited(future: asyncio.Future[T], health: StoreHealth | None) -> T:
    """The result of ``future``, which another task works out (a room being loaded from the
    store); an HTTP request (:func:`hurry`) gives up with :func:`unavailable` once its time is
    spent while the store is down (while it is up, a slow load is waited for)."""
    hurried = hurried_until()
    if hurried is None:
        return await asyncio.shield(future)
    while not future.done():
        await asyncio.wait({future}, timeout=max(hurried - time.monotonic(), LAST_TRY))
        if not future.done() and health is not None and health.down:
            raise unavailable()
    return future.result()


# -- trying again ---------------------------------------------------------------------------------
async def patiently(
    call: Callable[[], Awaitable[T]],
    patience: float,
    what: str,
    health: StoreHealth | None = None,
) -> T:
    """``await call()``, tried again while it fails transiently, for ``patience`` seconds;
    then :func:`unavailable` (a non-transient failure is raised at once).

    In an HTTP request (:func:`hurry`) the request's own deadline applies instead, each try
    is cut off by it, and nothing is tried while ``health`` knows the store is down. A
    transient failure marks ``health`` down, a success marks it back.
    """
    hurried = hurried_until()
    if hurried is not None and health is not None and health.down:
        raise unavailable()
    deadline = time.monotonic() + patience if hurried is None else hurried
    pause = 0.05
    warned = False
    while True:
        try:
            if hurried is None:
                result = await call()
            else:
                limit = max(hurried - time.monotonic(), LAST_TRY)
                try:
                    result = await asyncio.wait_for(call(), limit)
                except TimeoutError:
                    # slow, not refused: the store may be up and busy, so it is not marked
                    # down for this (the sockets would be told of an outage that is not)
                    log.warning("%s: no answer from the store within %.1f s", what, limit)
                    raise unavailable() from None
        except Exception as exc:
            if not transient(exc):
                raise
            if health is not None:
                health.failed(exc)
            if time.monotonic() + pause > deadline:
                if hurried is None:
                    log.error("%s: the store is still unavailable (%s)", what, _short(exc))
                raise unavailable() from exc
            if not warned:
                log.warning("%s: the store is unavailable, trying again (%s)", what, _short(exc))
                warned = True
        else:
            if health is not None:
                health.answered()
            return result
        await asyncio.sleep(pause)
        pause = min(pause * 2, MAX_PAUSE)


def _short(exc: BaseException | None) -> str:
    if exc is None:
        return "no answer"
    orig = getattr(exc, "orig", None) or exc
    lines = str(orig).strip().splitlines()
    return lines[0] if lines else type(orig).__name__
