"""Riding through a database that goes away for a while (a restart, a fail-over).

A store call that fails because the database cannot be reached is tried again with growing
pauses for a while (``store_patience``): a restart of a few seconds delays moves but loses
none and shows no one an error. Past that, the client is told plainly that the store is
unavailable (HTTP 503, or an ``unavailable`` error message on its WebSocket, which stays
open), never a bare 500 or a closed socket.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from polis.server.errors import ServerError

log = logging.getLogger("polis.server")

T = TypeVar("T")

#: Longest pause between two tries.
MAX_PAUSE = 2.0


def transient(exc: BaseException) -> bool:
    """True for a failure that may go away by itself (the database unreachable or restarting,
    SQLite busy), False for one that will not (a constraint, a bug)."""
    if isinstance(exc, OperationalError | InterfaceError | PoolTimeout):
        return True
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    return isinstance(exc, ConnectionError | TimeoutError)


def unavailable() -> ServerError:
    return ServerError(
        "unavailable",
        "the game store cannot be reached just now (it may be restarting): "
        "nothing was lost, please try again in a moment",
    )


async def patiently(call: Callable[[], Awaitable[T]], patience: float, what: str) -> T:
    """``await call()``, tried again while it fails transiently, for ``patience`` seconds;
    then :func:`unavailable` (a non-transient failure is raised at once)."""
    deadline = time.monotonic() + patience
    pause = 0.05
    warned = False
    while True:
        try:
            return await call()
        except Exception as exc:
            if not transient(exc):
                raise
            if time.monotonic() + pause > deadline:
                log.error("%s: the store is still unavailable (%s)", what, _short(exc))
                raise unavailable() from exc
            if not warned:
                log.warning("%s: the store is unavailable, trying again (%s)", what, _short(exc))
                warned = True
        await asyncio.sleep(pause)
        pause = min(pause * 2, MAX_PAUSE)


def _short(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip().splitlines()
    return text[0] if text else type(orig).__name__
