"""Moves as small immutable values, the fixed action space of a game, and legal-move lists.

A move is a :class:`Move`: it knows its notation (``str(move)``) and its stable integer id in
the game's fixed action space (the ids the research adapters use). Every game builds all of
its moves once per mode, at import, in an :class:`ActionSpace`; engines hand out those very
objects, so moves compare and hash by identity (as fast as ints) and lists of legal moves
cost no allocation per move. Notation is parsed only where text enters the process
(:meth:`ActionSpace.parse`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

from polis.core.errors import NotationError


class Move:
    """One move of one game and mode; created only by its game's :class:`ActionSpace`.

    ``id`` is the move's index in the action space, ``text`` its notation. Moves are
    interned: there is exactly one object per id and mode, so ``==`` is identity (pickling
    returns the interned object too, see :meth:`__reduce__`).
    """

    __slots__ = ("id", "text")

    id: int
    text: str

    def __init__(self, id: int, text: str) -> None:
        self.id = id
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.text} #{self.id}>"

    def __reduce__(self) -> tuple[Callable[..., Move], tuple[Any, ...]]:
        """Unpickle to the interned move (moves cross process borders in arenas and bots)."""
        raise NotImplementedError(f"{type(self).__name__} must say how it is unpickled")


M_co = TypeVar("M_co", bound=Move, covariant=True)


class ActionSpace(Generic[M_co]):
    """Every move of one game and mode, in id order; ``space[id]`` is the move of that id.

    Built once per mode. ``parse`` turns canonical notation into the interned move through a
    dictionary; a game may pass ``parser`` for spellings the dictionary does not hold (extra
    spaces, lower case), which must return a move of this space or raise NotationError.
    """

    __slots__ = ("_by_text", "_parser", "game", "mode", "moves")

    def __init__(
        self,
        game: str,
        mode: str,
        moves: Sequence[M_co],
        parser: Callable[[str], M_co] | None = None,
    ) -> None:
        self.game = game
        self.mode = mode
        self.moves: tuple[M_co, ...] = tuple(moves)
        assert all(m.id == i for i, m in enumerate(self.moves)), "move ids must be 0..n-1"
        self._by_text: dict[str, M_co] = {m.text: m for m in self.moves}
        self._parser = parser

    def __len__(self) -> int:
        return len(self.moves)

    def __getitem__(self, action: int) -> M_co:
        return self.moves[action]

    def __iter__(self) -> Iterator[M_co]:
        return iter(self.moves)

    def move(self, action: int) -> M_co:
        """The move of ``action``; NotationError (not IndexError) outside the space."""
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < len(self):
            raise NotationError(
                f"action {action!r} is outside 0..{len(self) - 1} of {self.game} {self.mode}"
            )
        return self.moves[action]

    def parse(self, text: str) -> M_co:
        """The move written ``text`` (formats.md notation); NotationError for anything else."""
        if not isinstance(text, str):
            raise NotationError(f"a {self.game} move is text, not {text!r}")
        found = self._by_text.get(text)
        if found is not None:
            return found
        if self._parser is not None:
            return self._parser(text)
        raise NotationError(f"{text!r} is not a {self.game} {self.mode} move")


class MoveList(tuple[M_co, ...]):
    """The legal moves of a position: an immutable sequence with ``in``, ``len`` and ids."""

    __slots__ = ()

    def ids(self) -> list[int]:
        """The action ids of the moves, in the list's order."""
        return [m.id for m in self]

    def find(self, text: str) -> M_co | None:
        """The legal move whose notation is ``text`` (canonical spelling), or None."""
        for m in self:
            if m.text == text:
                return m
        return None


def texts(moves: Iterable[Move]) -> list[str]:
    """The notation of ``moves`` (for files, messages and terminals)."""
    return [m.text for m in moves]


__all__ = ["ActionSpace", "Move", "MoveList", "texts"]
