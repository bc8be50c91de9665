"""Steps per second of the research interfaces next to the raw engine (prints JSON).

For each registered game with research parts, at its default mode with 2 players and its
last mode with the most players: the engine alone (``random_move`` + ``apply``, the bots'
playout loop), the engine listing the legal action ids (``legal_moves().ids()``, what a mask
needs), one observation (view + encoding of the player to move), the PettingZoo AEC env,
the Gymnasium env (learner's steps; the random opponents' moves are included in the time),
and the OpenSpiel game (player actions; chance nodes included in the time). Every figure is
a random game loop run for about ``--seconds`` seconds, and is printed also as a ratio to
the engine's random-move speed measured in the same run (the ratios travel between machines,
the absolute figures do not).

    .venv/bin/python benchmarks/research.py [--seconds 1.0] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
from collections.abc import Callable

import numpy as np

from polis.core.protocol import Game
from polis.core.registry import games
from polis.research.observations import encoder

Config = tuple[str, str, int]


def configs() -> list[Config]:
    """Per game with an encoder: default mode with 2 players, last mode with the most."""
    out = []
    for name, game in games().items():
        if "observation" in game.plugins and name == game.name:
            out.append((name, game.default_mode, game.min_players))
            out.append((name, game.modes[-1], game.max_players))
    return out


def rate(loop: Callable[[], int], seconds: float) -> float:
    """Steps per second of ``loop`` (one game per call, returns its step count)."""
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += loop()
    return steps / (time.perf_counter() - start)


def engine_loop(game: Game, mode: str, players: int) -> Callable[[], int]:
    rng = random.Random(0)

    def loop() -> int:
        state = game.new_game(mode, players, seed=rng.getrandbits(32))
        n = 0
        while not state.is_terminal():
            state.apply(state.random_move(rng))
            n += 1
        return n

    return loop


def legal_ids_loop(game: Game, mode: str, players: int) -> Callable[[], int]:
    """Each step lists the legal action ids and plays one of them by id."""
    rng = random.Random(0)
    space = game.action_space(mode)

    def loop() -> int:
        state = game.new_game(mode, players, seed=rng.getrandbits(32))
        n = 0
        while not state.is_terminal():
            ids = state.legal_moves().ids()
            state.apply(space[ids[rng.randrange(len(ids))]])
            n += 1
        return n

    return loop


def observe_loop(game: Game, mode: str, players: int) -> Callable[[], int]:
    """Each step builds the view of the player to move and encodes it (then a random move)."""
    rng = random.Random(0)
    enc = encoder(game, mode, players)

    def loop() -> int:
        state = game.new_game(mode, players, seed=rng.getrandbits(32))
        n = 0
        while not state.is_terminal():
            enc.encode(state.view(state.current_player()))
            state.apply(state.random_move(rng))
            n += 1
        return n

    return loop


def pettingzoo_loop(game: Game, mode: str, players: int) -> Callable[[], int]:
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


def gym_loop(game: Game, mode: str, players: int) -> Callable[[], int]:
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


def openspiel_loop(game: Game, mode: str, players: int) -> Callable[[], int]:
    import pyspiel

    from polis.research.openspiel_game import register

    g = pyspiel.load_game(register(game), {"mode": mode, "players": players})
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


#: Figure name -> loop maker; the first is the reference of the ratios.
LOOPS: dict[str, Callable[[Game, str, int], Callable[[], int]]] = {
    "engine_moves_per_s": engine_loop,
    "legal_ids_steps_per_s": legal_ids_loop,
    "observe_steps_per_s": observe_loop,
    "pettingzoo_steps_per_s": pettingzoo_loop,
    "gymnasium_steps_per_s": gym_loop,
    "openspiel_steps_per_s": openspiel_loop,
}


def measure(config: Config, seconds: float) -> dict[str, object]:
    name, mode, players = config
    game = games()[name]
    figures = {key: rate(make(game, mode, players), seconds) for key, make in LOOPS.items()}
    base = figures["engine_moves_per_s"]
    row: dict[str, object] = {"game": name, "mode": mode, "players": players}
    row.update({key: round(value) for key, value in figures.items()})
    row["ratio_to_engine"] = {key: round(value / base, 4) for key, value in figures.items()}
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--quick", action="store_true", help="first two configurations only")
    args = parser.parse_args()
    chosen = configs()[:2] if args.quick else configs()
    rows = [measure(config, args.seconds) for config in chosen]
    report = {
        "python": platform.python_version(),
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "results": rows,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
