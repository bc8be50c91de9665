"""A game's events as the server keeps them: every event tagged with the move it belongs to.

The engine says what happened (``state.play`` returns events, ``opening_events`` those of
the set-up) and who may see it; the server only files them by move, so each seat's log is a
filter over one list, and a rebuilt room (after a restart) has the same log as before.
Each event is serialized once, when it happens; a seat's log is kept as the texts of the
events it may see, so a state message costs no re-encoding of the game's past.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from polis.core.events import Event
from polis.core.protocol import Game, GameState


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """One event, the move it belongs to (``None``: the set-up) and its message form."""

    move: int | None
    event: Event
    #: ``{"move", "key", "params"}``: what a client receives (never who may see it).
    json: Mapping[str, Any]
    #: ``json``, serialized.
    text: str

    @classmethod
    def of(cls, move: int | None, event: Event) -> LoggedEvent:
        data = {"move": move, **event.to_json()}
        return cls(move, event, data, json.dumps(data, separators=(",", ":")))


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
            entry = LoggedEvent.of(move, event)
            self.entries.append(entry)
            for seat, texts in self._texts.items():
                if event.visible_to(seat):
                    texts.append(entry.text)

    def for_seat(self, seat: int | None) -> list[Mapping[str, Any]]:
        """The events ``seat`` may see, as messages."""
        return [entry.json for entry in self.entries if entry.event.visible_to(seat)]

    def json_for(self, seat: int | None) -> str:
        """:meth:`for_seat`, serialized (a JSON array)."""
        texts = self._texts.get(seat)
        if texts is None:
            texts = self._texts[seat] = [
                entry.text for entry in self.entries if entry.event.visible_to(seat)
            ]
        return "[" + ",".join(texts) + "]"


def replay(
    game: Game,
    mode: str,
    players: int,
    *,
    seed: int | None,
    setup: Mapping[str, Any] | None,
    options: Mapping[str, Any] | None,
    moves: Sequence[str],
) -> tuple[GameState, EventLog]:
    """Rebuild a game from its set-up and move texts, checking each move; with its log.

    Each stored text is parsed once and played with events on (an illegal move raises the
    engine's :class:`~polis.core.errors.PolisError`).
    """
    state = game.new_game(mode, players, seed=seed, setup=setup, options=options or None)
    log = EventLog()
    log.extend(None, state.opening_events())
    for index, text in enumerate(moves):
        log.extend(index, state.play(state.parse_move(text)))
    return state, log
