"""The bot API's events as typed values: what a line of the event stream says.

The server's types (``polis.server.wire.bot``) are the contract; these are their client
side, read defensively: an event of a kind this client does not know yet is skipped (None),
so a newer server does not break an older client.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Challenge:
    """Someone challenged the bot."""

    id: str
    challenger: str
    game: str
    mode: str
    players: int
    rated: bool


@dataclass(frozen=True, slots=True)
class GameStart:
    """A table where the bot holds ``seat`` is under way."""

    id: str
    game: str
    mode: str
    players: int
    seat: int
    rated: bool


@dataclass(frozen=True, slots=True)
class GameFinish:
    """A game is over; ``result`` is its result object (formats.md §3), if stored."""

    id: str
    game: str
    seat: int
    result: Mapping[str, Any] | None


Event = Challenge | GameStart | GameFinish


def read_event(data: Any) -> Event | None:
    """The event a line holds (None: a kind this client does not know, or not an event)."""
    if not isinstance(data, dict):
        return None
    kind = data.get("type")
    try:
        if kind == "challenge":
            c = data["challenge"]
            return Challenge(
                str(c["id"]),
                str(c["from"]),
                str(c["game"]),
                str(c["mode"]),
                int(c["players"]),
                bool(c["rated"]),
            )
        if kind in ("game_start", "game_finish"):
            g = data["game"]
            if kind == "game_finish":
                return GameFinish(str(g["id"]), str(g["game"]), int(g["seat"]), data.get("result"))
            return GameStart(
                str(g["id"]),
                str(g["game"]),
                str(g["mode"]),
                int(g["players"]),
                int(g["seat"]),
                bool(g["rated"]),
            )
    except (KeyError, TypeError, ValueError):
        return None
    return None
