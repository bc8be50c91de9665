"""What one player may see: a JSON-able view with no other player's secret card in it.

Keys of a view (all JSON types):

* ``game`` ("metropolys"), ``mode``, ``players``, ``player`` (whose view; ``None`` = spectator),
  ``current_player`` (-1 once the game is over), ``terminal``, ``moves`` (public history, notation).
* ``first_player`` (opener of round 1), ``start_player`` (opener of the current round),
  ``unused_districts``, ``layout`` (the set-up's face-up token layout, field id string -> token),
  ``options`` (rules options in force).
* ``fields``: 55 entries ``{"id", "district", "colour", "in_play", "token", "building"}``;
  ``token`` is the token still lying there (or null), ``building`` is null or
  ``{"player", "value", "built"}`` (``built`` false = a bid of the current round).
* ``bid``: the current (last) bid ``{"field", "value", "player"}`` or null; ``bids``: every bid of
  this round in order; ``passed``: players out of this round.
* ``supplies``: each player's supply (values, ascending; public); ``built``: buildings built per
  player; ``tokens_collected``: per player ``{"chic", "metro", "archaeology"}``;
  ``metro_card`` / ``archaeology_card``: holder or null.
* ``area_card``, ``neighbourhood_card``: the viewing player's own secret cards (null for a
  spectator; ``neighbourhood_card`` null in Family). Nobody else's card ever appears.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polis.core.errors import InputError
from polis.metropolys.board import COLOUR, DISTRICT, DISTRICTS, NUM_FIELDS

if TYPE_CHECKING:
    from polis.metropolys.state import MetroState


def make_view(state: MetroState, player: int | None) -> dict[str, Any]:
    """The view of ``player`` (or of a spectator)."""
    n = state.num_players
    if player is not None and (isinstance(player, bool) or not 0 <= player < n):
        raise InputError(f"no player {player!r} in a {n}-player game")
    setup = state.setup_data
    public = setup.to_json()
    fields = []
    for f in range(NUM_FIELDS):
        b = state.building_at(f)
        fields.append(
            {
                "id": f,
                "district": DISTRICTS[DISTRICT[f]],
                "colour": COLOUR[f],
                "in_play": state.in_play(f),
                "token": state.token_at(f),
                "building": None if b is None else {"player": b[0], "value": b[1], "built": b[2]},
            }
        )
    bids = [{"field": f, "value": v, "player": p} for f, v, p in state.bids]
    own_area = own_colour = None
    if player is not None:
        own_area = setup.area_cards[player]
        if setup.neighbourhood_cards is not None:
            own_colour = setup.neighbourhood_cards[player]
    return {
        "game": "metropolys",
        "mode": state.mode,
        "players": n,
        "player": player,
        "current_player": state.current_player(),
        "terminal": state.is_terminal(),
        "moves": list(state.history),
        "first_player": setup.first_player,
        "start_player": state.start_player,
        "unused_districts": list(setup.unused),
        "layout": public["tokens"],
        "options": state.options(),
        "fields": fields,
        "bid": bids[-1] if bids else None,
        "bids": bids,
        "passed": list(state.passed),
        "supplies": [list(state.supply(p)) for p in range(n)],
        "built": [state.built_count(p) for p in range(n)],
        "tokens_collected": [state.collected(p) for p in range(n)],
        "metro_card": state.metro_card,
        "archaeology_card": state.archaeology_card,
        "area_card": own_area,
        "neighbourhood_card": own_colour,
    }
