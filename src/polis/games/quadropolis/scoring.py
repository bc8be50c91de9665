"""The exact Quadropolis scorer: best final allocation (spec §8) and scoring (§10-§13).

Scoring one given allocation (:func:`evaluate`) is plain and direct; the optimiser that
finds the best allocation lives in :mod:`polis.games.quadropolis.scoring_solver`, and its answer is
re-scored here, so a report is always the exact score of the allocation it shows.

A result's totals and places need only each city's best key, which the compiled twin of the
solver (:mod:`~polis.games.quadropolis.scoring_kernel`, numba) finds about 10x faster: it
gives them wherever numba has it ready, the solver otherwise (:func:`scorer`).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from polis.core.errors import InputError
from polis.core.result import Details, GameResult, PlayerScore
from polis.games.quadropolis.city import City, Geometry, geometry
from polis.games.quadropolis.scoring_solver import IB, Allocation, W, components, edges, solve_key
from polis.games.quadropolis.scoring_tables import (
    CATEGORIES,
    FACTORY,
    HARBOR_RUN,
    MONUMENT,
    OFFICE,
    PARK,
    PUBLIC,
    SHOP,
    TOWER,
)

if TYPE_CHECKING:
    from polis.core.compiled import CompiledPackage
    from polis.games.quadropolis.state import QuadropolisState
    from polis.games.quadropolis.view_json import QuadropolisRunningScoreJSON

_INHABITANT_USERS = frozenset("UFHO")
_ENERGY_USERS = frozenset("TSO")


@dataclass(frozen=True, slots=True)
class ScoreReport:
    """One city's score with its optimal allocation (formats.md §1.3)."""

    mode: str
    total: int
    categories: Mapping[str, int]
    inhabitants_on_buildings: int
    empty_squares: int
    inactive: tuple[int, ...] = ()
    customers: Mapping[int, int] = field(default_factory=dict)
    park_energy: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Exactly the formats.md §1.3 object (squares named ``r1c2``)."""
        names = geometry(self.mode).names
        return {
            "game": "quadropolis",
            "mode": self.mode,
            "total": self.total,
            "categories": {k: self.categories[k] for k in CATEGORIES},
            "inhabitants_on_buildings": self.inhabitants_on_buildings,
            "empty_squares": self.empty_squares,
            "allocation": {
                "inactive": [names[i] for i in self.inactive],
                "customers": {names[i]: n for i, n in sorted(self.customers.items())},
                "park_energy": [names[i] for i in self.park_energy],
            },
        }

    def running_json(self) -> QuadropolisRunningScoreJSON:
        """The running score of the city (:class:`~polis.games.quadropolis.view_json.
        QuadropolisRunningScoreJSON`): the report without its allocation."""
        return {
            "total": self.total,
            "categories": {k: self.categories[k] for k in CATEGORIES},
            "inhabitants_on_buildings": self.inhabitants_on_buildings,
            "empty_squares": self.empty_squares,
        }


@dataclass(frozen=True, slots=True)
class _Options:
    playground_absorbs_pollution: bool
    office_tower_group_cap: int
    empty_squares_after_removal: bool


# -- evaluation of one allocation ------------------------------------------------------------


def _office_groups(g: Geometry, city: City, active: int, cap: int) -> int:
    """Office Tower VP: orthogonally connected groups, each tower by min(group, cap) (A14)."""
    towers = [i for i, b in enumerate(city) if b is not None and b.kind == "O" and active >> i & 1]
    seen: set[int] = set()
    total = 0
    for start in towers:
        if start in seen:
            continue
        group, todo = [start], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            for j in g.neighbours[i]:
                if j not in seen and j in towers:
                    seen.add(j)
                    group.append(j)
                    todo.append(j)
        row = OFFICE[min(len(group), cap)]
        total += sum(row[b.floors] for i in group if (b := city[i]) is not None)
    return total


def _longest_run(g: Geometry, harbors: set[int], step: int, length: int) -> int:
    best = 0
    starts = range(g.rows) if step == 1 else range(g.cols)
    for s in starts:
        run = 0
        for k in range(length):
            i = s * g.cols + k if step == 1 else k * g.cols + s
            run = run + 1 if i in harbors else 0
            best = max(best, run)
    return best


def evaluate(
    mode: str,
    city: City,
    inhabitants: int,
    energy: int,
    active: int,
    customers: Mapping[int, int],
    park_energy: Sequence[int],
    *,
    playground_absorbs_pollution: bool = False,
    office_tower_group_cap: int = 5,
    empty_squares_after_removal: bool = True,
) -> ScoreReport:
    """Score one given allocation (plain and direct: the optimiser's answer is re-scored here).

    ``active`` is a bit mask of activated squares (Parks and Monuments are always active).
    Raises InputError for an allocation the rules forbid.
    """
    g = geometry(mode)
    b_at = [b for b in city]
    for i, b in enumerate(b_at):
        if b is not None and b.kind in "PpM":
            active |= 1 << i
    on = [b if b is not None and active >> i & 1 else None for i, b in enumerate(b_at)]
    cap = g.shop_capacity
    for i, n in customers.items():
        b = on[i]
        if b is None or b.kind != "S" or not 0 <= n <= cap:
            raise InputError(f"an activated Shop holds 0 to {cap} customers (square {i})")
    for i in park_energy:
        b = on[i]
        kinds = "Pp" if playground_absorbs_pollution else "P"
        if b is None or b.kind not in kinds:
            raise InputError("only a green Park can hold 1 surplus energy")
    if len(set(park_energy)) != len(park_energy):
        raise InputError("a Park holds at most 1 surplus energy")
    cat = dict.fromkeys(CATEGORIES, 0)
    used_inh = sum(customers.values())
    used_en = len(park_energy)
    districts: set[int] = set()
    harbors: set[int] = set()
    for i, b in enumerate(on):
        if b is None:
            continue
        k = b.kind
        if k in _INHABITANT_USERS:
            used_inh += 1
        if k in _ENERGY_USERS:
            used_en += 1
        nbs = [on[j] for j in g.neighbours[i] if on[j] is not None]
        if k == "T":
            cat["tower_blocks"] += TOWER[b.floors]
        elif k == "S":
            cat["shops"] += SHOP[customers.get(i, 0)]
        elif k == "U":
            districts.add(g.district[i])
            cat["public_services"] += b.vp
        elif k in "Pp":
            counted = "TO" if mode == "expert" else "T"
            cat["parks"] += PARK[sum(1 for n in nbs if n is not None and n.kind in counted)]
        elif k == "F":
            cat["factories"] += sum(FACTORY.get(n.kind, 0) for n in nbs if n is not None)
        elif k == "H":
            harbors.add(i)
            cat["harbors"] += b.vp
        elif k == "M":
            cat["monuments"] += sum(MONUMENT.get(n.kind, 0) for n in nbs if n is not None)
    cat["public_services"] += PUBLIC[len(districts)]
    cat["harbors"] += HARBOR_RUN[_longest_run(g, harbors, 1, g.cols)]
    cat["harbors"] += HARBOR_RUN[_longest_run(g, harbors, g.cols, g.rows)]
    cat["office_towers"] = _office_groups(g, city, active, office_tower_group_cap)
    if used_inh > inhabitants or used_en > energy:
        raise InputError("the allocation uses more inhabitants or energy than the city owns")
    cat["inhabitants_penalty"] = used_inh - inhabitants
    cat["energy_penalty"] = used_en - energy
    inactive = tuple(i for i, b in enumerate(b_at) if b is not None and on[i] is None)
    empty = sum(1 for b in (on if empty_squares_after_removal else b_at) if b is None)
    return ScoreReport(
        mode=mode,
        total=sum(cat.values()),
        categories=cat,
        inhabitants_on_buildings=used_inh,
        empty_squares=empty,
        inactive=inactive,
        customers={i: n for i, n in sorted(customers.items()) if n},
        park_energy=tuple(sorted(park_energy)),
    )


# -- the optimiser ---------------------------------------------------------------------------


def _key(report: ScoreReport) -> int:
    """The lexicographic key of a report: total, then inhabitants on buildings, then -empty."""
    return report.total * W + report.inhabitants_on_buildings * IB - report.empty_squares


def _report(
    g: Geometry,
    city: City,
    inh: int,
    en: int,
    active: int,
    customers: Mapping[int, int],
    park_energy: Sequence[int],
    cap: int,
    after_removal: bool,
) -> ScoreReport:
    """The report of the optimiser's own allocation, scored on bit masks.

    Same rules as :func:`evaluate` (the tests hold the two equal) without its input checks,
    which an optimiser's answer needs not: this is the scorer's hot path.
    """
    nbm = g.neighbour_mask
    cols = g.cols
    not_first, not_last, every = edges(g)
    masks = dict.fromkeys("TOSUPpFHM", 0)
    for i, b in enumerate(city):
        if b is not None:
            masks[b.kind] |= 1 << i
    tm, om, sm, um, fm, hm, mm = (masks[k] for k in "TOSUFHM")
    pm = masks["P"] | masks["p"]
    built = every ^ sum(1 << i for i, b in enumerate(city) if b is None)
    act = (active | pm | mm) & built
    bc = int.bit_count
    counted = act & (tm | om if g.mode == "expert" else tm)
    tower = public = park = factory = harbor = office = monument = 0
    districts = 0
    for i, b in enumerate(city):
        if b is None or not act >> i & 1:
            continue
        k = b.kind
        n = nbm[i] & act
        if k == "T":
            tower += TOWER[b.floors]
        elif k == "U":
            districts |= 1 << g.district[i]
            public += b.vp
        elif k in "Pp":
            park += PARK[bc(n & counted)]
        elif k == "F":
            factory += 2 * bc(n & sm) + 3 * bc(n & hm) + 4 * bc(n & om)
        elif k == "H":
            harbor += b.vp
        elif k == "M":
            monument += 5 * bc(n & pm) + 3 * bc(n & sm) + 2 * bc(n & um) - 5 * bc(n & (fm | hm))
    public += PUBLIC[bc(districts)]
    for run, step, inside in ((act & hm, 1, not_last), (act & hm, cols, every)):
        length = 0
        while run:
            length += 1
            run &= (run >> step) & inside
        harbor += HARBOR_RUN[length]
    for comp in components(act & om, cols, not_first, not_last):
        row = OFFICE[min(bc(comp), cap)]
        while comp:
            low = comp & -comp
            b = city[low.bit_length() - 1]
            office += row[b.floors if b is not None else 0]
            comp ^= low
    shops = sum(SHOP[n] for n in customers.values())
    used_inh = bc(act & (um | fm | hm | om)) + sum(customers.values())
    used_en = bc(act & (tm | sm | om)) + len(park_energy)
    cat = {
        "tower_blocks": tower,
        "shops": shops,
        "public_services": public,
        "parks": park,
        "factories": factory,
        "harbors": harbor,
        "office_towers": office,
        "monuments": monument,
        "inhabitants_penalty": used_inh - inh,
        "energy_penalty": used_en - en,
    }
    return ScoreReport(
        mode=g.mode,
        total=sum(cat.values()),
        categories=cat,
        inhabitants_on_buildings=used_inh,
        empty_squares=g.size - bc(act if after_removal else built),
        inactive=tuple(i for i in range(g.size) if (built ^ act) >> i & 1),
        customers={i: n for i, n in sorted(customers.items()) if n},
        park_energy=tuple(sorted(park_energy)),
    )


def usable(g: Geometry, city: City, playgrounds: bool) -> tuple[int, int]:
    """The most inhabitants and energy any allocation of ``city`` can place (§8).

    Resources beyond these are a plain penalty of 1 VP each, whatever the allocation, so the
    optimiser never needs to see them: its tables grow with the resources it allocates.
    """
    kinds = Counter(b.kind for b in city if b is not None)
    inh = sum(kinds[k] for k in _INHABITANT_USERS) + g.shop_capacity * kinds["S"]
    en = sum(kinds[k] for k in _ENERGY_USERS) + kinds["P"] + (kinds["p"] if playgrounds else 0)
    return inh, en


def _optimum(
    mode: str, city: City, inh: int, en: int, opts: _Options
) -> tuple[int, Callable[[], Allocation]]:
    """The optimiser's key for ``city`` owning ``inh`` and ``en``, and the function that
    rebuilds the allocation behind it: it allocates only what some allocation can place
    (:func:`usable`), and its key is then lowered by the plain 1 VP penalty of each
    resource beyond that, so it is the key of the city's report."""
    g = geometry(mode)
    most_inh, most_en = usable(g, city, opts.playground_absorbs_pollution)
    used_inh, used_en = min(inh, most_inh), min(en, most_en)
    key, rebuild = solve_key(
        g,
        city,
        used_inh,
        used_en,
        opts.playground_absorbs_pollution,
        opts.office_tower_group_cap,
        opts.empty_squares_after_removal,
    )
    return key - W * (inh - used_inh + en - used_en), rebuild


def _solver_key(mode: str, city: City, inh: int, en: int, opts: _Options) -> int:
    """The key of :func:`_optimum`, without rebuilding its allocation (the compiled
    :func:`~polis.games.quadropolis.scoring_kernel.city_key` answers the same)."""
    return _optimum(mode, city, inh, en, opts)[0]


#: A city's key from (mode, city, inhabitants, energy, options).
KeyFunction = Callable[[str, City, int, int, _Options], int]

#: The environment variable that picks the scorer of results: ``auto`` (the default),
#: ``compiled`` or ``reference``.
SCORER_VARIABLE = "POLIS_SCORER"


def _choose(mode: str, city: City, inh: int, en: int, opts: _Options) -> int:
    """The first key asked for: choose where keys come from (:func:`scorer`), then answer."""
    _resolve()
    return _key_of(mode, city, inh, en, opts)


#: Where results take their keys from (:func:`scorer`): chosen at the first result.
_key_of: KeyFunction = _choose


def _set_key_function(function: KeyFunction) -> None:
    global _key_of
    _key_of = function


#: The compiled package whose cached code holds the compiled key (its ``final`` scores with it).
COMPILED_PACKAGE = "polis.games.quadropolis.compiled"


def _package() -> CompiledPackage | None:
    """The game's compiled package, or None where numba is missing or cannot cache."""
    from polis.core.compiled import package

    return package(COMPILED_PACKAGE)


def _compiled_key() -> KeyFunction:
    from polis.games.quadropolis.scoring_kernel import city_key

    key: KeyFunction = city_key
    return key


class _Waiting:
    """The key function until the compiled package is ready: the solver, asking the package
    again at each key (it looks into the cache every few seconds and has the compile started
    aside, :meth:`~polis.core.compiled.CompiledPackage.available`); then the compiled key."""

    def __init__(self, found: CompiledPackage) -> None:
        self.package = found

    def __call__(self, mode: str, city: City, inh: int, en: int, opts: _Options) -> int:
        if self.package.available():
            _set_key_function(_compiled_key())
            return _key_of(mode, city, inh, en, opts)
        return _solver_key(mode, city, inh, en, opts)


def _resolve() -> None:
    """Pick the key function by :data:`SCORER_VARIABLE` and what the game's compiled package
    has ready."""
    choice = os.environ.get(SCORER_VARIABLE, "").strip().lower() or "auto"
    if choice not in ("auto", "compiled", "reference"):
        raise InputError(f"{SCORER_VARIABLE} is auto, compiled or reference (got {choice!r})")
    found = _package() if choice != "reference" else None
    if found is None:
        if choice == "compiled":
            raise InputError(f"{SCORER_VARIABLE}=compiled needs numba with a writable cache")
        _set_key_function(_solver_key)
    elif choice == "compiled":
        found.warm_here()
        _set_key_function(_compiled_key())
    elif found.available():
        _set_key_function(_compiled_key())
    else:  # a cold cache (now compiled aside), or POLIS_COMPILED=off: the solver meanwhile
        _set_key_function(_Waiting(found))


def scorer() -> str:
    """``"compiled"`` or ``"reference"``: what gives the totals and places of results now
    (choosing it if no result has been asked for yet).

    Results take each city's key from the compiled kernel (numba) wherever the game's
    compiled package may be used (:mod:`polis.core.compiled`: numba imports, and
    ``POLIS_COMPILED`` is ``on``, or ``auto`` and the package's compiled code is in numba's
    disk cache), else from the Python solver, the readable reference (the scoring pad's
    reports always come from the solver, which builds the allocation behind the key).
    ``POLIS_SCORER=reference`` keeps the solver, ``POLIS_SCORER=compiled`` compiles the
    package in the process if needed; with a cold cache the default has it compiled aside
    and switches over when it is there.
    """
    if _key_of is _choose:
        _resolve()
    if isinstance(_key_of, _Waiting) or _key_of is _solver_key:
        return "reference"
    return "compiled"


def use_reference_keys() -> None:
    """Take the totals and places of results from the Python solver from now on (tests, and
    checks of the compiled kernel against it)."""
    _set_key_function(_solver_key)


def use_compiled_keys() -> None:
    """Take the totals and places of results from the compiled kernel from now on (numba
    needed: ImportError without it), compiling the game's compiled package here if numba's
    cache does not hold it: the research environments finish games by the thousand and
    switch it on when they are made, so that a first compile belongs to making the
    environment."""
    found = _package()
    if found is None:
        raise ImportError("the compiled scorer needs numba with a writable cache")
    found.warm_here()
    _set_key_function(_compiled_key())


@lru_cache(maxsize=4096)
def _best_key(mode: str, city: City, inh: int, en: int, opts: _Options) -> int:
    """The key alone (all the places need), cached: it is a plain int, so the cache holds
    nothing of the search (its closures would keep each city's tables alive)."""
    return _key_of(mode, city, inh, en, opts)


@lru_cache(maxsize=4096)
def _score(mode: str, city: City, inh: int, en: int, opts: _Options) -> ScoreReport:
    _, active, customers, parks = _optimum(mode, city, inh, en, opts)[1]()
    return _report(
        geometry(mode),
        city,
        inh,
        en,
        active,
        customers,
        parks,
        opts.office_tower_group_cap,
        opts.empty_squares_after_removal,
    )


def score_city(
    mode: str,
    city: City,
    inhabitants: int,
    energy: int,
    *,
    playground_absorbs_pollution: bool = False,
    office_tower_group_cap: int = 5,
    empty_squares_after_removal: bool = True,
) -> ScoreReport:
    """Score ``city`` with its best final allocation of ``inhabitants`` and ``energy`` (§8-§12).

    The options are the named resolutions of spec A10 (playgrounds hold surplus energy?),
    A14 (largest Office Tower group row) and A19 (empty squares counted after removal?).
    """
    g = geometry(mode)
    if len(city) != g.size:
        raise InputError(f"a {mode} city has {g.size} squares (got {len(city)})")
    for name, value in (("inhabitants", inhabitants), ("energy", energy)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InputError(f"{name} must be a whole number of at least 0 (got {value!r})")
    if not 1 <= office_tower_group_cap <= 5:
        raise InputError("the Office Tower table has rows for groups of 1 to 5 towers")
    opts = _Options(
        bool(playground_absorbs_pollution),
        int(office_tower_group_cap),
        bool(empty_squares_after_removal),
    )
    return _score(mode, tuple(city), inhabitants, energy, opts)


def running_reports(
    mode: str,
    cities: Sequence[City],
    resources: Sequence[tuple[int, int]],
    scoring: tuple[bool, int, bool],
) -> list[ScoreReport]:
    """Each city scored as it stands, with the inhabitants and energy its player has gained
    so far (``scoring``: the options' :attr:`~polis.games.quadropolis.options.Options.scoring`).

    The table's running score: the same exact scorer (best allocation) as the end, so at the
    last position it is the result's report. Each report is cached by city and resources
    (:func:`_score`), and a move changes one city: the seats' views of a position, and the
    positions after it, score the other cities from the cache. Measured on whole 4-player
    games of greedy bots (29 Nov 2026): the four cities of a position scored afresh take
    about 0.5 ms (at most 5 ms), a whole game's positions about 50 ms in all.
    """
    opts = _Options(*scoring)
    return [
        _score(mode, tuple(city), inh, en, opts)
        for city, (inh, en) in zip(cities, resources, strict=True)
    ]


def _decode(key: int) -> tuple[int, int, int]:
    """(total, inhabitants on buildings, empty squares) of an optimiser key
    ``total * W + on_buildings * IB - empty``: the empty squares (at most 25) stay below
    IB and ``on_buildings * IB + IB`` below W, so the three parts are unique."""
    total = (key + IB - 1) // W
    rest = key - total * W
    on_buildings = (rest + IB - 1) // IB
    return total, on_buildings, on_buildings * IB - rest


def _place_key(mode: str, city: City, inh: int, en: int, opts: _Options) -> tuple[int, int, int]:
    """(total, inhabitants on buildings, empty squares) of ``city``'s best allocation: what
    the places need (§13), read off the optimiser's key without building the report."""
    return _decode(_best_key(mode, city, inh, en, opts))


def game_result(state: QuadropolisState) -> GameResult:
    """§8-§13: every city scored with its best allocation, then ranked with the tie-breaks.

    The totals and places come from the optimiser's keys; the reports (the scoring pad's
    breakdown and the allocation) are built only when the details are asked for, since a
    bot's playout or a learner's reward needs the totals alone.
    """
    mode = state.mode
    playground, cap, after_removal = state.rules.scoring
    opts = _Options(playground, cap, after_removal)
    cities = []
    keys = []
    for p in range(state.num_players):
        inh, en = state.resources(p)
        city = tuple(state.city(p))
        cities.append((city, inh, en))
        keys.append(_place_key(mode, city, inh, en, opts))
    ranking = _places([(total, on_buildings, -empty) for total, on_buildings, empty in keys])
    scores = tuple(key[0] for key in keys)

    def details() -> Details:
        reports = [_score(mode, city, inh, en, opts) for city, inh, en in cities]
        players = tuple(
            PlayerScore(
                total=r.total,
                categories={k: r.categories[k] for k in CATEGORIES},
                tie_breaks={
                    "inhabitants_on_buildings": r.inhabitants_on_buildings,
                    "empty_squares": r.empty_squares,
                },
                report=r.to_json(),
            )
            for r in reports
        )
        data = {
            "game": "quadropolis",
            "mode": mode,
            "players": [p.report for p in players],
            "scores": list(scores),
            "ranking": [list(group) for group in ranking],
        }
        return players, data

    return GameResult("quadropolis", mode, scores, ranking, details=details)


def rank(reports: Sequence[ScoreReport]) -> tuple[tuple[int, ...], ...]:
    """§13 places, best first: total, then inhabitants on buildings, then fewer empty squares.

    Players equal on all three share a place (indices within a place in seating order).
    """
    return _places([(r.total, r.inhabitants_on_buildings, -r.empty_squares) for r in reports])


def _places(keys: Sequence[tuple[int, int, int]]) -> tuple[tuple[int, ...], ...]:
    """Seats grouped by equal keys, best key first (seating order within a place)."""
    places: dict[tuple[int, int, int], list[int]] = {}
    for i, key in enumerate(keys):
        places.setdefault(key, []).append(i)
    return tuple(tuple(places[k]) for k in sorted(places, reverse=True))


__all__ = [
    "ScoreReport",
    "evaluate",
    "game_result",
    "rank",
    "running_reports",
    "score_city",
    "scorer",
    "use_compiled_keys",
    "use_reference_keys",
]
