"""The chat of a table: plain text lines said by its seats, kept with the game.

Who may read: the seats always; spectators only when the table was created so
(``chat_spectators``). Who may write: the seats only. A line is checked (length, no control,
direction or unencodable characters: :func:`chat_problem`), counted against its connection's
and its address's chat rates, stored, and only then handed to the connections that may read
it, here and, through the bus, in every other process that has the table loaded. A newcomer
who may read gets the last :data:`BACKLOG` lines in its ``welcome`` message.

Refusals go to the sender only, as an ``error`` message whose code starts with ``chat_``;
the connection stays open. The client shows every line as text (never as HTML).

Messages (:mod:`polis.server.wire.to_client`): ``chat``
(:class:`~polis.server.wire.to_client.ChatMessage`: a line, ``at`` in ISO 8601, UTC) and, in
``welcome``, ``"chat": {"read", "write", "lines": [line, ...]}``
(:class:`~polis.server.wire.to_client.ChatBacklog`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC
from typing import TYPE_CHECKING, Any

from polis.server.errors import ServerError
from polis.server.http.inputs import text_problem
from polis.server.live.jsontext import dumps
from polis.server.store import chat_push as rows
from polis.server.wire.bus import BusChat
from polis.server.wire.to_client import ChatBacklog, ChatLineJSON, ChatMessage

if TYPE_CHECKING:
    from polis.server.live.presence import Connection
    from polis.server.live.room import Room

log = logging.getLogger("polis.server")

#: Longest line, in characters.
MAX_CHAT = 300
#: Lines a newcomer is sent (and a room keeps in memory).
BACKLOG = 50


def chat_problem(text: str) -> str | None:
    """Why ``text`` cannot be said at a table, or None when it can."""
    if not text.strip():
        return "a chat line cannot be empty"
    if len(text) > MAX_CHAT:
        return f"a chat line has at most {MAX_CHAT} characters (this one has {len(text)})"
    problem = text_problem(text)
    return f"this chat line cannot be sent: {problem}" if problem else None


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line as the clients get it."""

    id: int
    seat: int
    name: str
    text: str
    at: str

    def to_json(self) -> ChatLineJSON:
        return {
            "id": self.id,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "at": self.at,
        }

    def message(self) -> str:
        """The ``chat`` message of this line, serialized."""
        return dumps(ChatMessage(type="chat", **self.to_json()))

    @classmethod
    def stored(cls, line: rows.StoredLine) -> ChatLine:
        created = line.created
        if created.tzinfo is None:  # SQLite gives the stored UTC time back without its zone
            created = created.replace(tzinfo=UTC)
        at = created.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        return cls(line.id, line.seat, line.name, line.text, at)

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> ChatLine | None:
        """A line from another process (None if it is not one)."""
        try:
            line = cls(
                int(data["id"]),
                int(data["seat"]),
                str(data["name"]),
                str(data["text"]),
                str(data["at"]),
            )
        except (KeyError, TypeError, ValueError):
            return None
        return line


class TableChat:
    """The chat of one room."""

    def __init__(self, room: Room) -> None:
        self.room = room
        #: The last lines by id (filled from the store when the first reader comes).
        self._lines: dict[int, ChatLine] = {}
        self._loaded = False
        self._loading = asyncio.Lock()

    def readable(self, seat: int | None) -> bool:
        """Whether a connection of ``seat`` (``None``: a spectator) may read the chat."""
        return seat is not None or self.room.stored.chat_spectators

    def lines(self) -> list[ChatLine]:
        """The last lines, oldest first."""
        return [self._lines[i] for i in sorted(self._lines)][-BACKLOG:]

    async def backlog(self, seat: int | None) -> ChatBacklog:
        """What a newcomer of ``seat`` may do and, if it may read, the last lines (the
        ``chat`` of its ``welcome`` message; :meth:`since` sends what came while it joined)."""
        readable = self.readable(seat)
        lines: list[ChatLineJSON] = []
        if readable:
            try:
                await self._load()
            except Exception:  # the store is down: the lines come as they are said
                log.warning("chat of game %s not loaded", self.room.id, exc_info=True)
            lines = [line.to_json() for line in self.lines()]
        return {"read": readable, "write": seat is not None, "lines": lines}

    async def _load(self) -> None:
        if self._loaded:
            return
        async with self._loading:
            if self._loaded:
                return
            room = self.room
            stored = await room.hub.patiently(
                lambda: rows.last_lines(room.store.engine, room.id, BACKLOG),
                f"chat of game {room.id}",
            )
            for line in stored:
                self._lines.setdefault(line.id, ChatLine.stored(line))
            self._trim()
            self._loaded = True

    def since(self, conn: Connection, last: int) -> None:
        """Send ``conn`` the lines after id ``last`` (said while it was joining the room; it
        may have some already, the client keeps each id once)."""
        if self.readable(conn.seat):
            for line in self.lines():
                if line.id > last:
                    conn.put(line.message())

    def _trim(self) -> None:
        if len(self._lines) > BACKLOG:
            for old in sorted(self._lines)[:-BACKLOG]:
                del self._lines[old]

    async def say(self, conn: Connection, text: str) -> None:
        """Store and hand out one line from ``conn``; ServerError (nothing said) otherwise."""
        seat = conn.seat
        if seat is None:
            raise ServerError("chat_forbidden", "spectators cannot write in a table's chat")
        problem = chat_problem(text)
        if problem:
            raise ServerError("chat_invalid", problem)
        room = self.room
        refusal = room.hub.guards.chat(conn.address or "unknown", conn.serial)
        if refusal:
            raise ServerError("chat_rate_limited", refusal)
        name = room.stored.seats[seat].name
        stored = await room.hub.write(
            lambda: rows.add_line(room.store.engine, room.id, seat, name, text),
            f"a chat line of game {room.id}",
        )
        line = ChatLine.stored(stored)
        self._hand_out(line)
        room.hub.publish(BusChat(t="chat", g=room.id, l=line.to_json()))

    def heard(self, data: Any) -> None:
        """A line another process stored."""
        line = ChatLine.parse(data) if isinstance(data, dict) else None
        if line is not None and line.id not in self._lines:
            self._hand_out(line)

    def _hand_out(self, line: ChatLine) -> None:
        self._lines[line.id] = line
        self._trim()
        text = line.message()
        for seat, conns in self.room.presence.groups():
            if self.readable(seat):
                for conn in conns:
                    conn.put(text)
