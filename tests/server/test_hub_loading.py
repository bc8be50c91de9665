"""A game being loaded into memory hears what other processes say about it meanwhile."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from polis.core.registry import games
from polis.server.live.hub import Hub
from polis.server.store.games import Store
from waiting import eventually_async


def test_a_change_told_while_its_game_loads_is_applied_once_the_room_exists(
    tmp_path: Path,
) -> None:
    """Another process stores a move after this one read the game and tells it while the
    game is still being replayed: the move must not be lost (SQLite: no position checks
    would find it later)."""

    async def scenario() -> tuple[int, int]:
        store = Store(f"sqlite:///{tmp_path / 'load.db'}")
        hub = Hub(store, games(), bot_delay=0.0)
        people = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]
        room, _tokens = await hub.create("counting", "basic", people)
        game_id = room.id
        hub.evict(room)
        loop = asyncio.get_running_loop()
        real_load = store.load
        told = {"t": "change", "o": "other", "g": game_id, "k": "move", "i": 0, "m": "2"}

        def load(wanted: str) -> Any:
            read = real_load(wanted)  # this process has read the game ...
            store.append_move(game_id, 0, "2", None)  # ... when another stores a move
            loop.call_soon_threadsafe(hub.on_bus, told)  # and says so on the bus
            time.sleep(0.2)  # while this one still loads
            return read

        store.load = load  # type: ignore[method-assign]
        loaded = await hub.room(game_id)
        before = loaded.position
        await eventually_async(lambda: loaded.position == 1, "the move told was lost")
        store.close()
        return before, loaded.position

    before, after = asyncio.run(scenario())
    assert (before, after) == (0, 1)


def test_a_seat_taken_back_elsewhere_counts_its_time_away_afresh(tmp_path: Path) -> None:
    """A person back through another process: that process's word on who is online may come
    after the change of hands, so this one must not stand in for them again at once."""
    from polis.server.store import clock_rows
    from polis.server.table.clocks import TableClock

    async def scenario() -> tuple[float, float | None]:
        store = Store(f"sqlite:///{tmp_path / 'hands.db'}")
        bots = ThreadPoolExecutor(1)  # no processes, and held: the stand-in must not move
        held = threading.Event()
        bots.submit(held.wait, 30)
        hub = Hub(store, games(), bot_delay=0.0, bots=bots)
        wall = [1_800_000_000.0]
        hub.now = lambda: wall[0]  # type: ignore[method-assign]
        people = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]
        table = TableClock(stand_in="easy", away_limit=30)
        room, _tokens = await hub.create("counting", "basic", people, table=table)
        seat = room.state.current_player()
        wall[0] += 31  # away past the limit (nobody ever connected here)
        assert await room.watch.check()  # a bot stands in for the person to move
        wall[0] += 5
        # the person comes back through another process, which stores the change of hands
        position = room.position
        assert clock_rows.hand_back(
            store.engine, room.id, seat, position=position, bot_turn=False, clock=None
        )
        (await room.watch.read_hands())()  # what this process reads when told of it
        due = room.watch.due()
        assert room.position == position  # the seat handed back is still the one to move
        held.set()
        await hub.close()
        store.close()
        return wall[0], None if due is None else due[0]

    now, due = asyncio.run(scenario())
    assert due == now + 30  # a whole away limit from the hand-back, not already past
