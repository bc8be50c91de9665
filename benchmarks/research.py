"""Steps per second of the research interfaces next to the raw engine (prints JSON).

For each registered game with research parts, at its default mode with 2 players and its
last mode with the most players: the engine alone (``random_move`` + ``apply``, the bots'
playout loop), listing the legal action ids from the state (the encoder's fast path, what a
mask needs) and playing one, one observation of the player to move (straight from the
state), the PettingZoo AEC and parallel envs, the Gymnasium env and vector env (learner's
steps; the random opponents' moves are included in the time), the batched self-play API at
64 and at 256 tables (every table step counts; the policy is a uniform draw from each mask),
the compiled batch (:class:`~polis.research.compiled_batch.CompiledBatchEnv`, for the games
with a compiled engine, when numba is installed) at ``--tables`` tables: with new arrays per
step (the default), writing into the same arrays (``reuse``), and without observations
(``observe=False``, masks still written), each also as a ratio to the Python batch at 256
tables (``compiled_to_python_batch256``), and the OpenSpiel game (player actions; chance
nodes included in the time). Policies draw
uniformly among the legal ids of the masks they are given. ``engine_scored_moves_per_s`` is
the engine loop that also scores each finished game (``state.result()``), which every
environment pays at the end of a game and the bare engine loop does not: the gap between the
two first figures is the end-of-game scorer's share. With numba installed the environments'
Quadropolis results (and so the scored engine loop, run after they are made) take the
compiled scorer key (``quadropolis.scoring.use_compiled_keys``). Every figure is a random
game loop run for about ``--seconds`` seconds in this one process (one core), and is printed
also as a ratio to the engine's random-move speed measured just before and just after it
(the ratios travel between machines, the absolute figures do not). Time is this process's
CPU time by default (``--clock wall`` for wall time), so programs running beside it on other
cores change the figures little; ``--repeat k`` measures every configuration k times and
prints the median figures and ratios.

    .venv/bin/python benchmarks/research.py [--seconds 1.0] [--quick] [--cpu 0] [--table]
        [--repeat 3] [--clock cpu|wall] [--tables 1024] [--config quadropolis:classic:2]
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import bench_args
from polis.core.protocol import Game
from polis.core.registry import games
from polis.research.observations import encoder

#: Tables of the batched loops (the self-play API is measured at both sizes: numpy's cost
#: per call is shared by more tables in the larger batch).
BATCH_TABLES = 64
BIG_BATCH_TABLES = 256
VECTOR_TABLES = 16
#: Tables of the compiled batch (``--tables``): large, since it has no cost per call to share,
#: but not so large that a step's memory leaves the caches: each Quadropolis table writes
#: about 5 KB of observation and mask and steps a 1.5 KB row, so at 2048 tables a step
#: touches some 14 MB and runs at DRAM speed (Classic 2p with observations, new arrays /
#: reuse, table-steps per second, one core beside a busy one: about 1.0-1.1M from 256 to
#: 1024 tables, 0.9M / 1.07M at 1536, 0.78M / 0.97M at 2048, 0.79M / 0.80M at 4096).
COMPILED_TABLES = 1024
compiled_tables = COMPILED_TABLES


def pick(mask: np.ndarray, rng: random.Random) -> int:  # type: ignore[type-arg]
    """A uniform draw among the legal ids of an int8 mask."""
    legal = mask.view(np.bool_).nonzero()[0]
    return int(legal[int(rng.random() * len(legal))])


Config = tuple[str, str, int]


def configs() -> list[Config]:
    """Per game with an encoder: default mode with 2 players, last mode with the most."""
    out = []
    for name, game in games().items():
        if "observation" in game.plugins and name == game.name:
            out.append((name, game.default_mode, game.min_players))
            out.append((name, game.modes[-1], game.max_players))
    return out


#: The clock of :func:`rate`: this process's CPU time, or wall time (``--clock``).
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]


def rate(loop: Callable[[], int], seconds: float) -> float:
    """Steps per second of ``loop`` (one game per call, returns its step count)."""
    steps = 0
    start = clock()
    while clock() - start < seconds:
        steps += loop()
    return steps / (clock() - start)


def engine_loop(game: Game, mode: str, players: int, scored: bool = False) -> Callable[[], int]:
    """Random games (``random_move`` + ``apply``); with ``scored`` each finished game's result
    too (what every environment pays)."""
    rng = random.Random(0)

    def loop() -> int:
        state = game.new_game(mode, players, seed=rng.getrandbits(32))
        n = 0
        while not state.is_terminal():
            state.apply(state.random_move(rng))
            n += 1
        if scored:
            state.result()
        return n

    return loop


def legal_ids_loop(game: Game, mode: str, players: int) -> Callable[[], int]:
    """Each step lists the legal action ids (straight from the state) and plays one by id."""
    rng = random.Random(0)
    space = game.action_space(mode).moves
    enc = encoder(game, mode, players)

    def loop() -> int:
        state = game.new_game(mode, players, seed=rng.getrandbits(32))
        n = 0
        while not state.is_terminal():
            ids = enc.legal_ids(state)
            state.apply(space[int(ids[int(rng.random() * len(ids))])])
            n += 1
        return n

    return loop


def observe_loop(game: Game, mode: str, players: int) -> Callable[[], int]:
    """Each step encodes the observation of the player to move (then a random move)."""
    rng = random.Random(0)
    enc = encoder(game, mode, players)

    def loop() -> int:
        state = game.new_game(mode, players, seed=rng.getrandbits(32))
        n = 0
        while not state.is_terminal():
            enc.encode_state(state, state.current_player())
            state.apply(state.random_move(rng))
            n += 1
        return n

    return loop


def pettingzoo_loop(game: Game, mode: str, players: int) -> Callable[[], int]:
    from polis.research.pettingzoo_env import PolisAECEnv

    env = PolisAECEnv(game, mode, players)
    rng = random.Random(0)
    seeds = iter(range(1 << 30))

    def loop() -> int:
        env.reset(seed=next(seeds))
        n = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else pick(obs["action_mask"], rng))
            n += 0 if term or trunc else 1
        return n

    return loop


def pettingzoo_parallel_loop(game: Game, mode: str, players: int) -> Callable[[], int]:
    from polis.research.pettingzoo_env import PolisParallelEnv

    env = PolisParallelEnv(game, mode, players)
    rng = random.Random(0)
    seeds = iter(range(1 << 30))

    def loop() -> int:
        obs, _ = env.reset(seed=next(seeds))
        state = env.session.state
        assert state is not None
        n = 0
        while env.agents:
            mover = env.possible_agents[state.current_player()]
            obs, *_ = env.step({mover: pick(obs[mover]["action_mask"], rng)})
            n += 1
        return n

    return loop


def gym_loop(game: Game, mode: str, players: int) -> Callable[[], int]:
    from polis.research.gym_env import PolisGymEnv

    env = PolisGymEnv(game, mode, players, opponents="random")
    rng = random.Random(0)
    seeds = iter(range(1 << 30))

    def loop() -> int:
        obs, _ = env.reset(seed=next(seeds))
        n, done = 0, False
        while not done:
            obs, _, done, _, _ = env.step(pick(obs["action_mask"], rng))
            n += 1
        return n

    return loop


def gym_vector_loop(game: Game, mode: str, players: int) -> Callable[[], int]:
    """Learner steps of all tables (random opponents), 50 vector steps per call."""
    from polis.research.gym_vector import PolisVectorEnv

    env = PolisVectorEnv(game, mode, players, VECTOR_TABLES, opponents="random")
    rng = random.Random(0)
    obs, _ = env.reset(seed=0)

    def loop() -> int:
        nonlocal obs
        for _ in range(50):
            obs, *_ = env.step(np.array([pick(row, rng) for row in obs["action_mask"]]))
        return 50 * VECTOR_TABLES

    return loop


def batch_loop(
    game: Game, mode: str, players: int, tables: int = BATCH_TABLES
) -> Callable[[], int]:
    """Table steps of the batched self-play API (every seat's moves), 20 steps per call."""
    from polis.research.batch import BatchEnv

    env = BatchEnv(game, mode, players, tables, seed=0)
    rng = random.Random(0)
    env.reset()

    def loop() -> int:
        for _ in range(20):
            env.step(env.random_actions(rng))
        return 20 * tables

    return loop


def compiled_batch_loop(
    game: Game, mode: str, players: int, *, reuse: bool = False, observe: bool = True
) -> Callable[[], int] | None:
    """Table steps of the compiled batch, 20 steps per call, each action drawn from the
    masks by the compiled draw (uniform numbers from a numpy Generator); None without numba
    or a compiled engine for the game."""
    from polis.core.parts import COMPILED_BATCH

    if COMPILED_BATCH.name not in game.plugins:
        return None
    try:
        from polis.research.compiled_batch import CompiledBatchEnv
    except ImportError:  # numba is an extra
        return None
    tables = compiled_tables
    env = CompiledBatchEnv(game, mode, players, tables, seed=0, reuse=reuse, observe=observe)
    rng = np.random.default_rng(0)
    env.reset()

    def loop() -> int:
        for _ in range(20):
            env.step(env.random_actions(rng))
        return 20 * tables

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


#: Figure name -> loop maker; the first (:data:`REFERENCE`) is the reference of the ratios.
LOOPS: dict[str, Callable[[Game, str, int], Callable[[], int] | None]] = {
    "engine_moves_per_s": engine_loop,
    "engine_scored_moves_per_s": lambda g, m, p: engine_loop(g, m, p, scored=True),
    "legal_ids_steps_per_s": legal_ids_loop,
    "observe_steps_per_s": observe_loop,
    "pettingzoo_steps_per_s": pettingzoo_loop,
    "pettingzoo_parallel_steps_per_s": pettingzoo_parallel_loop,
    "gymnasium_steps_per_s": gym_loop,
    "gymnasium_vector_steps_per_s": gym_vector_loop,
    "batch_steps_per_s": batch_loop,
    "batch256_steps_per_s": lambda g, m, p: batch_loop(g, m, p, BIG_BATCH_TABLES),
    "compiled_batch_steps_per_s": compiled_batch_loop,
    "compiled_batch_reuse_steps_per_s": lambda g, m, p: compiled_batch_loop(g, m, p, reuse=True),
    "compiled_batch_no_obs_steps_per_s": lambda g, m, p: compiled_batch_loop(
        g, m, p, reuse=True, observe=False
    ),
    "openspiel_steps_per_s": openspiel_loop,
}


REFERENCE = next(iter(LOOPS))
#: The compiled batch's figures, also given as ratios to the Python batch's (256 tables).
COMPILED = tuple(key for key in LOOPS if key.startswith("compiled_"))


def measure(config: Config, seconds: float, repeat: int = 1) -> dict[str, object]:
    """Every figure of one configuration, ``repeat`` times (the loops made once, so caches
    that fill as positions come stay warm): the medians of the figures and of the ratios.

    This machine's speed drifts within seconds, so each figure's ratio is taken to the
    engine's speed measured just before and just after it (half the time each, averaged):
    a figure and its reference share their moment.
    """
    name, mode, players = config
    game = games()[name]
    made = {key: make(game, mode, players) for key, make in LOOPS.items()}
    loops = {key: loop for key, loop in made.items() if loop is not None}
    engine = loops[REFERENCE]
    runs: list[dict[str, float]] = []
    ratios: list[dict[str, float]] = []
    for _ in range(repeat):
        run: dict[str, float] = {}
        ratio: dict[str, float] = {}
        before = rate(engine, seconds / 2)
        for key, loop in loops.items():
            run[key] = rate(loop, seconds)
            after = rate(engine, seconds / 2)
            ratio[key] = run[key] / ((before + after) / 2)
            before = after
        runs.append(run)
        ratios.append(ratio)
    row: dict[str, object] = {"game": name, "mode": mode, "players": players}
    row.update({key: round(statistics.median(r[key] for r in runs)) for key in loops})
    row["ratio_to_engine"] = {
        key: round(statistics.median(r[key] for r in ratios), 4) for key in loops
    }
    python = "batch256_steps_per_s"
    row["compiled_to_python_batch256"] = {
        key: round(statistics.median(r[key] / r[python] for r in runs), 2)
        for key in COMPILED
        if key in loops
    }
    return row


def table(rows: list[dict[str, object]]) -> str:
    """The ratios as a Markdown table (one column per configuration)."""
    heads = [f"{r['game']} {r['mode']} {r['players']}p" for r in rows]
    lines = ["| figure | " + " | ".join(heads) + " |", "|---" * (len(rows) + 1) + "|"]
    for key in LOOPS:
        cells = []
        for r in rows:
            if key not in r:
                cells.append("-")
                continue
            ratio = r["ratio_to_engine"][key]  # type: ignore[index]
            cells.append(f"{r[key]:,} ({ratio:.2f})")
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "about 2-3 minutes with the defaults, about a minute with --quick; --seconds and "
        "--repeat scale it.",
    )
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds of each figure")
    parser.add_argument("--quick", action="store_true", help="first two configurations only")
    parser.add_argument("--cpu", type=int, default=None, help="pin the process to this core")
    parser.add_argument("--table", action="store_true", help="also print a Markdown table")
    parser.add_argument("--repeat", type=int, default=1, help="runs per configuration")
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="cpu", help="this process's CPU or wall time"
    )
    parser.add_argument(
        "--tables", type=int, default=COMPILED_TABLES, help="tables of the compiled batch"
    )
    parser.add_argument(
        "--config",
        action="append",
        default=None,
        metavar="GAME:MODE:PLAYERS",
        help="measure this configuration only (repeatable; instead of the default ones)",
    )
    args = parser.parse_args()
    global clock, compiled_tables
    clock = CLOCKS[args.clock]
    compiled_tables = args.tables
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    chosen = configs()[:2] if args.quick else configs()
    if args.config:
        chosen = [(g, m, int(p)) for g, m, p in (c.split(":") for c in args.config)]
    load = [round(x, 2) for x in os.getloadavg()]
    rows = [measure(config, args.seconds, args.repeat) for config in chosen]
    report = {
        "python": platform.python_version(),
        "cpus": sorted(os.sched_getaffinity(0)),
        "clock": args.clock,
        "repeat": args.repeat,
        "load_average_at_start": load,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "results": rows,
    }
    print(json.dumps(report, indent=2))
    if args.table:
        print(table(rows))


if __name__ == "__main__":
    main()
