"""Bot seats: the one place the server asks an agent (:mod:`polis.bots`) for a move.

A room's bots decide through the match loop's decision step: a :class:`~polis.core.match.Turn`
of a clone of the state, handed to the seat :func:`polis.bots.agent_seat` makes of the agent,
in a worker thread, so the event loop stays free and the live state is never touched by the
agent. Each bot seat keeps its agent for the whole game (searching agents may remember
between moves), seeded with ``derive_seed(game_id, "bot", seat)``.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from typing import TYPE_CHECKING

from polis.bots import agent_seat, make_agent
from polis.core.match import Seat, Turn, derive_seed
from polis.core.moves import Move
from polis.core.protocol import GameState
from polis.server.errors import ServerError

if TYPE_CHECKING:
    from polis.server.room import Room

log = logging.getLogger("polis.server")


def decide(seat: Seat, state: GameState) -> Move:
    """The seat's move in ``state`` (a clone; runs in a worker thread)."""
    move: Move = seat(Turn(state))
    return move


class BotDriver:
    """Plays the bot seats of one room, one decision at a time."""

    def __init__(self, room: Room, executor: Executor, delay: float) -> None:
        self.room = room
        self.executor = executor
        #: Seconds a bot waits before moving, so people can follow.
        self.delay = delay
        self.task: asyncio.Task[None] | None = None
        self._seats: dict[int, Seat] = {}

    def seat(self, seat: int) -> Seat:
        """The agent of bot seat ``seat`` as a match-loop seat, made on first use."""
        found = self._seats.get(seat)
        if found is None:
            room = self.room
            level = room.stored.seats[seat].level or "medium"
            agent, budget = make_agent(level, derive_seed(room.id, "bot", seat))
            found = self._seats[seat] = agent_seat(agent, budget, room.game)
        return found

    def schedule(self) -> None:
        """Start the bot's turn if a bot is to move and none is already thinking."""
        state = self.room.state
        if state.is_terminal():
            return
        player = state.current_player()
        if self.room.stored.seats[player].kind != "bot":
            return
        if self.task is not None and not self.task.done():
            return
        self.task = asyncio.create_task(self._turn(player))

    async def _turn(self, player: int) -> None:
        room = self.room
        try:
            position = room.position
            if self.delay:
                await asyncio.sleep(self.delay)
            seat = self.seat(player)
            state = room.state.clone()
            loop = asyncio.get_running_loop()
            move = await loop.run_in_executor(self.executor, decide, seat, state)
            self.task = None
            await room.submit(player, move, position)
        except ServerError as exc:
            log.warning("bot move refused in game %s: %s", room.id, exc.message)
            self.task = None
            self.schedule()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot failed in game %s", room.id)
            self.task = None

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
