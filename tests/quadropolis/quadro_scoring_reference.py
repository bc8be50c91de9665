"""A plain exhaustive reference for the Quadropolis final allocation (tests only).

It tries every activation subset, every split of customers over the activated shops and every
number of energised parks, scoring each with its own grid-walking scorer, and keeps the best
(total, inhabitants on buildings, -empty squares). Deliberately slow and obvious.
"""

from __future__ import annotations

import itertools

from polis.games.quadropolis.city import Building, City, geometry

TOWER = [0, 1, 3, 6, 10, 15]
SHOP = [0, 1, 2, 4, 7, 11]
PUBLIC = [0, 2, 5, 9, 14, 20]
PARK = [0, 2, 4, 7, 11]
RUN = [0, 0, 3, 7, 12, 18]
OFFICE = {
    1: [0, 0, 1, 3, 6, 10],
    2: [0, 1, 3, 6, 10, 15],
    3: [0, 2, 5, 9, 14, 20],
    4: [0, 3, 7, 12, 18, 25],
    5: [0, 4, 9, 15, 22, 30],
}
MONUMENT = {"F": -5, "H": -5, "T": 0, "O": 0, "M": 0, "U": 2, "S": 3, "P": 5, "p": 5}


def _kind(city: City, square: int) -> str:
    """Kind letter of a square known to be built."""
    building = city[square]
    assert building is not None
    return building.kind


def _floors(building: Building | None) -> int:
    assert building is not None
    return building.floors


def reference_categories(
    mode: str,
    city: City,
    active: frozenset[int],
    customers: dict[int, int],
    parks_energised: int,
    inh: int,
    en: int,
    group_cap: int = 5,
) -> dict[str, int]:
    g = geometry(mode)
    rows, cols = g.rows, g.cols
    grid: list[list[Building | None]] = [[None] * cols for _ in range(rows)]
    for i, b in enumerate(city):
        if b is not None and (i in active or b.kind in "PpM"):
            grid[i // cols][i % cols] = b

    def nbrs(r: int, c: int) -> list[Building]:
        out = []
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                n = grid[r + dr][c + dc]
                if n is not None:
                    out.append(n)
        return out

    cat = dict.fromkeys(
        [
            "tower_blocks",
            "shops",
            "public_services",
            "parks",
            "factories",
            "harbors",
            "office_towers",
            "monuments",
        ],
        0,
    )
    districts: set[int] = set()
    used_inh = sum(customers.values())
    used_en = parks_energised
    for r in range(rows):
        for c in range(cols):
            b = grid[r][c]
            if b is None:
                continue
            k = b.kind
            used_inh += k in "UFHO"
            used_en += k in "TSO"
            if k == "T":
                cat["tower_blocks"] += TOWER[b.floors]
            elif k == "S":
                cat["shops"] += SHOP[customers.get(r * cols + c, 0)]
            elif k == "U":
                districts.add(g.district[r * cols + c])
                cat["public_services"] += b.vp
            elif k in "Pp":
                counted = "TO" if mode == "expert" else "T"
                cat["parks"] += PARK[sum(1 for n in nbrs(r, c) if n.kind in counted)]
            elif k == "F":
                cat["factories"] += sum({"S": 2, "H": 3, "O": 4}.get(n.kind, 0) for n in nbrs(r, c))
            elif k == "H":
                cat["harbors"] += b.vp
            elif k == "M":
                cat["monuments"] += sum(MONUMENT[n.kind] for n in nbrs(r, c))
    cat["public_services"] += PUBLIC[len(districts)]
    best_h = best_v = 0
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0)):
                n = 0
                while r + n * dr < rows and c + n * dc < cols:
                    cell = grid[r + n * dr][c + n * dc]
                    if cell is None or cell.kind != "H":
                        break
                    n += 1
                if dr:
                    best_v = max(best_v, n)
                else:
                    best_h = max(best_h, n)
    cat["harbors"] += RUN[best_h] + RUN[best_v]
    seen: set[tuple[int, int]] = set()
    for r in range(rows):
        for c in range(cols):
            b = grid[r][c]
            if b is None or b.kind != "O" or (r, c) in seen:
                continue
            comp, stack = [], [(r, c)]
            seen.add((r, c))
            while stack:
                y, x = stack.pop()
                comp.append((y, x))
                for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    yy, xx = y + dy, x + dx
                    if (
                        0 <= yy < rows
                        and 0 <= xx < cols
                        and (yy, xx) not in seen
                        and (cell := grid[yy][xx]) is not None
                        and cell.kind == "O"
                    ):
                        seen.add((yy, xx))
                        stack.append((yy, xx))
            row = OFFICE[min(len(comp), group_cap)]
            cat["office_towers"] += sum(row[_floors(grid[y][x])] for y, x in comp)
    cat["inhabitants_penalty"] = used_inh - inh
    cat["energy_penalty"] = used_en - en
    cat["_inh_on"] = used_inh
    cat["_empty"] = sum(1 for row_ in grid for b in row_ if b is None)
    return cat


def reference_best(
    mode: str,
    city: City,
    inh: int,
    en: int,
    *,
    playground_absorbs_pollution: bool = False,
    group_cap: int = 5,
    empty_after_removal: bool = True,
) -> tuple[int, int, int]:
    """Best (total, inhabitants_on_buildings, -empty_squares) over every allocation."""
    g = geometry(mode)
    cap = g.shop_capacity
    optional = [i for i, b in enumerate(city) if b is not None and b.kind not in "PpM"]
    slots = sum(
        1
        for b in city
        if b is not None and (b.kind == "P" or (playground_absorbs_pollution and b.kind == "p"))
    )
    bare = city.count(None)
    best: tuple[int, int, int] | None = None
    for n in range(len(optional) + 1):
        for chosen in itertools.combinations(optional, n):
            act = frozenset(chosen)
            need_i = sum(1 for i in act if _kind(city, i) in "UFHO")
            need_e = sum(1 for i in act if _kind(city, i) in "TSO")
            if need_i > inh or need_e > en:
                continue
            shops = [i for i in act if _kind(city, i) == "S"]
            for split in itertools.product(range(cap + 1), repeat=len(shops)):
                if need_i + sum(split) > inh:
                    continue
                customers = dict(zip(shops, split, strict=True))
                for parks in range(min(slots, en - need_e) + 1):
                    cat = reference_categories(
                        mode, city, act, customers, parks, inh, en, group_cap
                    )
                    empty = cat.pop("_empty") if empty_after_removal else bare
                    cat.pop("_empty", None)
                    inh_on = cat.pop("_inh_on")
                    cand = (sum(cat.values()), inh_on, -empty)
                    if best is None or cand > best:
                        best = cand
    assert best is not None
    return best
