"""What a game draws for terminals: the part each game offers as its ``text`` plug-in.

Each game's ``render`` module provides these functions (see ``Game.plugins``); the terminal
game (:mod:`polis.cli.play`) only arranges what they return, so it names no game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, cast

from polis.core.events import Event
from polis.core.moves import Move
from polis.core.protocol import Game
from polis.core.view import View


class TextParts(Protocol):
    """A game's text drawing for an 80-column terminal.

    Every word comes from the game's catalogue in the language ``lang`` names (one of
    :data:`polis.core.wording.LANGUAGES`); the notation stays as it is."""

    def legend(self, lang: str = "en") -> str:
        """What the signs on the board mean."""
        ...

    def board(
        self, view: Any, names: Sequence[str] | None = None, width: int = 80, lang: str = "en"
    ) -> str:
        """The table as the view's seat sees it, seats named ``names``."""
        ...

    def narrate(self, event: Event, names: Sequence[str], lang: str = "en") -> str | None:
        """One line telling ``event`` to a person (None: nothing worth a line)."""
        ...

    def moves_text(self, view: Any, legal: Sequence[Any], query: str = "", lang: str = "en") -> str:
        """The legal moves, grouped compactly (``query`` narrows them)."""
        ...

    def example(self, view: Any, legal: Sequence[Any]) -> str:
        """One legal move to show as an example in the prompt (notation)."""
        ...

    def prompt_help(self, view: Any, lang: str = "en") -> str:
        """What to type, in the notation's words."""
        ...


def text_parts(game: Game) -> TextParts:
    """The game's text plug-in."""
    return cast(TextParts, game.plugin("text"))


__all__ = ["Event", "Move", "TextParts", "View", "text_parts"]
