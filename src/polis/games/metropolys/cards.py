"""Secret objective cards and their points.

Kept apart from the engine so the scorer, the set-up and ``determinize`` agree on exactly
which cards exist in each version and player count.
"""

from __future__ import annotations

from typing import Final

from polis.games.metropolys.board import COLOURS

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
