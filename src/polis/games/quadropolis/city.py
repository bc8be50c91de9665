"""A player's city: buildings, mat geometry and the city notation of formats.md §1.1-§1.2.

A city is a plain row-major tuple of :class:`Building` (or ``None`` for an empty square), so
the engine and the scorer share it without copies. Geometry (districts, expert square numbers,
orthogonal neighbours) is read once per mode from ``data/mats.json`` and cached.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from polis.core.errors import InputError, NotationError
from polis.games.quadropolis.tiles import POOLS, TILES

#: formats.md §1.1 codes: Tower block, Office tower, Shop, pUblic service, green Park,
#: playground park (p), Factory, Harbor, Monument.
KINDS = "TOSUPpFHM"

MODES = ("classic", "expert")

_NAMES = {
    "T": "Tower Block",
    "O": "Office Tower",
    "S": "Shop",
    "U": "Public Service",
    "P": "Park",
    "p": "Playground",
    "F": "Factory",
    "H": "Harbor",
    "M": "Monument",
}
_MAX_VP = {"U": 2, "H": 3}


@dataclass(frozen=True, slots=True)
class Building:
    """One building (a whole stack for Tower Blocks and Office Towers) on a city square."""

    kind: str  # one letter of KINDS
    floors: int = 1  # >1 only for T and O
    vp: int = 0  # printed VP: U 0-2, H 0-3, else 0

    @property
    def code(self) -> str:
        """The cell code of formats.md §1.1 (``T3``, ``U*1``, ``p`` ...)."""
        if self.floors > 1:
            return f"{self.kind}{self.floors}"
        if self.vp:
            return f"{self.kind}*{self.vp}"
        return self.kind


City = tuple[Building | None, ...]


@dataclass(frozen=True, slots=True)
class Geometry:
    """Precomputed facts about one mode's city mat (indices are row-major square numbers)."""

    mode: str
    rows: int
    cols: int
    size: int
    #: 0-based district of each square (Classic NW, NE, SW, SE; Expert district number - 1).
    district: tuple[int, ...]
    districts: int
    #: Squares of each district (0-based district index).
    district_squares: tuple[tuple[int, ...], ...]
    #: Expert: the number printed on each square (1-5); Classic: empty.
    square_number: tuple[int, ...]
    #: Orthogonal neighbours of each square.
    neighbours: tuple[tuple[int, ...], ...]
    #: Bit mask of the orthogonal neighbours of each square (bit i = square i).
    neighbour_mask: tuple[int, ...]
    names: tuple[str, ...]
    max_tower_floors: int  # Tower Block: 4 Classic, 5 Expert
    shop_capacity: int  # customers per Shop: 4 Classic, 5 Expert


@cache
def _mats() -> dict[str, Any]:
    text = resources.files("polis.games.quadropolis").joinpath("data/mats.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def geometry(mode: str) -> Geometry:
    """The mat of ``mode`` (``classic`` 4x4, ``expert`` 4x5); computed once per mode."""
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r}: Quadropolis is played in classic or expert mode")
    mat = _mats()[mode]
    rows, cols = int(mat["size"]["rows"]), int(mat["size"]["cols"])
    size = rows * cols
    if mode == "classic":
        ids = list(mat["districts"]["ids"])
        district = [ids.index(sq["district"]) for sq in mat["squares"]]
        numbers: tuple[int, ...] = ()
    else:
        district = [int(d) - 1 for row in mat["districts"]["layout_by_row"] for d in row]
        numbers = tuple(int(n) for row in mat["square_numbers_by_row"] for n in row)
    ndist = max(district) + 1
    neighbours = []
    for i in range(size):
        r, c = divmod(i, cols)
        nb = []
        if r > 0:
            nb.append(i - cols)
        if c > 0:
            nb.append(i - 1)
        if c < cols - 1:
            nb.append(i + 1)
        if r < rows - 1:
            nb.append(i + cols)
        neighbours.append(tuple(nb))
    return Geometry(
        mode=mode,
        rows=rows,
        cols=cols,
        size=size,
        district=tuple(district),
        districts=ndist,
        district_squares=tuple(
            tuple(i for i in range(size) if district[i] == d) for d in range(ndist)
        ),
        square_number=numbers,
        neighbours=tuple(neighbours),
        neighbour_mask=tuple(sum(1 << j for j in nb) for nb in neighbours),
        names=tuple(f"r{i // cols + 1}c{i % cols + 1}" for i in range(size)),
        max_tower_floors=4 if mode == "classic" else 5,
        shop_capacity=4 if mode == "classic" else 5,
    )


def square_name(index: int, mode: str) -> str:
    """``0 -> "r1c1"`` (formats.md §1.1 square names)."""
    return geometry(mode).names[index]


def parse_square(text: str, mode: str) -> int:
    """``"r2c3"`` -> row-major index; NotationError if the square is not on the mode's mat."""
    g = geometry(mode)
    t = text.strip().lower()
    r, sep, c = t[1:].partition("c")
    if not (t.startswith("r") and sep and r.isdigit() and c.isdigit()):
        raise NotationError(f"{text!r} is not a square: write r<row>c<col>, e.g. r2c3")
    row, col = int(r), int(c)
    if not (1 <= row <= g.rows and 1 <= col <= g.cols):
        raise NotationError(
            f"square {text!r} is not on the {mode} city ({g.rows} rows x {g.cols} columns)"
        )
    return (row - 1) * g.cols + col - 1


@cache
def box_kinds(mode: str) -> frozenset[str]:
    """The building letters of the tiles in ``mode``'s box (its round pools, tiles.json)."""
    return frozenset(TILES[i].code for pool in POOLS[mode] for i in pool)


@cache
def _cell(code: str, mode: str) -> Building | None:
    """Parse one cell code (cached: a mode has only a few dozen distinct codes)."""
    if code == ".":
        return None
    kind, rest = code[:1], code[1:]
    if kind not in _NAMES:
        raise InputError(f"unknown cell code {code!r}: use . T O S U P p F H M (formats §1.1)")
    name = _NAMES[kind]
    if kind not in box_kinds(mode):
        where = " and ".join(m.capitalize() for m in MODES if kind in box_kinds(m))
        raise InputError(
            f"{name}s exist only in {where} mode: the {mode.capitalize()} box has no {name} "
            f"tiles (cell {code!r})"
        )
    floors, vp = 1, 0
    if rest:
        if kind in "TO" and rest.isdigit():
            floors = int(rest)
            cap = geometry(mode).max_tower_floors if kind == "T" else 5
            if not 1 <= floors <= cap:
                raise InputError(
                    f"a {name} has 1 to {cap} floors in {mode.capitalize()} mode (cell {code!r})"
                )
        elif kind in _MAX_VP and rest.startswith("*") and rest[1:].isdigit():
            vp = int(rest[1:])
            if vp > _MAX_VP[kind]:
                raise InputError(f"a {name} shows 0 to {_MAX_VP[kind]} printed VP (cell {code!r})")
        elif kind in "TO":
            raise InputError(f"a {name} takes a number of floors, e.g. {kind}3 (cell {code!r})")
        elif kind in _MAX_VP:
            raise InputError(f"a {name} takes printed VP as *v, e.g. {kind}*1 (cell {code!r})")
        else:
            raise InputError(f"a {name} is written {kind} alone (cell {code!r})")
    return Building(kind, floors, vp)


def parse_cell(code: str, mode: str) -> Building | None:
    """One formats.md §1.1 cell code (``T3``, ``U*1``, ``H*2``, ``.``, ``p`` ...)."""
    geometry(mode)  # validates the mode
    if not isinstance(code, str):
        raise InputError(f"a cell code must be text, got {code!r}")
    return _cell(code, mode)


def _a_city(mode: str) -> str:
    name = mode.capitalize()
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name} city"


def parse_city(mode: str, rows: Sequence[str]) -> City:
    """A city from its rows of cell codes (formats.md §1.2 ``city``); InputError naming the rule."""
    g = geometry(mode)
    if isinstance(rows, str) or not isinstance(rows, Sequence):
        raise InputError("'city' must be a list of rows, each a text of cell codes")
    if len(rows) != g.rows:
        raise InputError(
            f"{_a_city(mode)} has {g.rows} rows of {g.cols} squares (got {len(rows)} rows)"
        )
    cells: list[Building | None] = []
    for r, row in enumerate(rows, 1):
        if not isinstance(row, str):
            raise InputError(f"row {r} of the city must be text, got {row!r}")
        codes = row.split()
        if len(codes) != g.cols:
            raise InputError(f"row {r} of {_a_city(mode)} has {g.cols} squares (got {len(codes)})")
        cells.extend(_cell(c, mode) for c in codes)
    return tuple(cells)


def city_rows(mode: str, city: City) -> list[str]:
    """The formats.md §1.2 rows of ``city`` (inverse of :func:`parse_city`)."""
    g = geometry(mode)
    codes = ["." if b is None else b.code for b in city]
    return [" ".join(codes[r * g.cols : (r + 1) * g.cols]) for r in range(g.rows)]


__all__ = [
    "KINDS",
    "MODES",
    "Building",
    "City",
    "Geometry",
    "box_kinds",
    "city_rows",
    "geometry",
    "parse_cell",
    "parse_city",
    "parse_square",
    "square_name",
]
