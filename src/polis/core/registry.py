"""Find a game engine by name, importing it only when asked for."""

from __future__ import annotations

import importlib

from polis.core.errors import InputError
from polis.core.protocol import Game

#: game name -> "module:attribute" of its :class:`~polis.core.protocol.Game` instance.
_GAMES = {
    "quadropolis": "polis.quadropolis.game:GAME",
    "metropolys": "polis.metropolys.game:GAME",
}

GAME_NAMES = tuple(_GAMES)


def get_game(name: str) -> Game:
    """The engine of ``name`` (``quadropolis`` or ``metropolys``)."""
    try:
        target = _GAMES[name]
    except KeyError:
        raise InputError(f"unknown game {name!r}: choose one of {', '.join(GAME_NAMES)}") from None
    module, attr = target.split(":")
    game = getattr(importlib.import_module(module), attr)
    assert isinstance(game, Game)
    return game
