"""The wire contract on the tests' side: the test clients check every message they receive
and send (and every HTTP error body) against the types of ``polis.server.wire``, as the
servers under test check their own side (``POLIS_CHECK_WIRE=1``, set by conftest.py).

A mismatch raises ``WireError`` at once and is kept in ``polis.server.wire.check.VIOLATIONS``,
which conftest.py's ``wire_kept`` fixture fails the test on (a check made in a callback, as
Playwright's, cannot raise into the test)."""

from __future__ import annotations

import json
from typing import Any

from polis.core.registry import games
from polis.server.wire.check import WireCheck

#: The checks, for every registered game (the toy "counting" game included).
CHECK = WireCheck(games())


def received(text: str | bytes) -> None:
    """A WebSocket message from the server, as it came."""
    CHECK.to_client(text if isinstance(text, str) else text.decode())


def sent(message: Any) -> str:
    """A message a test client sends: checked, and its text."""
    text = json.dumps(message)
    CHECK.from_client(text)
    return text


def http_answer(status: int, body: Any) -> None:
    """An HTTP answer: every refusal has the one error body."""
    if status >= 400:
        CHECK.http_error(body)
