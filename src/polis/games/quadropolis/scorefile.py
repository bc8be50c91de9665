"""City files (formats §1.2), the input of ``polis score``: validated, then scored exactly.

A file typed by a person gets every check that can be made on the file itself, each failure
an InputError naming what is wrong and the rule. A city must be one a game can end with: no
more tiles of a kind than the mode's box holds (each floor of a stack is a tile), no more
tiles than its player could take (4 a round), and no more inhabitants and energy than the
best tiles of the box can give (§5.5). That also bounds the work of the scorer by what the
game can produce.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import Any

from polis.core.errors import InputError
from polis.games.quadropolis.city import MODES, City, parse_city
from polis.games.quadropolis.scoring import score_city
from polis.games.quadropolis.tiles import KIND_CODES, KIND_NAMES, POOLS, ROUNDS, TILES

#: Turns of each player in a round (rules §2): a city gains at most this many tiles a round.
TURNS_PER_ROUND = 4

#: Tiles of a mode's box that can make one kind of building: (cell letter, printed VP).
Group = tuple[str, int]


@cache
def box(mode: str) -> dict[Group, tuple[tuple[int, int], ...]]:
    """The mode's tiles (all of its round pools) by building, each as the resources it gives."""
    groups: dict[Group, list[tuple[int, int]]] = {}
    for pool in POOLS[mode]:
        for index in pool:
            t = TILES[index]
            groups.setdefault((t.code, t.vp), []).append((t.inhabitants, t.energy))
    return {group: tuple(sorted(gives)) for group, gives in groups.items()}


@cache
def most_resources(mode: str) -> tuple[int, int]:
    """The most inhabitants, and the most energy, any city of ``mode`` can own: what the
    best tiles of the box give, as many tiles as a player takes in a game."""
    turns = TURNS_PER_ROUND * ROUNDS[mode]
    gives = [g for tiles in box(mode).values() for g in tiles]
    return (
        sum(sorted((i for i, _ in gives), reverse=True)[:turns]),
        sum(sorted((e for _, e in gives), reverse=True)[:turns]),
    )


def _tile_word(group: Group) -> str:
    code, vp = group
    name = KIND_NAMES[KIND_CODES.index(code)]
    return f"{name} tiles" + (f" showing {vp} VP" if vp else "")


def check_box(mode: str, city: City, inhabitants: int, energy: int) -> None:
    """InputError, naming the rule, unless some game of ``mode`` can end with this city."""
    name = mode.capitalize()
    tiles: Counter[Group] = Counter()
    for b in city:
        if b is not None:
            tiles[b.kind, b.vp] += b.floors  # each floor of a stack is a tile
    held = box(mode)
    for group, n in sorted(tiles.items()):
        have = len(held.get(group, ()))
        if n > have:
            floors = "each floor of a stack is a tile; " if group[0] in "TO" else ""
            raise InputError(
                f"this city holds {n} {_tile_word(group)}, but the {name} box has only {have}"
                f" ({floors}rules §1, tiles.json)"
            )
    turns = TURNS_PER_ROUND * ROUNDS[mode]
    total = sum(tiles.values())
    if total > turns:
        raise InputError(
            f"this city holds {total} tiles, but a player takes at most {turns} in a {name} game"
            f" ({TURNS_PER_ROUND} turns in each of {ROUNDS[mode]} rounds; each floor of a stack"
            " is a tile; rules §2)"
        )
    # The bound is the box's, not the city's own tiles': formats.md's example city owns more
    # energy than its Factory gives, and that file must keep scoring.
    most_inh, most_en = most_resources(mode)
    rule = f"inhabitants and energy come only from the tiles taken, at most {turns}; rules §5.5"
    if inhabitants > most_inh:
        raise InputError(
            f"'inhabitants' is {inhabitants}, but no {name} city owns more than {most_inh} ({rule})"
        )
    if energy > most_en:
        raise InputError(
            f"'energy' is {energy}, but no {name} city owns more than {most_en} ({rule})"
        )


def _count(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InputError(f"{key!r} must be a whole number of at least 0 (got {value!r})")
    return value


def load_city_file(data: Mapping[str, Any]) -> tuple[str, City, int, int]:
    """A formats.md §1.2 city file -> ``(mode, city, inhabitants, energy)``."""
    if not isinstance(data, Mapping):
        raise InputError("a city file is a JSON object (formats §1.2)")
    game = data.get("game", "quadropolis")
    if game != "quadropolis":
        raise InputError(f"not a Quadropolis city file (game = {game!r})")
    mode = data.get("mode")
    if mode not in MODES:
        raise InputError(f"'mode' must be 'classic' or 'expert' (got {mode!r})")
    if "city" not in data:
        raise InputError("a city file needs 'city': the list of rows (formats §1.2)")
    city = parse_city(mode, data["city"])
    inhabitants, energy = _count(data, "inhabitants"), _count(data, "energy")
    check_box(mode, city, inhabitants, energy)
    return mode, city, inhabitants, energy


_OPTION_KEYS = {
    "playground_absorbs_pollution": bool,
    "office_tower_group_cap": int,
    "empty_squares_tie_break": str,
}


def score_file(data: Mapping[str, Any]) -> dict[str, Any]:
    """``polis score`` for a formats.md §1.2 city file: the §1.3 report.

    An optional ``options`` object may name the rule resolutions (A10, A14, A19).
    """
    mode, city, inh, en = load_city_file(data)
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise InputError("'options' must be an object")
    for key, value in options.items():
        kind = _OPTION_KEYS.get(key)
        if kind is None or not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise InputError(f"unknown or malformed option {key!r}")
    tie = options.get("empty_squares_tie_break", "after_removal")
    if tie not in ("after_removal", "before_removal"):
        raise InputError("empty_squares_tie_break is 'after_removal' or 'before_removal'")
    report = score_city(
        mode,
        city,
        inh,
        en,
        playground_absorbs_pollution=options.get("playground_absorbs_pollution", False),
        office_tower_group_cap=options.get("office_tower_group_cap", 5),
        empty_squares_after_removal=tie == "after_removal",
    )
    return report.to_json()


__all__ = ["box", "check_box", "load_city_file", "most_resources", "score_file"]
