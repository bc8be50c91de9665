"""Engine speed on one core: random playouts, complete games, the Quadropolis scorer.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/engines.py [--quick]``); prints JSON.
The README's figures come from this script. Targets (issue 2/3): >= 50,000 moves/s in random
playouts, >= 300 complete 4-player Classic games/s with final scoring, scorer median <= 0.5 ms
for full Expert cities.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_args
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
    """Random games for about ``seconds``: playout speed and complete-game speed.

    ``moves_per_second`` counts ``random_move`` + ``apply`` only; ``games_per_second``
    counts whole games: set-up from a seed, the playout and the final scoring.
    """
    game = get_game(name)
    rng = random.Random(seed)
    games = moves = 0
    setup_time = play_time = score_time = 0.0
    while setup_time + play_time + score_time < seconds:
        t0 = time.perf_counter()
        state = game.new_game(mode, players, seed=rng.randrange(2**31))
        t1 = time.perf_counter()
        while not state.is_terminal():
            state.apply(state.random_move(rng))
            moves += 1
        t2 = time.perf_counter()
        state.result()
        t3 = time.perf_counter()
        setup_time += t1 - t0
        play_time += t2 - t1
        score_time += t3 - t2
        games += 1
    return {
        "game": name,
        "mode": mode,
        "players": players,
        "games": games,
        "moves_per_game": round(moves / games, 1),
        "moves_per_second": round(moves / play_time),
        "games_per_second": round(games / (setup_time + play_time + score_time), 1),
        "final_scoring_ms_per_game": round(1000 * score_time / games, 3),
    }


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "about 1.5 minutes with the defaults (3 seconds of playouts for each game, mode and "
        "player count, then the scorer on 3,000 cities); --quick about 10 seconds.",
    )
    parser.add_argument(
        "--quick", action="store_true", help="short runs: 0.5 s each, 300 cities (a smoke test)"
    )
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
