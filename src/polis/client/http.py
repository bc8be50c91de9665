"""The bot API over HTTP (httpx): one call a method, the two NDJSON streams as iterators of
typed values, and the one error shape as :class:`ApiError`.

Each stream method opens one connection and yields until it ends or fails; a stream that
stays silent longer than :data:`SILENCE` (the server sends a keep-alive line every 7 s) is
taken for dead. Reconnecting is the caller's (:mod:`polis.client.runner`, with
:class:`~polis.client.backoff.Backoff`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx

from polis.client.events import Event, read_event

#: Seconds a stream may stay silent (not even a keep-alive) before it counts as dead.
SILENCE = 20.0
#: Seconds an ordinary call may take.
TIMEOUT = 30.0
#: Statuses that no retry mends: the token is refused, or the request is wrong.
FATAL = frozenset({400, 401, 403, 404, 405, 413, 422})


def _segment(text: str) -> str:
    """``text`` as one segment of a path (an id typed by a person: no ``/`` or ``?`` in it
    reaches another route)."""
    return quote(text, safe="")


class ApiError(Exception):
    """A refusal of the server, in its one error shape (``code``: what to branch on)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message

    @property
    def fatal(self) -> bool:
        """Trying again cannot help (a refused token, an unknown game, a bad request)."""
        return self.status in FATAL

    @classmethod
    def of(cls, response: httpx.Response) -> ApiError:
        try:
            error = response.json()["error"]
            return cls(response.status_code, str(error["code"]), str(error["message"]))
        except (ValueError, KeyError, TypeError):
            text = response.text[:200] if not response.is_stream_consumed else ""
            return cls(response.status_code, "http", text or response.reason_phrase)


class BotClient:
    """One bot token's calls to one server."""

    def __init__(
        self,
        server: str,
        token: str,
        *,
        timeout: float = TIMEOUT,
        silence: float = SILENCE,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.server = server.rstrip("/")
        self.silence = silence
        self.http = httpx.Client(
            base_url=self.server,
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
            timeout=timeout,
            transport=transport,
        )

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> BotClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- calls ----------------------------------------------------------------------------------
    def _call(self, method: str, path: str, body: Any = None) -> Any:
        response = self.http.request(method, path, json=body)
        if response.status_code != 200:
            raise ApiError.of(response)
        return response.json()

    def account(self) -> dict[str, Any]:
        """The bot account the token acts for: ``{"name", "bot"}``."""
        found: dict[str, Any] = self._call("GET", "/api/bot/account")
        return found

    def move(self, game_id: str, move: str | int, position: int) -> int:
        """Play ``move`` (notation or action id) at ``position``; the position after it."""
        body = {"move": move, "position": position}
        found = self._call("POST", f"/api/bot/games/{game_id}/move", body)
        return int(found["position"])

    def accept(self, challenge_id: str) -> tuple[str, int]:
        """Accept a challenge: the table's id and the bot's seat there."""
        found = self._call("POST", f"/api/bot/challenges/{challenge_id}/accept")
        return str(found["game_id"]), int(found["seat"])

    def decline(self, challenge_id: str) -> None:
        self._call("POST", f"/api/bot/challenges/{challenge_id}/decline")

    def tables(self) -> list[dict[str, Any]]:
        """Listed tables whose open seats bot accounts may take."""
        found: list[dict[str, Any]] = self._call("GET", "/api/bot/tables")["tables"]
        return found

    def take_seat(self, game_id: str, seat: int | None = None) -> int:
        """Take an open seat of a table that seats bots; the seat taken."""
        found = self._call("POST", f"/api/bot/games/{game_id}/seats", {"seat": seat})
        return int(found["seat"])

    # -- events (tournaments) -------------------------------------------------------------------
    def list_events(self) -> dict[str, list[dict[str, Any]]]:
        """The server's events: ``{"upcoming", "running", "finished"}``, each a list of
        summaries (``id``, ``name``, ``game``, ``mode``, ``format``, ``starts`` ...)."""
        found: dict[str, list[dict[str, Any]]] = self._call("GET", "/api/events")
        return found

    def event(self, event_id: str) -> dict[str, Any]:
        """One event as the server shows it: its ``status``, ``roster``, ``schedule`` and
        ``standings``; ``joined`` says whether the bot is an entrant."""
        found: dict[str, Any] = self._call("GET", f"/api/events/{_segment(event_id)}")
        return found

    def join_event(self, event_id: str) -> dict[str, Any]:
        """Enter the event (before it starts), as a person's join does: its tables are then
        the bot's games (``game_start`` on the event stream). ``{"event_id", "joined",
        "withdrawn"}``."""
        found: dict[str, Any] = self._call("POST", f"/api/events/{_segment(event_id)}/join")
        return found

    def leave_event(self, event_id: str) -> dict[str, Any]:
        """Leave the event: before its start the entry goes; once running the bot is paired no
        more (its results stand, a table it sits at plays on)."""
        found: dict[str, Any] = self._call("POST", f"/api/events/{_segment(event_id)}/leave")
        return found

    # -- streams --------------------------------------------------------------------------------
    def _lines(self, path: str) -> Iterator[str]:
        """The non-empty lines of one NDJSON stream (keep-alives skipped)."""
        timeout = httpx.Timeout(TIMEOUT, read=self.silence)
        with self.http.stream("GET", path, timeout=timeout) as response:
            if response.status_code != 200:
                response.read()
                raise ApiError.of(response)
            for line in response.iter_lines():
                if line.strip():
                    yield line

    def events(self) -> Iterator[Event]:
        """The bot's event stream, one connection: challenges, games starting and over."""
        for line in self._lines("/api/bot/stream"):
            event = read_event(json.loads(line))
            if event is not None:
                yield event

    def game_states(self, game_id: str) -> Iterator[dict[str, Any]]:
        """The seat's state messages at table ``game_id``, one connection, until the game is
        over (the server ends the stream after the last)."""
        for line in self._lines(f"/api/bot/games/{game_id}/stream"):
            message = json.loads(line)
            if isinstance(message, dict) and message.get("type") == "state":
                yield message
