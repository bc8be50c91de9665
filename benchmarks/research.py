"""Steps per second of the research interfaces next to the raw engine (prints JSON).

For each game/mode/player count: the engine alone (``random_move`` + ``apply``, the bots'
playout loop), the engine listing every legal move (what a mask needs), the PettingZoo AEC
env, the Gymnasium env (learner's steps; the random opponents' moves are included in the
time), and the OpenSpiel game (player actions; chance nodes included in the time). Every
figure is a masked-random game loop run for about ``--seconds`` seconds.

    .venv/bin/python benchmarks/research.py [--seconds 1.0] [--quick]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable

import numpy as np

from polis.core.registry import get_game

CONFIGS = [
    ("quadropolis", "classic", 2),
    ("quadropolis", "expert", 4),
    ("metropolys", "family", 2),
    ("metropolys", "expert", 4),
]


def rate(loop: Callable[[], int], seconds: float) -> float:
    """Steps per second of ``loop`` (one game per call, returns its step count)."""
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += loop()
    return steps / (time.perf_counter() - start)


def engine_loop(game: str, mode: str, players: int, listing: bool) -> Callable[[], int]:
    g = get_game(game)
    rng = random.Random(0)

    def loop() -> int:
        state = g.new_game(mode, players, seed=rng.getrandbits(32))
        n = 0
        while not state.is_terminal():
            if listing:
                moves = state.legal_moves()
                state.apply(moves[rng.randrange(len(moves))])
            else:
                state.apply(state.random_move(rng))
            n += 1
        return n

    return loop


def pettingzoo_loop(game: str, mode: str, players: int) -> Callable[[], int]:
    from polis.research.pettingzoo_env import PolisAECEnv

    env = PolisAECEnv(game, mode, players)
    rng = np.random.default_rng(0)
    seeds = iter(range(1 << 30))

    def loop() -> int:
        env.reset(seed=next(seeds))
        n = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 0 if term or trunc else 1
        return n

    return loop


def gym_loop(game: str, mode: str, players: int) -> Callable[[], int]:
    from polis.research.gym_env import PolisGymEnv

    env = PolisGymEnv(game, mode, players, opponents="random")
    rng = np.random.default_rng(0)
    seeds = iter(range(1 << 30))

    def loop() -> int:
        obs, _ = env.reset(seed=next(seeds))
        n, done = 0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, _, done, _, _ = env.step(action)
            n += 1
        return n

    return loop


def openspiel_loop(game: str, mode: str, players: int) -> Callable[[], int]:
    import pyspiel

    import polis.research.openspiel_game  # noqa: F401

    g = pyspiel.load_game(f"polis_{game}(mode={mode},players={players})")
    rng = random.Random(0)

    def loop() -> int:
        state = g.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                n += 1
        return n

    return loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--quick", action="store_true", help="first two configurations only")
    args = parser.parse_args()
    rows = []
    for game, mode, players in CONFIGS[:2] if args.quick else CONFIGS:
        s = args.seconds
        rows.append(
            {
                "game": game,
                "mode": mode,
                "players": players,
                "engine_moves_per_s": round(rate(engine_loop(game, mode, players, False), s)),
                "engine_listing_moves_per_s": round(
                    rate(engine_loop(game, mode, players, True), s)
                ),
                "pettingzoo_steps_per_s": round(rate(pettingzoo_loop(game, mode, players), s)),
                "gymnasium_steps_per_s": round(rate(gym_loop(game, mode, players), s)),
                "openspiel_steps_per_s": round(rate(openspiel_loop(game, mode, players), s)),
            }
        )
    print(json.dumps({"python": platform.python_version(), "results": rows}, indent=2))


if __name__ == "__main__":
    main()
