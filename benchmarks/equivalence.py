"""The compiled engines against the Python engines over many random games: long runs of the
equivalence the tests check briefly.

For every game, mode and player count, random games are played on the Python engine (the
rules' readable reference) and, position by position, on the game's compiled step
(``polis.games.<game>.compiled``): the same legal moves, the same successor states, the same
player to move and end, and at the end the same scores and places. Any difference stops the
run with the game, mode, players, seed and move. Prints how many games and positions each
configuration compared, and how long it took.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_args
from engines import CONFIGS  # this script's sibling: every game and mode


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "about 2-4 minutes with the defaults (about 900,000 positions; plus numba's first "
        "compile, up to a minute, when its cache is cold); the time grows with --games",
    )
    parser.add_argument("--games", type=int, default=1000, help="games per mode and player count")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument(
        "--game", choices=["quadropolis", "metropolys"], help="only this game (default: both)"
    )
    args = parser.parse_args()
    found = []
    for name, mode in CONFIGS:
        if args.game and name != args.game:
            continue
        compare = importlib.import_module(f"polis.games.{name}.compiled.check").compare
        for players in (2, 3, 4):
            t0 = time.perf_counter()
            counts = compare(mode, players, args.games, args.seed)
            seconds = time.perf_counter() - t0
            found.append(
                {"game": name, "mode": mode, "players": players, **counts, "seconds": seconds}
            )
            print(json.dumps(found[-1]), flush=True)
    total = sum(int(f.get("positions", 0)) for f in found)
    print(json.dumps({"configurations": len(found), "positions": total, "differences": 0}))


if __name__ == "__main__":
    main()
