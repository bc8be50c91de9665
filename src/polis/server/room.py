"""One live game: the authoritative state, its event log, and the move pipeline.

Every move, from a person or a bot, goes through :meth:`Room.submit`, under the room's lock:
the text is parsed once (``state.parse_move``), played on a clone (``play`` checks it and
returns the events), stored, and only then swapped in and announced. A refused move leaves
everything as it was. Connections (:mod:`~polis.server.presence`) and bot seats
(:mod:`~polis.server.bot_driver`) are separate parts the room uses.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import Executor
from typing import Any

from polis.core.errors import InputError, PolisError
from polis.core.moves import Move
from polis.core.protocol import Game, GameState
from polis.server.bot_driver import BotDriver
from polis.server.errors import ServerError
from polis.server.history import EventLog
from polis.server.presence import Connection, Presence, seats_public
from polis.server.seats import token_matches
from polis.server.snapshots import Choices, Snapshots
from polis.server.store import StaleMove, Store, StoredGame


def choices_of(game: Game) -> Choices | None:
    """The game's ``choices`` plugin, or None for a game that offers none."""
    try:
        found: Choices = game.plugin("choices")
    except InputError:
        return None
    return found


class Room:
    """A game being played: its state, log, connections and bot seats."""

    def __init__(
        self,
        store: Store,
        stored: StoredGame,
        game: Game,
        state: GameState,
        log: EventLog,
        *,
        executor: Executor,
        bot_delay: float,
    ) -> None:
        self.store = store
        self.stored = stored
        self.game = game
        self.state = state
        #: Every event so far, each with the move it belongs to.
        self.log = log
        self.lock = asyncio.Lock()
        self.presence = Presence()
        self.snapshots = Snapshots(stored, choices_of(game))
        self.bots = BotDriver(self, executor, bot_delay)

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def position(self) -> int:
        return len(self.stored.moves)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    # -- seats --------------------------------------------------------------------------------
    def seat_for_token(self, token: str) -> int:
        for seat in self.stored.seats:
            if seat.kind == "human" and token_matches(token, seat.token_hash):
                return seat.seat
        raise ServerError("bad_token", "this seat token does not belong to this game")

    def seats_public(self) -> list[dict[str, Any]]:
        return seats_public(self.stored.seats, self.presence.online)

    # -- messages -----------------------------------------------------------------------------
    def snapshot_text(self, seat: int | None) -> str:
        """The state message for ``seat``, shared by all its connections."""
        return self.snapshots.text(seat, self.state, self.log, self.presence.online)

    async def broadcast(self) -> None:
        """Send every connection its seat's state message (one build per seat)."""
        for seat, conns in self.presence.groups():
            text = self.snapshot_text(seat)
            for conn in conns:
                await self.presence.send(conn, text)

    async def notify(self, message: dict[str, Any]) -> None:
        """Send one public message (no seat data) to every connection."""
        await self.presence.send_all(json.dumps(message))

    async def join(self, conn: Connection) -> None:
        changed = self.presence.add(conn)
        await self.presence.send(conn, self.snapshot_text(conn.seat))
        if changed:
            await self._announce_presence(skip=conn)

    async def leave(self, conn: Connection) -> None:
        if self.presence.remove(conn):
            await self._announce_presence(skip=None)

    async def _announce_presence(self, skip: Connection | None) -> None:
        text = self.presence.seats_message(self.stored.seats, self.presence.online)
        await self.presence.send_all(text, skip=skip)

    # -- moves --------------------------------------------------------------------------------
    async def submit(self, seat: int | None, move: str | Move, position: int) -> None:
        """Check, store, apply and announce one move (notation from a client, a move from a
        bot); raises :class:`ServerError` and then changes nothing."""
        async with self.lock:
            state = self.state
            if state.is_terminal():
                raise ServerError("finished", "the game is over")
            if seat is None:
                raise ServerError("spectator", "spectators cannot move")
            if position != self.position:
                raise ServerError(
                    "stale",
                    f"this move was made for position {position}, but the game is at position "
                    f"{self.position}",
                )
            current = state.current_player()
            if seat != current:
                raise ServerError(
                    "not_your_turn",
                    f"it is not your turn: {self.stored.seats[current].name} is to move",
                )
            trial = state.clone()
            try:
                if isinstance(move, str):
                    move = trial.parse_move(move)
                events = trial.play(move)
            except PolisError as exc:
                raise ServerError("illegal", exc.message, exc.rule) from None
            result = trial.result().to_json() if trial.is_terminal() else None
            index = self.position
            try:
                await asyncio.to_thread(self.store.append_move, self.id, index, move.text, result)
            except StaleMove as exc:
                raise ServerError("stale", str(exc)) from None
            self.stored.moves.append(move.text)
            self.log.extend(index, events)
            self.state = trial
            if result is not None:
                self.stored.finished = True
        await self.broadcast()
        self.bots.schedule()
