"""The game's ``read_view`` part (:data:`polis.core.parts.READ_VIEW`): a
:class:`~polis.games.quadropolis.view.QuadropolisView` back from the JSON its ``to_json``
wrote.

A program that plays through the server's bot API (:mod:`polis.client`) gets its seat's view
as JSON only; its agents decide from the view object (and determinize from it), so it is
rebuilt here, equal to the view that wrote the JSON at every position in play. The JSON holds
only what the seat may see (a face-down tile's back, never its face; no future round), so
the view read holds nothing more. A finished game's ``result`` is not read back (no agent
moves then): it is None.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from polis.core.errors import InputError
from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.options import parse_options
from polis.games.quadropolis.site import GEOMETRY, N_SPOTS, site_square_name
from polis.games.quadropolis.tiles import KIND_CODES, TILE_INDEX
from polis.games.quadropolis.view import EMPTY, FACE_DOWN, QuadropolisView

#: Site squares, and each one's index by its name (``r1c1`` ...).
N_SQUARES = 25
SQUARE = {site_square_name(q): q for q in range(N_SQUARES)}


def read_view(data: Mapping[str, Any]) -> QuadropolisView:
    """The view ``data`` (a :class:`~polis.games.quadropolis.view_json.QuadropolisViewJSON`)
    was written from; InputError for JSON no Quadropolis view writes."""
    try:
        return _read(data)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise InputError(f"not the JSON of a Quadropolis view: {exc!r}") from None


def _tile(tile_id: str | None) -> int:
    return FACE_DOWN if tile_id is None else TILE_INDEX[tile_id]


def _read(data: Mapping[str, Any]) -> QuadropolisView:
    if data["game"] != "quadropolis":
        raise ValueError(f"the view of {data['game']!r}")
    mode = str(data["mode"])
    n = int(data["players"])
    space = GAME.action_space(mode)
    site: list[int] = []
    backs: list[str | None] = []
    for square in data["site"]:
        state = square["state"]
        if state == "face-up":
            site.append(TILE_INDEX[square["tile"]["id"]])
            backs.append(None)
        elif state == "face-down":
            site.append(FACE_DOWN)
            backs.append(square["back"])
        else:
            site.append(EMPTY)
            backs.append(None)
    if len(site) != N_SQUARES or len(data["spots"]) != N_SPOTS:
        raise ValueError("a site of 25 squares and 20 spots")
    spots = [
        0 if s["architect"] is None else s["architect"] + 8 * s["player"] for s in data["spots"]
    ]
    size = GEOMETRY[mode].size
    cells = [0] * (n * size)
    stacks: list[tuple[int, ...]] = [()] * (n * size)
    for p, city in enumerate(data["cities"]):
        for q, square in enumerate(city["squares"]):
            if square is None:
                continue
            cells[p * size + q] = KIND_CODES.index(square["code"][0]) << 3 | square["floors"]
            stacks[p * size + q] = tuple(TILE_INDEX[t] for t in square["tiles"])
    expert = mode == "expert"
    used: tuple[int, ...] = ()
    pool: tuple[int, ...] = ()
    if expert:
        pool = (0, *(data["pool"][str(k)] for k in range(1, 6)))
    else:
        free = data["architects"]
        used = tuple(sum(1 << k for k in range(1, 5) if k not in free[p]) for p in range(n))
    urbanist = data["urbanist"]
    return QuadropolisView(
        mode=mode,
        players=n,
        player=data["player"],
        current_player=data["current_player"],
        moves=tuple(space.parse(text) for text in data["moves"]),
        options=parse_options(data["options"]),
        round=data["round"],
        rounds=data["rounds"],
        action=data["action"],
        starting_player=data["starting_player"],
        first_player=data["first_player"],
        mayor=data["mayor"],
        site=tuple(site),
        backs=tuple(backs),
        spots=tuple(spots),
        urbanist=-1 if urbanist is None else SQUARE[urbanist],
        used=used,
        pool=pool,
        cells=tuple(cells),
        stacks=tuple(stacks),
        inhabitants=tuple(data["inhabitants"]),
        energy=tuple(data["energy"]),
        discarded=tuple(TILE_INDEX[t] for t in data["discarded"]),
        public_rounds=tuple(tuple(_tile(t) for t in layout) for layout in data["public_rounds"]),
        result=None,
    )


__all__ = ["read_view"]
