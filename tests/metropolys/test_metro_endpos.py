"""``polis score`` for Metropolys: the formats §2.2 end position in, the §2.3 report out."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from polis.core.errors import InputError
from polis.games.metropolys.game import GAME
from polis.games.metropolys.scoring import BREAKDOWN_KEYS

FORMATS_EXAMPLE: dict[str, Any] = {
    "game": "metropolys",
    "mode": "expert",
    "players": 3,
    "unused_districts": ["west"],
    "buildings": [{"player": 0, "field": 12, "value": 13}, {"player": 1, "field": 3, "value": 2}],
    "tokens": [
        {"chic": 1, "metro": 2, "archaeology": 0},
        {"chic": 0, "metro": 1, "archaeology": 1},
        {"chic": 0, "metro": 0, "archaeology": 0},
    ],
    "metro_card": 0,
    "archaeology_card": 1,
    "area_cards": ["chains", "lakes", "bridges"],
    "neighbourhood_cards": ["gray", "red", "blue"],
}


def test_formats_example_report() -> None:
    report = GAME.score_file(FORMATS_EXAMPLE)
    assert set(report) == {"game", "mode", "players", "ranking"}
    assert report["game"] == "metropolys" and report["mode"] == "expert"
    for p in report["players"]:
        assert set(p) == {"total", "built", "breakdown"}
        assert tuple(p["breakdown"]) == BREAKDOWN_KEYS
        assert p["total"] == sum(p["breakdown"].values())
    p0, p1, p2 = report["players"]
    # P0: chic 3, metro 2, metro card 3, highest building of the center (a large one) 5.
    assert p0["breakdown"] == {
        "chic": 3, "metro": 2, "metro_card": 3, "archaeology": 0, "archaeology_card": 0,
        "area": 0, "neighbourhood": 0, "highest": 5,
    }  # fmt: skip
    # P1: field 3 is blue, his card is red; lakes needs 3 buildings.
    assert p1["breakdown"]["archaeology"] == -1 and p1["breakdown"]["archaeology_card"] == -2
    assert p1["total"] == 1 - 1 - 2
    assert p2["total"] == 0 and p2["built"] == 0
    assert report["ranking"] == [[0], [2], [1]]


def test_family_report_has_zero_expert_keys_and_ties_share() -> None:
    data: dict[str, Any] = {
        "game": "metropolys",
        "mode": "family",
        "players": 2,
        "unused_districts": ["south", "west"],
        "buildings": [
            {"player": 0, "field": 0, "value": 1},
            {"player": 1, "field": 22, "value": 1},
        ],
        "tokens": [{"chic": 0, "metro": 0, "archaeology": 0}] * 2,
        "metro_card": None,
        "archaeology_card": None,
        "area_cards": ["bridges", "statues"],
    }
    report = GAME.score_file(data)
    p0, p1 = report["players"]
    assert p0["breakdown"]["area"] == 3 and p1["breakdown"]["area"] == 0
    data["area_cards"] = ["bridges", "lakes"]
    data["buildings"][1] = {"player": 1, "field": 1, "value": 1}  # lake and bridge field
    report = GAME.score_file(data)
    assert [p["total"] for p in report["players"]] == [3, 3]
    assert report["ranking"] == [[0, 1]]
    assert report["players"][0]["breakdown"]["highest"] == 0


def mutate(path: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(FORMATS_EXAMPLE)
    target: Any = data
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if isinstance(target, list) else target[key]
    last = keys[-1]
    if value is KeyError:
        del target[last]
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return data


BAD = [
    (mutate("buildings.1.field", 12), "field 12 holds two buildings"),
    (mutate("buildings.1.field", 55), "unknown field 55"),
    (mutate("buildings.1.field", 47), "west district, which is not in play"),
    (mutate("buildings.1", {"player": 0, "field": 4, "value": 13}), "built value 13 twice"),
    (mutate("buildings.1.value", 14), "no building of value 14"),
    (mutate("buildings.1.player", 3), "no player 3"),
    (mutate("buildings.1", {"player": 1, "field": 4}), "player, field and value"),
    (mutate("buildings", {"0": 1}), "buildings must be a list"),
    (mutate("area_cards", ["chains", "lakes"]), "one card to each of the 3 players"),
    (mutate("area_cards", ["chains", "lakes", "outskirts"]), "unknown card 'outskirts'"),
    (mutate("area_cards", ["chains", "chains", "lakes"]), "same card twice"),
    (mutate("neighbourhood_cards", KeyError), "needs neighbourhood_cards"),
    (mutate("neighbourhood_cards", ["gray", "red", "purple"]), "unknown card 'purple'"),
    (mutate("metro_card", 3), "metro_card must be a player index"),
    (mutate("archaeology_card", "1"), "archaeology_card must be a whole number"),
    (mutate("tokens.0.chic", -1), "negative"),
    (mutate("tokens.0.chic", 9), "hold 9 chic tokens, but a 3-player game uses only 8"),
    (mutate("tokens.0", {"gold": 1}), "chic, metro, archaeology"),
    (mutate("tokens", []), "one {chic, metro, archaeology} object per player"),
    (mutate("unused_districts", []), "exactly one peripheral district"),
    (mutate("players", 5), "2 to 4 players"),
    (mutate("mode", "classic"), "unknown Metropolys mode"),
    (mutate("game", "quadropolis"), "not a Metropolys end position"),
    (mutate("colour", 1), "unknown key 'colour'"),
    (mutate("options", {"lake_groups": 1}), "lake_groups must be one of"),
]


@pytest.mark.parametrize(("data", "message"), BAD)
def test_bad_end_position(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        GAME.score_file(data)


def test_more_than_thirteen_buildings() -> None:
    data = copy.deepcopy(FORMATS_EXAMPLE)
    data["buildings"] = [{"player": 2, "field": f, "value": 1 + f % 13} for f in range(14)]
    with pytest.raises(InputError, match=r"(13|twice)"):
        GAME.score_file(data)


def test_family_with_neighbourhood_cards_is_rejected() -> None:
    data = mutate("mode", "family")
    with pytest.raises(InputError, match=r"unknown card 'chains'|only in the Expert"):
        GAME.score_file(data)
    data["area_cards"] = ["bridges", "lakes", "statues"]
    with pytest.raises(InputError, match="only in the Expert"):
        GAME.score_file(data)
