"""The bot API's two streams, as the NDJSON lines they send: a bot's event stream and the game
stream of its seat at one table.

**The game stream** is the seat's WebSocket without the socket: a
:class:`~polis.server.live.presence.Connection` of the seat joins the room like a person's
(the seat is online; reconnecting takes it back from a stand-in, as a person's connection
does) and is handed exactly the seat's ``state`` messages (:meth:`Room.snapshot_text
<polis.server.live.room.Room.snapshot_text>`: its view, legal moves and choices, never more);
the other messages a WebSocket gets (who is online, chat) are left out. A move another
process stored reaches it as it reaches the room's WebSockets: from the bus, through the
room's pipeline. A bot that does not read is cut off like a socket that does not: only the
newest state waits for it. The stream ends after the state of the finished game.

**The event stream** looks at the store every :data:`POLL` seconds (at once when this process
made a change for the bot: :meth:`~polis.server.accounts.bots.BotApi.wake`), so it learns
of challenges and tables whatever process made them: open challenges to the bot
(``challenge``), tables where it holds a seat once every seat is taken (``game_start``) and
their end (``game_finish``). Each connection tells every open challenge and game in progress
first: a bot that reconnects misses nothing.

Both send an empty line when :data:`KEEP_ALIVE` seconds passed without one, and end when
their token is revoked (at once in the process that revoked it, within :data:`LIVE_EVERY`
seconds elsewhere).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, cast

from polis.server.accounts import challenges
from polis.server.live.jsontext import dumps, loads
from polis.server.live.presence import Connection
from polis.server.store import api_tokens as rows
from polis.server.wire.bot import (
    BotChallengeEvent,
    BotEvent,
    BotGameFinishEvent,
    BotGameJSON,
    BotGameStartEvent,
    ChallengeJSON,
)

if TYPE_CHECKING:
    from polis.server.accounts.bots import BotApi, Caller
    from polis.server.live.hub import Hub
    from polis.server.live.room import Room

log = logging.getLogger("polis.server")

#: Seconds without a line before a keep-alive (an empty line) is sent.
KEEP_ALIVE = 7.0
#: Seconds between the event stream's looks at the store.
POLL = 1.0
#: Seconds between the streams' checks that their token still works (in the store).
LIVE_EVERY = 5.0
#: Seconds a stream waits for a line before it looks at its token and the keep-alive.
TICK = 1.0
#: What a keep-alive is.
BLANK = "\n"


class StateConnection(Connection):
    """A seat's connection that is sent its ``state`` messages only."""

    def put(self, text: str, *, state: bool = False) -> bool:
        if not state:
            return self.dropped is None
        return super().put(text, state=True)


async def _live(api: BotApi, caller: Caller, checked: list[float]) -> bool:
    """Whether the token still works: at once if revoked here, else asked of the store
    every :data:`LIVE_EVERY` seconds (``checked`` holds when it was last)."""
    if api.revoked_here(caller.token_id):
        return False
    now = time.monotonic()
    if now - checked[0] < LIVE_EVERY:
        return True
    checked[0] = now
    return await api.still_live(caller)


# -- the game stream -----------------------------------------------------------------------
async def game_lines(
    hub: Hub, api: BotApi, caller: Caller, room: Room, seat: int, address: str
) -> AsyncIterator[str]:
    """The seat's state messages, one a line, until the game is over (or the token revoked,
    or the client does not read)."""
    lines: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
    gone: list[str] = []

    def dropped(conn: Connection, why: str) -> None:
        log.warning("dropped a bot's game stream of game %s from %s: %s", room.id, address, why)
        gone.append(why)

    conn = StateConnection(
        seat,
        lines.put,
        queue_limit=hub.guards.limits.send_queue,
        on_drop=dropped,
        address=address,
        check=None if hub.wire is None else hub.wire.to_client,
    )
    with api.streaming(caller):
        room.pending += 1  # a room with nobody in it may leave memory at any await
        try:
            while hub.rooms.get(room.id) is not room:
                room.pending -= 1
                room = await hub.room(room.id)
                room.pending += 1
            await room.join(conn)
        finally:
            room.pending -= 1
        try:
            checked = [time.monotonic()]
            last = time.monotonic()
            while True:
                try:
                    text = await asyncio.wait_for(lines.get(), TICK)
                except TimeoutError:
                    if gone or not await _live(api, caller, checked):
                        return
                    if time.monotonic() - last >= KEEP_ALIVE:
                        last = time.monotonic()
                        yield BLANK
                    continue
                last = time.monotonic()
                yield text + "\n"
                if loads(text).get("finished") is True:
                    return
        finally:
            conn.close()
            await room.leave(conn)


# -- the event stream ----------------------------------------------------------------------
def challenge_json(found: dict[str, Any]) -> ChallengeJSON:
    """A challenge as :func:`polis.server.accounts.challenges.to_json` gives it."""
    return cast(ChallengeJSON, found)


class Told:
    """What one event stream has told its bot so far."""

    def __init__(self) -> None:
        self.challenges: set[str] = set()
        self.games: dict[str, BotGameJSON] = {}


async def news(hub: Hub, caller: Caller, told: Told) -> list[BotEvent]:
    """The events since the stream last looked (all that is open, on its first look)."""
    account = caller.account
    engine = hub.store.engine
    found: list[BotEvent] = []
    listed = await challenges.listing(hub, account, waiting_only=True)
    still = set()
    for challenge in listed["incoming"]:
        still.add(challenge["id"])
        if challenge["id"] not in told.challenges:
            found.append(BotChallengeEvent(type="challenge", challenge=challenge_json(challenge)))
    told.challenges = still
    games = await hub.patiently(lambda: rows.live_games(engine, account.id), "a bot's games")
    live = set()
    for entry in games:
        live.add(entry["id"])
        if entry["waiting"] or entry["id"] in told.games:
            continue
        game = BotGameJSON(
            id=entry["id"],
            game=entry["game"],
            mode=entry["mode"],
            players=entry["players"],
            seat=entry["seat"],
            rated=entry["rated"],
        )
        told.games[game["id"]] = game
        found.append(BotGameStartEvent(type="game_start", game=game))
    over = [game_id for game_id in told.games if game_id not in live]
    if over:
        results = await hub.patiently(lambda: rows.results_of(engine, over), "results")
        for game_id in over:
            game = told.games.pop(game_id)
            if game_id in results:
                found.append(
                    BotGameFinishEvent(type="game_finish", game=game, result=results[game_id])
                )
    return found


async def event_lines(hub: Hub, api: BotApi, caller: Caller) -> AsyncIterator[str]:
    """The bot's events, one a line, until the token is revoked (or the client goes)."""
    with api.streaming(caller), api.listening(caller.account.id) as woken:
        told = Told()
        checked = [time.monotonic()]
        last = time.monotonic()
        while True:
            if not await _live(api, caller, checked):
                return
            woken.clear()
            events = await news(hub, caller, told)
            for event in events:
                text = dumps(event)
                if hub.wire is not None:
                    hub.wire.bot_event(text)
                yield text + "\n"
            now = time.monotonic()
            if events:
                last = now
            elif now - last >= KEEP_ALIVE:
                last = now
                yield BLANK
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), POLL)
