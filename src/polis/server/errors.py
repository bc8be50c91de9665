"""Refusals the server sends back: one error shape for HTTP answers and WebSocket messages.

Every HTTP status the server answers with other than 2xx carries the body
``{"error": {"type": "error", "code": ..., "message": ..., "rule"?: ...}}``; on a WebSocket
the inner object is the message. ``code`` is stable (clients branch on it), ``message`` is
words for people, ``rule`` names the rule of the game that refused a move.
"""

from __future__ import annotations

from polis.server.wire.to_client import ErrorCode, ErrorMessage

#: HTTP status of each error code (anything else is a 400). The codes themselves are the wire
#: contract's :data:`~polis.server.wire.to_client.ErrorCode`.
STATUS: dict[ErrorCode, int] = {
    "not_found": 404,
    "method_not_allowed": 405,
    "unauthorized": 401,
    "forbidden": 403,
    "bad_token": 403,
    "not_finished": 409,
    "seat_taken": 409,
    "name_taken": 409,
    "waiting": 409,
    "no_takeback": 409,
    "no_hint": 409,
    "bad_request": 400,
    "invalid": 422,
    "too_large": 413,
    "rate_limited": 429,
    "full": 429,
    "unavailable": 503,
    "internal": 500,
}


#: The code of an HTTP status raised outside polis's own code (routing, body parsing).
CODE_OF_STATUS: dict[int, ErrorCode] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    422: "invalid",
    429: "rate_limited",
    503: "unavailable",
}


class ServerError(Exception):
    """A request the server refuses; ``code`` tells the client which kind."""

    def __init__(self, code: ErrorCode, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    @property
    def status(self) -> int:
        return STATUS.get(self.code, 400)

    def to_message(self) -> ErrorMessage:
        """The ``{"type": "error", ...}`` message (also the ``error`` of an HTTP refusal's
        body): the one place an error message is built."""
        msg = ErrorMessage(type="error", code=self.code, message=self.message)
        if self.rule:
            msg["rule"] = self.rule
        return msg
