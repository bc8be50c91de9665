"""The live game: one WebSocket per seat (or spectator), ``/ws/{game_id}``.

The first message must be ``hello`` (with a seat token, or none to watch); the connection is
then bound to that seat for its whole life. Moves arrive as notation with the position they
were made for; everything a client sends is checked (:mod:`polis.server.wire.from_client`)
and a refusal goes to that client only, followed by its unchanged state. Every message either
way is a type of the wire contract (:mod:`polis.server.wire`). Chat lines arrive as
``chat`` messages (:mod:`polis.server.table.chat`); the ``welcome`` carries the last ones.

No connection can hold up another: an address with too many open connections, or opening
them too fast, is refused before the WebSocket is accepted; spectators of one game and the
connections of one seat are capped (a seat holder always gets in, however many watch); a
client has ``hello_timeout`` seconds to say hello and a message rate; everything sent to it
goes through its own bounded queue (:class:`~polis.server.live.presence.Connection`), and one
that does not read is cut off.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from polis.core.errors import PolisError
from polis.core.moves import Move
from polis.server.accounts.bots import bot_api
from polis.server.errors import ServerError
from polis.server.http.deps import HubDep
from polis.server.live.hub import Hub
from polis.server.live.jsontext import dumps
from polis.server.live.pipeline import Play
from polis.server.live.presence import Connection
from polis.server.live.room import Room
from polis.server.wire.from_client import BadMessage, FromClient, parse_client_message
from polis.server.wire.to_client import ErrorCode, ErrorMessage, PongMessage, WelcomeMessage

log = logging.getLogger("polis.server")

#: Messages over the rate a connection may send before it is closed.
STRIKES = 100
#: A message over the rate is answered (not read) while fewer answers than this wait.
ANSWERED_WHILE_WAITING = 4

router = APIRouter()


class Refused(Exception):
    """The connection is refused: send ``message``, close with ``code``."""

    def __init__(self, message: ErrorMessage, code: int) -> None:
        super().__init__(message["message"])
        self.message = message
        self.code = code


class Gone(Exception):
    """The client left before saying hello."""


def _error(code: ErrorCode, message: str) -> ErrorMessage:
    return ServerError(code, message).to_message()


#: The answer to every ping, serialized once.
PONG = dumps(PongMessage(type="pong"))
#: The answer to a message over the rate (which was not read: send it again later).
OVER_RATE = dumps(_error("rate_limited", "too many messages: this one was not read; slow down"))


def parse(hub: Hub, raw: str | bytes | None) -> FromClient:
    """A client's message as its type (:class:`BadMessage` if refused), checked against the
    contract when the server checks its traffic."""
    message = parse_client_message(raw)
    if hub.wire is not None and raw is not None:
        hub.wire.from_client(raw)
    return message


def client_address(ws: WebSocket) -> str:
    """The client's address (a trusted proxy's forwarded one, see ``Forwarded``)."""
    return ws.client.host if ws.client else "unknown"


async def _greet(ws: WebSocket, hub: Hub, room: Room, timeout: float) -> int | None:
    """The seat the first message claims (``None``: a spectator)."""
    try:
        first = await asyncio.wait_for(ws.receive(), timeout)
    except TimeoutError:
        raise Refused(_error("malformed", "expected a hello message"), 4400) from None
    if first.get("type") == "websocket.disconnect":
        raise Gone
    try:
        hello = parse(hub, first.get("text") or first.get("bytes"))
    except BadMessage as exc:
        raise Refused(_error(exc.code, exc.message), 4400) from None
    if hello["type"] != "hello":
        raise Refused(_error("malformed", "the first message must be a hello"), 4400)
    token = hello.get("token")
    if token is None:
        return None
    try:
        seat = await room.seat_for(token)
    except ServerError as exc:
        code = 4403 if exc.code == "bad_token" else 1013
        raise Refused(exc.to_message(), code) from None
    refusal = await bot_api(ws).refuse_socket(room, seat)  # a bot plays through its API
    if refusal is not None:
        raise Refused(refusal.to_message(), 4403)
    return seat


async def client_move(room: Room, seat: int | None, move: str | int, position: int) -> None:
    """A move a client sends for its seat, made the one way every client's is: a person's
    from the table's WebSocket and a bot account's from the bot API
    (:mod:`polis.server.http.routes.bots`) alike become a :class:`Play` committed to the
    room's pipeline, checked there against the table (turn, position, clock) and the rules.
    An action id (the bot API's other way to name a move) is the move of that id in the
    game's action space. Shielded: a move under way is stored and announced even if its
    client goes meanwhile. ServerError when refused (nothing changed)."""
    chosen: str | Move = move if isinstance(move, str) else move_of_id(room, move)
    await asyncio.shield(room.commit(Play(seat, chosen, position)))


def move_of_id(room: Room, action: int) -> Move:
    """The move of action id ``action`` in the room's game and mode (``illegal`` outside
    its action space)."""
    try:
        return room.game.action_space(room.stored.mode).move(action)
    except PolisError as exc:
        raise ServerError("illegal", exc.message, exc.rule) from None


def cut(ws: WebSocket) -> bool:
    """Abort the connection's transport (no close frame: its buffers may be full); False when
    the server gives no transport (the test client)."""
    transport = ws.scope.get("polis.transport")
    if transport is None or not hasattr(transport, "abort"):
        return False
    transport.abort()
    return True


async def close_or_cut(ws: WebSocket, code: int, reason: str = "") -> None:
    """Close with ``code``; a client that does not take the close frame is cut off."""
    try:
        await asyncio.wait_for(ws.close(code=code, reason=reason), 2.0)
    except (TimeoutError, RuntimeError, OSError):
        cut(ws)


def _admit(hub: Hub, room: Room, seat: int | None) -> None:
    """Refuse a connection over its seat's (or the spectators') cap."""
    limits = hub.guards.limits
    if seat is None and room.presence.count(None) >= limits.spectators_per_game:
        raise Refused(_error("full", "this game has as many spectators as it can take"), 4429)
    if seat is not None and room.presence.count(seat) >= limits.connections_per_seat:
        raise Refused(_error("full", "this seat has too many open connections"), 4429)


@router.websocket("/ws/{game_id}")
async def play(ws: WebSocket, game_id: str, hub: HubDep) -> None:
    guards = hub.guards
    address = client_address(ws)
    refusal = guards.admit(address)
    if refusal is not None:
        await ws.close(code=1008, reason=refusal)  # before accepting: an HTTP 403
        return
    guards.opened(address)
    try:
        await ws.accept()
        await _session(ws, game_id, hub, address)
    finally:
        guards.closed(address)


async def _session(ws: WebSocket, game_id: str, hub: HubDep, address: str) -> None:
    async def send(message: ErrorMessage) -> None:  # before the connection's queue exists
        text = dumps(message)
        if hub.wire is not None:
            hub.wire.to_client(text)
        await ws.send_text(text)

    try:
        room = await hub.room(game_id)
        while hub.rooms.get(game_id) is not room:  # left memory while this waited for it
            room = await hub.room(game_id)
    except ServerError as exc:
        await send(exc.to_message())
        await ws.close(code=4404 if exc.code == "not_found" else 1013)
        return
    limits = hub.guards.limits
    handler = asyncio.current_task()

    def dropped(conn: Connection, why: str) -> None:
        log.warning("dropped a connection to game %s from %s: %s", game_id, address, why)
        if room.presence.remove(conn):
            room.presence_changed()
        # the client's buffers are full: no close frame would get out
        if not cut(ws) and handler is not None:
            handler.cancel()

    conn: Connection | None = None
    try:
        # Pending until joined: a room with nobody in it may leave memory at any await, and
        # a connection must not join a room that has left (its moves would reach nobody).
        room.pending += 1
        try:
            try:
                seat = await _greet(ws, hub, room, limits.hello_timeout)
                _admit(hub, room, seat)
            except Refused as refused:
                await send(refused.message)
                await close_or_cut(ws, refused.code)
                return
            except Gone:
                return
            conn = Connection(
                seat,
                ws.send_text,
                queue_limit=limits.send_queue,
                on_drop=dropped,
                address=address,
                check=None if hub.wire is None else hub.wire.to_client,
            )
            chat = await room.chat.backlog(seat)
            # the server's time: the client counts the clock down from it
            welcome = WelcomeMessage(
                type="welcome", game_id=game_id, seat=seat, chat=chat, now=hub.now()
            )
            conn.put(dumps(welcome))
            await room.join(conn)
            if hub.health.down:  # (joined without a pause: a later change reaches it anyway)
                conn.put(hub.health.message())
        finally:
            room.pending -= 1
        room.chat.since(conn, max((line["id"] for line in chat["lines"]), default=0))
        await _listen(ws, hub, room, conn)
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        if conn is None or conn.dropped is None:
            raise  # the server is stopping
    finally:
        if conn is not None:
            conn.close()
            await room.leave(conn)
        if conn is None or conn.dropped is None:
            with contextlib.suppress(Exception):
                await ws.close()


async def _listen(ws: WebSocket, hub: Hub, room: Room, conn: Connection) -> None:
    """Answer the client's messages until it leaves."""
    guards = hub.guards
    address = conn.address or "unknown"
    seat = conn.seat
    strikes = 0
    while True:
        raw = await ws.receive()
        if raw.get("type") == "websocket.disconnect":
            return
        if not guards.message(address):
            strikes += 1
            if strikes > STRIKES:
                await conn.drain()
                await close_or_cut(ws, 1008, "too many messages")
                return
            # answered, never dropped unheard: a client whose move vanished would wait for
            # ever; but not amplified for a client that does not read its answers
            if conn.waiting < ANSWERED_WHILE_WAITING:
                conn.put(OVER_RATE)
            continue
        try:
            msg = parse(hub, raw.get("text") or raw.get("bytes"))
        except BadMessage as exc:
            conn.put(dumps(_error(exc.code, exc.message)))
            continue
        if msg["type"] == "ping":
            conn.put(PONG)
        elif msg["type"] == "hello":
            refusal = _error("malformed", "already greeted; open a new connection for another seat")
            conn.put(dumps(refusal))
        elif msg["type"] == "chat":
            try:
                await room.chat.say(conn, msg["text"])
            except ServerError as exc:  # to this connection only; it stays open
                conn.put(dumps(exc.to_message()))
        elif msg["type"] == "move":
            try:
                await client_move(room, seat, msg["move"], msg["position"])
            except ServerError as exc:
                conn.put(dumps(exc.to_message()))
                conn.put(room.snapshot_text(seat), state=True)
        else:
            try:
                if msg["type"] == "takeback":
                    await asyncio.shield(room.takebacks.ask(seat, msg["position"]))
                else:
                    answer = room.takebacks.answer(seat, msg["position"], msg["accept"])
                    await asyncio.shield(answer)
            except ServerError as exc:
                conn.put(dumps(exc.to_message()))
