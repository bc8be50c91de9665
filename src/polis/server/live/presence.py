"""Who is connected to a room: the WebSockets of each seat, the seats online, and the
``seats`` message that tells everyone when that changes.

Kept apart from the move pipeline: a connection coming or going never touches the game,
only the list of seats with their ``connected`` flags.

Every connection sends from its own bounded queue, in its own task: putting a message on it
never waits, so a move's broadcast costs the mover nothing however slow anyone else is. A
client that does not read fills only its own queue and is then dropped; a state message
still waiting to be sent is replaced by a newer one instead of queueing behind it.

With several server processes, a seat may be online through another process: each process
tells the others its own seats online (:meth:`Presence.set_remote`), and a room's ``online``
is the union; a process that stops telling (it died) is forgotten when its word expires.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Sequence

from polis.server.live.jsontext import dumps
from polis.server.store.games import SeatInfo
from polis.server.wire.to_client import SeatJSON, SeatsMessage

#: Sends one message, already serialized (the same text goes to every connection of a seat).
SendText = Callable[[str], Awaitable[None]]

#: Messages a connection may have waiting before it counts as not reading.
QUEUE_LIMIT = 32

#: Numbers for connections, never given twice in a process (keys of per-connection limits).
_SERIALS = itertools.count(1)


class Connection:
    """One WebSocket, bound to a seat (``None`` = spectator), with its own send queue."""

    def __init__(
        self,
        seat: int | None,
        send: SendText,
        *,
        queue_limit: int = QUEUE_LIMIT,
        on_drop: Callable[[Connection, str], None] | None = None,
        address: str | None = None,
        check: Callable[[str], None] | None = None,
    ) -> None:
        self.seat = seat
        self.address = address
        #: This connection's number, unlike any other's in this process.
        self.serial = next(_SERIALS)
        self._send = send
        self._limit = queue_limit
        #: (is a state message, text), oldest first.
        self._queue: deque[tuple[bool, str]] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._on_drop = on_drop
        #: Why the connection was dropped (None while it is not).
        self.dropped: str | None = None
        #: Checks every text queued against the wire contract (tests: :mod:`polis.server.wire
        #: .check`); None: nothing is checked.
        self._check = check

    def put(self, text: str, *, state: bool = False) -> bool:
        """Queue ``text`` for sending, never waiting; False when the connection is gone.

        A state message replaces a state message still waiting at the end of the queue
        (each is complete, only the newest matters); a full queue drops the connection.
        """
        if self.dropped is not None:
            return False
        if self._check is not None:
            self._check(text)
        queue = self._queue
        if state and queue and queue[-1][0]:
            queue[-1] = (True, text)
        elif len(queue) >= self._limit:
            self.drop("the client does not read its messages")
            return False
        else:
            queue.append((state, text))
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())
        self._wake.set()
        return True

    @property
    def waiting(self) -> int:
        """Messages queued and not yet sent."""
        return len(self._queue)

    async def _run(self) -> None:
        queue = self._queue
        try:
            while True:
                while queue:
                    _state, text = queue.popleft()
                    await self._send(text)
                self._wake.clear()
                await self._wake.wait()
        except asyncio.CancelledError:
            raise
        except Exception:
            self.drop("the connection failed")

    async def drain(self, timeout: float = 2.0) -> None:
        """Wait (a little) until everything queued is sent: before closing on purpose."""
        deadline = time.monotonic() + timeout
        while self._queue and self.dropped is None and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    def drop(self, why: str) -> None:
        """Stop sending to this connection and tell its owner (once)."""
        if self.dropped is not None:
            return
        self.dropped = why
        self._queue.clear()
        self.close()
        if self._on_drop is not None:
            self._on_drop(self, why)

    def close(self) -> None:
        """Stop the sending task (the socket itself is the owner's to close)."""
        task = self._task
        if task is not None and task is not asyncio.current_task():
            task.cancel()


def seats_public(seats: Sequence[SeatInfo], online: frozenset[int]) -> list[SeatJSON]:
    """The seats as every client may see them (never a token hash); bots are always online."""
    return [
        {
            "seat": s.seat,
            "name": s.name,
            "kind": s.kind,
            "level": s.level,
            "connected": s.kind == "bot" or s.seat in online,
            "vacant": s.vacant,
            "stand_in": s.stand_in,
            "stand_in_why": s.stand_in_why,
            "account": s.account,
        }
        for s in seats
    ]


class Presence:
    """The connections of one room, grouped by seat (``None``: the spectators)."""

    def __init__(self) -> None:
        self._by_seat: dict[int | None, list[Connection]] = {}
        self._local: frozenset[int] = frozenset()
        #: Seats online through other processes: process -> (seats, when that expires).
        self._remote: dict[str, tuple[frozenset[int], float]] = {}
        self._online: frozenset[int] = frozenset()

    @property
    def online(self) -> frozenset[int]:
        """The seats with at least one connection, here or in another process."""
        return self._online

    @property
    def local_online(self) -> frozenset[int]:
        """The seats with a connection to this process."""
        return self._local

    def count(self, seat: int | None) -> int:
        """Open connections of ``seat`` (``None``: spectators) in this process."""
        return len(self._by_seat.get(seat, ()))

    def __len__(self) -> int:
        return sum(len(conns) for conns in self._by_seat.values())

    def groups(self) -> Iterator[tuple[int | None, list[Connection]]]:
        """(seat, its connections) for every seat with a connection; a copy, safe to send to."""
        for seat, conns in list(self._by_seat.items()):
            if conns:
                yield seat, list(conns)

    def add(self, conn: Connection) -> bool:
        """Register ``conn``; True when that put a seat online."""
        self._by_seat.setdefault(conn.seat, []).append(conn)
        return self._update()

    def remove(self, conn: Connection) -> bool:
        """Forget ``conn`` (again is harmless); True when that took a seat offline."""
        conns = self._by_seat.get(conn.seat, [])
        with contextlib.suppress(ValueError):
            conns.remove(conn)
        return self._update()

    def set_remote(self, origin: str, seats: frozenset[int], ttl: float) -> bool:
        """Another process's seats online (for ``ttl`` seconds); True when ``online`` changed."""
        if seats:
            self._remote[origin] = (seats, time.monotonic() + ttl)
        else:
            self._remote.pop(origin, None)
        return self._recompute()

    def expire(self) -> bool:
        """Forget other processes' word once it is too old; True when ``online`` changed."""
        now = time.monotonic()
        old = [origin for origin, (_s, until) in self._remote.items() if until < now]
        for origin in old:
            del self._remote[origin]
        return bool(old) and self._recompute()

    def _update(self) -> bool:
        self._local = frozenset(s for s, conns in self._by_seat.items() if s is not None and conns)
        return self._recompute()

    def _recompute(self) -> bool:
        online = self._local.union(*(seats for seats, _until in self._remote.values()))
        changed = online != self._online
        self._online = online
        return changed

    def send_all(self, text: str, skip: Connection | None = None) -> None:
        """Queue one public message for every connection (but ``skip``)."""
        for _seat, conns in self.groups():
            for conn in conns:
                if conn is not skip:
                    conn.put(text)

    @staticmethod
    def seats_message(seats: Sequence[SeatInfo], online: frozenset[int]) -> str:
        """The ``seats`` message: who is connected now."""
        return dumps(SeatsMessage(type="seats", seats=seats_public(seats, online)))
