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

``--search N`` looks for hard cities instead: N dense random cities (almost every square
built, mostly Shops, Harbors, Office Towers and Factories, short of inhabitants and energy),
each timed once by the Python solver's key, the slowest timed again (best of three, and by
the compiled kernel), printed in notation to be added to ``ADVERSARIAL`` and to the
differential tests (``tests/quadropolis/test_scoring_kernel.py``).
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
from polis.games.quadropolis.city import Building, City, city_rows, geometry, parse_city
from polis.games.quadropolis.scoring import _Options, _score, _solver_key, usable
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
    # found by the random search of dense cities (--search): every square built, short of
    # both inhabitants (18 of 26 usable) and energy (7 of 11); the next four by
    # `--search 30000 --seed 7` (31, 27, 26 and 26 ms for the solver's key, 2-3.5 ms compiled)
    ("expert", ("S H*2 H O2 O2", "T2 O3 S F F", "F F O2 S O", "H H O F O2"), 18, 7),
    ("expert", ("O O2 H*2 O2 O2", "O2 H F H H", "O2 S O2 F H*2", "H*2 F O2 F S"), 19, 7),
    ("expert", ("O2 S O2 S F", "F H O O2 S", "H*2 O2 O3 O F", "O S O O O2"), 19, 8),
    ("expert", ("O3 U H O H", "F S F S H", "O F O2 O2 H*2", "O S S F O3"), 29, 7),
    ("expert", ("T2 S O2 S S", "O S O2 F O2", "H F O H O", "O O3 O3 O O"), 31, 6),
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


#: What the search's dense cities are made of (the kinds whose choices interact most).
DENSE = {
    "expert": ["S", "S", "H", "H", "H*2", "O", "O2", "O2", "O3", "F", "F", "F", "T2", "P", "U"],
    "classic": ["S", "S", "H", "H", "H*1", "H*3", "T", "T2", "T3", "F", "F", "F", "P", "U"],
}


def dense_city(mode: str, rng: random.Random) -> tuple[City, int, int]:
    """A city with almost every square built from :data:`DENSE`, owning between half and all
    of the inhabitants, and a third to all the energy, that any allocation could place."""
    g = geometry(mode)
    codes = [rng.choice(DENSE[mode]) if rng.random() < 0.95 else "." for _ in range(g.size)]
    rows = [" ".join(codes[r * g.cols : (r + 1) * g.cols]) for r in range(g.rows)]
    city = parse_city(mode, rows)
    most_inh, most_en = usable(g, city, False)
    return city, rng.randint(most_inh // 2, most_inh), rng.randint(most_en // 3, most_en)


def search_hard(n: int, seed: int, keep: int = 8) -> list[dict[str, Any]]:
    """The ``keep`` slowest of ``n`` dense random cities (of both modes) for the Python
    solver's key: each timed once, the slowest 3 * ``keep`` again as the best of three."""
    rng = random.Random(seed)
    opts = _Options(False, 5, True)
    timed = []
    for i in range(n):
        mode = "expert" if i % 4 else "classic"
        city, inh, en = dense_city(mode, rng)
        clear_city_caches()
        t0 = time.process_time()
        _solver_key(mode, city, inh, en, opts)
        timed.append((time.process_time() - t0, mode, city, inh, en))
    timed.sort(key=lambda t: -t[0])
    again = []
    for _, mode, city, inh, en in timed[: 3 * keep]:
        ms = _best_of_three(partial(_solver_key, mode, city, inh, en, opts))
        again.append((ms, mode, city, inh, en))
    again.sort(key=lambda t: -t[0])
    compiled: Callable[..., int] | None = None
    if importlib.util.find_spec("numba") is not None:
        from polis.games.quadropolis.scoring_kernel import city_key

        compiled = city_key
    found = []
    for ms, mode, city, inh, en in again[:keep]:
        row: dict[str, Any] = {
            "mode": mode,
            "city": " / ".join(city_rows(mode, city)),
            "inhabitants": inh,
            "energy": en,
            "solver_ms": round(ms, 2),
        }
        if compiled is not None:
            kernel = compiled
            if kernel(mode, city, inh, en, opts) != _solver_key(mode, city, inh, en, opts):
                raise AssertionError("the compiled key differs from the solver's")
            row["compiled_ms"] = round(
                _best_of_three(partial(kernel, mode, city, inh, en, opts)), 3
            )
        found.append(row)
    return found


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
    parser.add_argument(
        "--search",
        type=int,
        default=0,
        metavar="N",
        help="instead: search N dense random cities for the slowest (about 2 ms each)",
    )
    args = parser.parse_args()
    if args.search:
        print(json.dumps(search_hard(args.search, args.seed), indent=2))
        return
    print(json.dumps(bench_scorer(args.cities, args.seed), indent=2))


if __name__ == "__main__":
    main()
