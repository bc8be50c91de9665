"""The fast scorer against a plain exhaustive reference, on random small/medium cities."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from quadro_scoring_reference import reference_best, reference_categories

from polis.games.quadropolis.city import Building, City, geometry, parse_cell
from polis.games.quadropolis.scoring import _Options, _place_key, evaluate, score_city
from polis.games.quadropolis.scoring_solver import IB, W, solve, solve_key

CODES = {
    "classic": ["T", "T2", "T3", "T4", "S", "U", "U*1", "U*2", "P", "p", "F", "H", "H*1", "H*3"],
    "expert": ["T", "T3", "T5", "O", "O2", "O4", "S", "U", "U*2", "P", "p", "F", "H", "H*2", "M"],
}


Case = tuple[str, City, int, int, bool, int, bool]


def _city(
    draw: st.DrawFn,
    mode: str,
    area: int,
    counts: tuple[int, int],
    pool: list[str],
    shop_limit: tuple[int, str],
    free_codes: list[str],
    most: tuple[int, int, int],
) -> Case:
    """``counts`` = (buildings needing resources, parks/monuments) on distinct squares of the
    first ``area`` squares; at most ``shop_limit[0]`` shops (further ones become
    ``shop_limit[1]``); resources up to ``most[:2]``; group cap 5 or ``most[2]``."""
    n_opt, n_free = counts
    squares = draw(
        st.lists(
            st.integers(0, area - 1), min_size=n_opt + n_free, max_size=n_opt + n_free, unique=True
        )
    )
    cells: list[Building | None] = [None] * geometry(mode).size
    shops = 0
    for idx, sq in enumerate(squares):
        code = draw(st.sampled_from(pool if idx < n_opt else free_codes))
        if code == "S":
            shops += 1
            if shops > shop_limit[0]:
                code = shop_limit[1]
        cells[sq] = parse_cell(code, mode)
    return (
        mode,
        tuple(cells),
        draw(st.integers(0, most[0])),
        draw(st.integers(0, most[1])),
        draw(st.booleans()),
        draw(st.sampled_from([5, 5, most[2]])),
        draw(st.booleans()),
    )


@st.composite
def cities(draw: st.DrawFn) -> Case:
    mode = draw(st.sampled_from(["classic", "expert"]))
    g = geometry(mode)
    # cluster buildings in a corner so harbour runs, office groups and adjacency happen
    area = draw(st.sampled_from([6, 8, 10, g.size]))
    n_opt = draw(st.integers(0, min(9, area - 2)))
    n_free = draw(st.integers(0, 2))
    weighted = [c for c in CODES[mode] if c[0] not in "PpM"] + ["H", "H", "S", "F", "O", "U"]
    if mode == "classic":
        weighted.remove("O")
    free = ["P", "p", "M"] if mode == "expert" else ["P", "p"]
    return _city(draw, mode, area, (n_opt, n_free), weighted, (2, "H"), free, (14, 8, 3))


@st.composite
def hard_cities(draw: st.DrawFn) -> Case:
    """Short of energy or inhabitants, dense in harbour lines, office groups, park-side towers.

    These reach the solver's shortcuts: harbour segment pairs, top-k shops and park-side
    Tower Blocks, office groups beside factories and monuments.
    """
    mode = draw(st.sampled_from(["classic", "expert"]))
    g = geometry(mode)
    area = draw(st.sampled_from([2 * g.cols, 3 * g.cols]))
    n_opt = draw(st.integers(4, min(9, area - 3)))
    n_free = draw(st.integers(0, 3))
    theme = draw(st.sampled_from(["H", "O", "T", "S"]))
    pool = {
        "H": ["H", "H", "H", "H*1", "H*2", "F", "S", "U"],
        "O": ["O", "O2", "O4", "O", "F", "S", "H", "T"],
        "T": ["T", "T3", "T5", "T2", "S", "F", "O"],
        "S": ["S", "S", "F", "H", "T", "U*2", "O"],
    }[theme]
    if mode == "classic":
        pool = [c if c[0] != "O" else "T" for c in pool]
        pool = [c if c != "T5" else "T4" for c in pool]
    free = ["P", "P", "p", "M"] if mode == "expert" else ["P", "p"]
    spare = "T" if theme == "T" else "H"
    return _city(draw, mode, area, (n_opt, n_free), pool, (3, spare), free, (9, 4, 2))


@pytest.mark.slow  # a long Hypothesis run against the exhaustive reference
@settings(max_examples=100, deadline=None)
@given(st.one_of(cities(), hard_cities()))
def test_scorer_matches_exhaustive_reference(
    case: Case,
) -> None:
    mode, city, inh, en, playgrounds, group_cap, after = case
    report = score_city(
        mode,
        city,
        inh,
        en,
        playground_absorbs_pollution=playgrounds,
        office_tower_group_cap=group_cap,
        empty_squares_after_removal=after,
    )
    best = reference_best(
        mode,
        city,
        inh,
        en,
        playground_absorbs_pollution=playgrounds,
        group_cap=group_cap,
        empty_after_removal=after,
    )
    assert (report.total, report.inhabitants_on_buildings, -report.empty_squares) == best
    # the reported allocation really scores what the report says
    active = frozenset(i for i, b in enumerate(city) if b is not None and i not in report.inactive)
    cat = reference_categories(
        mode, city, active, dict(report.customers), len(report.park_energy), inh, en, group_cap
    )
    cat.pop("_empty")
    cat.pop("_inh_on")
    assert cat == dict(report.categories)
    assert sum(report.categories.values()) == report.total
    # the optimiser's own key is the key of the allocation it reports
    key, act, customers, parks = solve(geometry(mode), city, inh, en, playgrounds, group_cap, after)
    # the fast mask scoring of the report agrees with the plain evaluate()
    assert report == evaluate(
        mode,
        city,
        inh,
        en,
        act,
        customers,
        parks,
        playground_absorbs_pollution=playgrounds,
        office_tower_group_cap=group_cap,
        empty_squares_after_removal=after,
    )
    assert key == report.total * W + report.inhabitants_on_buildings * IB - report.empty_squares
    # the key alone, without rebuilding the allocation, is the same key
    assert solve_key(geometry(mode), city, inh, en, playgrounds, group_cap, after)[0] == key
    # the places read off the key (resources beyond any allocation's use included)
    opts = _Options(playgrounds, group_cap, after)
    assert _place_key(mode, city, inh, en, opts) == (
        report.total,
        report.inhabitants_on_buildings,
        report.empty_squares,
    )
