"""Every game polis knows, found once: each game registers itself as a ``polis.games`` entry
point (``pyproject.toml``) whose value is its :class:`~polis.core.protocol.Game` object.

Nothing here names a game. Upper layers iterate :func:`games` or ask :func:`get_game`; a
game defined elsewhere (a plug-in, a test) is loaded by ``"module:attribute"``
(:func:`load_game`) or added with :func:`register_game`.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from polis.core.errors import InputError
from polis.core.protocol import Game

GROUP = "polis.games"

_GAMES: dict[str, Game] = {}
_FOUND: dict[str, str] = {}


def _discover() -> dict[str, str]:
    """Entry-point name -> "module:attribute", read once."""
    if not _FOUND:
        for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
            _FOUND[point.name] = point.value
    return _FOUND


def register_game(game: Game) -> Game:
    """Make ``game`` known by its name (plug-ins and tests); returns it."""
    _GAMES[game.name] = game
    return game


def game_names() -> tuple[str, ...]:
    """Names of every installed game, in registration order."""
    return tuple(dict.fromkeys([*_discover(), *_GAMES]))


def games() -> dict[str, Game]:
    """Every installed game by name (importing each engine)."""
    return {name: get_game(name) for name in game_names()}


def _load(target: str) -> Game:
    module, _, attr = target.partition(":")
    try:
        game = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise InputError(f"cannot load the game {target!r}: {exc}") from None
    if not isinstance(game, Game):
        raise InputError(f"{target!r} is not a polis game")
    return game


def get_game(name: str) -> Game:
    """The installed (or registered) game called ``name``; InputError naming the choices.

    Never imports anything a name from a file or a request could choose beyond the
    installed games (see :func:`load_game` for plug-ins named by their module).
    """
    found = _GAMES.get(name)
    if found is not None:
        return found
    target = _discover().get(name) if isinstance(name, str) else None
    if target is None:
        known = ", ".join(game_names()) or "none installed"
        raise InputError(f"unknown game {name!r}: choose one of {known}")
    return register_game(_load(target))


def load_game(spec: str) -> Game:
    """A game by name, or (for plug-ins and tests, given by the person running polis) the
    game object at ``"module:attribute"``, which is then registered under both names."""
    if ":" not in spec:
        return get_game(spec)
    found = _GAMES.get(spec)
    if found is None:
        found = register_game(_load(spec))
        _GAMES[spec] = found
    return found


__all__ = ["GROUP", "game_names", "games", "get_game", "load_game", "register_game"]
