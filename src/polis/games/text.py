"""Text helpers every game's ``render`` module shares (it names no game).

Seats are lettered A-D on every terminal board, and a board ends with the same scores line.
Every word comes from a catalogue (:func:`game_words`): the game's own, then the terminal's
words every game shares (``polis/games/i18n/<lang>.json``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from polis.core.events import Event
from polis.core.view import View
from polis.core.wording import DEFAULT, Words, words

LETTERS = "ABCD"


def seat_label(seat: int, name: str) -> str:
    """A seat as every terminal line names it: its letter and, in brackets, who sits there
    (``A (you) builds ...``, ``B (bot easy) is thinking``); the letter alone without a name."""
    return f"{LETTERS[seat]} ({name})" if name else LETTERS[seat]


#: A game's ``render.messages``: the catalogue's keys and arguments that word one event (the
#: same the browser's ``describe`` gives), for seats named ``names``.
Messages = Callable[[Event, Sequence[str], Words], list[tuple[str, dict[str, Any]]]]


def narration(
    event: Event, names: Sequence[str], say: Words, messages: Messages, quiet: frozenset[str]
) -> str | None:
    """One line for a person reading the game, seats lettered; None for the events in
    ``quiet`` (a terminal need not print them) or that the game words as nothing."""
    if event.key in quiet:
        return None
    lettered = [seat_label(i, n) for i, n in enumerate(names)]
    return " ".join(say(key, params) for key, params in messages(event, lettered, say)) or None


def game_words(package: str, lang: str = DEFAULT) -> Words:
    """The terminal's translator for the game in ``package``: its catalogue
    (``web/i18n``, the one the browser reads), then the words every game shares."""
    return words(lang, (package, "web/i18n"), ("polis.games", "i18n"))


def seat_names(view: View, names: Sequence[str] | None, say: Words | None = None) -> list[str]:
    """The names to print beside the seat letters (``player 1`` ... when none are given)."""
    if names:
        return list(names)
    say = say or words(DEFAULT, ("polis.games", "i18n"))
    return [say("term.player", n=i + 1) for i in range(view.players)]


def heading(title: str, view: View, names: Sequence[str], say: Words) -> str:
    """The board's first line: the game, and who is to move (or that it is over)."""
    if view.finished:
        return say("term.heading.over", title=title)
    p = view.current_player
    return say("term.heading.to_move", title=title, seat=LETTERS[p], name=names[p])


def scores_line(scores: Sequence[int], say: Words) -> str:
    """``Scores: A 12, B 41`` under a finished game's board."""
    line = ", ".join(f"{LETTERS[p]} {s}" for p, s in enumerate(scores))
    return say("term.scores", scores=line)


def wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    """Lines of ``text`` broken at spaces to at most ``width`` columns, continued indented."""
    out = []
    for line in text.splitlines():
        while len(line) > width and " " in line[:width]:
            cut = line.rfind(" ", 0, width)
            out.append(line[:cut])
            line = indent + line[cut + 1 :]
        out.append(line)
    return out


def legend_lines(text: str, width: int = 80, indent: str = "  ") -> list[str]:
    """A legend's lines of ``sign = meaning`` entries (separated by ``; ``) in ``width``
    columns, broken between entries where one fits, continued indented."""
    out: list[str] = []
    for line in text.splitlines():
        pieces = line.split("; ")
        current = ""
        for i, piece in enumerate(pieces):
            piece += ";" if i < len(pieces) - 1 else ""
            joined = f"{current} {piece}" if current.strip() else current + piece
            if len(joined) <= width or not current.strip():
                current = joined
            else:
                out += wrap(current, width, indent)
                current = indent + piece
        out += wrap(current, width, indent)
    return out
