"""The bot API's side of the wire contract: the lines of a bot's event stream and the bodies
the bot API and the account's token routes answer with.

A bot's *game* stream needs no type of its own: each of its lines is the seat's ``state``
message, exactly as the seat's WebSocket gets it (:class:`~polis.server.wire.to_client.
StateMessage`). The event stream's lines are :data:`BotEvent`; a line holding nothing is a
keep-alive. Request bodies are the routes' models (:mod:`polis.server.wire.http`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import with_config
from typing_extensions import TypedDict

from polis.server.wire.to_client import CONFIG

#: The one scope a token has: playing through the bot API.
Scope = Literal["bot:play"]


@with_config(CONFIG)
class BotAccountJSON(TypedDict):
    """The account a token acts for."""

    name: str
    bot: bool
    """Always true: only bot accounts hold tokens."""


@with_config(CONFIG)
class BotTokenJSON(TypedDict):
    """One of the account's API tokens, as its list shows it (never the secret)."""

    id: str
    """The token's public id: what revoking names."""
    label: str
    """The owner's words for it."""
    scope: Scope
    created: str
    """When it was made: ISO 8601, UTC."""
    last_used: float | None
    """When it was last used (seconds since the epoch, to the minute); null: never."""
    revoked: float | None
    """When it was revoked (seconds since the epoch); null while it works."""


@with_config(CONFIG)
class BotTokenMade(BotTokenJSON):
    """A token just made: the only answer that holds its secret (the server keeps its
    SHA-256 only)."""

    token: str
    """The secret: send it as ``Authorization: Bearer <token>``."""


@with_config(CONFIG)
class BotTokensJSON(TypedDict):
    """The account's tokens, newest first."""

    tokens: list[BotTokenJSON]


@with_config(CONFIG)
class BotMadeJSON(TypedDict):
    """The account is a bot account now."""

    account: BotAccountJSON


#: A challenge as its two accounts see it (``from`` is a Python keyword: the functional form).
ChallengeJSON = TypedDict(
    "ChallengeJSON",
    {
        "id": str,
        "from": str,
        "to": str,
        "game": str,
        "mode": str,
        "players": int,
        "rated": bool,
        "clock": dict[str, Any] | None,
        "stand_in": str | None,
        "away_limit": float | None,
        "status": str,
        "created": str,
        "game_id": str | None,
    },
)
with_config(CONFIG)(ChallengeJSON)
ChallengeJSON.__doc__ = (
    "A challenge: its id, the challenger (`from`) and the challenged (`to`), the table it asks "
    "for (`game`, `mode`, `players`, `rated`, `clock`, `stand_in`, `away_limit`), its `status` "
    "(`open`, `accepted`, `declined`, `withdrawn`), when it was made (`created`, ISO 8601) and "
    "the table accepting it made (`game_id`, else null)."
)


class BotGameJSON(TypedDict):
    """A table where the bot holds a seat."""

    id: str
    """The game's id: its game stream is ``/api/bot/games/{id}/stream``."""
    game: str
    mode: str
    players: int
    seat: int
    """The bot's seat (0-based)."""
    rated: bool


class BotChallengeEvent(TypedDict):
    """Someone challenged the bot (open challenges are told again on every connection):
    accept or decline it."""

    type: Literal["challenge"]
    challenge: ChallengeJSON


class BotGameStartEvent(TypedDict):
    """A table where the bot holds a seat is under way (every seat taken): open its game
    stream. Told again on every connection for each game not yet over."""

    type: Literal["game_start"]
    game: BotGameJSON


class BotGameFinishEvent(TypedDict):
    """A game this connection told of is over."""

    type: Literal["game_finish"]
    game: BotGameJSON
    result: dict[str, Any] | None
    """The game's result object (formats.md §3)."""


#: A line of the event stream.
BotEvent = BotChallengeEvent | BotGameStartEvent | BotGameFinishEvent


@with_config(CONFIG)
class BotMoved(TypedDict):
    """A move the game took."""

    game_id: str
    position: int
    """The game's position after it (the next move is sent with this one)."""


@with_config(CONFIG)
class BotSeated(TypedDict):
    """The bot holds a seat at this table now (a challenge accepted, an open seat taken)."""

    game_id: str
    seat: int


class BotTableJSON(TypedDict):
    """A listed table whose open seats bot accounts may take."""

    id: str
    game: str
    mode: str
    players: int
    names: list[str]
    """The seats' names (empty for an open seat)."""
    vacant: list[int]
    """The open seats."""
    clock: dict[str, Any] | None
    """The table's clock rule, or null."""


@with_config(CONFIG)
class BotTablesJSON(TypedDict):
    """Tables with open seats for bots, newest first."""

    tables: list[BotTableJSON]


#: Every body the bot API and the token routes answer with (2xx); each is a root of its own
#: (closed and strict by :data:`~polis.server.wire.to_client.CONFIG`).
BotAnswer = (
    BotAccountJSON
    | BotMadeJSON
    | BotTokenMade
    | BotTokenJSON
    | BotTokensJSON
    | BotMoved
    | BotSeated
    | BotTablesJSON
    | ChallengeJSON
)

__all__ = [
    "BotAccountJSON",
    "BotAnswer",
    "BotChallengeEvent",
    "BotEvent",
    "BotGameFinishEvent",
    "BotGameJSON",
    "BotGameStartEvent",
    "BotMadeJSON",
    "BotMoved",
    "BotSeated",
    "BotTableJSON",
    "BotTablesJSON",
    "BotTokenJSON",
    "BotTokenMade",
    "BotTokensJSON",
    "ChallengeJSON",
    "Scope",
]
