"""Random-playout speed of the Quadropolis engine (targets: >= 50,000 moves/s, >= 300 4-player
Classic games/s including final scoring, one core). Prints JSON.

    python benchmarks/quadropolis_engine.py [--mode classic] [--players 4] [--games 300]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from polis.core import get_game


def bench(mode: str, players: int, games: int, seed: int = 0) -> dict[str, float | int | str]:
    """Play ``games`` random games (random_move + apply, then final scoring); report rates."""
    game = get_game("quadropolis")
    rng = random.Random(seed)
    moves = 0
    move_time = 0.0
    score_time = 0.0
    for g in range(games):
        state = game.new_game(mode, players, seed=seed * 100_003 + g)
        t0 = time.perf_counter()
        while not state.is_terminal():
            state.apply(state.random_move(rng))
            moves += 1
        t1 = time.perf_counter()
        state.result()
        t2 = time.perf_counter()
        move_time += t1 - t0
        score_time += t2 - t1
    total = move_time + score_time
    return {
        "mode": mode,
        "players": players,
        "games": games,
        "moves": moves,
        "moves_per_s": round(moves / move_time),
        "games_per_s": round(games / total, 1),
        "scoring_ms_per_game": round(1000 * score_time / games, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", default="classic", choices=("classic", "expert"))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(json.dumps(bench(args.mode, args.players, args.games, args.seed)))


if __name__ == "__main__":
    main()
