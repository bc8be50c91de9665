"""The background work of a server process, so that start-up serves at once and memory does
not grow with every game ever opened.

* Bots waiting to move (found in the store, not by replaying every game) are resumed a few
  games at a time, and again later for any whose process died (their lease ran out).
* A room nobody is connected to and no bot is thinking in leaves memory after
  ``room_idle`` seconds; the store rebuilds it when someone comes back.
* On PostgreSQL the positions of the loaded rooms are compared with the store (one query),
  so a move another process made is applied here even when Redis did not say so.
* Other processes' word on who is online expires, and this process repeats its own.
* Games whose clock ran out while no process held them are loaded, so a bot takes over.
* Finished games with players' accounts that were never settled (the process that stored the
  last move stopped first) are settled: their results and ratings are written.
* Events start at their time, and their rounds follow one another
  (:func:`polis.server.events.runner.run`, a loop of its own).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from polis.server.accounts import sessions
from polis.server.live.bus import PRESENCE_TTL
from polis.server.store import accounts, clock_rows, standings
from polis.server.store.faults import transient

if TYPE_CHECKING:
    from polis.server.live.hub import Hub

log = logging.getLogger("polis.server")

#: Games resumed per round.
RESUME_BATCH = 50
#: Seconds without a move after which a bot game counts as waiting for a new player process.
SETTLE = 30.0
#: Seconds between two looks for finished games never settled (:func:`settle_missed`).
SETTLE_EVERY = 300.0
#: Seconds a finished game is left to the process that stored its last move (it settles the
#: game at once) before upkeep settles it instead.
SETTLE_GRACE = 60.0
#: Games settled per look.
SETTLE_BATCH = 20


async def resume_bots(hub: Hub, quiet_for: float, limit: int | None) -> int:
    """Load and restart the bots of games waiting for one; returns how many were started."""
    try:
        ids = await asyncio.to_thread(
            hub.store.waiting_bot_games, quiet_for, limit if limit is not None else 1_000_000
        )
    except Exception as exc:
        if not transient(exc):
            raise
        hub.health.failed(exc)  # every socket is told
        return 0  # the store is down: next round
    count = 0
    for game_id in ids:
        try:
            room = await hub.room(game_id)
        except Exception:
            log.exception("cannot resume game %s", game_id)
            continue
        if not room.bots.thinking:
            room.bots.schedule()
            count += 1
        await asyncio.sleep(0)  # let the tables' moves through between games
    return count


async def load_overdue(hub: Hub, limit: int = RESUME_BATCH) -> int:
    """Load the games whose clock ran out while no process held them, so their bot takes
    over (:mod:`~polis.server.table.standins`); returns how many were loaded."""
    try:
        ids = await asyncio.to_thread(clock_rows.overdue, hub.store.engine, hub.now(), limit)
    except Exception as exc:
        if not transient(exc):
            raise
        hub.health.failed(exc)
        return 0
    loaded = 0
    for game_id in ids:
        room = hub.rooms.get(game_id)
        if room is None:
            try:
                room = await hub.room(game_id)
            except Exception:
                log.exception("cannot load game %s whose clock ran out", game_id)
                continue
            loaded += 1
        room.watch.arm()
    return loaded


async def settle_missed(hub: Hub, grace: float | None = None, limit: int = SETTLE_BATCH) -> int:
    """Settle the finished games with accounts at their seats that were never settled, last
    moved ``grace`` seconds ago or earlier (default :data:`SETTLE_GRACE`): the process that
    stored the last move stopped before it settled them. Any number of processes may do this
    at once: :func:`polis.server.accounts.ratings.settle` writes a game once. Returns how many
    this call settled."""
    cutoff = standings.settle_cutoff(SETTLE_GRACE if grace is None else grace)
    try:
        ids = await asyncio.to_thread(standings.unsettled, hub.store.engine, cutoff, limit)
    except Exception as exc:
        if not transient(exc):
            raise
        hub.health.failed(exc)
        return 0
    settled = 0
    for game_id in ids:
        try:
            room = await hub.room(game_id)
            settled += await hub.accounts.settle(room)
        except Exception:
            log.exception("cannot settle finished game %s", game_id)
    return settled


async def forget_stale_sessions(hub: Hub) -> int:
    """Forget the sessions past their idle time or lifetime
    (:mod:`polis.server.accounts.sessions`) that no browser came back to end; how many."""
    now = time.time()
    try:
        return int(
            await hub.write(
                lambda: accounts.drop_stale_sessions(
                    hub.store.engine, now - sessions.IDLE, now - sessions.LIFETIME
                ),
                "forgetting stale sessions",
            )
        )
    except Exception as exc:
        if not transient(exc):
            raise
        hub.health.failed(exc)
        return 0


def evict_idle(hub: Hub) -> int:
    """Drop rooms idle for ``room_idle`` seconds; returns how many."""
    cutoff = time.monotonic() - hub.config.room_idle
    idle = [r for r in hub.rooms.values() if r.idle and r.touched < cutoff]
    for room in idle:
        hub.evict(room)
    return len(idle)


def wake_bots(hub: Hub) -> None:
    """Start any bot that should be thinking and is not (its turn failed, or another process
    held its lease and has since stopped)."""
    for room in list(hub.rooms.values()):
        if not room.finished and not room.bots.thinking:
            room.bots.schedule()


def expire_presence(hub: Hub, repeat: bool) -> None:
    for room in list(hub.rooms.values()):
        if room.presence.expire():
            room.presence_changed()
        if repeat and room.presence.local_online:
            room.publish_presence()


async def sync_rooms(hub: Hub) -> int:
    """Catch up every loaded room that the store shows behind; returns how many moved."""
    ids = list(hub.rooms)
    moved = 0
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        try:
            progress = await asyncio.to_thread(hub.store.progress, chunk)
        except Exception as exc:
            if not transient(exc):
                raise
            hub.health.failed(exc)
            return moved
        for game_id, where in progress.items():
            room = hub.rooms.get(game_id)
            if room is None:
                continue
            if where.rematch_id and room.stored.rematch_id != where.rematch_id:
                hub.announce_rematch(room, where.rematch_id)
            if where.position > room.position:
                moved += 1
                hub.spawn(room.catch_up())
    return moved


def sync_interval(hub: Hub) -> float:
    """Seconds between position checks (0: never)."""
    configured = hub.config.sync_interval
    if configured is not None:
        return configured
    if hub.store.engine.dialect.name == "sqlite":
        return 0.0
    return 15.0 if hub.bus.shared and hub.bus.healthy else 2.0


async def upkeep(hub: Hub) -> None:
    """The background rounds of :mod:`upkeep`, until the server stops."""
    from polis.server.events import runner

    hub.spawn(_sync_loop(hub))
    hub.spawn(runner.run(hub))
    quiet_for = 0.0  # the first rounds after start-up resume every waiting bot
    last_repeat = time.monotonic()
    last_settle: float | None = None  # the first round settles what a stopped process left
    while True:
        try:
            started = await resume_bots(hub, quiet_for, RESUME_BATCH)
            if started < RESUME_BATCH:
                quiet_for = SETTLE
            await load_overdue(hub)
            if last_settle is None or time.monotonic() - last_settle >= SETTLE_EVERY:
                last_settle = time.monotonic()
                await settle_missed(hub)
                await forget_stale_sessions(hub)
            evict_idle(hub)
            wake_bots(hub)
            repeat = time.monotonic() - last_repeat > PRESENCE_TTL / 3
            if repeat:
                last_repeat = time.monotonic()
            expire_presence(hub, repeat)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("upkeep round failed")
        hub.upkeep_rounds += 1
        await asyncio.sleep(hub.config.housekeeping_interval if quiet_for else 0.5)


#: Seconds between two looks at whether the positions are due for a check: the interval
#: shortens the moment Redis goes down, and a check must not wait out the long one.
SYNC_TICK = 0.5


async def _sync_loop(hub: Hub) -> None:
    last = time.monotonic()
    while True:
        await asyncio.sleep(SYNC_TICK)
        interval = sync_interval(hub)
        if interval and time.monotonic() - last >= interval:
            last = time.monotonic()
            try:
                await sync_rooms(hub)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("checking positions against the store failed")
