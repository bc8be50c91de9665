"""``polis score`` for Metropolys: the formats §2.2 end position in, the §2.3 report out."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from polis.core.errors import InputError
from polis.games.metropolys.board import DISTRICTS, TOKENS
from polis.games.metropolys.game import GAME
from polis.games.metropolys.scoring import BREAKDOWN_KEYS

#: formats.md §2.2's example (tests/test_formats_examples.py checks that it is the file's).
FORMATS_EXAMPLE: dict[str, Any] = {
    "game": "metropolys",
    "mode": "expert",
    "players": 3,
    "unused_districts": ["west"],
    "buildings": [
        {"player": 0, "field": 12, "value": 13},
        {"player": 0, "field": 17, "value": 9},
        {"player": 0, "field": 18, "value": 7},
        {"player": 0, "field": 23, "value": 4},
        {"player": 0, "field": 25, "value": 1},
        {"player": 1, "field": 3, "value": 2},
        {"player": 1, "field": 2, "value": 5},
        {"player": 1, "field": 1, "value": 11},
        {"player": 2, "field": 33, "value": 12},
        {"player": 2, "field": 14, "value": 8},
    ],
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
    # P0: chic 3, metro 2, metro card 3; one chain (17-18-23, 25 makes no second), gray 17
    # and 25, the north's highest building.
    assert p0["breakdown"] == {
        "chic": 3, "metro": 2, "metro_card": 3, "archaeology": 0, "archaeology_card": 0,
        "area": 4, "neighbourhood": 4, "highest": 5,
    }  # fmt: skip
    # P1: three buildings round the upper center lake, red 2, and the center's highest (a
    # large one and two more beat P0's single large one).
    assert p1["breakdown"]["archaeology"] == -1 and p1["breakdown"]["archaeology_card"] == -2
    assert (p1["breakdown"]["area"], p1["breakdown"]["highest"]) == (5, 5)
    assert p1["total"] == 1 - 1 - 2 + 5 + 2 + 5
    # P2: the bridge 14-33, blue 33, the east's highest.
    assert (p2["total"], p2["built"]) == (11, 2)
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


def position(**change: Any) -> dict[str, Any]:
    """The formats example with whole keys replaced."""
    return {**copy.deepcopy(FORMATS_EXAMPLE), **change}


def built(*owned: tuple[int, list[int]]) -> list[dict[str, int]]:
    """Buildings: for each (player, fields), one building a field, values 1, 2, ..."""
    return [
        {"player": p, "field": f, "value": v}
        for p, fields in owned
        for v, f in enumerate(fields, start=1)
    ]


NONE = {"chic": 0, "metro": 0, "archaeology": 0}

#: Positions no game can reach, each with the rule it breaks.
IMPOSSIBLE = [
    # formats.md's example until it was fixed: 3 tokens from a single building
    (
        position(
            buildings=[
                {"player": 0, "field": 12, "value": 13},
                {"player": 1, "field": 3, "value": 2},
            ]
        ),
        "player 0 holds 3 tokens, but their 1 building can have collected at most 1",
    ),
    # dead ends never hold a token
    (
        position(
            buildings=built((0, [12, 17, 18]), (1, [3, 2]), (2, [11, 28])),
            tokens=[
                {"chic": 1, "metro": 2, "archaeology": 0},
                {"chic": 0, "metro": 1, "archaeology": 1},
                {"chic": 1, "metro": 0, "archaeology": 0},
            ],
        ),
        "player 2 holds 1 token, but their 2 buildings can have collected at most 0: .*dead end",
    ),
    # the north holds 5 tokens: two players' 8 buildings there cannot have collected 8
    (
        position(
            buildings=built((0, [15, 16, 17, 18]), (1, [19, 20, 22, 23]), (2, [33])),
            tokens=[
                {"chic": 2, "metro": 2, "archaeology": 0},
                {"chic": 1, "metro": 1, "archaeology": 2},
                NONE,
            ],
        ),
        "players 0 and 1 hold 8 tokens, but their 8 buildings can have collected at most 5",
    ),
    (mutate("metro_card", 1), "player 1 holds the metro card with 1 metro token, but player 0"),
    (mutate("metro_card", None), "nobody holds the metro card, but metro tokens were taken"),
    (
        position(tokens=[{"chic": 1}, {"archaeology": 1}, NONE]),
        "player 0 holds the metro card, but nobody holds a metro token",
    ),
    (mutate("archaeology_card", None), "nobody holds the archaeology card, but archaeology"),
    (mutate("archaeology_card", 2), "player 2 holds the archaeology card without an archaeology"),
    (
        position(
            players=2,
            unused_districts=["south", "west"],
            buildings=built(
                (0, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
                (1, [13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]),
            ),
            tokens=[NONE, NONE],
            metro_card=None,
            archaeology_card=None,
            area_cards=["chains", "lakes"],
            neighbourhood_cards=["gray", "red"],
        ),
        "players 0 and 1 have each built all 13 buildings, but the game ends",
    ),
]


@pytest.mark.parametrize(("data", "message"), IMPOSSIBLE)
def test_positions_no_game_reaches_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        GAME.score_file(data)


def test_the_checks_allow_what_games_reach() -> None:
    """At the edges of each rule: as many tokens as buildings, a metro card kept on a tie,
    the archaeology card with a player holding fewer archaeology tokens than another, one
    player with all 13 buildings."""
    tie = position(
        tokens=[
            {"chic": 1, "metro": 1, "archaeology": 0},
            {"chic": 0, "metro": 1, "archaeology": 1},
            {"chic": 0, "metro": 0, "archaeology": 2},
        ]
    )
    assert GAME.score_file(tie)["players"][0]["breakdown"]["metro_card"] == 3
    full = position(
        buildings=built((0, [0, 2, 4, 5, 6, 7, 8, 15, 16, 17, 18, 19, 25]), (1, [27]), (2, [33])),
        tokens=[
            {"chic": 7, "metro": 2, "archaeology": 4},
            {"chic": 0, "metro": 1, "archaeology": 0},
            NONE,
        ],
        archaeology_card=0,
    )
    assert GAME.score_file(full)["players"][0]["built"] == 13


def as_file(pos: Any) -> dict[str, Any]:
    """An :class:`EndPosition` as the formats §2.2 file."""
    data: dict[str, Any] = {
        "game": "metropolys",
        "mode": pos.mode,
        "players": pos.players,
        "unused_districts": sorted(DISTRICTS[d] for d in pos.unused),
        "buildings": [
            {"player": p, "field": f, "value": v}
            for p, owned in enumerate(pos.buildings)
            for f, v in owned
        ],
        "tokens": [dict(zip(TOKENS, t, strict=True)) for t in pos.tokens],
        "metro_card": pos.metro_card,
        "archaeology_card": pos.archaeology_card,
        "area_cards": list(pos.area_cards),
    }
    if pos.neighbourhood_cards is not None:
        data["neighbourhood_cards"] = list(pos.neighbourhood_cards)
    return data


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["family", "expert"])
def test_every_position_of_a_game_passes_the_checks(mode: str, players: int) -> None:
    """What games reach is never refused: the position after every move of random games
    (six seeds, every player count, both versions)."""
    for seed in range(6):
        state = GAME.new_game(mode, players, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(state.random_move(rng))
            report = GAME.score_file(as_file(state.end_position()))
            assert len(report["players"]) == players


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
