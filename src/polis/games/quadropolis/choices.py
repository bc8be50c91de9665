"""The legal moves as the web client's choices: architect, then spot, then target.

Built from the legal moves and the view only, so the client renders what exists and never
works out a rule or writes notation: every leaf carries the move to send back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from polis.games.quadropolis.moves import DISCARD, NOTHING, QuadropolisMove
from polis.games.quadropolis.site import SELECT, SPOT_NAMES, site_square_name
from polis.games.quadropolis.tiles import TILES
from polis.games.quadropolis.view import FACE_DOWN, QuadropolisView


def legal_choices(view: QuadropolisView, legal: Sequence[QuadropolisMove]) -> dict[str, Any]:
    """``{"architects": [{"architect", "spots": [{"spot", "square", "site", "tile",
    "targets": [{"square", "move"}], "discard", "nothing"}]}]}``.

    ``square`` is the site square the architect selects from that spot; ``site`` says what
    lies there (``face-up``, ``face-down`` or ``empty``) and ``tile`` is the face-up tile's
    id (the tile the move takes); ``discard`` / ``nothing`` are the moves "x" / "-", or null.
    """
    architects: dict[int, dict[tuple[int, int], dict[str, Any]]] = {}
    for move in legal:
        spots = architects.setdefault(move.architect, {})
        key = (move.architect, move.spot)
        entry = spots.get(key)
        if entry is None:
            q = SELECT[move.spot][move.architect]
            t = view.site[q]
            entry = spots[key] = {
                "spot": SPOT_NAMES[move.spot],
                "square": site_square_name(q),
                "site": "face-up" if t >= 0 else "face-down" if t == FACE_DOWN else "empty",
                "tile": TILES[t].id if t >= 0 else None,
                "targets": [],
                "discard": None,
                "nothing": None,
            }
        if move.target == DISCARD:
            entry["discard"] = move.text
        elif move.target == NOTHING:
            entry["nothing"] = move.text
        else:
            square = move.text.split(" ", 1)[1]
            entry["targets"].append({"square": square, "move": move.text})
    return {
        "architects": [
            {"architect": k, "spots": list(spots.values())}
            for k, spots in sorted(architects.items())
        ]
    }
