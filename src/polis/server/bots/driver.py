"""Bot seats: the one place the server asks an agent (:mod:`polis.bots`) for a move.

A room's bots decide through the match loop's decision step: the seat's view and legal moves
(what a :class:`~polis.core.match.Turn` gives the seat :func:`polis.bots.agent_seat` makes of
the agent) go to a bot worker (:mod:`polis.server.bots.pool`), away from the web process; the
live state never leaves the room. Each bot seat keeps its agent for the whole game (searching
agents may remember between moves), seeded with ``derive_seed(game_id, "bot", seat)``.

A bot that crashes or runs past its time limit is restarted by the pool and this turn is
played by a fallback (a random legal move), so the game continues. A store that is down
delays the bot's move (it is tried again with pauses), it never stops the bot for good. With
several server processes only the one holding the game's bot lease (:meth:`Bus.claim`)
thinks, and another takes over when the lease runs out.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING

from polis.bots import Agent, Budget, make_agent, parse_agent_spec
from polis.core.match import derive_seed
from polis.core.moves import Move
from polis.server.bots.pool import BotFailed, BotJob, BotPool
from polis.server.errors import ServerError
from polis.server.live.pipeline import Play

if TYPE_CHECKING:
    from polis.server.live.room import Room

log = logging.getLogger("polis.server")

#: Seconds between tries of a bot turn that failed for a reason other than the bot.
RETRY = (0.5, 1.0, 2.0, 5.0, 10.0)


class BotDriver:
    """Plays the bot seats of one room, one decision at a time."""

    def __init__(self, room: Room, pool: BotPool, delay: float, grace: float = 3.0) -> None:
        self.room = room
        self.pool = pool
        #: Seconds a bot waits before moving, so people can follow.
        self.delay = delay
        #: Seconds beyond a budget's wall-clock cap before a decision counts as stuck.
        self.grace = grace
        self.task: asyncio.Task[None] | None = None
        self._failures = 0
        #: Fallback moves played (a bot crashed or ran out of time).
        self.fallbacks = 0

    def agent(self, seat: int) -> tuple[Agent, Budget]:
        """A fresh agent for bot seat ``seat`` (sent to the worker that will hold it)."""
        room = self.room
        level = room.stored.seats[seat].bot_level or "medium"
        return make_agent(level, derive_seed(room.id, "bot", seat))

    def limit(self, seat: int) -> float:
        """Seconds the seat's bot may think: the wall-clock cap of its longest budget (a time
        budget counts CPU time, :mod:`polis.bots.budget`), and some grace."""
        spec = parse_agent_spec(self.room.stored.seats[seat].bot_level or "medium")
        budgets = spec.level_budgets or (spec.budget,)
        seconds = max(b.wall_seconds or 0.0 for b in budgets)
        return seconds + self.grace

    @property
    def thinking(self) -> bool:
        return self.task is not None and not self.task.done()

    def keys(self) -> list[tuple[str, int]]:
        """The pool keys of this room's bot seats."""
        return [(self.room.id, s.seat) for s in self.room.stored.seats if s.bot_level]

    def schedule(self, pause: float = 0.0) -> None:
        """Start the bot's turn if a bot is to move and none is already thinking."""
        room = self.room
        state = room.state
        if state.is_terminal() or self.thinking or room.vacant:
            return  # (an open table's bots wait for every seat to be taken)
        player = state.current_player()
        if room.stored.seats[player].bot_level is None:  # a person (no bot standing in)
            return
        self.task = asyncio.get_running_loop().create_task(self._turn(player, pause))

    async def _turn(self, player: int, pause: float) -> None:
        room = self.room
        position = room.position
        retry_after: float | None = None
        claimed = False
        try:
            if pause or self.delay:
                await asyncio.sleep(pause or self.delay)
            if room.position != position:
                return
            claimed = await room.hub.bus.claim(room.id, self.limit(player) + 10)
            if not claimed:
                return  # another process plays this bot (and will say so through the bus)
            move = await self._decide(player)
            await room.commit(Play(player, move, position, bot=True))
            self._failures = 0
        except ServerError as exc:
            if exc.code == "unavailable":
                retry_after = self._pause()
            elif exc.code not in ("stale", "finished"):
                log.warning("bot move refused in game %s: %s", room.id, exc.message)
                retry_after = self._pause()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot turn failed in game %s; trying again", room.id)
            retry_after = self._pause()
        finally:
            if claimed:
                await room.hub.bus.release(room.id)
        self.task = None
        if retry_after is not None:
            self.schedule(retry_after)
        elif room.position != position:
            self.schedule()

    def _pause(self) -> float:
        pause = RETRY[min(self._failures, len(RETRY) - 1)]
        self._failures += 1
        return pause

    async def _decide(self, player: int) -> Move:
        room = self.room
        state = room.state
        view = state.view(player)
        legal = state.legal_moves()
        job = BotJob(
            key=(room.id, player),
            make=lambda: self.agent(player),
            game=room.game,
            view=view,
            legal=legal,
            limit=self.limit(player),
        )
        try:
            return await self.pool.decide(job)
        except BotFailed as exc:
            self.fallbacks += 1
            log.warning(
                "bot of seat %d in game %s: %s; a random move instead", player, room.id, exc
            )
            rng = random.Random(derive_seed(room.id, "fallback", room.position))
            fallback: Move = rng.choice(legal)
            return fallback

    def forget(self) -> None:
        """The game is over or leaves memory: its agents can go."""
        for key in self.keys():
            self.pool.forget(key)

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
