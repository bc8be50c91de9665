"""City notation and mat geometry (formats.md §1.1-§1.2, mats.json)."""

from __future__ import annotations

import pytest

from polis.core.errors import InputError, NotationError
from polis.games.quadropolis.city import (
    Building,
    city_rows,
    geometry,
    parse_cell,
    parse_city,
    parse_square,
    square_name,
)
from polis.games.quadropolis.scorefile import load_city_file

EMPTY_CLASSIC = [". . . ."] * 4


def test_geometry_classic_quadrants() -> None:
    g = geometry("classic")
    assert (g.rows, g.cols, g.size, g.districts) == (4, 4, 16, 4)
    assert g.district[0] == g.district[5] != g.district[2]
    assert [len(s) for s in g.district_squares] == [4, 4, 4, 4]
    assert g.neighbours[0] == (1, 4)
    assert sorted(g.neighbours[5]) == [1, 4, 6, 9]
    assert g.square_number == ()
    assert geometry("classic") is g  # computed once


def test_geometry_expert_numbers_and_districts() -> None:
    g = geometry("expert")
    assert (g.rows, g.cols, g.size, g.districts) == (4, 5, 20, 5)
    # district 4 is the middle column; each square number 1-5 printed on exactly 4 squares
    assert [g.district[r * 5 + 2] for r in range(4)] == [3, 3, 3, 3]
    assert sorted(g.square_number) == sorted([1, 2, 3, 4, 5] * 4)
    for d, squares in enumerate(g.district_squares):
        assert d + 1 not in {g.square_number[i] for i in squares}
    assert g.neighbour_mask[0] == (1 << 1) | (1 << 5)


def test_square_names_round_trip() -> None:
    for mode in ("classic", "expert"):
        for i in range(geometry(mode).size):
            assert parse_square(square_name(i, mode), mode) == i
    assert square_name(0, "classic") == "r1c1"
    assert parse_square("r2c3", "classic") == 6
    assert parse_square("r2c3", "expert") == 7


@pytest.mark.parametrize("text", ["r5c1", "r1c5", "r0c1", "c1r1", "x", "r1", ""])
def test_bad_square_classic(text: str) -> None:
    with pytest.raises(NotationError):
        parse_square(text, "classic")


def test_r1c5_on_expert_mat() -> None:
    assert parse_square("r1c5", "expert") == 4


def test_parse_cells() -> None:
    assert parse_cell(".", "classic") is None
    assert parse_cell("T3", "classic") == Building("T", 3)
    assert parse_cell("T", "classic") == Building("T", 1)
    assert parse_cell("T5", "expert") == Building("T", 5)
    assert parse_cell("O4", "expert") == Building("O", 4)
    assert parse_cell("U*1", "classic") == Building("U", 1, 1)
    assert parse_cell("H*3", "expert") == Building("H", 1, 3)
    assert parse_cell("p", "classic") == Building("p")
    assert parse_cell("M", "expert") == Building("M")


@pytest.mark.parametrize(
    ("code", "mode", "words"),
    [
        ("T5", "classic", "1 to 4 floors"),
        ("T6", "expert", "1 to 5 floors"),
        ("T0", "classic", "floors"),
        ("O", "classic", "only in Expert"),
        ("M", "classic", "only in Expert"),
        ("O6", "expert", "1 to 5 floors"),
        ("U*3", "classic", "0 to 2 printed VP"),
        ("H*4", "expert", "0 to 3 printed VP"),
        ("S2", "classic", "Shop is written S alone"),
        ("F*1", "classic", "Factory is written F alone"),
        ("X", "classic", "unknown cell code"),
        ("T*1", "classic", "number of floors"),
        ("U2", "classic", r"printed VP as \*v"),
    ],
)
def test_bad_cells_name_the_rule(code: str, mode: str, words: str) -> None:
    with pytest.raises(InputError, match=words):
        parse_cell(code, mode)


def test_bad_mode() -> None:
    with pytest.raises(InputError, match="classic or expert"):
        parse_city("family", EMPTY_CLASSIC)


def test_parse_city_sizes() -> None:
    with pytest.raises(InputError, match="4 rows"):
        parse_city("classic", EMPTY_CLASSIC[:3])
    with pytest.raises(InputError, match="row 2 of a Classic city has 4 squares"):
        parse_city("classic", [". . . .", ". . .", ". . . .", ". . . ."])
    with pytest.raises(InputError, match="5 squares"):
        parse_city("expert", EMPTY_CLASSIC)
    with pytest.raises(InputError, match="list of rows"):
        parse_city("classic", "T . . .")


def test_city_rows_round_trip() -> None:
    rows = ["T3 S . U*1", "P F H*2 .", "p . . .", ". . . T4"]
    city = parse_city("classic", rows)
    assert city_rows("classic", city) == rows
    rows_x = ["O5 O . M H*3", "T5 . . . .", ". . . . .", "U . . . p"]
    assert city_rows("expert", parse_city("expert", rows_x)) == rows_x


def test_load_city_file() -> None:
    data = {
        "game": "quadropolis",
        "mode": "classic",
        "city": ["T3 S  .  U*1", "P  F  H*2 .", ".  .  .  .", ".  .  .  ."],
        "inhabitants": 9,
        "energy": 4,
    }
    mode, city, inh, en = load_city_file(data)
    assert (mode, inh, en) == ("classic", 9, 4)
    assert city[0] == Building("T", 3) and city[6] == Building("H", 1, 2)
    for bad, words in [
        ({**data, "game": "metropolys"}, "not a Quadropolis"),
        ({**data, "mode": "x"}, "'mode'"),
        ({**data, "inhabitants": -1}, "at least 0"),
        ({**data, "energy": "4"}, "at least 0"),
        ({**data, "energy": True}, "at least 0"),
        ({k: v for k, v in data.items() if k != "city"}, "'city'"),
    ]:
        with pytest.raises(InputError, match=words):
            load_city_file(bad)
