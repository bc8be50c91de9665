"""One live game: the authoritative state, its event log, and the move pipeline.

Every move, from a person or a bot, goes through :meth:`Room.submit`, under the room's lock:
the text is parsed once (``state.parse_move``), played on a clone (``play`` checks it and
returns the events), stored, and only then swapped in and announced. A refused move leaves
everything as it was. Connections (:mod:`~polis.server.presence`) and bot seats
(:mod:`~polis.server.bot_driver`) are separate parts the room uses.

Announcing never waits for a client: each connection is handed its seat's message
(:meth:`Connection.put`) and sends it in its own time. A move stored by another process (the
store said this room was behind, or the bus told) is applied by :meth:`Room.catch_up` /
:meth:`Room.remote_move` and announced the same way.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from polis.core.errors import InputError, PolisError
from polis.core.events import Event
from polis.core.moves import Move
from polis.core.parts import CHOICES, Choices
from polis.core.protocol import Game, GameState
from polis.server.bot_driver import BotDriver
from polis.server.chat import TableChat
from polis.server.errors import ServerError
from polis.server.faults import patiently, transient
from polis.server.hints import Hints
from polis.server.history import TAKE_BACK, EventLog
from polis.server.presence import Connection, Presence, seats_public
from polis.server.seats import token_matches
from polis.server.snapshots import Snapshots
from polis.server.store import Append, Store, StoredGame
from polis.server.takebacks import TakeBacks
from polis.server.takeover import SeatWatch

if TYPE_CHECKING:
    from polis.server.hub import Hub

log = logging.getLogger("polis.server")

#: Seconds presence changes are gathered before one ``seats`` message tells them all.
PRESENCE_COALESCE = 0.05


def choices_of(game: Game) -> Choices | None:
    """The game's ``choices`` plugin, or None for a game that offers none."""
    try:
        return game.plugin(CHOICES)
    except InputError:
        return None


class Room:
    """A game being played: its state, log, connections and bot seats."""

    def __init__(
        self,
        hub: Hub,
        stored: StoredGame,
        game: Game,
        state: GameState,
        log: EventLog,
    ) -> None:
        self.hub = hub
        self.store: Store = hub.store
        self.stored = stored
        self.game = game
        self.state = state
        #: Every event so far, each with the move it belongs to.
        self.log = log
        self.lock = asyncio.Lock()
        self.presence = Presence()
        self.snapshots = Snapshots(
            stored,
            choices_of(game),
            lambda: {**self.watch.extra(), **self.takebacks.extra(), **self.hints.extra()},
        )
        config = hub.config
        self.bots = BotDriver(self, hub.pool, config.bot_delay, config.bot_grace)
        #: The clock and the bots standing in for people (:mod:`~polis.server.takeover`).
        self.watch = SeatWatch(self)
        self.chat = TableChat(self)
        #: Taking back a move (:mod:`~polis.server.takebacks`).
        self.takebacks = TakeBacks(self)
        #: Suggested moves (:mod:`~polis.server.hints`).
        self.hints = Hints(self)
        #: When something last happened here (a move, a connection): idle rooms leave memory.
        self.touched = time.monotonic()
        #: Connections being greeted (not yet joined): the room is not idle meanwhile.
        self.pending = 0
        self._announce: asyncio.TimerHandle | None = None
        self._announced = ""
        self._published: frozenset[int] = frozenset()

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def position(self) -> int:
        return len(self.stored.moves)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    @property
    def vacant(self) -> list[int]:
        """The seats of an open table nobody has taken yet: the game starts once there are
        none (no move, a bot's neither, is made before)."""
        return [s.seat for s in self.stored.seats if s.vacant]

    @property
    def idle(self) -> bool:
        """Nobody connected here and no bot thinking: the room may leave memory."""
        return (
            len(self.presence) == 0
            and self.pending == 0
            and not self.bots.thinking
            and not self.lock.locked()
        )

    # -- seats --------------------------------------------------------------------------------
    def seat_for_token(self, token: str) -> int:
        for seat in self.stored.seats:
            if seat.kind == "human" and token_matches(token, seat.token_hash):
                return seat.seat
        raise ServerError("bad_token", "this seat token does not belong to this game")

    async def seat_for(self, token: str) -> int:
        """:meth:`seat_for_token`, looking at the store again before refusing (another process
        may have given a rematch seat its token)."""
        try:
            return self.seat_for_token(token)
        except ServerError:
            if not any(s.kind == "human" and s.token_hash is None for s in self.stored.seats):
                raise
        await self.reload_seats()
        return self.seat_for_token(token)

    async def reload_seats(self) -> None:
        """Read the seats from the store again (another process may have given one out)."""
        seats = await patiently(
            lambda: asyncio.to_thread(self.store.seats, self.id),
            self.hub.config.store_patience,
            f"seats of game {self.id}",
            self.hub.health,
        )
        if seats:
            self.stored.seats = seats

    def seats_public(self) -> list[dict[str, Any]]:
        return seats_public(self.stored.seats, self.presence.online)

    # -- messages -----------------------------------------------------------------------------
    def snapshot_text(self, seat: int | None) -> str:
        """The state message for ``seat``, shared by all its connections."""
        return self.snapshots.text(seat, self.state, self.log, self.presence.online)

    def broadcast(self) -> None:
        """Hand every connection its seat's state message (one build per seat)."""
        for seat, conns in self.presence.groups():
            text = self.snapshot_text(seat)
            for conn in conns:
                conn.put(text, state=True)

    def notify(self, message: dict[str, Any]) -> None:
        """Send one public message (no seat data) to every connection."""
        self.presence.send_all(json.dumps(message))

    async def join(self, conn: Connection) -> None:
        self.touched = time.monotonic()
        if conn.seat is not None:
            await self.watch.reclaim(conn.seat)  # connecting with the seat's token takes it back
        changed = self.presence.add(conn)
        conn.put(self.snapshot_text(conn.seat), state=True)
        if changed:
            self.presence_changed()

    async def leave(self, conn: Connection) -> None:
        self.touched = time.monotonic()
        if self.presence.remove(conn):
            self.presence_changed()

    def presence_changed(self) -> None:
        """Tell everyone who is online, once for all the changes of the next moment (a
        thousand joins cost one message per connection, not one per join), and tell the
        other processes which seats are online here."""
        self.watch.presence(self.presence.online)
        local = self.presence.local_online
        if local != self._published:
            self._published = local
            self.publish_presence()
        if self._announce is None:
            loop = asyncio.get_running_loop()
            self._announce = loop.call_later(PRESENCE_COALESCE, self._announce_seats)

    def publish_presence(self) -> None:
        self.hub.bus.publish({"t": "seats", "g": self.id, "s": sorted(self._published)})

    def _announce_seats(self) -> None:
        self._announce = None
        text = self.presence.seats_message(self.stored.seats, self.presence.online)
        if text != self._announced:
            self._announced = text
            self.presence.send_all(text)

    # -- moves --------------------------------------------------------------------------------
    async def submit(
        self, seat: int | None, move: str | Move, position: int, *, bot: bool = False
    ) -> None:
        """Check, store, apply and announce one move (notation from a client, a move from a
        bot: ``bot``); raises :class:`ServerError` and then changes nothing."""
        async with self.lock:
            state = self.state
            if state.is_terminal():
                raise ServerError("finished", "the game is over")
            if seat is None:
                raise ServerError("spectator", "spectators cannot move")
            if self.vacant:
                await self.reload_seats()  # another process may have given the last one
                if self.vacant:
                    raise ServerError(
                        "waiting", f"the table waits for {len(self.vacant)} more player(s)"
                    )
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
            self.watch.check_mover(seat, bot)
            trial = state.clone()
            try:
                if isinstance(move, str):
                    move = trial.parse_move(move)
                events = trial.play(move)
            except PolisError as exc:
                raise ServerError("illegal", exc.message, exc.rule) from None
            index = self.position
            item = Append(
                self.id,
                index,
                move.text,
                trial.result().to_json() if trial.is_terminal() else None,
                bot_turn=self._bot_turn(trial),
                author=self.watch.author_of(seat, bot),
                clock=self.watch.plan(seat, trial),
            )
            won = await self._store(item)
            if won:
                self._advance(index, move.text, events, trial)
                self.watch.moved(item.author)
            else:
                caught_up = await self._catch_up_locked()
        if not won:
            if caught_up:  # another process's move: everyone here is told
                self.broadcast()
                self.after_move()
            raise ServerError(
                "stale", f"another move was made at position {index} first (the game moved on)"
            )
        self.broadcast()
        told = {"t": "move", "g": self.id, "i": index, "m": item.text, "a": item.author}
        self.hub.bus.publish(told)
        self.hub.push.moved(self, current)  # the process that stored a move tells the away
        self.after_move()

    def _bot_turn(self, state: GameState) -> bool:
        if state.is_terminal():
            return False
        return self.stored.seats[state.current_player()].bot_level is not None

    async def _store(self, item: Append) -> bool:
        """Store ``item`` (trying again while the store is unreachable); False when another
        move took its position first."""
        uncertain = False

        async def attempt() -> bool:
            nonlocal uncertain
            try:
                stored = await self.hub.writer.append(item)
            except Exception as exc:
                uncertain = uncertain or transient(exc)
                raise
            if not stored and uncertain:
                # a try whose answer was lost may have been committed: then it is this move
                found = await asyncio.to_thread(self.store.move_at, item.game_id, item.index)
                return found == item.text
            return stored

        return await patiently(
            attempt,
            self.hub.config.store_patience,
            f"move {item.index} of game {self.id}",
            self.hub.health,
        )

    def _advance(self, index: int, text: str, events: Sequence[Event], state: GameState) -> None:
        """Make a stored move part of the room."""
        self.stored.moves.append(text)
        self.log.extend(index, events)
        self.takebacks.moved(index + 1, self.state)
        self.state = state
        self.touched = time.monotonic()
        if state.is_terminal():
            self.stored.finished = True

    def after_move(self) -> None:
        """What follows a move, wherever it was made: the next bot, or the end's clean-up."""
        if self.finished:
            self.bots.forget()
        else:
            self.bots.schedule()
        if self.watch.stale:  # another process moved: its clock and authors are read back
            self.hub.spawn(self.watch.refresh())
        self.watch.arm()

    async def remote_move(self, index: int, text: str, author: object = None) -> None:
        """Another process stored move ``index``: apply it (or catch up, if more were missed)."""
        applied = False
        async with self.lock:
            if index == self.position and text == TAKE_BACK:
                applied = await self.takebacks.rebuild_locked([text])
            elif index == self.position:
                trial = self.state.clone()
                try:
                    events = trial.play(trial.parse_move(text))
                except PolisError:
                    log.exception("move %d of game %s from the bus does not play", index, self.id)
                else:
                    self._advance(index, text, events, trial)
                    self.watch.remote(author)
                    applied = True
            elif index > self.position:
                applied = await self._catch_up_locked()
        if applied:
            self.broadcast()
            self.after_move()

    async def catch_up(self) -> bool:
        """Apply the moves other processes stored since this room's position; True if any."""
        async with self.lock:
            applied = await self._catch_up_locked()
        if applied:
            self.broadcast()
            self.after_move()
        return applied

    async def _catch_up_locked(self) -> bool:
        start = self.position
        texts = await patiently(
            lambda: asyncio.to_thread(self.store.moves_from, self.id, start),
            self.hub.config.store_patience,
            f"moves of game {self.id}",
            self.hub.health,
        )
        if not texts:
            return False
        if TAKE_BACK in texts:  # the game goes back: replayed from the start
            return await self.takebacks.rebuild_locked(texts)
        trial = self.state.clone()
        played: list[Sequence[Event]] = []
        try:
            for text in texts:
                played.append(trial.play(trial.parse_move(text)))
        except PolisError:  # a stored move that does not play: nothing is applied
            log.exception("stored move %d of game %s does not play", start + len(played), self.id)
            return False
        for offset, (text, events) in enumerate(zip(texts, played, strict=True)):
            self.stored.moves.append(text)
            self.log.extend(start + offset, events)
        self.state = trial
        self.touched = time.monotonic()
        self.stored.finished = trial.is_terminal()
        self.watch.stale = True
        return True
