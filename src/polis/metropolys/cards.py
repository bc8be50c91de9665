"""Secret objective cards and the rules options that change scoring.

Kept apart from the engine so the scorer, the set-up and ``determinize`` agree on exactly
which cards exist in each version and player count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from polis.core.errors import InputError
from polis.metropolys.board import COLOURS

FAMILY_AREA_CARDS: Final = ("bridges", "statues", "lakes", "outskirts")
EXPERT_AREA_CARDS: Final = ("bridges", "statues", "lakes", "districts", "chains")
NEIGHBOURHOOD_CARDS: Final = COLOURS
#: Points per qualifying building (Family) or per group (Expert), spec §2.
FAMILY_AREA_POINTS: Final = 3
EXPERT_AREA_POINTS: Final = {"bridges": 4, "statues": 7, "lakes": 5, "districts": 4, "chains": 4}
NEIGHBOURHOOD_POINTS: Final = 2
METRO_CARD_POINTS: Final = 3
ARCHAEOLOGY_CARD_POINTS: Final = -2
HIGHEST_POINTS: Final = 5
#: Points of each token type, by token code (index 0 = no token).
TOKEN_POINTS: Final = (0, 3, 1, -1)

MODES: Final = ("family", "expert")


def area_deck(mode: str, players: int) -> tuple[str, ...]:
    """The area cards shuffled for this game: Family with 2 players removes ``outskirts``."""
    if mode == "expert":
        return EXPERT_AREA_CARDS
    if players == 2:
        return FAMILY_AREA_CARDS[:3]
    return FAMILY_AREA_CARDS


@dataclass(frozen=True, slots=True)
class Options:
    """Named resolutions of uncertain rules (spec §13), written into records with values."""

    #: R10: ``one_per_lake`` (default) or ``per_three`` (floor(n/3) groups per lake).
    lake_groups: str = "one_per_lake"
    #: R17: whether field 51 counts as outskirts (default true).
    field_51_outskirts: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"lake_groups": self.lake_groups, "field_51_outskirts": self.field_51_outskirts}


DEFAULT_OPTIONS: Final = Options()
LAKE_GROUPS: Final = ("one_per_lake", "per_three")


def parse_options(data: Mapping[str, Any] | None) -> Options:
    """Options from a record or request; unknown names or values raise InputError."""
    if data is None:
        return DEFAULT_OPTIONS
    if not isinstance(data, Mapping):
        raise InputError("options must be an object of option name -> value")
    lake_groups = DEFAULT_OPTIONS.lake_groups
    field_51 = DEFAULT_OPTIONS.field_51_outskirts
    for key, value in data.items():
        if key == "lake_groups":
            if value not in LAKE_GROUPS:
                raise InputError(
                    f"option lake_groups must be one of {', '.join(LAKE_GROUPS)}, not {value!r}"
                )
            lake_groups = value
        elif key == "field_51_outskirts":
            if not isinstance(value, bool):
                raise InputError(f"option field_51_outskirts must be true or false, not {value!r}")
            field_51 = value
        else:
            raise InputError(
                f"unknown Metropolys option {key!r} (known: lake_groups, field_51_outskirts)"
            )
    options = Options(lake_groups, field_51)
    return DEFAULT_OPTIONS if options == DEFAULT_OPTIONS else options
