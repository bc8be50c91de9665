"""Real traffic checked against the wire contract: a switch for tests, off by default.

With ``POLIS_CHECK_WIRE=1`` in its environment (:attr:`ServerConfig.check_wire
<polis.server.config.ServerConfig.check_wire>`), a server process checks every message it
sends a client (each text as it is queued on a connection, :class:`~polis.server.live.
presence.Connection`, or sent before one exists), every client message its parser accepted,
every bus message it publishes or hears, every HTTP error body and every push payload,
against the types of :mod:`polis.server.wire` (pydantic, closed and strict:
:mod:`~polis.server.wire.schema`). A mismatch is logged at ERROR with :data:`MARK` (the
tests' server processes fail on that line), kept in :data:`VIOLATIONS` (the in-process tests
fail on any) and raised as :class:`WireError`: nothing that breaks the contract goes out
quietly. Off, nothing is checked and nothing costs anything: the callers hold ``None``
instead of a :class:`WireCheck`.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Mapping
from typing import Any, NoReturn

from pydantic import TypeAdapter, ValidationError

from polis.core.protocol import Game
from polis.server.live.jsontext import dumps, loads
from polis.server.wire.schema import (
    bot_answer_adapter,
    bot_event_adapter,
    bus_adapter,
    error_body_adapter,
    from_client_adapter,
    push_adapter,
    to_client_adapter,
)

log = logging.getLogger("polis.server")

#: The environment variable that turns the checks on ("1").
ENV = "POLIS_CHECK_WIRE"
#: The words every mismatch is logged with.
MARK = "wire contract broken"
#: Every mismatch found in this process, oldest first (tests assert it stays empty).
VIOLATIONS: list[str] = []
#: Texts remembered as checked (a state message goes to every connection of a seat alike).
REMEMBER = 256


def enabled(env: Mapping[str, str] | None = None) -> bool:
    """Whether ``env`` (default: this process's) turns the checks on."""
    return (os.environ if env is None else env).get(ENV, "").strip() == "1"


class WireError(AssertionError):
    """A message that breaks the wire contract (a bug in the server)."""


class WireCheck:
    """The checks of a server serving ``games`` (their views and choices in state messages)."""

    def __init__(self, games: Mapping[str, Game]) -> None:
        self.games = games
        self._checked: dict[str, None] = {}
        # built now (a tenth of a second each, once a process): the first message of a game
        # is not held up by it
        for game in games.values():
            to_client_adapter(game)
        for built in (to_client_adapter, from_client_adapter, bus_adapter):
            built()

    def to_client(self, text: str) -> None:
        """A message for a client, as sent (a WebSocket text frame)."""
        if text in self._checked:
            return
        try:
            data = loads(text)
        except ValueError as exc:
            self._fail("a message to a client", text, exc)
        game = None
        if isinstance(data, dict) and data.get("type") == "state":
            game = self.games.get(str(data.get("game")))
            if game is None:
                self._fail("a message to a client", text, f"no such game {data.get('game')!r}")
        self._validate(to_client_adapter(game), "a message to a client", text)
        self._checked[text] = None
        if len(self._checked) > REMEMBER:
            del self._checked[next(iter(self._checked))]

    def sender(self) -> Callable[[str], None]:
        """:meth:`to_client` as a connection calls it on every text it queues."""
        return self.to_client

    def from_client(self, raw: str | bytes) -> None:
        """A client's message the server's parser accepted, as it came (read as the parser
        reads it: a lone surrogate in a string is the chat's to refuse, not the parser's)."""
        what = "a message from a client"
        try:
            data = json.loads(raw)
        except ValueError as exc:
            self._fail(what, raw, exc)
        try:
            from_client_adapter().validate_python(data)
        except ValidationError as exc:
            self._fail(what, raw, exc)

    def bus(self, message: Mapping[str, Any], heard: bool = False) -> None:
        """A bus message published here, or ``heard`` from another process."""
        what = "a bus message heard" if heard else "a bus message published"
        self._validate(bus_adapter(), what, dumps(message))

    def http_error(self, body: Mapping[str, Any]) -> None:
        """The body of an HTTP refusal."""
        self._validate(error_body_adapter(), "an HTTP error body", dumps(body))

    def push(self, payload: Mapping[str, Any]) -> None:
        """The payload of a turn notification."""
        self._validate(push_adapter(), "a push payload", dumps(payload))

    def bot_event(self, text: str) -> None:
        """A line of a bot's event stream (:mod:`polis.server.wire.bot`), as sent."""
        self._validate(bot_event_adapter(), "a bot event", text)

    def bot_answer(self, kind: Any, body: Mapping[str, Any]) -> None:
        """The body of a bot API answer, against its type ``kind``."""
        self._validate(bot_answer_adapter(kind), "a bot API answer", dumps(body))

    def _validate(self, adapter: TypeAdapter[Any], what: str, text: str | bytes) -> None:
        try:
            adapter.validate_json(text)
        except ValidationError as exc:
            self._fail(what, text, exc)

    @staticmethod
    def _fail(what: str, text: str | bytes, problem: object) -> NoReturn:
        shown = text if isinstance(text, str) else text.decode(errors="replace")
        if len(shown) > 2000:
            shown = shown[:2000] + "..."
        report = f"{MARK}: {what} does not fit its type: {problem}\n{shown}"
        VIOLATIONS.append(report)
        log.error("%s", report)
        raise WireError(report)
