"""Cost of the protocol calls every layer makes, per game and table: a script that prints figures.

For each game, mode and player count (random positions from seeded random games, one core):

* ``moves/s``: ``random_move`` + ``apply`` (the playout loop);
* ``legal/s``: ``legal_moves()`` calls;
* ``view/s``: ``view(player)`` calls (what an agent receives);
* ``json/s``: a view turned into JSON-able data (what the server sends);
* ``mcts it/s`` / ``mc it/s``: search iterations per second of ``mcts`` and ``montecarlo``
  (fixed iteration budgets, a few decisions from the start of the game; ``POLIS_COMPILED=off``
  keeps them on the Python engines, as the searches were before their compiled playouts).

It runs unchanged on older trees of polis too (it reads views as the API of the tree gives
them), so the figures of two versions can be taken in one run: ``--compare DIR`` runs this
script from DIR's ``src`` in a second process after each configuration and prints both
lines and their ratio. Absolute figures drift with the machine; the ratio is the figure.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import bench_args

CONFIGS = [
    ("quadropolis", "classic", 2),
    ("quadropolis", "expert", 4),
    ("metropolys", "family", 2),
    ("metropolys", "expert", 4),
]
FIELDS = ("moves/s", "legal/s", "view/s", "json/s", "mcts it/s", "mc it/s")


def _positions(game: Any, mode: str, players: int, count: int) -> list[Any]:
    """``count`` states from seeded random games, spread over whole games."""
    out = []
    seed = 0
    while len(out) < count:
        state = game.new_game(mode, players, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if rng.random() < 0.3:
                out.append(state.clone())
            state.apply(state.random_move(rng))
        seed += 1
    return out[:count]


def _rate(calls: int, seconds: float) -> float:
    return calls / seconds if seconds > 0 else float("inf")


def _timed(fn: Any, items: list[Any], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for item in items:
            fn(item)
    return _rate(repeat * len(items), time.perf_counter() - start)


def _to_json(view: Any) -> Any:
    return view.to_json() if hasattr(view, "to_json") else json.loads(json.dumps(view))


def _search_rate(game: Any, mode: str, players: int, spec: str) -> float:
    from polis.bots import make_agent
    from polis.bots.knowledge import knowledge_for

    # the compiled engine (where POLIS_COMPILED lets the searches use it) loaded before the
    # clock starts; older trees have no warm()
    getattr(knowledge_for(game), "warm", lambda: None)()
    iterations = 0
    seconds = 0.0
    for seed in range(3):
        state = game.new_game(mode, players, seed=100 + seed)
        agent, budget = make_agent(spec, seed)
        for _ in range(2):
            p = state.current_player()
            start = time.perf_counter()
            move = agent.act(state.view(p), state.legal_moves(), game, budget)
            seconds += time.perf_counter() - start
            state.apply(move)
        iterations += agent.stats.iterations
    return _rate(iterations, seconds)


def measure(name: str, mode: str, players: int, quick: bool) -> dict[str, float]:
    from polis.core.registry import get_game

    game = get_game(name)
    positions = _positions(game, mode, players, 100 if quick else 400)
    live = [p for p in positions if not p.is_terminal()]
    rng = random.Random(1)
    games = 3 if quick else 20
    moves = 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_game(mode, players, seed=seed)
        while not state.is_terminal():
            state.apply(state.random_move(rng))
            moves += 1
    out = {"moves/s": _rate(moves, time.perf_counter() - start)}
    repeat = 2 if quick else 5
    out["legal/s"] = _timed(lambda s: s.legal_moves(), live, repeat)
    out["view/s"] = _timed(lambda s: s.view(s.current_player()), live, repeat)
    views = [s.view(s.current_player()) for s in live]
    out["json/s"] = _timed(_to_json, views, repeat)
    budget = "10i" if quick else "200i"
    out["mcts it/s"] = _search_rate(game, mode, players, f"mcts:{budget}")
    out["mc it/s"] = _search_rate(game, mode, players, f"montecarlo:{budget}")
    return out


def _other(tree: Path, config: tuple[str, str, int], quick: bool) -> dict[str, float]:
    """The same measurement run from another tree's sources, in a fresh process."""
    args = [sys.executable, __file__, "--one", json.dumps(config)]
    if quick:
        args.append("--quick")
    env = {"PYTHONPATH": str(tree / "src")}
    done = subprocess.run(args, capture_output=True, text=True, env=env, check=True)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "about 30 seconds with the defaults, a few with --quick; --compare runs the other "
        "tree after each configuration (twice as long).",
    )
    parser.add_argument("--quick", action="store_true", help="few positions (a smoke run)")
    parser.add_argument("--compare", type=Path, help="another polis tree to measure beside")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        name, mode, players = json.loads(args.one)
        print(json.dumps(measure(name, mode, players, args.quick)))
        return
    head = f"{'config':<24}" + "".join(f"{f:>12}" for f in FIELDS)
    print(head)
    for config in CONFIGS:
        label = f"{config[0]} {config[1]} {config[2]}p"
        mine = measure(*config, args.quick)
        print(f"{label:<24}" + "".join(f"{mine[f]:>12,.0f}" for f in FIELDS), flush=True)
        if args.compare:
            theirs = _other(args.compare, config, args.quick)
            print(f"{'  other tree':<24}" + "".join(f"{theirs[f]:>12,.0f}" for f in FIELDS))
            ratios = "".join(f"{mine[f] / theirs[f]:>11.2f}x" for f in FIELDS)
            print(f"{'  ratio':<24}" + ratios, flush=True)


if __name__ == "__main__":
    main()
