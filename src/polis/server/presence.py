"""Who is connected to a room: the WebSockets of each seat, the seats online, and the
``seats`` message that tells everyone when that changes.

Kept apart from the move pipeline: a connection coming or going never touches the game,
only the list of seats with their ``connected`` flags.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from polis.server.store import SeatInfo

#: Sends one message, already serialized (the same text goes to every connection of a seat).
SendText = Callable[[str], Awaitable[None]]


@dataclass(eq=False)
class Connection:
    """One WebSocket, bound to a seat (``None`` = spectator)."""

    seat: int | None
    send: SendText


def seats_public(seats: Sequence[SeatInfo], online: frozenset[int]) -> list[dict[str, Any]]:
    """The seats as every client may see them (never a token hash); bots are always online."""
    return [
        {
            "seat": s.seat,
            "name": s.name,
            "kind": s.kind,
            "level": s.level,
            "connected": s.kind == "bot" or s.seat in online,
        }
        for s in seats
    ]


class Presence:
    """The connections of one room, grouped by seat (``None``: the spectators)."""

    def __init__(self) -> None:
        self._by_seat: dict[int | None, list[Connection]] = {}
        self._online: frozenset[int] = frozenset()

    @property
    def online(self) -> frozenset[int]:
        """The seats with at least one connection (spectators are no seat)."""
        return self._online

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

    def _update(self) -> bool:
        online = frozenset(s for s, conns in self._by_seat.items() if s is not None and conns)
        changed = online != self._online
        self._online = online
        return changed

    async def send_all(self, text: str, skip: Connection | None = None) -> None:
        """Send one public message to every connection (but ``skip``); dead sockets are dropped."""
        for _seat, conns in self.groups():
            for conn in conns:
                if conn is not skip:
                    await self.send(conn, text)

    async def send(self, conn: Connection, text: str) -> None:
        """Send to one connection; a dead socket is forgotten instead of stopping the others."""
        try:
            await conn.send(text)
        except Exception:
            self.remove(conn)

    @staticmethod
    def seats_message(seats: Sequence[SeatInfo], online: frozenset[int]) -> str:
        """The ``seats`` message: who is connected now."""
        return json.dumps({"type": "seats", "seats": seats_public(seats, online)})
