"""A game's events as the server keeps them: every event tagged with the move it belongs to.

The engine says what happened (``state.play`` returns events, ``opening_events`` those of
the set-up) and who may see it; the server only files them by move, so each seat's log is a
filter over one list, and a rebuilt room (after a restart) has the same log as before.
Each event is serialized once, when it happens; a seat's log is kept as the texts of the
events it may see, so a state message costs no re-encoding of the game's past.

A game's stored entries are its moves and its take-backs (:data:`TAKE_BACK`), never changed
once written; the moves still standing (:func:`line_of`) are what is replayed, and an event
is filed under the index of the entry of its move.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from polis.core.events import Event
from polis.core.protocol import Game, GameState
from polis.server.live.jsontext import dumps, loads

#: One event as the server keeps it: (the move it belongs to, ``None`` for the set-up; who may
#: see it, ``None`` for everyone; its message ``{"move", "key", "params"}`` serialized once).
#: A plain tuple of a number, a tuple of numbers and a string: a live server holds every
#: event of every loaded game, and the garbage collector stops tracking such tuples, so its
#: pauses do not grow with them (an object per event would be scanned at every collection).
LoggedEvent = tuple[int | None, tuple[int, ...] | None, str]

#: The stored entry of a take-back: the latest move still standing is withdrawn. No game's
#: notation starts with "-", so it cannot be mistaken for a move.
TAKE_BACK = "-takeback"


def line_of(entries: Sequence[str]) -> list[tuple[int, str]]:
    """The moves still standing after the take-backs among ``entries``, each with its index."""
    line: list[tuple[int, str]] = []
    for index, text in enumerate(entries):
        if text == TAKE_BACK:
            if line:
                line.pop()
        else:
            line.append((index, text))
    return line


def taken_back(entries: Sequence[str]) -> list[dict[str, Any]]:
    """The moves taken back among ``entries``, in order: each one's notation, the number of
    moves that stood before it (where it was played) and the index of its take-back entry."""
    line: list[str] = []
    out: list[dict[str, Any]] = []
    for index, text in enumerate(entries):
        if text != TAKE_BACK:
            line.append(text)
        elif line:
            out.append({"move": line.pop(), "at": len(line), "entry": index})
    return out


def logged(move: int | None, event: Event) -> LoggedEvent:
    data = {"move": move, **event.to_json()}
    to = None if event.to is None else tuple(event.to)
    return (move, to, dumps(data))


def visible(entry: LoggedEvent, seat: int | None) -> bool:
    """Same rule as :meth:`Event.visible_to`: public, or addressed to ``seat``."""
    to = entry[1]
    return to is None or (seat is not None and seat in to)


class EventLog:
    """Every event of a game so far, and per seat (``None``: spectators) the ones it may see."""

    def __init__(self) -> None:
        self.entries: list[LoggedEvent] = []
        self._texts: dict[int | None, list[str]] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def extend(self, move: int | None, events: Iterable[Event]) -> None:
        """File ``events`` under ``move`` (``None``: the set-up)."""
        for event in events:
            entry = logged(move, event)
            self.entries.append(entry)
            for seat, texts in self._texts.items():
                if visible(entry, seat):
                    texts.append(entry[2])

    def for_seat(self, seat: int | None) -> list[Mapping[str, Any]]:
        """The events ``seat`` may see, as messages."""
        return [loads(entry[2]) for entry in self.entries if visible(entry, seat)]

    def json_for(self, seat: int | None) -> str:
        """:meth:`for_seat`, serialized (a JSON array)."""
        texts = self._texts.get(seat)
        if texts is None:
            texts = self._texts[seat] = [entry[2] for entry in self.entries if visible(entry, seat)]
        return "[" + ",".join(texts) + "]"


def replay(
    game: Game,
    mode: str,
    players: int,
    *,
    seed: int | str | None,
    setup: Mapping[str, Any] | None,
    options: Mapping[str, Any] | None,
    moves: Sequence[str],
) -> tuple[GameState, EventLog]:
    """Rebuild a game from its set-up and stored entries, checking each move; with its log.

    The moves still standing (take-backs applied, :func:`line_of`) are each parsed once and
    played with events on (an illegal move raises the engine's
    :class:`~polis.core.errors.PolisError`).
    """
    state = game.new_game(mode, players, seed=seed, setup=setup, options=options or None)
    log = EventLog()
    log.extend(None, state.opening_events())
    for index, text in line_of(moves):
        log.extend(index, state.play(state.parse_move(text)))
    return state, log
