"""The game's ``read_view`` part (:data:`polis.core.parts.READ_VIEW`): a
:class:`~polis.games.metropolys.view.MetropolysView` back from the JSON its ``to_json`` wrote.

A program that plays through the server's bot API (:mod:`polis.client`) gets its seat's view
as JSON only; its agents decide from the view object (and determinize from it), so it is
rebuilt here, equal to the view that wrote the JSON at every position in play. The JSON holds
only what the seat may see, so the view read holds nothing more. A finished game's ``result``
is not read back (no agent moves then): it is None.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from polis.core.errors import InputError
from polis.games.metropolys.board import NUM_FIELDS, TOKENS
from polis.games.metropolys.game import GAME
from polis.games.metropolys.options import parse_options
from polis.games.metropolys.view import MetropolysView

#: Token name -> token code (0: none).
CODE = {name: code for code, name in enumerate(TOKENS, start=1)}


def read_view(data: Mapping[str, Any]) -> MetropolysView:
    """The view ``data`` (a :class:`~polis.games.metropolys.view_json.MetropolysViewJSON`)
    was written from; InputError for JSON no Metropolys view writes."""
    try:
        return _read(data)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise InputError(f"not the JSON of a Metropolys view: {exc!r}") from None


def _read(data: Mapping[str, Any]) -> MetropolysView:
    if data["game"] != "metropolys":
        raise ValueError(f"the view of {data['game']!r}")
    mode = str(data["mode"])
    n = int(data["players"])
    space = GAME.action_space(mode)
    fields = data["fields"]
    if len(fields) != NUM_FIELDS:
        raise ValueError(f"{len(fields)} fields")
    cells: list[int] = []
    tokens: list[int] = []
    for f in fields:
        building = f["building"]
        if not f["in_play"]:
            cells.append(-2)
        elif building is None:
            cells.append(-1)
        else:
            cells.append(building["player"] * 16 + building["value"])
        tokens.append(CODE[f["token"]] if f["token"] else 0)
    layout = [0] * NUM_FIELDS
    for field, name in data["layout"].items():
        layout[int(field)] = CODE[name]
    collected = [0] * (4 * n)
    for p, got in enumerate(data["tokens_collected"]):
        for name, code in CODE.items():
            collected[p * 4 + code] = got[name]
    cards = data.get("cards")
    return MetropolysView(
        mode=mode,
        players=n,
        player=data["player"],
        current_player=data["current_player"],
        moves=tuple(space.parse(text) for text in data["moves"]),
        options=parse_options(data["options"]),
        first_player=data["first_player"],
        start_player=data["start_player"],
        unused_districts=tuple(data["unused_districts"]),
        layout=tuple(layout),
        cells=tuple(cells),
        tokens=tuple(tokens),
        bids=tuple(bid["field"] for bid in data["bids"]),
        passed=sum(1 << p for p in data["passed"]),
        supplies=tuple(sum(1 << v for v in supply) for supply in data["supplies"]),
        built=tuple(data["built"]),
        collected=tuple(collected),
        metro_card=-1 if data["metro_card"] is None else data["metro_card"],
        archaeology_card=-1 if data["archaeology_card"] is None else data["archaeology_card"],
        area_card=data["area_card"],
        neighbourhood_card=data["neighbourhood_card"],
        revealed=None
        if cards is None
        else tuple((c["area_card"], c["neighbourhood_card"]) for c in cards),
        result=None,
    )


__all__ = ["read_view"]
