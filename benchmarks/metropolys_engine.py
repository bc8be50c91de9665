"""Random-playout speed of the Metropolys engine (random_move + apply), one core.

Target: >= 50,000 moves/s.
Run: ``python benchmarks/metropolys_engine.py [mode players games seed]``.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

from polis.metropolys.game import GAME


def bench(
    mode: str = "expert", players: int = 4, games: int = 200, seed: int = 0
) -> dict[str, Any]:
    """Play ``games`` random games; report games/s and moves/s (scoring timed separately)."""
    rng = random.Random(seed)
    states = [GAME.new_game(mode, players, seed=seed + i) for i in range(games)]
    moves = 0
    start = time.perf_counter()
    for state in states:
        while state.current_player() >= 0:
            state.apply(state.random_move(rng))
            moves += 1
    play = time.perf_counter() - start
    start = time.perf_counter()
    for state in states:
        state.result()
    score = time.perf_counter() - start
    return {
        "mode": mode,
        "players": players,
        "games": games,
        "moves": moves,
        "moves_per_game": round(moves / games, 1),
        "games_per_s": round(games / play, 1),
        "moves_per_s": round(moves / play),
        "score_ms_per_game": round(1000 * score / games, 3),
    }


if __name__ == "__main__":
    args = sys.argv[1:]
    if args:
        print(json.dumps(bench(args[0], int(args[1]), int(args[2]), int(args[3]))))
    else:
        for mode in ("family", "expert"):
            for players in (2, 3, 4):
                print(json.dumps(bench(mode, players, 200, 0)))
