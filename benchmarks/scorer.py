"""Speed of the exact Quadropolis scorer on random full cities with tile-given resources.

Each city fills every square with tiles drawn from the mode's pool (Tower Blocks and Office
Towers stacked 1-3 floors); the city owns exactly what those tiles give (spec §5.5), which is
what a real end position looks like. Prints JSON: median and p99 milliseconds per city.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from importlib import resources
from typing import Any

from polis.quadropolis.city import Building, City, geometry
from polis.quadropolis.scoring import score_city

_CODE = {"tower_block": "T", "office_tower": "O", "shop": "S", "public_service": "U",
         "factory": "F", "harbor": "H", "monument": "M"}


def _pool(mode: str) -> list[dict[str, Any]]:
    text = resources.files("polis.quadropolis").joinpath("data/tiles.json").read_text("utf-8")
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


def _timings(mode: str, n: int, rng: random.Random) -> dict[str, float]:
    pool = _pool(mode)
    cases = [random_city(mode, rng, pool) for _ in range(n)]
    times = []
    clock = time.perf_counter
    for city, inh, en in cases:
        t0 = clock()
        score_city(mode, city, inh, en)
        times.append((clock() - t0) * 1000)
    times.sort()
    return {
        "median_ms": round(statistics.median(times), 4),
        "p99_ms": round(times[int(0.99 * (len(times) - 1))], 4),
        "max_ms": round(times[-1], 4),
        "mean_ms": round(statistics.fmean(times), 4),
    }


def bench_scorer(n: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Median and p99 ms of score_city on n random full Expert and n full Classic cities."""
    rng = random.Random(seed)
    return {"n": n, "seed": seed, "expert": _timings("expert", n, rng),
            "classic": _timings("classic", n, rng)}


if __name__ == "__main__":
    print(json.dumps(bench_scorer(), indent=2))
