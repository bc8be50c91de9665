"""What a browser may send over a WebSocket, checked before anything else looks at it.

Messages are small JSON objects; anything larger, not JSON, or not one of the known shapes is
refused with an error to that client only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from polis.server.http.inputs import is_token, text_problem

#: Largest accepted client message, in characters (a move is a dozen).
MAX_MESSAGE = 2048
#: Longest accepted move text / token.
MAX_MOVE = 64
MAX_TOKEN = 128


class BadMessage(Exception):
    """A client message that cannot be understood; ``code`` classifies it for the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Hello:
    token: str | None


@dataclass(frozen=True, slots=True)
class MoveMsg:
    move: str
    position: int


@dataclass(frozen=True, slots=True)
class Ping:
    pass


@dataclass(frozen=True, slots=True)
class ChatMsg:
    """A line for the table's chat (its text is checked by :mod:`polis.server.table.chat`)."""

    text: str


@dataclass(frozen=True, slots=True)
class TakeBackMsg:
    """Take back this seat's last move (made just before ``position``)."""

    position: int


@dataclass(frozen=True, slots=True)
class TakeBackAnswer:
    """Accept or decline the take-back another player asked for at ``position``."""

    position: int
    accept: bool


ClientMessage = Hello | MoveMsg | Ping | ChatMsg | TakeBackMsg | TakeBackAnswer


def parse_client_message(raw: str | bytes | None) -> ClientMessage:
    """Validate one raw message; raises :class:`BadMessage`."""
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
        return Hello(token)
    if kind == "move":
        move = data.get("move")
        position = data.get("position")
        if not isinstance(move, str) or not 0 < len(move) <= MAX_MOVE:
            raise BadMessage("malformed", "'move' must be a move in notation")
        problem = text_problem(move)
        if problem:
            raise BadMessage("malformed", f"'move' cannot be used: {problem}")
        if not isinstance(position, int) or isinstance(position, bool) or position < 0:
            raise BadMessage("malformed", "'position' must be the position counter (an integer)")
        _only(data, {"type", "move", "position"})
        return MoveMsg(move, position)
    if kind == "ping":
        return Ping()
    if kind == "chat":
        text = data.get("text")
        if not isinstance(text, str):
            raise BadMessage("malformed", "'text' must be the chat line (a string)")
        _only(data, {"type", "text"})
        return ChatMsg(text)
    if kind in ("takeback", "takeback_answer"):
        position = data.get("position")
        if not isinstance(position, int) or isinstance(position, bool) or position < 0:
            raise BadMessage("malformed", "'position' must be the position counter (an integer)")
        if kind == "takeback":
            _only(data, {"type", "position"})
            return TakeBackMsg(position)
        accept = data.get("accept")
        if not isinstance(accept, bool):
            raise BadMessage("malformed", "'accept' must be true or false")
        _only(data, {"type", "position", "accept"})
        return TakeBackAnswer(position, accept)
    raise BadMessage(
        "malformed",
        "unknown message type (expected hello, move, chat, takeback, takeback_answer or ping)",
    )


def _only(data: dict[str, Any], keys: set[str]) -> None:
    extra = set(data) - keys
    if extra:
        raise BadMessage("malformed", f"unexpected keys: {', '.join(sorted(extra))}")
