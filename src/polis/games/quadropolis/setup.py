"""Set-ups (formats §3): drawn from a seed or given explicitly, always validated.

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
from polis.games.quadropolis.tiles import POOLS, ROUNDS, TILE_INDEX, TILES


@dataclass(frozen=True, slots=True)
class Setup:
    """A complete, validated set-up: tile indices per round, row-major site squares."""

    mode: str
    players: int
    first_player: int
    rounds: tuple[tuple[int, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """The formats §3 ``setup`` object (every round's layout, hidden tiles included)."""
        return {
            "first_player": self.first_player,
            "rounds": [[TILES[i].id for i in layout] for layout in self.rounds],
        }


def draw(mode: str, players: int, rng: random.Random) -> Setup:
    """Shuffle each round's pool (the bag, §3.1), then draw the first player (§3 step 7)."""
    rounds = []
    for pool in POOLS[mode]:
        order = list(pool)
        rng.shuffle(order)
        rounds.append(tuple(order))
    return Setup(mode, players, rng.randrange(players), tuple(rounds))


def parse_setup(mode: str, players: int, setup: Mapping[str, Any]) -> Setup:
    """Validate an explicit set-up (InputError naming what is wrong)."""
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
    return Setup(mode, players, first, tuple(out))


def make_setup(
    mode: str, players: int, rng: random.Random, given: Mapping[str, Any] | None = None
) -> Setup:
    """The set-up: ``given`` validated, or (when None) drawn from ``rng``."""
    return draw(mode, players, rng) if given is None else parse_setup(mode, players, given)


__all__ = ["Setup", "draw", "make_setup", "parse_setup"]
