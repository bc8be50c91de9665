"""Set-ups (formats §3) and rules options: drawn from a seed or given explicitly, always validated.

A set-up fixes every chance outcome of a game: the first player and, per round, the 25 tile
ids on the construction site in row-major order. Face-up/face-down follows from the tiles'
player-count markings, so it is not part of the set-up.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from polis.core.errors import InputError
from polis.core.protocol import check_table
from polis.quadropolis.tiles import MODES, POOLS, ROUNDS, TILE_INDEX, TILES


@dataclass(frozen=True, slots=True)
class Options:
    """Named resolutions of uncertain rules (spec A5, A10, A14, A19)."""

    face_down_tiles: str = "empty"  # A5: "empty" | "unselectable"
    playground_absorbs_pollution: bool = False  # A10
    office_tower_group_cap: int = 5  # A14
    empty_squares_tie_break: str = "after_removal"  # A19: "after_removal" | "before_removal"

    def to_json(self) -> dict[str, Any]:
        return {
            "face_down_tiles": self.face_down_tiles,
            "playground_absorbs_pollution": self.playground_absorbs_pollution,
            "office_tower_group_cap": self.office_tower_group_cap,
            "empty_squares_tie_break": self.empty_squares_tie_break,
        }


_CHOICES = {
    "face_down_tiles": ("empty", "unselectable"),
    "empty_squares_tie_break": ("after_removal", "before_removal"),
}


def parse_options(options: Mapping[str, Any] | None) -> Options:
    """Validate a record's ``options`` (unknown names or values raise InputError)."""
    if options is None:
        return Options()
    if not isinstance(options, Mapping):
        raise InputError("options must be an object of option names and values")
    known = Options().to_json()
    for name, value in options.items():
        if name not in known:
            raise InputError(f"unknown Quadropolis option {name!r} (known: {', '.join(known)})")
        if name in _CHOICES:
            if value not in _CHOICES[name]:
                raise InputError(
                    f"option {name} must be one of {', '.join(_CHOICES[name])}, not {value!r}"
                )
        elif name == "playground_absorbs_pollution":
            if not isinstance(value, bool):
                raise InputError(f"option {name} must be true or false, not {value!r}")
        elif not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 5:
            raise InputError(f"option {name} must be a whole number from 1 to 5, not {value!r}")
    merged = {**known, **options}
    return Options(**merged)


def check_mode_players(mode: object, players: object) -> tuple[str, int]:
    """The mode and player count, or InputError."""
    return check_table("Quadropolis", MODES, mode, players)


def draw(mode: str, players: int, rng: random.Random) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Shuffle each round's pool (the bag, §3.1), then draw the first player (§3 step 7)."""
    rounds = []
    for pool in POOLS[mode]:
        order = list(pool)
        rng.shuffle(order)
        rounds.append(tuple(order))
    return rng.randrange(players), tuple(rounds)


def random_setup(mode: str, players: int, rng: random.Random) -> dict[str, Any]:
    """:func:`draw` as an explicit formats §3 set-up."""
    first, rounds = draw(mode, players, rng)
    return {"first_player": first, "rounds": [[TILES[i].id for i in r] for r in rounds]}


def parse_setup(
    mode: str, players: int, setup: Mapping[str, Any]
) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Validate an explicit set-up; returns (first player, per-round tile indices)."""
    if not isinstance(setup, Mapping):
        raise InputError("set-up must be an object with first_player and rounds")
    first = setup.get("first_player")
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players:
        raise InputError(
            f"set-up first_player must be a player number 0-{players - 1}, not {first!r}"
        )
    rounds = setup.get("rounds")
    n_rounds = ROUNDS[mode]
    if not isinstance(rounds, list) or len(rounds) != n_rounds:
        raise InputError(f"set-up rounds must list the {n_rounds} rounds of {mode} mode")
    out = []
    seen: set[str] = set()
    for r, layout in enumerate(rounds, start=1):
        if not isinstance(layout, list) or len(layout) != 25:
            raise InputError(f"set-up round {r} must list 25 tile ids (r1c1 .. r5c5)")
        row = []
        for tid in layout:
            if not isinstance(tid, str) or tid not in TILE_INDEX:
                raise InputError(f"set-up round {r}: unknown tile id {tid!r}")
            tile = TILES[TILE_INDEX[tid]]
            if tile.round != r:
                raise InputError(
                    f"set-up round {r}: tile {tid} has back {tile.back!r} and belongs to "
                    f"round {tile.round}"
                )
            if tile.mode not in ("both", mode):
                raise InputError(
                    f"set-up round {r}: tile {tid} has an {tile.mode.capitalize()} back "
                    f"and is not used in {mode} mode"
                )
            if tid in seen:
                raise InputError(f"set-up round {r}: tile {tid} appears twice")
            seen.add(tid)
            row.append(tile.index)
        out.append(tuple(row))
    return first, tuple(out)
