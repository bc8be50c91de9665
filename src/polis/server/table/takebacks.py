"""Take-backs: a player withdraws their last move, while it revealed nothing and nobody has
moved after it.

* **Who and when.** Only the latest move still standing can be taken back, by the seat that
  made it (a person; not a bot standing in), while the game is not over, and only if that
  move revealed nothing: the game's ``reveals`` plugin says (a move that ends a round may
  lay out new pieces, the last move shows every secret). A game without the plugin
  allows none. A bot that has already replied has moved after it: refused.
* **Consent.** Against bots at once; when other people sit at the table, each of them must
  accept (``takeback`` asks, ``takeback_answer`` answers over the WebSocket); one refusal,
  or any entry stored meanwhile, ends the request.
* **The record stays append-only.** A take-back is an entry of its own
  (:data:`~polis.server.live.history.TAKE_BACK`), stored through the same position guard as a
  move, so a take-back and a move racing for one position (a bot replying, another process)
  cannot both be stored. Other processes apply it from the bus or the store like a move.
  What is played and replayed is the line of moves still standing
  (:func:`~polis.server.live.history.line_of`).

The state message's ``take_back`` says which seat may take back now (null: none) and the
request waiting for answers, if any (``{"seat", "position", "waiting": [seats]}``); its
``played`` counts the moves standing (``position`` counts every entry).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from polis.core.errors import InputError
from polis.core.moves import Move
from polis.core.parts import REVEALS, Reveals
from polis.core.protocol import GameState
from polis.server.errors import ServerError
from polis.server.live.history import TAKE_BACK, EventLog, line_of, replay
from polis.server.live.pipeline import Change, TakeBack, bot_turn
from polis.server.store.games import Append
from polis.server.wire.bus import BusTakeback
from polis.server.wire.to_client import (
    StateTakeBack,
    TakebackDeclinedMessage,
    TakebackDoneMessage,
    TakeBackRequestJSON,
)

if TYPE_CHECKING:
    from polis.server.live.room import Room

log = logging.getLogger("polis.server")


@dataclass(slots=True)
class Request:
    """A take-back waiting for the other people's consent."""

    seat: int
    position: int
    waiting: set[int] = field(default_factory=set)

    def to_json(self) -> TakeBackRequestJSON:
        return {"seat": self.seat, "position": self.position, "waiting": sorted(self.waiting)}


def reveals_of(room: Room) -> Reveals | None:
    try:
        return room.game.plugin(REVEALS)
    except InputError:
        return None


class TakeBacks:
    """The take-backs of one room."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.reveals = reveals_of(room)
        self.request: Request | None = None
        #: (position, the state before the latest move standing), kept from the move itself.
        self._before: tuple[int, GameState] | None = None
        #: (position, the seat that may take back, why nobody may).
        self._status: tuple[int, int | None, str | None] | None = None

    # -- the rules ----------------------------------------------------------------------------
    def moved(self, position: int, before: GameState) -> None:
        """A move was stored, leaving ``position``: ``before`` is the state it was made in."""
        self._before = (position, before)

    def _last(self) -> tuple[GameState, Move, int] | None:
        """The state before the latest move standing, that move and its entry's index."""
        room = self.room
        line = line_of(room.stored.moves)
        if not line:
            return None
        if self._before is not None and self._before[0] == room.position:
            before = self._before[1]
        else:  # the room was rebuilt since: replay up to the move (no events needed)
            stored = room.stored
            before = room.game.new_game(
                stored.mode,
                stored.players,
                seed=stored.seed,
                setup=stored.setup,
                options=stored.options or None,
            )
            for _index, text in line[:-1]:
                before.apply(before.parse_move(text))
            self._before = (room.position, before)
        index, text = line[-1]
        return before, before.parse_move(text), index

    def status(self) -> tuple[int | None, str | None]:
        """The seat that may take back now, or why nobody may (worked out once a position)."""
        room = self.room
        position = room.position
        if self._status is not None and self._status[0] == position:
            return self._status[1], self._status[2]
        mover: int | None = None
        why: str | None = None
        last = None if room.finished or room.vacant else self._last()
        if room.finished:
            why = "the game is over (its end revealed everything)"
        elif room.stored.rated:
            why = "a rated game allows no take-backs"
        elif room.vacant:
            why = "the table is waiting for players"
        elif last is None:
            why = "there is no move to take back"
        else:
            before, move, index = last
            mover = before.current_player()
            authors = room.stored.authors
            author = authors[index] if index < len(authors) else None
            if room.stored.seats[mover].kind != "human" or (author or "").startswith("bot"):
                why = "the last move was a bot's"
            elif self.reveals is None:
                why = "this game does not say which moves reveal hidden information"
            elif self.reveals(before, move):
                why = "the last move revealed hidden information"
        self._status = (position, mover, why)
        return mover, why

    def refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back now (None: it may)."""
        mover, why = self.status()
        if why is not None:
            return f"no take-back: {why}"
        if mover != seat:
            return (
                "no take-back: only the player who made the last move can take it back, "
                "before anyone moves after it"
            )
        return None

    def extra(self) -> StateTakeBack:
        """The state message's ``take_back`` (public: who may, and a request) and ``played``
        (the moves standing: replays go up to it, ``position`` counts take-backs too)."""
        if self.request is not None and self.request.position != self.room.position:
            self.request = None  # an entry was stored meanwhile: the request lapsed
        mover, why = self.status()
        return {
            "take_back": {
                "seat": mover if why is None else None,
                "request": None if self.request is None else self.request.to_json(),
            },
            "played": len(line_of(self.room.stored.moves)),
        }

    # -- asking and answering -----------------------------------------------------------------
    def _others(self, seat: int) -> set[int]:
        """The people whose consent a take-back by ``seat`` needs."""
        return {
            s.seat
            for s in self.room.stored.seats
            if s.kind == "human" and s.seat != seat and s.stand_in is None
        }

    async def ask(self, seat: int | None, position: int) -> None:
        """``seat`` asks to take back its last move (made at ``position - 1``)."""
        room = self.room
        if seat is None:
            raise ServerError("spectator", "spectators cannot take back moves")
        if position != room.position:
            raise ServerError("stale", "the game has moved on: that move is no longer the last")
        why = self.refusal(seat)
        if why is not None:
            raise ServerError("no_takeback", why)
        others = self._others(seat)
        if not others:
            await room.commit(TakeBack(seat, position))
            return
        if self.request is not None and self.request.position == position:
            raise ServerError("no_takeback", "a take-back is already waiting for an answer")
        self.request = Request(seat, position, others)
        self._told()
        room.hub.publish(BusTakeback(t="takeback", g=room.id, k="ask", s=seat, p=position))

    async def answer(self, seat: int | None, position: int, accept: bool) -> None:
        """``seat`` accepts or declines the request waiting at ``position``."""
        room = self.room
        request = self.request
        if (
            seat is None
            or request is None
            or request.position != position
            or position != room.position
            or seat not in request.waiting
        ):
            raise ServerError("no_takeback", "no take-back is waiting for your answer")
        answer = BusTakeback(
            t="takeback", g=room.id, k="yes" if accept else "no", s=seat, p=position
        )
        room.hub.publish(answer)
        if self._answered(seat, accept):
            await room.commit(TakeBack(request.seat, position))

    def _answered(self, seat: int, accept: bool) -> bool:
        """Note an answer; True when every person has now accepted."""
        request = self.request
        assert request is not None
        if not accept:
            self.request = None
            declined = TakebackDeclinedMessage(type="takeback_declined", seat=request.seat, by=seat)
            self.room.notify(declined)
            self._told()
            return False
        request.waiting.discard(seat)
        self._told()
        return not request.waiting

    def heard(self, message: dict[str, Any]) -> None:
        """A request or an answer given through another process (the bus)."""
        kind, seat, position = message.get("k"), message.get("s"), message.get("p")
        if not isinstance(seat, int) or position != self.room.position:
            return
        if kind == "ask":
            self.request = Request(seat, position, self._others(seat))
            self._told()
        elif kind in ("yes", "no") and self.request is not None and seat in self.request.waiting:
            # the process the last "yes" was given to stores the take-back itself
            self._answered(seat, kind == "yes")

    def _told(self) -> None:
        self.room.snapshots.invalidate()
        self.room.broadcast()

    # -- the change (run by the room's pipeline) -----------------------------------------------
    async def change(self, action: TakeBack) -> Change:
        """The take-back of ``action.seat``'s last move at ``action.position``: an entry of
        its own, stored through the position guard; the game replays from the position
        before the move (ServerError when the rules no longer allow it)."""
        room = self.room
        seat, position = action.seat, action.position
        if position != room.position:
            raise ServerError(
                "stale", "the game has moved on: the move can no longer be taken back"
            )
        why = self.refusal(seat)
        if why is not None:
            raise ServerError("no_takeback", why)
        entries = [*room.stored.moves, TAKE_BACK]
        state, events = await self._replay(entries)
        item = Append(
            room.id,
            position,
            TAKE_BACK,
            None,
            bot_turn=bot_turn(room.stored.seats, state),
            author=room.watch.author_of(seat, False),
        )

        def install() -> None:
            self._install(entries, state, events)
            room.stored.authors[-1] = item.author

        return Change(
            "takeback",
            install,
            entry=item,
            lost=ServerError("stale", "someone moved first: the move can no longer be taken back"),
            mover=seat,
            notices=(TakebackDoneMessage(type="takeback_done", seat=seat),),
            stops_bots=True,
        )

    async def _replay(self, entries: list[str]) -> tuple[GameState, EventLog]:
        stored = self.room.stored
        return await asyncio.to_thread(
            replay,
            self.room.game,
            stored.mode,
            stored.players,
            seed=stored.seed,
            setup=stored.setup,
            options=stored.options,
            moves=entries,
        )

    def _install(self, entries: list[str], state: GameState, events: EventLog) -> None:
        """Make stored entries (some of them take-backs) part of the room."""
        room = self.room
        added = entries[len(room.stored.moves) :]
        room.stored.moves.extend(added)
        authors = room.stored.authors
        authors.extend([None] * (len(room.stored.moves) - len(authors)))
        room.state = state
        room.log = events
        room.stored.finished = state.is_terminal()
        self.request = None
        self._before = None
        room.watch.stale = True  # the clock and authors are read back from the store

    async def replayed(self, texts: list[str]) -> Change | None:
        """The change that installs entries another process stored, take-backs among them:
        the game replayed from the start (None: they do not replay, which is logged)."""
        entries = [*self.room.stored.moves, *texts]
        try:
            state, events = await self._replay(entries)
        except Exception:
            log.exception("stored entries of game %s do not replay", self.room.id)
            return None
        return Change("takeback", lambda: self._install(entries, state, events), publish=False)
