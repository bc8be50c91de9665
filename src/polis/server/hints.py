"""Hints: the seat to move asks which move a searching bot would make, and why in words.

* **The setting.** A table's ``hints`` is chosen when it is created; unchosen, hints are on
  where no other person's game is spoilt (one person against bots, or one person holding
  every seat: hot-seat) and off when several people play (:func:`default_hints`). Every
  seat sees it: the state message's ``hints``.
* **Who and when.** Only a person's seat, by its token, on its own turn, while no bot stands
  in for it and the table is not waiting for players.
* **From the seat's view only.** The seat's :class:`~polis.core.view.View` and legal moves go
  to a bot worker (:func:`polis.server.advisor.suggest`); the game state never does, and the
  seed depends on the position only, so the answer is the same whatever the seat cannot see.
* **One per position.** The answer is kept for the position: asking again (or from another
  tab) gets the same answer and costs nothing; asks while it is being worked out wait for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from polis.core.match import derive_seed
from polis.core.moves import Move, MoveList
from polis.core.view import View
from polis.server.advisor import Suggestion, suggest
from polis.server.botpool import BotFailed
from polis.server.errors import ServerError
from polis.server.seats import nobody_else
from polis.server.store import SeatInfo, StoredGame

if TYPE_CHECKING:
    from polis.server.room import Room

log = logging.getLogger("polis.server")

#: Seconds a worker may take over one hint before it is given up.
LIMIT = 60.0


def default_hints(seats: Sequence[SeatInfo] | Sequence[str], hot_seat: bool = False) -> bool:
    """Whether hints may be on (and are, unless the table chose otherwise): only where no
    other person sits (:func:`~polis.server.seats.nobody_else`: at most one person's seat,
    the rest bots, or hot-seat; never with a seat open to anyone)."""
    kinds = [s if isinstance(s, str) else "open" if s.vacant else s.kind for s in seats]
    return nobody_else(kinds, hot_seat)


def hints_on(stored: StoredGame) -> bool:
    """The table's setting (the default for its seats when none was chosen)."""
    return default_hints(stored.seats) if stored.hints is None else stored.hints


class Hints:
    """The hints of one room: who may ask, and the answer of the current position."""

    def __init__(self, room: Room) -> None:
        self.room = room
        #: position -> seat -> the answer (being) worked out
        self._answers: dict[int, dict[int, asyncio.Future[dict[str, Any]]]] = {}

    @property
    def enabled(self) -> bool:
        return hints_on(self.room.stored)

    def extra(self) -> dict[str, Any]:
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

    async def ask(self, seat: int, position: int) -> dict[str, Any]:
        """The hint for ``seat`` at ``position`` (worked out once; ServerError if refused)."""
        refused = self.refusal(seat, position)
        if refused is not None:
            raise refused
        for old in [p for p in self._answers if p != position]:
            del self._answers[old]  # the game moved on: older answers are never asked again
        waiting = self._answers.setdefault(position, {})
        future = waiting.get(seat)
        if future is None:
            future = waiting[seat] = asyncio.get_running_loop().create_future()
            state = self.room.state  # (taken now: the position the refusal checked)
            view, legal = state.view(seat), state.legal_moves()
            self.room.hub.spawn(self._work_out(seat, position, view, legal, future))
        try:
            return await asyncio.shield(future)
        except BotFailed:
            raise ServerError(
                "unavailable", "no move could be suggested just now; try again"
            ) from None

    async def _work_out(
        self,
        seat: int,
        position: int,
        view: View,
        legal: MoveList[Move],
        future: asyncio.Future[dict[str, Any]],
    ) -> None:
        room = self.room
        config = room.hub.config
        try:
            found: Suggestion = await room.hub.pool.compute(
                suggest,
                (
                    room.game,
                    view,
                    legal,
                    config.hint_agent,
                    config.hint_samples,
                    derive_seed(0, "hint", position),  # the position only: nothing hidden
                ),
                LIMIT,
            )
            from polis.server.room import choices_of  # (the room imports this module)

            choices = choices_of(room.game)
            choice = None if choices is None else choices(view, [found.move])
        except Exception as exc:  # a worker that failed, or anything else: said, not hung
            if isinstance(exc, BotFailed):
                log.warning("no hint for seat %d in game %s: %s", seat, room.id, exc)
            else:
                log.exception("no hint for seat %d in game %s", seat, room.id)
            self._answers.get(position, {}).pop(seat, None)  # asking again tries again
            if not future.done():
                future.set_exception(exc if isinstance(exc, BotFailed) else BotFailed(str(exc)))
                future.exception()  # (retrieved: nobody may be waiting any more)
            return
        answer = {
            "seat": seat,
            "position": position,
            "move": found.move.text,
            # the game's structured choice of the move, as in the state message's choices
            "choice": choice,
            "reason": found.reason,
            "agent": config.hint_agent,
            "samples": config.hint_samples,
        }
        if not future.done():
            future.set_result(answer)
