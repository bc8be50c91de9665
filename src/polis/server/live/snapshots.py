"""The ``state`` message of one position, built once per information set.

A seat's message (its view, its log, on its turn its legal moves and choices) depends only
on the position and the seat, not on the connection: five tabs of one player and a hundred
spectators cost one view each. Bodies are kept per (position, seat); the serialized text
adds what changes between moves (who is online, the rematch link) and is kept until one of
them changes, so every connection of a seat is sent the very same text.

Its keys are :class:`~polis.server.wire.to_client.StateMessage` (the wire contract, where
each is described): the body (:class:`~polis.server.wire.to_client.StateBody`: the position
and the seat decide it), the table's seats and rematch, and what the table's parts add
(:class:`~polis.server.wire.to_client.StateExtras`: the clock and rules for leavers, the
take-back status, hints), with the seat's ``log`` first. It is assembled as text from those
typed parts (the log and the body serialized once); the tests check the text against the
whole type.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from polis.core.moves import Move, MoveList
from polis.core.parts import Choices
from polis.core.protocol import GameState
from polis.server.live.history import EventLog
from polis.server.live.jsontext import dumps
from polis.server.live.presence import seats_public
from polis.server.store.games import StoredGame
from polis.server.wire.to_client import StateBody, StateExtras


def offered_no_move(stored: StoredGame, seat: int) -> bool:
    """The seat to move is offered none: a bot plays the person's ``seat`` now, or the
    open table still waits for a player (nobody moves before)."""
    return stored.seats[seat].stand_in is not None or any(s.vacant for s in stored.seats)


class Snapshots:
    """State messages of the current position, per seat (``None``: spectators)."""

    def __init__(
        self,
        stored: StoredGame,
        choices: Choices | None,
        extra: Callable[[], StateExtras] | None = None,
    ) -> None:
        self._stored = stored
        self._choices = choices
        #: What else the message carries that may change between moves (the clock).
        self._extra = extra
        #: Changes when something other than a move changes the messages (a bot took a seat).
        self._revision = 0
        self._position = -1
        #: Per seat: the body serialized, without its braces (text, not dicts: a live server
        #: keeps one per seat of every game, and fewer objects mean shorter GC pauses).
        self._bodies: dict[int | None, str] = {}
        self._legal: MoveList[Move] | None = None
        self._result: dict[str, Any] | None = None
        self._texts_key: tuple[int, frozenset[int], str | None, int] | None = None
        self._tail = ""
        self._texts: dict[int | None, str] = {}

    def text(
        self,
        seat: int | None,
        state: GameState,
        log: EventLog,
        online: frozenset[int],
    ) -> str:
        """The serialized state message for ``seat`` at the state's position."""
        position = len(self._stored.moves)
        if position != self._position:
            self._position = position
            self._bodies.clear()
            self._legal = None
            self._result = None
        key = (position, online, self._stored.rematch_id, self._revision)
        if key != self._texts_key:
            self._texts_key = key
            self._texts.clear()
            seats = dumps(seats_public(self._stored.seats, online))
            rematch = dumps(self._stored.rematch_id)
            extras = self._extra().items() if self._extra else ()
            extra = "".join(f',"{k}":{dumps(v)}' for k, v in extras)
            self._tail = f',"seats":{seats},"rematch_id":{rematch}{extra}}}'
        text = self._texts.get(seat)
        if text is None:
            body = self._bodies.get(seat)
            if body is None:
                body = self._bodies[seat] = dumps(self._body(seat, state))[1:-1]
            # the log is kept serialized: spliced in, never encoded again
            text = self._texts[seat] = '{"log":' + log.json_for(seat) + "," + body + self._tail
        return text

    def invalidate(self) -> None:
        """Build every message again (a bot took a seat over, or a person took it back)."""
        self._position = -1
        self._revision += 1

    def _body(self, seat: int | None, state: GameState) -> StateBody[Mapping[str, Any], Any]:
        """Everything of the message that only the position and the seat decide."""
        stored = self._stored
        current = state.current_player()
        finished = current < 0
        view = state.view(seat)
        body: StateBody[Mapping[str, Any], Any] = {
            "type": "state",
            "game_id": stored.id,
            "game": stored.game,
            "mode": stored.mode,
            "players": stored.players,
            "seat": seat,
            "position": len(stored.moves),
            "current_player": current,
            "finished": finished,
            "seed_chosen": stored.seed_chosen,
            "view": view.to_json(),
            "legal": [],
            "choices": None,
            "authors": (stored.authors + [None] * len(stored.moves))[: len(stored.moves)],
        }
        offered = seat is not None and not finished and current == seat
        if offered and seat is not None and not offered_no_move(stored, seat):
            if self._legal is None:
                self._legal = state.legal_moves()
            body["legal"] = [m.text for m in self._legal]
            if self._choices is not None:
                body["choices"] = self._choices(view, self._legal)
        if finished:
            if self._result is None:
                self._result = state.result().to_json()
            body["result"] = self._result
        return body
