"""Nobody stalls a table: a room's clock, and the bots that take over people's seats.

A person's seat is taken over by a bot of the level the table chose (its *stand-in*) when
their clock runs out, when they leave (resign), or, at a table without a clock, when they
have been away (no connection) on their turn for longer than the table's away limit. The
game goes on; the person takes the seat back by connecting with their seat token (their
link), and a bot still thinking for the seat then drops its move: the person plays the turn.

Leaving is final where coming back could help (:meth:`SeatWatch.leave_final`): at a table
where another person plays and hints are off, a seat its person left stays with its
stand-in for the rest of the game. Otherwise leaving and opening the link again would get
the person to move a strong bot's move on every turn. A seat lost to the clock or to being
away is not a choice, and stays reclaimable at once.

Time comes from the hub's ``now()`` (wall-clock seconds; tests set it), never from sleeping:
the room arms one timer for the next deadline, and :meth:`SeatWatch.check` acts only if the
deadline has passed by ``now()``. Several server processes may hold the same room: each
arms its timer, and the store decides (a takeover, like a move, is stored only if the game
is still at the position it was decided at, and only once), so exactly one takeover happens
and the others read it back. The upkeep (:mod:`~polis.server.live.upkeep`) loads games whose
clock ran out while no process held them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from polis.core.protocol import GameState
from polis.server.errors import ServerError
from polis.server.live import history
from polis.server.live.pipeline import Change, HandBack, StandIn
from polis.server.store import clock_rows
from polis.server.store.faults import patiently
from polis.server.table.clocks import Clock, ClockWrite, TableClock, TimeControl
from polis.server.wire.to_client import StateClock

if TYPE_CHECKING:
    from polis.server.live.room import Room

#: The level of the bots that take over people's seats when a table chose none.
DEFAULT_LEVEL = "medium"
#: Why a bot took a seat over: the clock ran out, away past the limit, the person left.
WHY = ("time", "away", "left")
#: Longest single wait of a room's timer (it is armed again when it wakes early).
MAX_WAIT = 3600.0


def author(level: str | None) -> str:
    """A move's author as records keep it: "person", or "bot:<level>"."""
    return "person" if level is None else f"bot:{level}"


def standing_authors(texts: Sequence[str], authors: Sequence[str | None]) -> list[str | None]:
    """The authors of the moves still standing (a record's ``authors``), by entry: a
    take-back withdraws a move and its author (:func:`polis.server.live.history.line_of`)."""
    return [authors[i] if i < len(authors) else None for i, _text in history.line_of(texts)]


def running_seat(room: Room, state: GameState) -> int | None:
    """The seat whose person is to move in ``state`` (None: a bot is, or nobody: the game is
    over, or an open table still waits for people)."""
    if state.is_terminal() or room.vacant:
        return None
    seat = room.stored.seats[state.current_player()]
    if seat.kind != "human" or seat.stand_in is not None or seat.vacant:
        return None
    return seat.seat


class SeatWatch:
    """One room's clock, away limit and stand-ins."""

    def __init__(self, room: Room) -> None:
        self.room = room
        table = room.stored.table
        self.control = (
            None if table.time_control is None else TimeControl.from_json(table.time_control)
        )
        self.level = table.stand_in or DEFAULT_LEVEL
        #: The away limit counts at tables without a clock only.
        self.away_limit = table.away_limit if self.control is None else None
        now = self.now()
        self.clock: Clock | None = None
        if self.control is not None:
            self.clock = self._clock_of(table, now)
        #: Since when each person's seat has had no connection (here or in another process).
        self.away_since: dict[int, float] = {
            s.seat: now for s in room.stored.seats if s.kind == "human"
        }
        self._planned: Clock | None = None
        #: Another process moved (or changed hands): read the clock and authors back.
        self.stale = False
        self._timer: asyncio.TimerHandle | None = None

    def now(self) -> float:
        return float(self.room.hub.now())

    def _clock_of(self, table: TableClock, now: float) -> Clock:
        assert self.control is not None
        players = self.room.stored.players
        banks = table.banks if table.banks else [self.control.bank] * players
        started = now if table.turn_started is None else table.turn_started
        return Clock(self.control, tuple(banks), started, running_seat(self.room, self.room.state))

    def extra(self) -> StateClock:
        """What the state message carries of the clock and the rules for leavers."""
        return {
            "clock": None if self.clock is None else self.clock.to_json(),
            "rules": {
                "stand_in": self.level,
                "away_limit": self.away_limit,
                "leave_final": self.leave_final(),
            },
        }

    def leave_final(self) -> bool:
        """A seat left by its person stays with its stand-in: another person plays here and
        hints are off (elsewhere the stand-in gives nothing a hint would not)."""
        room = self.room
        people = sum(1 for s in room.stored.seats if s.kind == "human")
        return people > 1 and not room.hints.enabled

    def gone_for_good(self, seat: int) -> bool:
        """``seat`` was left by its person where leaving is final, or a bot took it over in
        a rated game (for any reason: it lost): it is not handed back."""
        info = self.room.stored.seats[seat]
        if self.room.stored.rated and info.stand_in is not None:
            return True
        return info.stand_in_why == "left" and self.leave_final()

    # -- moves --------------------------------------------------------------------------------
    def check_mover(self, seat: int, bot: bool) -> None:
        """Refuse a move by the wrong hands (under the room's lock, before it is played): a
        person's while a bot plays their seat or after their time ran out, a bot's once the
        person took the seat back."""
        info = self.room.stored.seats[seat]
        if bot and info.bot_level is None:
            raise ServerError("stale", "the person took this seat back: the bot does not move")
        if not bot and info.stand_in is not None:
            if self.gone_for_good(seat):
                raise ServerError(
                    "stood_in",
                    "a bot plays your seat until the end: in a rated game a seat a bot took "
                    "over has lost"
                    if self.room.stored.rated
                    else "you left this game: a bot plays your seat until the end",
                )
            raise ServerError(
                "stood_in", "a bot plays this seat now: open your seat link again to take it back"
            )
        clock = self.clock
        if not bot and clock is not None and clock.running == seat and clock.expired(self.now()):
            self.arm(0.0)
            raise ServerError("time_out", "your time ran out: a bot takes over this seat")

    def plan(self, seat: int, after: GameState) -> ClockWrite | None:
        """The clock once ``seat``'s move (leading to ``after``) is stored."""
        if self.clock is None:
            return None
        self._planned = self.clock.moved(seat, self.now(), running_seat(self.room, after))
        return ClockWrite.of(self._planned)

    def moved(self, by: str | None) -> None:
        """A move planned here was stored (and is part of the room now)."""
        stored = self.room.stored
        stored.authors.extend([None] * (len(stored.moves) - 1 - len(stored.authors)))
        stored.authors.append(by)
        if self._planned is not None:
            self.clock = self._planned
            self._planned = None

    def remote(self, by: object) -> None:
        """Another process stored the move just applied here, made by ``by`` (the bus says
        who); a clock is read back from the store (:meth:`refresh`)."""
        self._planned = None
        self.moved(by if isinstance(by, str) else None)
        if self.control is not None:
            self.stale = True

    def author_of(self, seat: int, bot: bool) -> str:
        return author(self.room.stored.seats[seat].bot_level if bot else None)

    # -- timers -------------------------------------------------------------------------------
    def due(self) -> tuple[float, str, int] | None:
        """(when, why, seat) of the next takeover, if any is to come."""
        seat = running_seat(self.room, self.room.state)
        if seat is None:
            return None
        if self.clock is not None:
            deadline = self.clock.deadline
            if deadline is None or self.clock.running != seat:
                return None
            return deadline, "time", seat
        if self.away_limit is not None and seat in self.away_since:
            return self.away_since[seat] + self.away_limit, "away", seat
        return None

    def resync(self) -> None:
        """Start the clock of the person to move if it is not already running: whose turn it
        is changed without a move of this room's (a table's last open seat was taken, a move
        was taken back). The new clock is stored and everyone is told."""
        clock = self.clock
        room = self.room
        if clock is None or self.stale:
            return
        expected = running_seat(room, room.state)
        if room.vacant or clock.running == expected:
            return
        self.clock = clock.stopped(self.now(), running=expected)
        write = ClockWrite.of(self.clock)
        room.hub.spawn(
            room.hub.write(
                lambda: clock_rows.save_clock(room.store.engine, room.id, write),
                f"the clock of game {room.id}",
            )
        )
        room.snapshots.invalidate()
        room.broadcast()

    def arm(self, delay: float | None = None) -> None:
        """Set the room's one timer for the next deadline (or after ``delay`` seconds)."""
        self.resync()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if delay is None:
            due = self.due()
            if due is None:
                return
            delay = due[0] - self.now()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._timer = loop.call_later(min(max(0.0, delay), MAX_WAIT), self._fire)

    def _fire(self) -> None:
        self._timer = None
        self.room.hub.spawn(self.check())

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def check(self) -> bool:
        """Take the seat to move over if its deadline has passed; True if this did."""
        due = self.due()
        if due is None or self.now() < due[0]:
            self.arm()
            return False
        _when, why, seat = due
        return await self.take_over(seat, why)

    def presence(self, online: frozenset[int]) -> None:
        """Who is connected changed: start or stop counting each person's time away."""
        now = self.now()
        for s in self.room.stored.seats:
            if s.kind != "human":
                continue
            if s.seat in online:
                self.away_since.pop(s.seat, None)
            else:
                self.away_since.setdefault(s.seat, now)
        if self.away_limit is not None:
            self.arm()

    # -- changes of hands (prepared here, run by the room's pipeline) --------------------------
    async def take_over(self, seat: int, why: str) -> bool:
        """A bot of the table's level plays ``seat`` from now on; True if this call did it
        (False: it already did, the game moved on, or the deadline is not due any more)."""
        return bool(await self.room.commit(StandIn(seat, why)))

    async def resign(self, seat: int) -> bool:
        """The person of ``seat`` leaves: a bot plays on for them."""
        return await self.take_over(seat, "left")

    async def reclaim(self, seat: int, again: bool = True) -> bool:
        """The person of ``seat`` takes it back (they connected with its token); True if this
        call handed it back."""
        room = self.room
        if room.stored.seats[seat].stand_in is None or room.finished:
            return False
        if self.gone_for_good(seat):
            return False
        won = bool(await room.commit(HandBack(seat)))
        if not won and again and room.stored.seats[seat].stand_in is not None:
            return await self.reclaim(seat, again=False)  # the game moved on meanwhile
        return won

    def stand_in(self, action: StandIn) -> Change | None:
        """The change of a bot taking ``action.seat`` over (None: nothing to do)."""
        seat, why = action.seat, action.why
        assert why in WHY, why
        room = self.room
        info = room.stored.seats[seat]
        if room.finished or info.kind != "human" or info.stand_in is not None:
            return None
        if why != "left":
            due = self.due()
            if due is None or due[2] != seat or self.now() < due[0]:
                return None
        now = self.now()
        current = room.state.current_player() == seat
        clock = self.clock
        if clock is not None and clock.running == seat:
            clock = clock.stopped(now)
        position = room.position
        level = self.level

        def write() -> bool:
            return clock_rows.take_over(
                room.store.engine,
                room.id,
                seat,
                level=level,
                why=why,
                since=now,
                position=position,
                bot_turn=True if current else None,
                clock=None if clock is None else ClockWrite.of(clock),
            )

        def install() -> None:
            room.stored.seats[seat] = replace(info, stand_in=level, stand_in_why=why)
            self.clock = clock

        return Change("stand_in", install, write=write, seat=seat, turns=False)

    def hand_back(self, action: HandBack) -> Change | None:
        """The change of the person taking ``action.seat`` back (None: nothing to do)."""
        seat = action.seat
        room = self.room
        info = room.stored.seats[seat]
        if info.stand_in is None or room.finished or self.gone_for_good(seat):
            return None
        now = self.now()
        current = room.state.current_player() == seat
        clock = self.clock
        if clock is not None:
            clock = clock.reclaimed(seat)
            if current:
                clock = clock.stopped(now, running=seat)
        position = room.position

        def write() -> bool:
            return clock_rows.hand_back(
                room.store.engine,
                room.id,
                seat,
                position=position,
                bot_turn=False if current else None,
                clock=None if clock is None else ClockWrite.of(clock),
            )

        def install() -> None:
            room.stored.seats[seat] = replace(info, stand_in=None, stand_in_why=None)
            self.clock = clock
            room.hub.pool.forget((room.id, seat))

        return Change("hand_back", install, write=write, mover=seat, seat=seat, turns=False)

    # -- other processes ----------------------------------------------------------------------
    async def read_hands(self) -> Callable[[], None]:
        """Read who holds each seat, the clock and the moves' authors from the store (another
        process changed them); the answer installs what was read."""
        room = self.room
        engine = room.store.engine

        def read() -> tuple[list[Any], TableClock, list[str | None]]:
            return (
                room.store.seats(room.id),
                clock_rows.load(engine, room.id),
                clock_rows.authors(engine, room.id),
            )

        seats, table, authors = await patiently(
            lambda: asyncio.to_thread(read),
            room.hub.config.store_patience,
            f"hands of game {room.id}",
            room.hub.health,
        )

        def install() -> None:
            if seats:
                now = self.now()
                for held, read in zip(room.stored.seats, seats, strict=False):
                    if held.stand_in is not None and read.stand_in is None:
                        # taken back through another process: the person is there now, and
                        # their time away counts afresh (their presence may reach this
                        # process later than the change of hands)
                        self.away_since[read.seat] = now
                room.stored.seats = seats
            if self.control is not None:
                self.clock = self._clock_of(table, self.now())
            room.stored.authors = authors[: len(room.stored.moves)]
            self.stale = False

        return install
