"""Every write to the store through one thread, the moves of all tables many per transaction.

Storing a move waits for the database: a commit (SQLite writes its log, PostgreSQL flushes
its own), and on SQLite the file's one write lock. One transaction per move, one after
another from many threads, makes 200 tables moving once a second queue behind each other's
commits and, on SQLite, behind each other's lock (a writer that finds it taken sleeps 1, 2,
5, 10... ms before looking again). Here one thread does every write: the moves that arrive
while a commit is under way go into the next transaction together (group commit), and the
other writes (a new game, a rematch, a claimed seat) take their turn between batches, so no
write ever waits for a lock another write of this process holds. No move is acknowledged
before its transaction commits; each keeps its own position guard (:meth:`Store.append_moves`).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from polis.server.store.games import Append, Store

#: Most moves in one transaction.
BATCH = 200

T = TypeVar("T")

_Move = tuple[Append, asyncio.Future[Any], asyncio.AbstractEventLoop]
_Call = tuple[Callable[[], Any], asyncio.Future[Any], asyncio.AbstractEventLoop]


class MoveWriter:
    """Writes to the store for any number of rooms through one thread.

    With ``inline`` (SQLite, whose commits write to the operating system's cache and never
    wait for the disk: see :func:`~polis.server.store.games.sqlite_synchronous`) the writes run on
    the event loop itself, gathered per turn of the loop: a quarter of a millisecond of
    writing costs less than handing it to a thread and back, which under load waits for the
    interpreter lock in turn.
    """

    def __init__(self, store: Store, *, inline: bool = False) -> None:
        self.store = store
        self.inline = inline
        self._moves: list[_Move] = []
        self._calls: list[_Call] = []
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._closed = False
        self._thread: threading.Thread | None = None
        self._flush_soon: asyncio.Handle | None = None

    async def append(self, item: Append) -> bool:
        """Store ``item``: True once committed, False when its position was taken (stale).

        A database error (the connection lost, the server restarting) is raised as is: the
        caller decides whether to try again.
        """
        stored: bool = await self._queue(self._moves, item)
        return stored

    async def call(self, write: Callable[[], T]) -> T:
        """Run ``write`` (a store method that writes) in the writing thread; its result."""
        result: T = await self._queue(self._calls, write)
        return result

    async def _queue(self, queue: list[Any], work: Any) -> Any:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if self.inline:
            if self._closed:
                raise RuntimeError("the store's writer is closed")
            queue.append((work, future, loop))
            if self._flush_soon is None:
                self._flush_soon = loop.call_soon(self._flush)
            return await future
        with self._lock:
            if self._closed:
                raise RuntimeError("the store's writer is closed")
            queue.append((work, future, loop))
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="polis-store-writer", daemon=True
                )
                self._thread.start()
        self._wake.set()
        return await future

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _flush(self) -> None:
        """Inline: everything queued during this turn of the loop, written now."""
        self._flush_soon = None
        calls, self._calls = self._calls, []
        for call in calls:
            self._call(call)
        while self._moves:
            moves = self._moves[:BATCH]
            del self._moves[:BATCH]
            self._write(moves)

    def _run(self) -> None:
        while True:
            self._wake.wait()
            with self._lock:
                calls, self._calls = self._calls, []
                moves = self._moves[:BATCH]
                del self._moves[:BATCH]
                if not self._moves:
                    self._wake.clear()
                closed = self._closed
            for call in calls:
                self._call(call)
            if moves:
                self._write(moves)
            elif closed and not calls:
                return

    def _call(self, call: _Call) -> None:
        write, future, loop = call
        if future.cancelled():
            return  # its caller gave up before it began (an HTTP request answered 503)
        try:
            result: Any = write()
        except Exception as exc:  # handed to the caller
            result = exc
        if self.inline:
            _resolve(future, result)
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(_resolve, future, result)

    def _write(self, batch: list[_Move]) -> None:
        outcome: list[bool] | BaseException
        try:
            outcome = self.store.append_moves([item for item, _f, _l in batch])
        except Exception as exc:  # handed to every waiter, which decides
            outcome = exc
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] = {}
        for i, (_item, future, loop) in enumerate(batch):
            result = outcome if isinstance(outcome, BaseException) else outcome[i]
            by_loop.setdefault(loop, []).append((future, result))
        for loop, results in by_loop.items():
            if self.inline:
                _resolve_all(results)
                continue
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_resolve_all, results)


def _resolve(future: asyncio.Future[Any], result: Any) -> None:
    if future.done():
        return
    if isinstance(result, BaseException):
        future.set_exception(result)
    else:
        future.set_result(result)


def _resolve_all(results: list[tuple[asyncio.Future[Any], Any]]) -> None:
    for future, result in results:
        _resolve(future, result)
