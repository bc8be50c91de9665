"""What one accepted move costs the server: checking it, storing it, and the state message of
every connected seat and spectator. A script that prints figures.

For each game and table it plays whole seeded random games through the room's pipeline
(``Room.commit``, the path of every change to a game; ``Room.submit`` in older trees) on a
SQLite file, with one connection per seat plus ``--spectators`` spectators; each connection
serializes what it is sent, as a WebSocket would. It prints the mean and 95th percentile
milliseconds per move, after one untimed game (imports and tables a server builds once are
not a move's cost).

It runs unchanged on older trees of polis (whose connections were sent dicts and whose hub
took a ``get_game`` function), so ``--compare DIR`` measures DIR's sources in a second process
after each configuration and prints both lines and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import bench_args

CONFIGS = [
    ("quadropolis", "classic", 2, 0),
    ("quadropolis", "expert", 4, 10),
    ("metropolys", "family", 2, 0),
    ("metropolys", "expert", 4, 10),
]


def _hub(db: str) -> Any:
    """A hub on a fresh SQLite store, for either tree's constructor."""
    from polis.core.registry import get_game

    Hub = _module("hub").Hub
    Store = _module("store").Store

    store = Store(f"sqlite:///{db}")
    executor = ThreadPoolExecutor(max_workers=1)
    takes = inspect.signature(Hub.__init__).parameters
    if "games" in takes:
        from polis.core.registry import games

        return Hub(store, games(), executor, bot_delay=0.0)
    return Hub(store, get_game, executor, bot_delay=0.0)


def _module(name: str) -> Any:
    """A server module of this tree: in a folder since the server had folders
    (``polis.server.live.hub``), at the top before (``polis.server.hub``)."""
    import importlib

    folders = {"hub": "live", "presence": "live", "pipeline": "live", "store": "store"}
    modern = f"polis.server.{folders[name]}.{'games' if name == 'store' else name}"
    try:
        return importlib.import_module(modern)
    except ImportError:
        return importlib.import_module(f"polis.server.{name}")


def _connection(seat: int | None, sink: list[int]) -> Any:
    Connection = _module("presence").Connection  # a tree whose connections are sent text

    async def send(text: str) -> None:
        sink.append(len(text))

    return Connection(seat, send)


def _old_connection(seat: int | None, sink: list[int]) -> Any:
    from polis.server.hub import Connection  # the old tree: sent dicts, sent as JSON

    async def send(message: dict[str, Any]) -> None:
        sink.append(len(json.dumps(message)))

    return Connection(seat, send)


async def _game(
    name: str, mode: str, players: int, spectators: int, seed: int, db: str
) -> list[float]:
    hub = _hub(db)
    seats = [{"name": f"p{i}", "kind": "human"} for i in range(players)]
    room, _tokens = await hub.create(name, mode, seats, seed=seed)
    sink: list[int] = []
    try:
        _module("presence")  # (the newer trees send text)
        make = _connection
    except ImportError:
        make = _old_connection
    for seat in [*range(players), *([None] * spectators)]:
        await room.join(make(seat, sink))
    rng = random.Random(seed)
    costs = []
    while not room.state.is_terminal():
        state = room.state
        move = state.random_move(rng)
        text = state.move_to_str(move) if hasattr(state, "move_to_str") else str(move)
        start = time.perf_counter()
        await _submit(room, state.current_player(), text)
        costs.append(time.perf_counter() - start)
    hub.store.close()
    return costs


async def _submit(room: Any, seat: int, text: str) -> None:
    """One person's move through the room's pipeline (``commit``; ``submit`` in older trees)."""
    try:
        play = _module("pipeline").Play
    except ImportError:  # an older tree
        await room.submit(seat, text, room.position)
        return
    await room.commit(play(seat, text, room.position))


def measure(name: str, mode: str, players: int, spectators: int, games: int) -> dict[str, float]:
    costs: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        # one untimed game first: what a server does once (imports, tables built on first
        # use) is not the cost of a move
        asyncio.run(_game(name, mode, players, spectators, 10_000, str(Path(folder) / "w.db")))
        for seed in range(games):
            db = str(Path(folder) / f"g{seed}.db")
            costs += asyncio.run(_game(name, mode, players, spectators, seed, db))
    costs.sort()
    return {
        "mean ms": 1000 * statistics.fmean(costs),
        "p95 ms": 1000 * costs[int(0.95 * (len(costs) - 1))],
    }


def _other(tree: Path, config: tuple[str, str, int, int], games: int) -> dict[str, float]:
    args = [sys.executable, __file__, "--one", json.dumps([*config, games])]
    env = {"PYTHONPATH": str(tree / "src")}
    done = subprocess.run(args, capture_output=True, text=True, env=env, check=True)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "about 20 seconds with the defaults (a few seconds a game and configuration, one "
        "untimed game each); --compare runs the other tree after each configuration (twice "
        "as long).",
    )
    parser.add_argument("--games", type=int, default=3, help="games per configuration")
    parser.add_argument("--compare", type=Path, help="another polis tree to measure beside")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        name, mode, players, spectators, games = json.loads(args.one)
        print(json.dumps(measure(name, mode, players, spectators, games)))
        return
    fields = ("mean ms", "p95 ms")
    print(f"{'config':<36}" + "".join(f"{f:>10}" for f in fields))
    for config in CONFIGS:
        label = f"{config[0]} {config[1]} {config[2]}p +{config[3]} watching"
        mine = measure(*config, args.games)
        print(f"{label:<36}" + "".join(f"{mine[f]:>10.3f}" for f in fields), flush=True)
        if args.compare:
            theirs = _other(args.compare, config, args.games)
            print(f"{'  other tree':<36}" + "".join(f"{theirs[f]:>10.3f}" for f in fields))
            ratio = "".join(f"{theirs[f] / mine[f]:>9.2f}x" for f in fields)
            print(f"{'  speed-up (other / this)':<36}" + ratio, flush=True)


if __name__ == "__main__":
    main()
