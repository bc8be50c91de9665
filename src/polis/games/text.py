"""Text helpers every game's ``render`` module shares (it names no game).

Seats are lettered A-D on every terminal board, and a board ends with the same scores line.
"""

from __future__ import annotations

from collections.abc import Sequence

from polis.core.view import View

LETTERS = "ABCD"


def seat_names(view: View, names: Sequence[str] | None) -> list[str]:
    """The names to print beside the seat letters (``player 1`` ... when none are given)."""
    return list(names) if names else [f"player {i + 1}" for i in range(view.players)]


def heading(title: str, view: View, names: Sequence[str]) -> str:
    """The board's first line: the game, and who is to move (or that it is over)."""
    if view.finished:
        return f"{title} - game over"
    return f"{title} - {LETTERS[view.current_player]} {names[view.current_player]} to move"


def scores_line(scores: Sequence[int]) -> str:
    """``Scores: A 12, B 41`` under a finished game's board."""
    return "Scores: " + ", ".join(f"{LETTERS[p]} {s}" for p, s in enumerate(scores))


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
