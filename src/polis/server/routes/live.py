"""The live game: one WebSocket per seat (or spectator), ``/ws/{game_id}``.

The first message must be ``hello`` (with a seat token, or none to watch); the connection is
then bound to that seat for its whole life. Moves arrive as notation with the position they
were made for; everything a client sends is checked (:mod:`polis.server.messages`) and a
refusal goes to that client only, followed by its unchanged state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from polis.server.deps import HubDep
from polis.server.errors import ServerError
from polis.server.messages import BadMessage, Hello, MoveMsg, Ping, parse_client_message
from polis.server.presence import Connection
from polis.server.room import Room

#: Seconds a new connection has to say hello.
HELLO_TIMEOUT = 15.0

router = APIRouter()


class Refused(Exception):
    """The connection is refused: send ``message``, close with ``code``."""

    def __init__(self, message: dict[str, Any], code: int) -> None:
        super().__init__(message.get("message"))
        self.message = message
        self.code = code


class Gone(Exception):
    """The client left before saying hello."""


def _error(code: str, message: str) -> dict[str, Any]:
    return ServerError(code, message).to_message()


async def _greet(ws: WebSocket, room: Room) -> int | None:
    """The seat the first message claims (``None``: a spectator)."""
    try:
        first = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT)
    except TimeoutError:
        raise Refused(_error("malformed", "expected a hello message"), 4400) from None
    if first.get("type") == "websocket.disconnect":
        raise Gone
    try:
        hello = parse_client_message(first.get("text") or first.get("bytes"))
    except BadMessage as exc:
        raise Refused(_error(exc.code, exc.message), 4400) from None
    if not isinstance(hello, Hello):
        raise Refused(_error("malformed", "the first message must be a hello"), 4400)
    if hello.token is None:
        return None
    try:
        return room.seat_for_token(hello.token)
    except ServerError as exc:
        raise Refused(exc.to_message(), 4403) from None


@router.websocket("/ws/{game_id}")
async def play(ws: WebSocket, game_id: str, hub: HubDep) -> None:
    await ws.accept()

    async def send(message: dict[str, Any]) -> None:
        await ws.send_text(json.dumps(message))

    try:
        room = await hub.room(game_id)
    except ServerError as exc:
        await send(exc.to_message())
        await ws.close(code=4404)
        return
    conn: Connection | None = None
    try:
        try:
            seat = await _greet(ws, room)
        except Refused as refused:
            await send(refused.message)
            await ws.close(code=refused.code)
            return
        except Gone:
            return
        conn = Connection(seat, ws.send_text)
        await send({"type": "welcome", "game_id": game_id, "seat": seat})
        await room.join(conn)
        while True:
            raw = await ws.receive()
            if raw.get("type") == "websocket.disconnect":
                break
            try:
                msg = parse_client_message(raw.get("text") or raw.get("bytes"))
            except BadMessage as exc:
                await send(_error(exc.code, exc.message))
                continue
            if isinstance(msg, Ping):
                await send({"type": "pong"})
            elif isinstance(msg, Hello):
                await send(
                    _error("malformed", "already greeted; open a new connection for another seat")
                )
            elif isinstance(msg, MoveMsg):
                try:
                    await room.submit(seat, msg.move, msg.position)
                except ServerError as exc:
                    await send(exc.to_message())
                    await ws.send_text(room.snapshot_text(seat))
    except WebSocketDisconnect:
        pass
    finally:
        if conn is not None:
            await room.leave(conn)
        with contextlib.suppress(Exception):
            await ws.close()
