"""The 142 building tiles (``data/tiles.json``), loaded once, plus flat lookup tables.

The engine refers to a tile by its index into :data:`TILES` (an ``int``) so that states hold
only small integers; the stable string ids of ``tiles.json`` appear only at the edges
(set-ups, views, records).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from polis.games.quadropolis.view_json import TileJSON

#: Cell codes of formats §1.1 by tile type (parks split by variant).
TYPE_CODE = {
    "tower_block": "T",
    "office_tower": "O",
    "shop": "S",
    "public_service": "U",
    "park": "P",
    "factory": "F",
    "harbor": "H",
    "monument": "M",
}

#: Building kinds as small ints (0 = empty square); index into :data:`KIND_CODES`.
KIND_CODES = ".TOSUPpFHM"
KIND_NAMES = (
    "empty square",
    "Tower Block",
    "Office Tower",
    "Shop",
    "Public Service",
    "Park",
    "Playground",
    "Factory",
    "Harbor",
    "Monument",
)
TOWER = 1
OFFICE = 2

MODES = ("classic", "expert")
ROUNDS = {"classic": 4, "expert": 5}


@dataclass(frozen=True, slots=True)
class Tile:
    """One physical tile as printed (face and back)."""

    index: int
    id: str
    mode: str  # "both" | "classic" | "expert" (the back)
    back: str
    round: int
    type: str
    variant: str | None
    marking: str | None
    players: int  # minimum player count for which the tile is face-up
    inhabitants: int  # gives when built
    energy: int
    vp: int
    mayor: bool

    @property
    def code(self) -> str:
        """The formats §1.1 cell letter of the building this tile makes."""
        return "p" if self.variant == "playground" else TYPE_CODE[self.type]

    @property
    def kind(self) -> int:
        return KIND_CODES.index(self.code)


def _load() -> tuple[Tile, ...]:
    raw = json.loads(
        resources.files("polis.games.quadropolis").joinpath("data/tiles.json").read_text("utf-8")
    )
    return tuple(
        Tile(
            index=i,
            id=t["id"],
            mode=t["mode"],
            back=t["back"],
            round=t["round"],
            type=t["type"],
            variant=t["variant"],
            marking=t["marking"],
            players=t["players"],
            inhabitants=t["gives"]["inhabitants"],
            energy=t["gives"]["energy"],
            vp=t["vp"],
            mayor=bool(t["mayor"]),
        )
        for i, t in enumerate(raw["tiles"])
    )


TILES: tuple[Tile, ...] = _load()
TILE_INDEX: dict[str, int] = {t.id: t.index for t in TILES}

# Flat per-index tables for the hot path.
T_KIND: tuple[int, ...] = tuple(t.kind for t in TILES)
T_INH: tuple[int, ...] = tuple(t.inhabitants for t in TILES)
T_EN: tuple[int, ...] = tuple(t.energy for t in TILES)
T_MAYOR: tuple[bool, ...] = tuple(t.mayor for t in TILES)
#: FACE_UP[players][index]: is the tile turned face-up with that many players (§3.1)?
FACE_UP: dict[int, tuple[bool, ...]] = {n: tuple(t.players <= n for t in TILES) for n in (2, 3, 4)}


def round_pool(mode: str, round_no: int) -> tuple[int, ...]:
    """Indices of the 25 tiles of ``round_no`` (1-based) in ``mode``, in manifest order."""
    return tuple(t.index for t in TILES if t.round == round_no and t.mode in ("both", mode))


POOLS: dict[str, tuple[tuple[int, ...], ...]] = {
    mode: tuple(round_pool(mode, r) for r in range(1, ROUNDS[mode] + 1)) for mode in MODES
}


def tile_json(index: int) -> TileJSON:
    """A face-up tile as shown in views: everything printed on its face and back."""
    t = TILES[index]
    return {
        "id": t.id,
        "type": t.type,
        "code": t.code,
        "variant": t.variant,
        "gives": {"inhabitants": t.inhabitants, "energy": t.energy},
        "vp": t.vp,
        "marking": t.marking,
        "mayor": t.mayor,
        "back": t.back,
    }
