"""Precomputed geometry of the construction site (§5.1-§5.3) and of the cities (§6).

Spots are numbered 0..19: ``side * 5 + (index - 1)`` with sides ``L R T B`` (left/right end of
a row, top/bottom end of a column). Site squares are 0..24 row-major (r1c1 .. r5c5). City
squares are row-major indices of the player mat (Classic 16, Expert 20).

Everything here is built once at import; the engine only indexes tuples and tests bits.
"""

from __future__ import annotations

from polis.games.quadropolis.city import geometry

SIDES = "LRTB"
SITE = 5
N_SPOTS = 20
ARCHITECTS = {"classic": 4, "expert": 5}
#: Maximum height of the stackable kinds per mode (§6.3); index = kind (1 Tower, 2 Office).
MAX_FLOORS = {"classic": (0, 4, 0), "expert": (0, 5, 5)}


def spot_name(spot: int) -> str:
    return f"{SIDES[spot // 5]}{spot % 5 + 1}"


def spot_line(spot: int) -> str:
    """The row or column the spot points along, in the rulebook's words."""
    return f"{'row' if spot < 10 else 'column'} {spot % 5 + 1}"


def site_square_name(square: int) -> str:
    """The square's name in events and views (``r1c1``, as formats.md has it)."""
    return f"r{square // 5 + 1}c{square % 5 + 1}"


def site_square_words(square: int) -> str:
    """The square in the rulebook's words, never like a city square (``r1c1``): line 1,
    column 1 of the construction site."""
    return f"line {square // 5 + 1}, column {square % 5 + 1} of the construction site"


def _select(spot: int, k: int) -> int:
    side, i = divmod(spot, 5)
    if side == 0:  # left end of row i+1: (r, k)
        return i * 5 + (k - 1)
    if side == 1:  # right end: (r, 6-k)
        return i * 5 + (5 - k)
    if side == 2:  # top end of column i+1: (k, c)
        return (k - 1) * 5 + i
    return (5 - k) * 5 + i  # bottom end: (6-k, c)


#: SELECT[spot][k]: the site square architect k selects from that spot (§5.2); k = 1..5.
SELECT: tuple[tuple[int, ...], ...] = tuple(
    (-1, *(_select(s, k) for k in range(1, 6))) for s in range(N_SPOTS)
)


def _blocked(square: int) -> int:
    r, c = divmod(square, 5)
    return (1 << r) | (1 << (5 + r)) | (1 << (10 + c)) | (1 << (15 + c))


#: BLOCKED[urbanist square]: bit mask of the spots the Urbanist blocks (§5.1, A2).
#: Index -1 (Urbanist off the board, A3) is the trailing 0.
BLOCKED: tuple[int, ...] = (*(_blocked(q) for q in range(25)), 0)

SPOT_NAMES = tuple(spot_name(s) for s in range(N_SPOTS))
SPOT_INDEX = {name: s for s, name in enumerate(SPOT_NAMES)}


class CityGeometry:
    """Reach tables of one mode's player mat (§6.1/§6.2) on top of :func:`city.geometry`."""

    __slots__ = ("cols", "mode", "names", "reach", "reach_mask", "rows", "size", "where")

    def __init__(self, mode: str) -> None:
        g = geometry(mode)
        self.mode = mode
        self.rows = g.rows
        self.cols = g.cols
        self.size = g.size
        self.names = g.names
        if mode == "classic":

            def ok(q: int, k: int) -> bool:
                return q // g.cols == k - 1 or q % g.cols == k - 1

            where = {k: f"in row {k} or column {k}" for k in range(1, 5)}
        else:

            def ok(q: int, k: int) -> bool:
                return g.square_number[q] == k or g.district[q] == k - 1

            where = {k: f"on a square numbered {k} or in district {k}" for k in range(1, 6)}
        #: reach[k]: squares where architect k may build (location condition); k = 1..5.
        self.reach: tuple[tuple[int, ...], ...] = tuple(
            tuple(q for q in range(g.size) if k in where and ok(q, k)) for k in range(6)
        )
        self.reach_mask: tuple[int, ...] = tuple(
            sum(1 << q for q in squares) for squares in self.reach
        )
        #: where[k]: the location condition of architect k in the rulebook's words.
        self.where = tuple(where.get(k, "") for k in range(6))


GEOMETRY = {mode: CityGeometry(mode) for mode in ("classic", "expert")}
