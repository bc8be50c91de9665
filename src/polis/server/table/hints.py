"""Hints: the seat to move asks which move a searching bot would make, and why in words.

* **The setting.** A table's ``hints`` is chosen when it is created; unchosen, hints are on
  where no other person's game is spoilt (one person against bots, or one person holding
  every seat: hot-seat) and off when several people play (:func:`default_hints`). Every
  seat sees it: the state message's ``hints``.
* **Who and when.** Only a person's seat, by its token, on its own turn, while no bot stands
  in for it and the table is not waiting for players.
* **From the seat's view only.** The seat's :class:`~polis.core.view.View` and legal moves go
  to a bot worker (:func:`polis.server.table.hint_search.suggest`); the game state never
  does, and the seed depends on the number of moves standing only, so the answer is the same
  whatever the seat cannot see.
* **One per line of play.** The answer is kept for the moves standing (after take-backs,
  :func:`~polis.server.live.history.line_of`) and the seat, not the position number, which every
  take-back moves on: asking again, from another tab or after taking back to a line asked
  before (the latest :data:`KEPT` are kept), gets the same answer and costs no search; asks
  while it is being worked out wait for it. The answer's ``position`` is the one asked for.
* **Capped.** A hint is seconds of a bot worker's time, and runs only in what the bots leave
  (:mod:`polis.server.bots.pool`); so new ones are counted per address, per seat (one at a
  time) and per server (:mod:`polis.server.table.thinking`), and refused past a cap (HTTP 429)
  rather than queued for long.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from polis.core.match import derive_seed
from polis.core.moves import Move, MoveList
from polis.core.view import View
from polis.server.bots.pool import BotFailed
from polis.server.errors import ServerError
from polis.server.live.history import line_of
from polis.server.store.games import SeatInfo, StoredGame
from polis.server.table.hint_search import Suggestion, suggest
from polis.server.table.seats import nobody_else
from polis.server.table.thinking import Ticket
from polis.server.wire.to_client import StateHints

if TYPE_CHECKING:
    from polis.server.live.room import Room

log = logging.getLogger("polis.server")

#: Seconds a worker may take over one hint before it is given up.
LIMIT = 60.0
#: Answers a room keeps (lines of play and seats): a hot-seat game going back and forth
#: through take-backs is answered from them.
KEPT = 64

#: An answer's key: the moves standing (their notation) and the seat.
Line = tuple[tuple[str, ...], int]


def default_hints(seats: Sequence[SeatInfo] | Sequence[str], hot_seat: bool = False) -> bool:
    """Whether hints may be on (and are, unless the table chose otherwise): only where no
    other person sits (:func:`~polis.server.table.seats.nobody_else`: at most one person's seat,
    the rest bots, or hot-seat; never with a seat open to anyone)."""
    kinds = [s if isinstance(s, str) else "open" if s.vacant else s.kind for s in seats]
    return nobody_else(kinds, hot_seat)


def hints_on(stored: StoredGame) -> bool:
    """The table's setting (the default for its seats when none was chosen); never in a
    rated game."""
    if stored.rated:
        return False
    return default_hints(stored.seats) if stored.hints is None else stored.hints


class Hints:
    """The hints of one room: who may ask, and the answers of the lines of play asked."""

    def __init__(self, room: Room) -> None:
        self.room = room
        #: (the moves standing, seat) -> the answer (being) worked out, latest asked last
        self._answers: OrderedDict[Line, asyncio.Future[dict[str, Any]]] = OrderedDict()

    @property
    def enabled(self) -> bool:
        return hints_on(self.room.stored)

    def extra(self) -> StateHints:
        """The state message's ``hints``: whether the table allows them (every seat sees it)."""
        return {"hints": self.enabled}

    def refusal(self, seat: int, position: int) -> ServerError | None:
        """Why ``seat`` may not have a hint at ``position`` (None: it may)."""
        room = self.room
        if not self.enabled:
            return ServerError("no_hint", "hints are off at this table")
        if room.finished:
            return ServerError("finished", "the game is over")
        if room.vacant:
            return ServerError("waiting", "the table is waiting for players")
        if position != room.position:
            return ServerError("stale", f"the game is at position {room.position}, not {position}")
        current = room.state.current_player()
        if seat != current:
            return ServerError("not_your_turn", "a hint is for the player whose turn it is")
        if room.stored.seats[seat].bot_level is not None:
            return ServerError("no_hint", "a bot plays this seat now")
        return None

    async def ask(self, seat: int, position: int, address: str = "unknown") -> dict[str, Any]:
        """The hint for ``seat`` at ``position``, asked from ``address`` (worked out once per
        line of play; ServerError if refused, ``rate_limited`` past a cap)."""
        refused = self.refusal(seat, position)
        if refused is not None:
            raise refused
        line = tuple(text for _index, text in line_of(self.room.stored.moves))
        future = self._answers.get((line, seat))
        if future is None:
            future = self._start((line, seat), address)
        else:
            self._answers.move_to_end((line, seat))
        try:
            answer = await asyncio.shield(future)
        except BotFailed:
            raise ServerError(
                "unavailable", "no move could be suggested just now; try again"
            ) from None
        return {**answer, "position": position}

    def _start(self, key: Line, address: str) -> asyncio.Future[dict[str, Any]]:
        """Work out the answer of ``key`` in a worker (counted against the caps first)."""
        room = self.room
        seat = key[1]
        ticket: Ticket = room.hub.thinking.hints.take(address, (room.id, seat))
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[key] = future
        while len(self._answers) > KEPT:
            self._answers.popitem(last=False)
        state = room.state  # (taken now: the position the refusal checked)
        view, legal = state.view(seat), state.legal_moves()
        task = room.hub.spawn(self._work_out(key, view, legal, future))
        task.add_done_callback(lambda _task: ticket.done())
        return future

    async def _work_out(
        self,
        key: Line,
        view: View,
        legal: MoveList[Move],
        future: asyncio.Future[dict[str, Any]],
    ) -> None:
        room = self.room
        config = room.hub.config
        line, seat = key
        try:
            found: Suggestion = await room.hub.pool.compute(
                suggest,
                (
                    room.game,
                    view,
                    legal,
                    config.hint_agent,
                    config.hint_samples,
                    derive_seed(0, "hint", len(line)),  # the moves made only: nothing hidden
                ),
                LIMIT,
            )
            from polis.server.live.room import choices_of  # (the room imports this module)

            choices = choices_of(room.game)
            choice = None if choices is None else choices(view, [found.move])
        except Exception as exc:  # a worker that failed, or anything else: said, not hung
            if isinstance(exc, BotFailed):
                log.warning("no hint for seat %d in game %s: %s", seat, room.id, exc)
            else:
                log.exception("no hint for seat %d in game %s", seat, room.id)
            if self._answers.get(key) is future:
                del self._answers[key]  # asking again tries again
            if not future.done():
                future.set_exception(exc if isinstance(exc, BotFailed) else BotFailed(str(exc)))
                future.exception()  # (retrieved: nobody may be waiting any more)
            return
        answer = {
            "seat": seat,
            "move": found.move.text,
            # the game's structured choice of the move, as in the state message's choices
            "choice": choice,
            "reason": found.reason,
            "agent": config.hint_agent,
            "samples": config.hint_samples,
        }
        if not future.done():
            future.set_result(answer)
