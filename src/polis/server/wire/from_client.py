"""Every message a client may send over the table's WebSocket, as types, and the parser that
checks one before anything else looks at it.

Messages are small JSON objects whose ``type`` says which it is (:data:`FromClient`); the
first must be ``hello``. Anything larger than :data:`MAX_MESSAGE` characters, not JSON, not
one of the shapes here or holding a key they do not name is refused with an ``error`` to
that client only (code ``malformed`` or ``too_large``). :func:`parse_client_message` gives
the message as its type; what it accepts, the JSON Schema of the types accepts too (the
tests check both on the same samples, and with ``POLIS_CHECK_WIRE=1`` the server checks
every message it accepted, :mod:`polis.server.wire.check`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, NotRequired

from pydantic import Field
from typing_extensions import TypedDict

from polis.server.http.inputs import is_token, text_problem

#: Largest accepted client message, in characters (a move is a dozen).
MAX_MESSAGE = 2048
#: Longest accepted move text / token.
MAX_MOVE = 64
MAX_TOKEN = 128

#: A seat token: the secret part of its invite link.
Token = Annotated[str, Field(min_length=1, max_length=MAX_TOKEN, pattern=r"^[A-Za-z0-9_-]+$")]
#: A position counter (the state message's ``position``).
Position = Annotated[int, Field(ge=0)]


class ClientHello(TypedDict):
    """The first message: which seat this connection plays (a token), or none to watch."""

    type: Literal["hello"]
    token: NotRequired[Token | None]
    """The seat's token; null (or absent) for a spectator."""


class ClientMove(TypedDict):
    """A move at a position (a stale position is refused with ``stale``)."""

    type: Literal["move"]
    move: Annotated[str, Field(min_length=1, max_length=MAX_MOVE)]
    """The move in the game's notation (a leaf of the state message's ``choices``)."""
    position: Position
    """The state message's ``position`` the move was chosen at."""


class ClientTakeback(TypedDict):
    """Take back this seat's last move."""

    type: Literal["takeback"]
    position: Position


class ClientTakebackAnswer(TypedDict):
    """Accept or decline the take-back another player asked for."""

    type: Literal["takeback_answer"]
    position: Position
    accept: bool


class ClientChat(TypedDict):
    """A line for the table's chat (players only; at most 300 characters, no control or
    direction characters: else ``chat_invalid``; rate-limited)."""

    type: Literal["chat"]
    text: str


class ClientPing(TypedDict):
    """Keep-alive: answered with ``pong``."""

    type: Literal["ping"]


#: Every message a client may send.
FromClient = (
    ClientHello | ClientMove | ClientTakeback | ClientTakebackAnswer | ClientChat | ClientPing
)


class BadMessage(Exception):
    """A client message that cannot be understood; ``code`` classifies it for the client."""

    def __init__(self, code: Literal["malformed", "too_large"], message: str) -> None:
        super().__init__(message)
        self.code: Literal["malformed", "too_large"] = code
        self.message = message


def parse_client_message(raw: str | bytes | None) -> FromClient:
    """Check one raw message; the message as its type, or :class:`BadMessage`."""
    if raw is None:
        raise BadMessage("malformed", "messages must be JSON text")
    if len(raw) > MAX_MESSAGE:
        raise BadMessage("too_large", f"message too large ({len(raw)} > {MAX_MESSAGE} characters)")
    try:
        data: Any = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadMessage("malformed", "message is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("malformed", "message must be a JSON object")
    kind = data.get("type")
    if kind == "hello":
        token = data.get("token")
        if token is not None and (
            not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN or not is_token(token)
        ):
            raise BadMessage("malformed", "'token' must be a seat token (letters, digits, - _)")
        _only(data, {"type", "token"})
        return ClientHello(type="hello", token=token)
    if kind == "move":
        move = data.get("move")
        if not isinstance(move, str) or not 0 < len(move) <= MAX_MOVE:
            raise BadMessage("malformed", "'move' must be a move in notation")
        problem = text_problem(move)
        if problem:
            raise BadMessage("malformed", f"'move' cannot be used: {problem}")
        position = _position(data.get("position"))
        _only(data, {"type", "move", "position"})
        return ClientMove(type="move", move=move, position=position)
    if kind == "ping":
        _only(data, {"type"})
        return ClientPing(type="ping")
    if kind == "chat":
        text = data.get("text")
        if not isinstance(text, str):
            raise BadMessage("malformed", "'text' must be the chat line (a string)")
        _only(data, {"type", "text"})
        return ClientChat(type="chat", text=text)
    if kind in ("takeback", "takeback_answer"):
        position = _position(data.get("position"))
        if kind == "takeback":
            _only(data, {"type", "position"})
            return ClientTakeback(type="takeback", position=position)
        accept = data.get("accept")
        if not isinstance(accept, bool):
            raise BadMessage("malformed", "'accept' must be true or false")
        _only(data, {"type", "position", "accept"})
        return ClientTakebackAnswer(type="takeback_answer", position=position, accept=accept)
    raise BadMessage(
        "malformed",
        "unknown message type (expected hello, move, chat, takeback, takeback_answer or ping)",
    )


def _position(position: Any) -> int:
    if not isinstance(position, int) or isinstance(position, bool) or position < 0:
        raise BadMessage("malformed", "'position' must be the position counter (an integer)")
    return position


def _only(data: dict[str, Any], keys: set[str]) -> None:
    extra = set(data) - keys
    if extra:
        raise BadMessage("malformed", f"unexpected keys: {', '.join(sorted(extra))}")
