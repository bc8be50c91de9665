"""The Metropolys board as precomputed tuples, loaded once from ``data/board.json``.

Everything the engine and the scorer ask about the board in their hot paths is a tuple
indexed by field id (0-54) or a small integer code, so lookups never touch the JSON again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources
from typing import Any, Final

#: District names in id order; the district code of a field indexes this tuple.
DISTRICTS: Final = ("center", "north", "east", "south", "west")
PERIPHERAL: Final = DISTRICTS[1:]
#: Peripheral districts joined by bridges (the ring N-E-S-W); 2 players leave out one pair.
ADJACENT_PERIPHERAL_PAIRS: Final = (
    ("north", "east"),
    ("east", "south"),
    ("south", "west"),
    ("west", "north"),
)
COLOURS: Final = ("gray", "orange", "green", "red", "blue")
TOKENS: Final = ("chic", "metro", "archaeology")
#: Token codes on the board: 0 = none, 1 + index into TOKENS.
NO_TOKEN: Final = 0
CHIC: Final = 1
METRO: Final = 2
ARCHAEOLOGY: Final = 3

NUM_FIELDS: Final = 55
VALUES: Final = tuple(range(1, 14))
SMALL, MEDIUM, LARGE = 0, 1, 2
#: VALUES_OF[mask]: the building values held in a supply bit mask (bit v = value v), ascending.
VALUES_OF: Final = tuple(tuple(v for v in range(1, 14) if mask >> v & 1) for mask in range(1 << 14))
#: Size class of each building value (index 0 unused): small 1-5, medium 6-9, large 10-13.
SIZE_OF: Final = (-1,) + (SMALL,) * 5 + (MEDIUM,) * 4 + (LARGE,) * 4

#: Token types used and (centre, per peripheral district) counts per player count (§4).
TOKEN_COUNTS: Final = {
    4: {"chic": 9, "metro": 9, "archaeology": 9},
    3: {"chic": 8, "metro": 7, "archaeology": 7},
    2: {"chic": 5, "metro": 6, "archaeology": 6},
}
CENTER_TOKENS: Final = 7
PERIPHERAL_TOKENS: Final = 5


def _load() -> dict[str, Any]:
    text = resources.files("polis.games.metropolys").joinpath("data/board.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_DATA: Final = _load()
_FIELDS: Final = sorted(_DATA["fields"], key=lambda f: f["id"])
assert [f["id"] for f in _FIELDS] == list(range(NUM_FIELDS))

#: District code (index into DISTRICTS) of each field.
DISTRICT: Final = tuple(DISTRICTS.index(f["district"]) for f in _FIELDS)
#: Colour name of each field.
COLOUR: Final = tuple(str(f["color"]) for f in _FIELDS)
#: Type label of each field (display only, R21).
FIELD_TYPE: Final = tuple(str(f["type"]) for f in _FIELDS)
#: Land neighbours (shared border, same district).
NEIGHBORS: Final = tuple(tuple(sorted(f["neighbors"])) for f in _FIELDS)
#: Neighbours across a bridge (different district).
BRIDGE_NEIGHBORS: Final = tuple(tuple(sorted(f["bridge_neighbors"])) for f in _FIELDS)
#: Adjacency used for raises and for the Expert chains card: land or bridge.
ADJACENT: Final = tuple(
    tuple(sorted(set(a) | set(b))) for a, b in zip(NEIGHBORS, BRIDGE_NEIGHBORS, strict=True)
)
#: Bit mask of each field's adjacent fields.
ADJACENT_MASK: Final = tuple(sum(1 << g for g in adj) for adj in ADJACENT)
DEAD_ENDS: Final = frozenset(f["id"] for f in _FIELDS if f["dead_end"])
#: Fields whose outline touches the board edge (R17: field 51 included by default).
OUTSKIRTS: Final = frozenset(f["id"] for f in _FIELDS if f["outskirts"])
FIELD_51: Final = 51
#: Pixel anchors on the 795x553 reference image, for drawing.
POSITION: Final = tuple((int(f["pos"]["x_px"]), int(f["pos"]["y_px"])) for f in _FIELDS)
POSITION_PCT: Final = tuple((float(f["pos"]["x_pct"]), float(f["pos"]["y_pct"])) for f in _FIELDS)

#: Fields of each district, by district code.
DISTRICT_FIELDS: Final = tuple(
    tuple(i for i in range(NUM_FIELDS) if DISTRICT[i] == d) for d in range(len(DISTRICTS))
)

STATUE_IDS: Final = tuple(str(s["id"]) for s in _DATA["statues"])
STATUES: Final = tuple(tuple(sorted(s["fields"])) for s in _DATA["statues"])
LAKE_IDS: Final = tuple(str(lk["id"]) for lk in _DATA["lakes"])
LAKES: Final = tuple(tuple(sorted(lk["fields"])) for lk in _DATA["lakes"])
BRIDGE_IDS: Final = tuple(str(b["id"]) for b in _DATA["bridges"])
BRIDGES: Final = tuple(tuple(sorted(b["fields"])) for b in _DATA["bridges"])

#: Per field: does it touch a statue / lake / bridge end (Family cards count a field once).
ON_STATUE: Final = tuple(any(i in s for s in STATUES) for i in range(NUM_FIELDS))
ON_LAKE: Final = tuple(any(i in lk for lk in LAKES) for i in range(NUM_FIELDS))
ON_BRIDGE: Final = tuple(any(i in b for b in BRIDGES) for i in range(NUM_FIELDS))


def district_code(name: str) -> int:
    """Code of a district name (raises ``ValueError`` for an unknown name)."""
    return DISTRICTS.index(name)


def field_mask(fields: Iterable[int]) -> int:
    """Bit mask of an iterable of field ids."""
    mask = 0
    for f in fields:
        mask |= 1 << f
    return mask


#: Per district code, the fields that may hold a token (every field but the dead ends, R18).
TOKEN_FIELDS: Final = tuple(
    tuple(f for f in fields if f not in DEAD_ENDS) for fields in DISTRICT_FIELDS
)


def _feature(item: dict[str, Any]) -> dict[str, Any]:
    """A statue, lake or bridge for drawing: its id, its fields and its anchor point."""
    return {
        "id": item["id"],
        "fields": list(item["fields"]),
        "x": item["pos_px"]["x"],
        "y": item["pos_px"]["y"],
    }


def board_json() -> dict[str, Any]:
    """Static board geometry for drawing (a fresh JSON-able dict): fields with anchors,
    statues, lakes and bridges with their pixel positions on the 795x553 reference image."""
    return {
        "image_size": [795, 553],
        "districts": list(DISTRICTS),
        "fields": [
            {
                "id": f,
                "district": DISTRICTS[DISTRICT[f]],
                "colour": COLOUR[f],
                "type": FIELD_TYPE[f],
                "adjacent": list(ADJACENT[f]),
                "outskirts": f in OUTSKIRTS,
                "dead_end": f in DEAD_ENDS,
                "x": POSITION[f][0],
                "y": POSITION[f][1],
                "x_pct": POSITION_PCT[f][0],
                "y_pct": POSITION_PCT[f][1],
            }
            for f in range(NUM_FIELDS)
        ],
        "statues": [_feature(s) for s in _DATA["statues"]],
        "lakes": [_feature(lk) for lk in _DATA["lakes"]],
        "bridges": [_feature(b) for b in _DATA["bridges"]],
    }
