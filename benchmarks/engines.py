"""Engine speed on one core: random playouts, complete games, the Quadropolis scorer.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/engines.py [--quick]``); prints JSON.
The README's figures come from this script. Targets (issue 2/3): >= 50,000 moves/s in random
playouts, >= 300 complete 4-player Classic games/s with final scoring, scorer median <= 0.5 ms
for full Expert cities.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from polis.core.registry import get_game

CONFIGS = [
    ("quadropolis", "classic"),
    ("quadropolis", "expert"),
    ("metropolys", "family"),
    ("metropolys", "expert"),
]


def bench_playouts(
    name: str, mode: str, players: int, seconds: float, seed: int = 0
) -> dict[str, Any]:
    """Complete random games (set-up, playout, final scoring) for about ``seconds``."""
    game = get_game(name)
    rng = random.Random(seed)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_game(mode, players, seed=rng.randrange(2**31))
        while not state.is_terminal():
            state.apply(state.random_move(rng))
            moves += 1
        state.result()
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "game": name,
        "mode": mode,
        "players": players,
        "games": games,
        "games_per_second": round(games / elapsed, 1),
        "moves_per_second": round(moves / elapsed),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short runs (smoke test)")
    args = parser.parse_args()
    seconds = 0.5 if args.quick else 3.0
    rows = [
        bench_playouts(name, mode, players, seconds)
        for name, mode in CONFIGS
        for players in (2, 3, 4)
    ]
    out: dict[str, Any] = {"playouts": rows}
    try:
        from scorer import bench_scorer

        out["scorer"] = bench_scorer(n=300 if args.quick else 3000)
    except ImportError as exc:  # pragma: no cover - the scorer benchmark sits beside this file
        out["scorer"] = {"error": str(exc)}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
