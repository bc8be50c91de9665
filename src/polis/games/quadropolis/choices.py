"""The legal moves as the web client's choices: architect, then spot, then target.

Built from the legal moves and the view only, so the client renders what exists and never
works out a rule or writes notation: every leaf carries the move to send back.
"""

from __future__ import annotations

from collections.abc import Sequence

from polis.games.quadropolis.city import geometry
from polis.games.quadropolis.moves import DISCARD, QuadropolisMove
from polis.games.quadropolis.site import SELECT, SPOT_NAMES, site_square_name
from polis.games.quadropolis.tiles import TILES
from polis.games.quadropolis.view import FACE_DOWN, QuadropolisView
from polis.games.quadropolis.view_json import ChoiceSpotJSON, QuadropolisChoicesJSON


def legal_choices(
    view: QuadropolisView, legal: Sequence[QuadropolisMove]
) -> QuadropolisChoicesJSON:
    """``{"architects": [{"architect", "spots": [{"spot", "square", "site", "tile",
    "targets": {square: move}, "discard", "nothing"}]}]}``.

    ``square`` is the site square the architect selects from that spot; ``site`` says what
    lies there (``face-up``, ``face-down`` or ``empty``) and ``tile`` is the face-up tile's
    id (the tile the move takes); ``targets`` maps each city square the tile may go to onto
    the move that builds it there; ``discard`` / ``nothing`` are the moves "x" / "-", or null.
    """
    names = geometry(view.mode).names
    architects: dict[int, list[ChoiceSpotJSON]] = {}
    entry: ChoiceSpotJSON | None = None
    placed = (0, -1)
    for move in legal:  # listed architect by architect, spot by spot
        if (move.architect, move.spot) != placed:
            placed = (move.architect, move.spot)
            q = SELECT[move.spot][move.architect]
            t = view.site[q]
            entry = {
                "spot": SPOT_NAMES[move.spot],
                "square": site_square_name(q),
                "site": "face-up" if t >= 0 else "face-down" if t == FACE_DOWN else "empty",
                "tile": TILES[t].id if t >= 0 else None,
                "targets": {},
                "discard": None,
                "nothing": None,
            }
            architects.setdefault(move.architect, []).append(entry)
        assert entry is not None
        target = move.target
        if target >= 0:
            entry["targets"][names[target]] = move.text
        elif target == DISCARD:
            entry["discard"] = move.text
        else:
            entry["nothing"] = move.text
    return {
        "architects": [{"architect": k, "spots": spots} for k, spots in sorted(architects.items())]
    }
