"""Errors that polis reports to people: each names the rule (or format) that was broken.

Everything a user can get wrong raises a subclass of :class:`PolisError`; the command line
turns it into one clear message and exit code 2, the server into an error message to that
client only. An engine that raises never changes its state.
"""

from __future__ import annotations


class PolisError(Exception):
    """Base of every error that is the user's input, not a bug in polis."""

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        #: Short reference to the rule broken, e.g. ``"<game> §5.1"`` (optional).
        self.rule = rule

    def __str__(self) -> str:
        return self.message


class IllegalMove(PolisError):
    """A move the rules forbid in the current position (the message says which rule)."""


class NotationError(PolisError):
    """Text that is not a move in the game's notation (formats.md §1.4 / §2.1)."""


class InputError(PolisError):
    """A malformed or impossible file: city, end position, record, set-up."""


class RecordError(PolisError):
    """A game record that cannot be replayed; ``move_index`` says where (``None``: set-up)."""

    def __init__(self, message: str, *, move_index: int | None = None, rule: str | None = None):
        super().__init__(message, rule=rule)
        self.move_index = move_index
