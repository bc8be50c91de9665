"""Speed of the exact Quadropolis scorer on random full cities with tile-given resources.

Each city fills every square with tiles drawn from the mode's pool (Tower Blocks and Office
Towers stacked 1-3 floors); the city owns exactly what those tiles give (spec §5.5), which is
what a real end position looks like. A third set holds the worst cities we could construct
(harbour-filled mats, Tower Blocks around Parks with little energy, Office Towers among
Factories). Each city is timed as the best of three cold runs (CPU time of score_city without
its caches: the solver and the report of its allocation), so a loaded machine disturbs the
figures less. With numba installed, the key alone (all a result's totals and places need) is
also timed by the solver and by the compiled kernel on the same cities (``keys``). Prints
JSON: median, p99 and max milliseconds per city.
"""

from __future__ import annotations

import importlib.util
import json
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from importlib import resources
from typing import Any

import bench_args
from polis.games.quadropolis.city import Building, City, geometry, parse_city
from polis.games.quadropolis.scoring import _Options, _score, _solver_key
from polis.games.quadropolis.scoring_solver import clear_city_caches

#: (mode, rows, inhabitants, energy): the slowest cities we could construct.
ADVERSARIAL: tuple[tuple[str, tuple[str, ...], int, int], ...] = (
    ("expert", ("H H H H H",) * 4, 20, 0),
    ("expert", ("H H H H H",) * 4, 7, 0),
    ("expert", ("H*1 H H*2 H H", "H H*3 H H H", "H H H*1 H H", "H H H H H*2"), 12, 5),
    ("classic", ("H H H H",) * 4, 9, 0),
    ("expert", ("T3 P T2 P T5", "P T P T4 P", "T2 P T P T3", "P T5 P T P"), 5, 3),
    ("classic", ("T P T P", "P T P T", "T P T P", "P T P T"), 3, 3),
    ("expert", ("O2 F O3 F O", "F O4 S O F", "S F O2 H S", "H S F H S"), 10, 4),
    ("expert", ("O2 O3 O O4 O", "O O2 O O O3", "O4 O O2 O O", "O O O3 O O2"), 10, 6),
    ("expert", ("O2 O3 O O4 O", "O O2 O O O3", "O4 O O2 O O", "O O O3 O O2"), 20, 20),
    ("expert", ("O2 F O3 F O", "F O4 F O F", "O F O2 F O3", "F O F O F"), 10, 6),
    ("expert", ("S F S F S", "F S F S F", "S F S F S", "F S F S F"), 6, 4),
    ("expert", ("H F H F H", "F H F H F", "H F H F H", "F H F H F"), 10, 4),
    ("expert", ("T O T O T", "O P O P O", "T O T O T", "O P O P O"), 6, 5),
    ("expert", ("O O O O O", "F S F S F", "H H H H H", "T P T P M"), 9, 4),
)

_CODE = {
    "tower_block": "T",
    "office_tower": "O",
    "shop": "S",
    "public_service": "U",
    "factory": "F",
    "harbor": "H",
    "monument": "M",
}


def _pool(mode: str) -> list[dict[str, Any]]:
    text = resources.files("polis.games.quadropolis").joinpath("data/tiles.json").read_text("utf-8")
    return [t for t in json.loads(text)["tiles"] if t["mode"] in ("both", mode)]


def random_city(mode: str, rng: random.Random, pool: list[dict[str, Any]]) -> tuple[City, int, int]:
    """A full city of random tiles and the inhabitants/energy those tiles give."""
    g = geometry(mode)
    cells: list[Building | None] = []
    inh = en = 0
    monuments = 0
    for _ in range(g.size):
        tile = rng.choice(pool)
        while tile["type"] == "monument" and monuments >= 2:
            tile = rng.choice(pool)
        kind = tile["type"]
        code = _CODE.get(kind) or ("p" if tile["gives"]["inhabitants"] else "P")
        monuments += code == "M"
        floors = 1
        gives = [tile["gives"]]
        if code in "TO":
            floors = rng.choice([1, 1, 2, 2, 3])
            same = [t for t in pool if t["type"] == kind]
            gives += [rng.choice(same)["gives"] for _ in range(floors - 1)]
        inh += sum(x["inhabitants"] for x in gives)
        en += sum(x["energy"] for x in gives)
        cells.append(Building(code, floors, int(tile["vp"] or 0)))
    return tuple(cells), inh, en


def _best_of_three(run: Callable[[], object]) -> float:
    """Best of three CPU-time runs of ``run``, in milliseconds, each cold (the per-city caches
    cleared; the per-mode tables stay warm)."""
    best = float("inf")
    for _ in range(3):
        clear_city_caches()
        t0 = time.process_time()
        run()
        best = min(best, time.process_time() - t0)
    return best * 1000


def _time(mode: str, city: City, inh: int, en: int) -> float:
    """What score_city does uncached (the solver and the report of its allocation), in ms."""
    return _best_of_three(
        partial(_score.__wrapped__, mode, city, inh, en, _Options(False, 5, True))
    )


def _summary(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {
        "n": len(times),
        "median_ms": round(statistics.median(times), 4),
        "p99_ms": round(times[int(0.99 * (len(times) - 1))], 4),
        "max_ms": round(times[-1], 4),
        "mean_ms": round(statistics.fmean(times), 4),
    }


def _timings(mode: str, n: int, rng: random.Random) -> dict[str, float]:
    pool = _pool(mode)
    cases = [random_city(mode, rng, pool) for _ in range(n)]
    return _summary([_time(mode, city, inh, en) for city, inh, en in cases])


def bench_adversarial() -> dict[str, Any]:
    """Times of the constructed worst cities, each named by its first row."""
    times = {}
    for mode, rows, inh, en in ADVERSARIAL:
        label = f"{mode} {rows[0]} / {inh} inh {en} en"
        times[label] = round(_time(mode, parse_city(mode, list(rows)), inh, en), 3)
    return {**_summary(list(times.values())), "cases": times}


def bench_keys(n: int, seed: int) -> dict[str, Any]:
    """The key alone (what a result's totals and places need), by the Python solver and by
    the compiled kernel, on the same cities: medians, and the kernel's time as a share."""
    from polis.games.quadropolis.scoring_kernel import city_key

    rng = random.Random(seed)
    out: dict[str, Any] = {}
    for mode in ("expert", "classic"):
        pool = _pool(mode)
        cases = [random_city(mode, rng, pool) for _ in range(n)]
        cases += [(parse_city(m, list(rows)), i, e) for m, rows, i, e in ADVERSARIAL if m == mode]
        opts = _Options(False, 5, True)
        solver, kernel = [], []
        for city, inh, en in cases:
            if city_key(mode, city, inh, en, opts) != _solver_key(mode, city, inh, en, opts):
                raise AssertionError("the compiled key differs from the solver's")
            solver.append(_best_of_three(partial(_solver_key, mode, city, inh, en, opts)))
            kernel.append(_best_of_three(partial(city_key, mode, city, inh, en, opts)))
        out[mode] = {
            "solver": _summary(solver),
            "compiled": _summary(kernel),
            "compiled_share_of_median": round(
                statistics.median(kernel) / statistics.median(solver), 3
            ),
        }
    return out


def bench_scorer(n: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Median, p99 and max ms on n random full Expert and Classic cities and the worst set;
    with numba installed, also the key alone by the solver and by the compiled kernel."""
    rng = random.Random(seed)
    found: dict[str, Any] = {
        "n": n,
        "seed": seed,
        "expert": _timings("expert", n, rng),
        "classic": _timings("classic", n, rng),
        "adversarial": bench_adversarial(),
    }
    if importlib.util.find_spec("numba") is not None:
        found["keys"] = bench_keys(n // 4, seed)
    return found


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "about 15 seconds with the defaults (proportional to --cities; numba's first "
        "compilation adds up to a minute once).",
    )
    parser.add_argument("--cities", type=int, default=2000, help="random cities of each mode")
    parser.add_argument("--seed", type=int, default=0, help="seed of the cities")
    args = parser.parse_args()
    print(json.dumps(bench_scorer(args.cities, args.seed), indent=2))


if __name__ == "__main__":
    main()
