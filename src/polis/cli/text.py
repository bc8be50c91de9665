"""What a game draws for terminals: the part each game offers as its ``text`` plug-in.

Each game's ``render`` module provides these functions (the interface,
:class:`~polis.core.parts.TextParts`, lives in the core); the terminal game
(:mod:`polis.cli.play`) only arranges what they return, so it names no game.
"""

from __future__ import annotations

from polis.core.events import Event
from polis.core.moves import Move
from polis.core.parts import TEXT, TextParts
from polis.core.protocol import Game
from polis.core.view import View
from polis.core.wording import Words
from polis.games.text import game_words


def text_parts(game: Game) -> TextParts:
    """The game's text plug-in."""
    return game.plugin(TEXT)


def game_wording(game: Game, lang: str) -> Words | None:
    """The game's catalogue and the terminal's words (a game in a package has its catalogue
    in ``web/i18n``), else None."""
    package = type(game).__module__.rpartition(".")[0]
    return game_words(package, lang) if package else None


__all__ = ["Event", "Move", "TextParts", "View", "game_wording", "text_parts"]
