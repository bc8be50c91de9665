"""Post-game review in the web app: every move of a finished game weighed in the bot workers.

Each move is weighed from the view its player had at that moment against the move the
searcher would have chosen (:func:`polis.server.table.hint_search.weigh`, one worker call
per move, so live bots are not held up for long and the client can show how far it has
come); forced moves cost nothing. Every loss carries its 95% sampling interval. Once the
game's scale is known, a move whose estimate is past a mark but whose interval is not sure
gets a second look on more samples (:func:`polis.bots.review.second_look`, one worker call
each, counted in ``total``). The moves are then marked on the game's own scale
(:func:`polis.bots.review.mark_moves`: the win share or the points, in moves' worth, surely
lost) and each marked move is explained by the game's ``reasons`` part
(:func:`polis.bots.review.explain`, here in the web process: a few scorings, no search), as
a catalogue key and its arguments that the client words in the reader's language. The server
names no game: it passes views and moves. The seed is :data:`SEED` and the agent and samples
the server's ``review_agent`` / ``review_samples``: a game always gets the same review, the
same that ``polis review RECORD --agent A --samples S`` prints for its record.

Reviews are kept in this process's memory (the latest :data:`KEPT`); another process, or
this one after a restart, works the review out again, with the same result. Nothing is
given before the game is over. Starting one is refused (HTTP 429) past the caps of
:mod:`polis.server.table.thinking` (per address, per server): each is minutes of worker time.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from polis.bots.intervals import LEVEL
from polis.bots.review import (
    MARKS,
    MoveReview,
    explain_marked,
    mark_moves,
    needs_second_look,
    points_scale,
    second_look,
)
from polis.core.moves import Move, MoveList
from polis.core.protocol import Game, GameState
from polis.core.view import View
from polis.server.bots.pool import BotFailed
from polis.server.live.history import line_of
from polis.server.store.games import StoredGame
from polis.server.table.hint_search import weigh
from polis.server.table.thinking import Ticket

if TYPE_CHECKING:
    from polis.server.live.hub import Hub
    from polis.server.live.room import Room

log = logging.getLogger("polis.server")

#: The seed of every review (``polis review``'s default): the same game, the same review.
SEED = 0
#: Reviews kept per process (the latest asked for).
KEPT = 32
#: Seconds a worker may take over one move before the review is given up.
LIMIT = 120.0
#: Reviews worked out at once per process (the others wait: live bots come first).
AT_ONCE = 2


@dataclass(slots=True)
class Review:
    """One game's review: under way (``done`` of ``total`` moves) or ready (``moves``)."""

    total: int
    done: int = 0
    moves: list[dict[str, Any]] | None = None
    #: The points one move is worth in the game (:func:`polis.bots.review.points_scale`).
    scale: float = 0.0
    failed: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def to_json(self, agent: str, samples: int) -> dict[str, Any]:
        if self.moves is not None:
            return {
                "status": "ready",
                "agent": agent,
                "samples": samples,
                "seed": SEED,
                "interval_level": LEVEL,
                "total": self.total,
                "points_scale": round(self.scale, 2),
                "marks": {
                    name: {"win_share": win, "moves_worth": worth} for name, win, worth in MARKS
                },
                "moves": self.moves,
            }
        if self.failed is not None:
            return {"status": "failed", "message": self.failed}
        return {"status": "preparing", "done": self.done, "total": self.total}


class Reviews:
    """The reviews of one server process."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._kept: OrderedDict[str, Review] = OrderedDict()
        self._turns = asyncio.Semaphore(AT_ONCE)

    def status(self, room: Room, address: str = "unknown") -> dict[str, Any]:
        """The review of ``room``'s finished game, started for ``address`` if nobody asked
        before (ServerError ``rate_limited`` past a cap)."""
        config = self.hub.config
        review = self._kept.get(room.id)
        if review is None or review.failed is not None:  # a failed one: tried again
            ticket = self.hub.thinking.reviews.take(address)
            self._kept.pop(room.id, None)
            review = self._kept[room.id] = self._start(room, ticket)
            while len(self._kept) > KEPT:
                _id, old = self._kept.popitem(last=False)
                if old.task is not None:
                    old.task.cancel()
        self._kept.move_to_end(room.id)
        return review.to_json(config.review_agent, config.review_samples)

    def _start(self, room: Room, ticket: Ticket) -> Review:
        review = Review(total=len(line_of(room.stored.moves)))
        review.task = self.hub.spawn(self._work_out(room.game, room.stored, review))
        review.task.add_done_callback(lambda _task: ticket.done())  # (cancelled too)
        return review

    async def _work_out(self, game: Game, stored: StoredGame, review: Review) -> None:
        async with self._turns:
            await self._weigh_all(game, stored, review)

    async def _weigh_all(self, game: Game, stored: StoredGame, review: Review) -> None:
        config = self.hub.config
        try:
            positions, final = await asyncio.to_thread(_positions, game, stored)
            weighed: list[MoveReview] = []
            for index, (view, legal, played) in enumerate(positions):
                assert view.player is not None
                if len(legal) == 1:
                    weighed.append(MoveReview.forced_move(index, view.player, played))
                else:
                    args = (
                        game, view, legal, index, played,
                        config.review_agent, config.review_samples, SEED,
                    )  # fmt: skip
                    weighed.append(await self.hub.pool.compute(weigh, args, LIMIT))
                review.done = index + 1
            scale = points_scale(final.result().scores, len(positions), final.num_players)
            views = [view for view, _legal, _played in positions]
            # a second look, once the game's scale is known, where a mark wants samples only
            unsure = [r.index for r in weighed if needs_second_look(r, scale)]
            review.total += len(unsure)
            for index in unsure:
                args2 = (game, views[index], weighed[index], SEED)
                weighed[index] = await self.hub.pool.compute(second_look, args2, LIMIT)
                review.done += 1
            marked = mark_moves(weighed, scale)
            review.scale = scale
            try:
                explained = await asyncio.to_thread(explain_marked, game, marked, views.__getitem__)
            except Exception:  # the words are a help: the figures and marks stand without them
                log.exception("the review of game %s could not be put in words", stored.id)
                explained = marked
            review.moves = [r.to_json() for r in explained]
        except Exception as exc:  # a worker that failed (or anything else): said, not hung
            if isinstance(exc, BotFailed):
                log.warning("the review of game %s failed: %s", stored.id, exc)
            else:
                log.exception("the review of game %s failed", stored.id)
            review.failed = "the review could not be worked out just now; try again"


def _positions(
    game: Game, stored: StoredGame
) -> tuple[list[tuple[View, MoveList[Move], Move]], GameState]:
    """Each move of the final line with the view its player had and the legal moves then,
    and the game as it ended."""
    state = game.new_game(
        stored.mode,
        stored.players,
        seed=stored.seed,
        setup=stored.setup,
        options=stored.options or None,
    )
    out = []
    for _index, text in line_of(stored.moves):
        move = state.parse_move(text)
        out.append((state.view(state.current_player()), state.legal_moves(), move))
        state.apply(move)
    return out, state


_BOARDS: weakref.WeakKeyDictionary[Hub, Reviews] = weakref.WeakKeyDictionary()


def reviews_of(hub: Hub) -> Reviews:
    """The reviews of ``hub``'s process (made on first use)."""
    found = _BOARDS.get(hub)
    if found is None:
        found = _BOARDS[hub] = Reviews(hub)
    return found
