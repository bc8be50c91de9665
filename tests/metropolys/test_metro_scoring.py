"""Scoring (spec §8-§10) on the worked examples, plus exactness of the Expert groupings."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from metro_helpers import example

from polis.games.metropolys.board import DISTRICTS
from polis.games.metropolys.options import Options
from polis.games.metropolys.scoring import (
    BRIDGE_SETS,
    CHAIN_SETS,
    STATUE_SETS,
    EndPosition,
    expert_area_groups,
    family_area_count,
    highest_winners,
    max_packing,
    ranking,
    score_report,
)

FIELDS = st.lists(st.integers(0, 54), min_size=0, max_size=13, unique=True)


def one_player(
    mode: str,
    fields_values: list[tuple[int, int]],
    tokens: dict[str, int],
    metro: bool,
    arch: bool,
    area: str,
    colour: str | None = None,
    others: list[list[tuple[int, int]]] | None = None,
) -> dict[str, Any]:
    others = others or [[]]
    n = 1 + len(others)
    spare = [c for c in ("bridges", "statues", "lakes", "chains") if c != area]
    area_cards = [area, *spare[: n - 1]]
    colours = None
    if colour is not None:
        colours = (
            colour,
            *[c for c in ("gray", "orange", "green", "red", "blue") if c != colour][: n - 1],
        )
    pos = EndPosition(
        mode=mode,
        players=n,
        unused=frozenset(),
        buildings=(tuple(fields_values), *map(tuple, others)),
        tokens=((tokens["chic"], tokens["metro"], tokens["archaeology"]),) + ((0, 0, 0),) * (n - 1),
        metro_card=0 if metro else None,
        archaeology_card=0 if arch else None,
        area_cards=tuple(area_cards),
        neighbourhood_cards=colours,
    )
    report: dict[str, Any] = score_report(pos)["players"][0]
    return report


@pytest.mark.parametrize("ident", ["FAM-01", "FAM-02"])
def test_family_examples(ident: str) -> None:
    ex = example(ident)
    p = ex["player"]
    report = one_player(
        "family",
        [(f, i + 1) for i, f in enumerate(p["built_fields"])],
        p["tokens"],
        p["metro_card"],
        p["archaeology_card"],
        p["area_card"],
    )
    b = report["breakdown"]
    assert b["area"] == ex["expected"]["area"]
    tokens_and_cards = sum(v for k, v in b.items() if k != "area")
    assert tokens_and_cards == ex["expected"]["tokens_and_cards"]
    assert report["total"] == ex["expected"]["total"]
    assert b["neighbourhood"] == 0 and b["highest"] == 0


def test_field_51_outskirts_option() -> None:
    assert family_area_count("outskirts", [51, 50]) == 2
    assert family_area_count("outskirts", [51, 50], Options(field_51_outskirts=False)) == 1


@pytest.mark.parametrize("ident", ["EXP-HB-01", "EXP-HB-02"])
def test_highest_building_examples(ident: str) -> None:
    ex = example(ident)
    names = list(ex["built"])
    buildings = [[(f, v) for f, v in ex["built"][name]] for name in names]
    winners = highest_winners(buildings, DISTRICTS.index(ex["district"]))
    assert [names[w] for w in winners] == ex["expected"]["winners"]


def test_highest_building_full_tie_shares_and_value_does_not_matter() -> None:
    buildings = [[(25, 10), (26, 2)], [(27, 13), (29, 5)], [(30, 9)]]
    assert highest_winners(buildings, DISTRICTS.index("east")) == [0, 1]
    assert highest_winners(buildings, DISTRICTS.index("west")) == []


@pytest.mark.parametrize("ident", ["EXP-AREA-01", "EXP-AREA-03", "EXP-AREA-05", "EXP-AREA-08"])
def test_expert_area_examples(ident: str) -> None:
    ex = example(ident)
    assert expert_area_groups(ex["card"], ex["built_fields"]) == ex["expected"]["groups"]
    report = one_player(
        "expert",
        [(f, 1 + i) for i, f in enumerate(ex["built_fields"])],
        {"chic": 0, "metro": 0, "archaeology": 0},
        False,
        False,
        ex["card"],
        colour="gray",
    )
    assert report["breakdown"]["area"] == ex["expected"]["points"]


def test_lake_options() -> None:
    six_round_one_lake = [15, 16, 19, 20, 21]  # lake_north has 5 fields
    assert expert_area_groups("lakes", six_round_one_lake) == 1
    center = [1, 2, 3, 7, 8, 9, 10, 12, 13]  # both center lakes, 9 buildings
    assert expert_area_groups("lakes", center) == 2
    assert expert_area_groups("lakes", center, Options(lake_groups="per_three")) == 3
    assert expert_area_groups("districts", [0, 1, 2, 15, 16, 17, 18, 25, 26]) == 2


def test_expert_full_example() -> None:
    ex = example("EXP-FULL-01")
    p = ex["player"]
    report = one_player(
        "expert",
        [(b["field"], b["value"]) for b in p["built"]],
        p["tokens"],
        p["metro_card"],
        p["archaeology_card"],
        p["area_card"],
        colour=p["neighbourhood_card"],
        others=[[(b["field"], b["value"]) for b in ex["other_players_built"]["p2"]]],
    )
    b = report["breakdown"]
    assert b["neighbourhood"] == ex["expected"]["neighbourhood"]
    assert b["area"] == ex["expected"]["area"]
    assert b["highest"] == ex["expected"]["highest_building"]["points"]
    assert b["chic"] + b["metro"] + b["metro_card"] + b["archaeology"] + b["archaeology_card"] == 8
    assert report["total"] == ex["expected"]["total"]
    assert report["built"] == 8


def brute_packing(sets: tuple[int, ...], fields: list[int]) -> int:
    owned = sum(1 << f for f in fields)
    fitting = [s for s in sets if s & owned == s]
    best = 0
    for k in range(1, len(fitting) + 1):
        found = False
        for combo in combinations(fitting, k):
            union = 0
            ok = True
            for s in combo:
                if union & s:
                    ok = False
                    break
                union |= s
            if ok:
                found = True
                break
        if not found:
            break
        best = k
    return best


@settings(max_examples=40, deadline=None)
@given(fields=st.lists(st.integers(0, 54), min_size=0, max_size=9, unique=True))
def test_packing_is_exact_against_brute_force(fields: list[int]) -> None:
    for sets in (BRIDGE_SETS, STATUE_SETS, CHAIN_SETS):
        assert max_packing(sets, sum(1 << f for f in fields)) == brute_packing(sets, fields)


@settings(max_examples=40, deadline=None)
@given(
    fields=st.lists(
        st.sampled_from([0, 2, 3, 4, 9, 10, 12, 13, 14, 36, 38, 39, 33, 43, 7, 8]),
        unique=True,
        max_size=10,
    )
)
def test_packing_exact_on_dense_center(fields: list[int]) -> None:
    for sets in (BRIDGE_SETS, STATUE_SETS, CHAIN_SETS):
        assert max_packing(sets, sum(1 << f for f in fields)) == brute_packing(sets, fields)


def test_chain_groups_on_paths() -> None:
    assert expert_area_groups("chains", [36, 37, 41]) == 1
    assert expert_area_groups("chains", [36, 37]) == 0


def test_ranking_tie_breaks() -> None:
    assert ranking([30, 40, 30], [12, 10, 13]) == [[1], [2], [0]]
    assert ranking([30, 30, 20, 30], [12, 12, 13, 11]) == [[0, 1], [3], [2]]
