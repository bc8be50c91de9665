"""Engine speed on one core: random playouts, complete games, the Quadropolis scorer.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/engines.py [--quick]``); prints JSON.
The README's figures come from this script. Targets (issue 2/3): >= 50,000 moves/s in random
playouts, >= 300 complete 4-player Classic games/s with final scoring, scorer median <= 0.5 ms
for full Expert cities.

``--yardstick DIR`` measures polis against the C yardstick instead (``../shared/yardstick``:
tight C implementations of both games; built here with its Makefile, in a temporary copy):
complete random 4-player games with final scoring in every mode, the C program and polis
taking turns for ``--rounds`` rounds (polis's compiled engine, whose random policy is the
yardstick's, then the Python engine with the compiled scorer and with the Python solver), and
the Quadropolis scorer alone on the final cities of random games. Each side's
rate is per second of its own CPU time (the C program's from the kernel's count of its
child's time, polis's from ``time.process_time``), so a shared machine's load falls on both
alike; it prints the ratios as a Markdown table (``--json``: the figures).
"""

from __future__ import annotations

import datetime
import importlib
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
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


# -- beside the C yardstick ---------------------------------------------------------------------

#: The 4-player modes of the yardstick table: (game, mode, the C program, its flags).
YARDSTICK = [
    ("quadropolis", "classic", "quadropolis_limit", []),
    ("quadropolis", "expert", "quadropolis_limit", ["--expert"]),
    ("metropolys", "family", "metropolys_limit", []),
    ("metropolys", "expert", "metropolys_limit", ["--expert"]),
]
_C_BENCH = re.compile(r"(\d+) games, (\d+) moves in ([\d.]+) s")
_C_SCORER = re.compile(r"median ([\d.]+) us")


def build_yardstick(source: Path) -> Path:
    """The yardstick's programs built with its own Makefile in a temporary copy (its folder
    may be read-only); the folder of the programs."""
    if not (source / "Makefile").is_file():
        raise SystemExit(f"{source} holds no Makefile: give the yardstick's folder")
    build = Path(tempfile.mkdtemp(prefix="polis-yardstick-"))
    for path in source.iterdir():
        if path.suffix in (".c", ".h") or path.name == "Makefile":
            shutil.copy(path, build / path.name)
    subprocess.run(["make", "-s", "-C", str(build)], check=True, capture_output=True)
    return build


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def c_games(program: Path, flags: list[str], seconds: float, seed: int) -> dict[str, float]:
    """One ``--bench`` run of a C program (4 players): games, moves and its CPU seconds."""
    before = _child_cpu()
    out = subprocess.run(
        [str(program), *flags, "--players", "4", "--seed", str(seed), "--bench", str(seconds)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    cpu = _child_cpu() - before
    found = _C_BENCH.search(out)
    if found is None:
        raise SystemExit(f"unexpected output of {program.name}: {out!r}")
    return {"games": int(found[1]), "moves": int(found[2]), "cpu": cpu, "wall": float(found[3])}


def polis_games(name: str, mode: str, seconds: float, seed: int) -> dict[str, float]:
    """Complete random 4-player games (set-up, uniform random moves, final scoring) for
    ``seconds`` of this process's CPU time: games, moves and the CPU seconds."""
    game = get_game(name)
    rng = random.Random(seed)
    games = moves = 0
    c0, w0 = time.process_time(), time.perf_counter()
    while time.process_time() - c0 < seconds:
        state = game.new_game(mode, 4, seed=rng.randrange(2**31))
        while not state.is_terminal():
            state.apply(state.random_move(rng))
            moves += 1
        state.result()
        games += 1
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return {"games": games, "moves": moves, "cpu": cpu, "wall": wall}


def compiled_games(name: str, mode: str, seconds: float, seed: int) -> dict[str, float]:
    """The same games on the game's compiled engine (``polis.games.<name>.compiled``):
    set-up, the yardstick's random policy and final scoring in one compiled loop, run in
    chunks for ``seconds`` of this process's CPU time (compiled, or loaded from numba's
    cache, first)."""
    random_games = importlib.import_module(f"polis.games.{name}.compiled.playouts").random_games
    random_games(mode, 4, 1, seed)  # compile or load before the clock starts
    games = moves = 0
    chunk = 64
    c0, w0 = time.process_time(), time.perf_counter()
    while time.process_time() - c0 < seconds:
        played, _checksum = random_games(mode, 4, chunk, seed + games)
        moves += played
        games += chunk
        chunk = min(chunk * 2, 4096)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return {"games": games, "moves": moves, "cpu": cpu, "wall": wall}


def _scorer(which: str) -> None:
    from polis.games.quadropolis import scoring

    if which == "compiled":
        scoring.use_compiled_keys()
    else:
        scoring.use_reference_keys()
    scoring._best_key.cache_clear()


def _final_cities(mode: str, n: int, seed: int) -> list[tuple[Any, int, int]]:
    """The cities (with their resources) of random 4-player games at their end."""
    game = get_game("quadropolis")
    rng = random.Random(seed)
    cities: list[tuple[Any, int, int]] = []
    while len(cities) < n:
        state: Any = game.new_game(mode, 4, seed=rng.randrange(2**31))
        while not state.is_terminal():
            state.apply(state.random_move(rng))
        cities += [(tuple(state.city(p)), *state.resources(p)) for p in range(4)]
    return cities[:n]


def polis_scorer(mode: str, n: int, seed: int) -> dict[str, float]:
    """Median microseconds per city of the final cities of random games: the key by the
    compiled kernel (20 repetitions, as the C program does) and by the Python solver (its
    per-city memo cleared before each of 3 runs), and the scoring pad's report."""
    from polis.games.quadropolis.scoring import _Options, _score, _solver_key
    from polis.games.quadropolis.scoring_kernel import city_key
    from polis.games.quadropolis.scoring_solver import clear_city_caches

    opts = _Options(False, 5, True)
    out: dict[str, list[float]] = {"compiled": [], "solver": [], "report": []}
    for city, inh, en in _final_cities(mode, n, seed):
        t0 = time.perf_counter()
        for _ in range(20):
            city_key(mode, city, inh, en, opts)
        out["compiled"].append((time.perf_counter() - t0) / 20)
        for name, run in (("solver", _solver_key), ("report", _score.__wrapped__)):
            best = float("inf")
            for _ in range(3):
                clear_city_caches()
                t0 = time.perf_counter()
                run(mode, city, inh, en, opts)
                best = min(best, time.perf_counter() - t0)
            out[name].append(best)
    return {k: 1e6 * statistics.median(v) for k, v in out.items()}


def c_scorer(program: Path, flags: list[str], n: int, seed: int) -> float:
    """The C program's median microseconds per city (final cities of random 4p games)."""
    out = subprocess.run(
        [str(program), *flags, "--players", "4", "--seed", str(seed), "--scorer-bench", str(n)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = _C_SCORER.search(out)
    if found is None:
        raise SystemExit(f"unexpected output of {program.name}: {out!r}")
    return float(found[1])


def _commit() -> str:
    here = Path(__file__).resolve().parent
    try:
        done = subprocess.run(
            ["git", "-C", str(here), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return done.stdout.strip()


def bench_yardstick(source: Path, rounds: int, seconds: float, cities: int) -> dict[str, Any]:
    """polis beside the yardstick, alternating (see the module's docstring)."""
    build = build_yardstick(source)
    load_before = os.getloadavg()
    sums: dict[tuple[str, str], dict[str, dict[str, float]]] = {}
    _scorer("compiled")  # (compiled, or loaded from numba's cache, before any timing)
    for r in range(rounds):
        for name, mode, program, flags in YARDSTICK:
            row = sums.setdefault((name, mode), {})
            sides = ["c", "engine", "compiled"]
            if name == "quadropolis":
                sides.append("solver")
            for side in sides:
                if side == "c":
                    got = c_games(build / program, flags, seconds, r + 1)
                elif side == "engine":
                    got = compiled_games(name, mode, seconds, r + 1)
                else:
                    _scorer(side)
                    got = polis_games(name, mode, seconds, r + 1)
                total = row.setdefault(side, dict.fromkeys(got, 0.0))
                for k, v in got.items():
                    total[k] += v
    _scorer("compiled")
    scorer = {}
    for mode, flags in (("classic", []), ("expert", ["--expert"])):
        c_us = c_scorer(build / "quadropolis_limit", flags, cities, 1)
        scorer[mode] = {"c_us": c_us, **polis_scorer(mode, cities, 1)}
    table = []
    for (name, mode), sides in sums.items():
        c, p, e = sides["c"], sides["compiled"], sides["engine"]
        line = {
            "game": name,
            "mode": mode,
            "compiled_games_per_cpu_s": e["games"] / e["cpu"],
            "compiled_moves_per_cpu_s": e["moves"] / e["cpu"],
            "compiled_moves_per_game": e["moves"] / e["games"],
            "c_games_per_cpu_s": c["games"] / c["cpu"],
            "polis_games_per_cpu_s": p["games"] / p["cpu"],
            "c_moves_per_cpu_s": c["moves"] / c["cpu"],
            "polis_moves_per_cpu_s": p["moves"] / p["cpu"],
            "c_moves_per_game": c["moves"] / c["games"],
            "polis_moves_per_game": p["moves"] / p["games"],
            "c_cpu_share_of_wall": c["cpu"] / c["wall"],
            "polis_cpu_share_of_wall": p["cpu"] / p["wall"],
        }
        if "solver" in sides:
            q = sides["solver"]
            line["polis_games_per_cpu_s_solver"] = q["games"] / q["cpu"]
        table.append(line)
    shutil.rmtree(build, ignore_errors=True)
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": _commit(),
        "rounds": rounds,
        "seconds_per_run": seconds,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "games": table,
        "scorer": scorer,
    }


def yardstick_markdown(found: dict[str, Any]) -> str:
    """The figures as the issue's table, ratios first."""
    lines = [
        f"{found['date']}, commit {found['commit']}; {found['rounds']} rounds of "
        f"{found['seconds_per_run']:g} s per side, alternating; rates per CPU second; load "
        f"average {found['load_average_before'][0]} before, {found['load_average_after'][0]} "
        "after",
        "",
        "| complete random 4-player games, with final scoring | C faster by (games/s), "
        "compiled engine | C faster by (moves/s), compiled engine | C faster by (games/s), "
        "Python engine | C faster by (moves/s), Python engine | C faster by (games/s), Python "
        "engine with the Python solver | C games/s | compiled engine games/s | Python engine "
        "games/s | moves/game C, compiled, Python |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for g in found["games"]:
        solver = g.get("polis_games_per_cpu_s_solver")
        against = f"{g['c_games_per_cpu_s'] / solver:.0f}x" if solver else "-"
        lines.append(
            f"| {g['game'].capitalize()} {g['mode'].capitalize()} 4p "
            f"| {g['c_games_per_cpu_s'] / g['compiled_games_per_cpu_s']:.1f}x "
            f"| {g['c_moves_per_cpu_s'] / g['compiled_moves_per_cpu_s']:.1f}x "
            f"| {g['c_games_per_cpu_s'] / g['polis_games_per_cpu_s']:.0f}x "
            f"| {g['c_moves_per_cpu_s'] / g['polis_moves_per_cpu_s']:.0f}x | {against} "
            f"| {g['c_games_per_cpu_s']:,.0f} | {g['compiled_games_per_cpu_s']:,.0f} "
            f"| {g['polis_games_per_cpu_s']:,.0f} | {g['c_moves_per_game']:.1f}, "
            f"{g['compiled_moves_per_game']:.1f}, {g['polis_moves_per_game']:.1f} |"
        )
    lines += [
        "",
        "| Quadropolis scorer, final cities of random 4-player games (median per city) "
        "| C | polis compiled key | polis Python key | polis report | C faster than compiled "
        "| C faster than Python |",
        "|---|---|---|---|---|---|---|",
    ]
    for mode, s in found["scorer"].items():
        lines.append(
            f"| {mode.capitalize()} | {s['c_us']:.2f} us | {s['compiled']:.2f} us "
            f"| {s['solver']:.1f} us | {s['report']:.1f} us | {s['compiled'] / s['c_us']:.1f}x "
            f"| {s['solver'] / s['c_us']:.0f}x |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "about 1.5 minutes with the defaults (3 seconds of playouts for each game, mode and "
        "player count, then the scorer on 3,000 cities); --quick about 10 seconds; "
        "--yardstick about 1.5 minutes with its defaults (10 runs of --seconds per round, "
        "twice that and more on a busy machine, then 2,000 cities of the scorer).",
    )
    parser.add_argument(
        "--quick", action="store_true", help="short runs: 0.5 s each, 300 cities (a smoke test)"
    )
    parser.add_argument(
        "--yardstick",
        type=Path,
        metavar="DIR",
        help="instead: build the C yardstick in DIR and time it beside polis, alternately",
    )
    parser.add_argument("--rounds", type=int, default=3, help="--yardstick: rounds of turns")
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="--yardstick: CPU seconds of each run"
    )
    parser.add_argument(
        "--cities", type=int, default=1000, help="--yardstick: cities for the scorer medians"
    )
    parser.add_argument("--json", action="store_true", help="--yardstick: the figures as JSON")
    args = parser.parse_args()
    if args.yardstick is not None:
        found = bench_yardstick(args.yardstick, args.rounds, args.seconds, args.cities)
        print(json.dumps(found, indent=2) if args.json else yardstick_markdown(found))
        return
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
