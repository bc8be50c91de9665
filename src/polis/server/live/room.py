"""One live game: the authoritative state, its event log, and the pipeline every change goes
through.

Anything that changes the game — a move, a take-back, a bot standing in, a seat handed
back, an open seat taken, or what another process stored — is an action handed to
:meth:`Room.commit` (:mod:`~polis.server.live.pipeline`): under the room's lock it is prepared by
the part that owns its kind (checked, played on a clone), stored, and only then installed
and announced. A refused action leaves everything as it was. The parts (clock and
stand-ins, take-backs, chat, hints, bots, presence) never change the game themselves: they
prepare changes, and the room runs them.

Announcing never waits for a client: each connection is handed its seat's message
(:meth:`Connection.put`) and sends it in its own time.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from polis.core.errors import InputError, PolisError
from polis.core.events import Event
from polis.core.parts import CHOICES, Choices
from polis.core.protocol import Game, GameState
from polis.server.bots.driver import BotDriver
from polis.server.errors import ServerError
from polis.server.live.history import TAKE_BACK, EventLog
from polis.server.live.jsontext import dumps
from polis.server.live.pipeline import (
    Action,
    Change,
    HandBack,
    Heard,
    Kind,
    Play,
    StandIn,
    TakeBack,
    TakeSeat,
    bot_turn,
    published,
)
from polis.server.live.presence import Connection, Presence, seats_public
from polis.server.live.snapshots import Snapshots
from polis.server.store.faults import patiently, transient
from polis.server.store.games import Append, Store, StoredGame
from polis.server.table.chat import TableChat
from polis.server.table.hints import Hints
from polis.server.table.open_tables import seat_change
from polis.server.table.seats import token_matches
from polis.server.table.standins import SeatWatch
from polis.server.table.takebacks import TakeBacks
from polis.server.wire.bus import BusSeats
from polis.server.wire.to_client import Notice, SeatJSON, StateExtras

if TYPE_CHECKING:
    from polis.server.live.hub import Hub

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
        self.snapshots = Snapshots(stored, choices_of(game), self._state_extras)
        config = hub.config
        self.bots = BotDriver(self, hub.pool, config.bot_delay, config.bot_grace)
        #: The clock and the bots standing in for people (:mod:`~polis.server.table.standins`).
        self.watch = SeatWatch(self)
        self.chat = TableChat(self)
        #: Taking back a move (:mod:`~polis.server.table.takebacks`).
        self.takebacks = TakeBacks(self)
        #: Suggested moves (:mod:`~polis.server.table.hints`).
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
        """:meth:`seat_for_token`, looking at the store again before refusing: another process
        may have given a rematch seat its token, and a seat bound to an account opens with
        the keys its signed-in devices were given (:mod:`polis.server.accounts`)."""
        try:
            return self.seat_for_token(token)
        except ServerError:
            if any(s.account_id is not None for s in self.stored.seats):
                seat = await self.hub.accounts.seat_of_key(self.id, token)
                if seat is not None:
                    return seat
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

    def seats_public(self) -> list[SeatJSON]:
        return seats_public(self.stored.seats, self.presence.online)

    def _state_extras(self) -> StateExtras:
        """What the table's parts add to the state message (the clock, take-backs, hints)."""
        return {**self.watch.extra(), **self.takebacks.extra(), **self.hints.extra()}

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

    def notify(self, message: Notice) -> None:
        """Send one public message (no seat data) to every connection."""
        self.presence.send_all(dumps(message))

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
        self.hub.publish(BusSeats(t="seats", g=self.id, s=sorted(self._published)))

    def _announce_seats(self) -> None:
        self._announce = None
        text = self.presence.seats_message(self.stored.seats, self.presence.online)
        if text != self._announced:
            self._announced = text
            self.presence.send_all(text)

    # -- the pipeline: the one way anything changes this game ----------------------------------
    async def commit(self, action: Action) -> Any:
        """Prepare, store, install and announce ``action`` (:mod:`~polis.server.live.pipeline`).

        Raises :class:`ServerError` (and changes nothing) when it is refused, or when another
        process changed the game first and the action says so (``Change.lost``); answers
        False when there was nothing to do, else what the change answers (True by default).
        """
        async with self.lock:
            change = await self._prepare(action)
            if change is None:
                return False
            won = await self._store(change)
            if won:
                change.install()
                self.touched = time.monotonic()
            else:  # another process changed the game first: read what it stored
                (await self._read_back()).install()
        if not won:
            self._tell(None)
            if change.lost is not None:
                raise change.lost
            return False
        self._tell(change)
        return change.result

    async def _prepare(self, action: Action) -> Change | None:
        """The change ``action`` makes, from the part that owns its kind (under the lock)."""
        if isinstance(action, Play):
            return await self._play(action)
        if isinstance(action, TakeBack):
            return await self.takebacks.change(action)
        if isinstance(action, StandIn):
            return self.watch.stand_in(action)
        if isinstance(action, HandBack):
            return self.watch.hand_back(action)
        if isinstance(action, TakeSeat):
            return await seat_change(self, action)
        return await self._heard(action)

    async def _store(self, change: Change) -> bool:
        """Store ``change``; False when another process changed the game first."""
        if change.entry is not None:
            return await self._append(change.entry)
        if change.write is not None:
            return bool(await self.hub.write(change.write, f"{change.kind} in game {self.id}"))
        return True  # heard: another process stored it

    def _tell(self, change: Change | None) -> None:
        """Tell everyone here (and, for a change made here, the other processes and the seat
        whose turn it became), then carry on: the next bot, the clock."""
        if change is not None and change.stops_bots:
            self.bots.cancel()  # a bot thinking about a position that is gone
        self.snapshots.invalidate()
        self.broadcast()
        if change is not None:
            for notice in change.notices:
                self.notify(notice)
            if change.publish:
                self.hub.publish(published(self.id, change))
                if self.finished and any(s.account_id is not None for s in self.stored.seats):
                    self.hub.spawn(self.hub.accounts.settle(self))  # results and ratings
                if change.turns:  # the process that stored it tells the seat to move
                    self.hub.push.moved(self, change.mover)
        self.after_move()

    async def catch_up(self) -> bool:
        """Read back what other processes stored since (moves, take-backs, hands) and tell
        everyone here; True when it ran."""
        return bool(await self.commit(Heard(None)))

    # -- moves --------------------------------------------------------------------------------
    async def _play(self, action: Play) -> Change:
        """A move: checked against the table and the game's rules, played on a clone."""
        seat, move, position = action.seat, action.move, action.position
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
        self.watch.check_mover(seat, action.bot)
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
            bot_turn=bot_turn(self.stored.seats, trial),
            author=self.watch.author_of(seat, action.bot),
            clock=self.watch.plan(seat, trial),
        )
        text = move.text

        def install() -> None:
            self._advance(index, text, events, trial)
            self.watch.moved(item.author)

        lost = ServerError(
            "stale", f"another move was made at position {index} first (the game moved on)"
        )
        return Change("move", install, entry=item, lost=lost, mover=current)

    async def _append(self, item: Append) -> bool:
        """Store ``item`` (trying again while the store is unreachable); False when another
        entry took its position first."""
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
        if state.is_terminal():
            self.stored.finished = True

    def after_move(self) -> None:
        """What follows a change, wherever it was made: the next bot, or the end's clean-up."""
        if self.finished:
            self.bots.forget()
        else:
            self.bots.schedule()
        if self.watch.stale:  # another process moved: its clock and authors are read back
            self.hub.spawn(self.catch_up())
        self.watch.arm()

    # -- what other processes stored -----------------------------------------------------------
    async def _heard(self, action: Heard) -> Change | None:
        """A change another process stored: applied from the bus message when it is the next
        entry, else read back from the store (entries, then who holds each seat)."""
        if action.kind in ("move", "takeback") and action.index is not None:
            if action.index < self.position:
                return None  # already here (this process read it back earlier)
            if action.index == self.position and action.text is not None:
                entries = await self._entries([action.text], action.author)
                if entries is not None:
                    return Change(action.kind, entries.install, publish=False)
        return await self._read_back(kind=action.kind)

    async def _read_back(self, kind: Kind | None = None) -> Change:
        """Everything other processes stored since this room last looked: the entries after
        its position and the seats' hands, clock and authors."""
        start = self.position
        texts = await patiently(
            lambda: asyncio.to_thread(self.store.moves_from, self.id, start),
            self.hub.config.store_patience,
            f"moves of game {self.id}",
            self.hub.health,
        )
        entries = await self._entries(texts, None) if texts else None
        hands = await self.watch.read_hands()

        def install() -> None:
            if entries is not None:
                entries.install()
            hands()

        return Change(kind or "move", install, publish=False)

    async def _entries(self, texts: list[str], author: str | None) -> Change | None:
        """The change that makes entries another process stored part of the room (None: they
        do not play, which is logged)."""
        if TAKE_BACK in texts:  # the game goes back: replayed from the start
            return await self.takebacks.replayed(texts)
        start = self.position
        trial = self.state.clone()
        played: list[Sequence[Event]] = []
        try:
            for text in texts:
                played.append(trial.play(trial.parse_move(text)))
        except PolisError:  # a stored move that does not play: nothing is applied
            log.exception("stored move %d of game %s does not play", start + len(played), self.id)
            return None

        def install() -> None:
            if len(texts) == 1:  # the next move, with its author (the bus said who)
                self._advance(start, texts[0], played[0], trial)
                self.watch.remote(author)
                return
            for offset, (text, events) in enumerate(zip(texts, played, strict=True)):
                self.stored.moves.append(text)
                self.log.extend(start + offset, events)
            self.state = trial
            self.stored.finished = trial.is_terminal()
            self.watch.stale = True  # their clock and authors are read back

        return Change("move", install, publish=False)
