"""A seat's view object back from the state message's JSON, for its agent.

A game that offers the ``read_view`` part (:data:`polis.core.parts.READ_VIEW`: both polis
games do) gives its own view back, equal to the one the server's seat has: the agents
decide and determinize from it exactly as the server's bots do. For a game without the part
the agent gets a :class:`JsonView`: the protocol's fields and the JSON, enough for an agent
that looks at the legal moves only (``random``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from polis.core.errors import InputError
from polis.core.moves import Move, MoveList
from polis.core.parts import READ_VIEW
from polis.core.protocol import Game
from polis.core.view import View


@dataclass(frozen=True, slots=True)
class JsonView(View):
    """The view of a game that cannot read its own JSON back: the protocol's fields, and
    the JSON as it came (:attr:`data`)."""

    game: ClassVar[str] = "json"

    mode: str
    players: int
    player: int | None
    current_player: int
    moves: tuple[Move, ...]
    data: Mapping[str, Any]

    def to_json(self) -> Mapping[str, Any]:
        return self.data


def seat_view(game: Game, data: Mapping[str, Any]) -> View:
    """The view the state message's ``view`` JSON was written from."""
    try:
        read = game.plugin(READ_VIEW)
    except InputError:
        mode = str(data["mode"])
        return JsonView(
            mode=mode,
            players=int(data["players"]),
            player=data.get("player"),
            current_player=int(data["current_player"]),
            moves=tuple(game.parse_move(text, mode) for text in data.get("moves", ())),
            data=data,
        )
    return read(data)


def legal_moves(game: Game, mode: str, texts: list[str]) -> MoveList[Move]:
    """The state message's ``legal`` notation as the game's moves."""
    return MoveList(game.parse_move(text, mode) for text in texts)
