"""Scoring tables of spec §10-§12 (index = floors, customers, districts, run length ...).

Classic tables are prefixes of the Expert ones, so one table serves both modes.
"""

from __future__ import annotations

#: §10/§12 Tower Block VP by floors.
TOWER = (0, 1, 3, 6, 10, 15)
#: Shop VP by customers (Classic stops at 4, Expert at 5).
SHOP = (0, 1, 2, 4, 7, 11)
#: Public Services by number of districts holding one.
PUBLIC = (0, 2, 5, 9, 14, 20)
#: Park VP by adjacent Tower Blocks (Expert: and Office Towers).
PARK = (0, 2, 4, 7, 11)
#: Harbour line by length of the longest unbroken run.
HARBOR_RUN = (0, 0, 3, 7, 12, 18)
#: Office Tower VP per tower: OFFICE[group size][floors] (group size capped, A14).
OFFICE = (
    (0, 0, 0, 0, 0, 0),
    (0, 0, 1, 3, 6, 10),
    (0, 1, 3, 6, 10, 15),
    (0, 2, 5, 9, 14, 20),
    (0, 3, 7, 12, 18, 25),
    (0, 4, 9, 15, 22, 30),
)
#: Monument VP per adjacent activated building (§12, A15); kinds absent score 0.
MONUMENT = {"F": -5, "H": -5, "U": 2, "S": 3, "P": 5, "p": 5}
#: Factory VP per adjacent activated building.
FACTORY = {"S": 2, "H": 3, "O": 4}

#: The ten categories of a score report, in formats.md §1.3 order.
CATEGORIES = (
    "tower_blocks",
    "shops",
    "public_services",
    "parks",
    "factories",
    "harbors",
    "office_towers",
    "monuments",
    "inhabitants_penalty",
    "energy_penalty",
)
