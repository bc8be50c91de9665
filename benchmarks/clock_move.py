"""What a clock adds to a move: a table with a real-time clock against the same table without
one, in the same run. A script that prints figures.

Each round plays one seeded random game of each kind through the room's move pipeline
(``Room.commit``: checking, storing, the state messages of every seat and spectator) on its
own SQLite file, alternating the two kinds so both meet the same machine load; it prints the
mean and 95th percentile milliseconds per move of each and their ratio (clock / none).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import bench_args
from polis.core.registry import games


async def _game(name: str, mode: str, players: int, seed: int, db: str, clock: bool) -> list[float]:
    # the server's modules are imported here, so that -h answers at once
    from concurrent.futures import ThreadPoolExecutor

    from polis.server.live.hub import Hub
    from polis.server.live.pipeline import Play
    from polis.server.live.presence import Connection
    from polis.server.store.games import Store
    from polis.server.table.clocks import TableClock, TimeControl

    hub = Hub(Store(f"sqlite:///{db}"), games(), ThreadPoolExecutor(max_workers=1), bot_delay=0.0)
    table = TableClock(TimeControl.realtime(600, 10).to_json(), "easy", None) if clock else None
    seats = [{"name": f"p{i}", "kind": "human"} for i in range(players)]
    room, _tokens = await hub.create(name, mode, seats, seed=seed, table=table)
    sink: list[int] = []

    async def send(text: str) -> None:
        sink.append(len(text))

    for seat in [*range(players), None, None]:
        await room.join(Connection(seat, send))
    rng = random.Random(seed)
    costs = []
    while not room.state.is_terminal():
        state = room.state
        text = str(state.random_move(rng))
        start = time.perf_counter()
        await room.commit(Play(state.current_player(), text, room.position))
        costs.append(time.perf_counter() - start)
    await hub.close()
    hub.store.close()
    return costs


def _summary(costs: list[float]) -> dict[str, float]:
    costs = sorted(costs)
    return {
        "mean ms": 1000 * statistics.fmean(costs),
        "p95 ms": 1000 * costs[int(0.95 * (len(costs) - 1))],
    }


def main() -> None:
    parser = bench_args.parser(
        __doc__, "about 15 seconds with the defaults (a few seconds a game of each kind)."
    )
    parser.add_argument("--games", type=int, default=4, help="games of each kind")
    parser.add_argument("--game", default="metropolys", help="the game played")
    parser.add_argument("--mode", default="family", help="its mode")
    parser.add_argument("--players", type=int, default=3, help="seats at each table")
    args = parser.parse_args()
    found: dict[bool, list[float]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.games):
            for clock in (False, True):
                db = str(Path(folder) / f"g{seed}-{int(clock)}.db")
                found[clock] += asyncio.run(
                    _game(args.game, args.mode, args.players, seed, db, clock)
                )
    plain, timed = _summary(found[False]), _summary(found[True])
    fields = ("mean ms", "p95 ms")
    print(f"{'table':<16}" + "".join(f"{f:>10}" for f in fields) + f"{'moves':>8}")
    rows: list[tuple[str, dict[str, Any], int]] = [
        ("no clock", plain, len(found[False])),
        ("real-time", timed, len(found[True])),
    ]
    for label, row, count in rows:
        print(f"{label:<16}" + "".join(f"{row[f]:>10.3f}" for f in fields) + f"{count:>8}")
    print(f"{'ratio':<16}" + "".join(f"{timed[f] / plain[f]:>9.2f}x" for f in fields))


if __name__ == "__main__":
    main()
