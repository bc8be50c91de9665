"""What a player (or a spectator) may know of a Quadropolis game: a JSON-able dict.

Nothing hidden is ever in it: face-down tiles show only their back (``"#2 Classic"``) and
future rounds are absent, although the set-up fixes both. Every player sees the same public
facts (Quadropolis has no private information), so ``view(p)`` differs from ``view(None)``
only in ``"player"``.

Keys (all always present unless noted):

``game``, ``mode``, ``players``, ``player``, ``current_player`` (-1 when over), ``moves``
    protocol keys; ``moves`` is the move history in notation (formats §1.4).
``options``
    the rules options in force (A5, A10, A14, A19).
``round``, ``rounds``, ``turn``, ``action``, ``finished``
    1-based round and its total; 1-based turn within the round (1-4); actions taken this
    round (0 .. 4*players-1; 4*players once over); whether the game is over.
``starting_player``, ``first_player``, ``mayor``
    first player of round 1 (set-up), first player of this round, holder of the Mayor pawn.
``site``
    25 squares r1c1..r5c5: ``{"square": "r1c1", "state": "empty"}``,
    ``{"square", "state": "face-down", "back": "#2"}`` or
    ``{"square", "state": "face-up", "tile": {id, type, code, variant, gives, vp, marking,
    mayor, back}}``.
``spots``
    20 spots L1..L5, R1..R5, T1..T5, B1..B5: ``{"spot", "architect", "player", "selects",
    "blocked"}``; architect/player/selects are null when free; ``player`` is the owner
    (Classic) or the taker (Expert); ``selects`` the site square the architect selected;
    ``blocked`` says the Urbanist blocks that spot.
``urbanist``
    the construction-site square of the Urbanist, or null when it is beside the board.
``architects``
    Classic: per player, the numbers of their architects not yet used this round; Expert: null.
``pool``
    Expert: ``{"1": count, ..., "5": count}`` of architects left in the common pool; Classic: null.
``cities``
    per player ``{"rows": [formats §1.2 row strings], "squares": [null or {"square", "code",
    "floors", "tiles": [tile ids, bottom first]}]}``.
``inhabitants``, ``energy``
    per player, resources gained so far.
``discarded``
    ids of discarded tiles, in order.
``public_rounds``
    per round started so far, the 25 ids of the layout as dealt, face-down squares as null
    (so a view alone suffices for :meth:`Game.determinize`).
``result``
    only when finished: the game's result object (formats §3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polis.quadropolis.city import city_rows
from polis.quadropolis.site import BLOCKED, N_SPOTS, SELECT, SPOT_NAMES, site_square_name
from polis.quadropolis.tiles import FACE_UP, TILES, tile_json

if TYPE_CHECKING:
    from polis.quadropolis.state import QuadropolisState


def build_view(state: QuadropolisState, player: int | None) -> dict[str, Any]:
    """The view of ``player`` (``None``: spectator); see the module docstring for the keys."""
    n = state._n
    up = FACE_UP[n]
    rounds = state._rounds
    finished = state._round >= len(rounds)
    site: list[dict[str, Any]] = []
    for q, t in enumerate(state._site):
        name = site_square_name(q)
        if t < 0:
            site.append({"square": name, "state": "empty"})
        elif up[t]:
            site.append({"square": name, "state": "face-up", "tile": tile_json(t)})
        else:
            site.append({"square": name, "state": "face-down", "back": TILES[t].back})
    blocked = BLOCKED[state._urb]
    spots = []
    for s in range(N_SPOTS):
        v = state._spots[s]
        spots.append(
            {
                "spot": SPOT_NAMES[s],
                "architect": v % 8 if v else None,
                "player": v // 8 if v else None,
                "selects": site_square_name(SELECT[s][v % 8]) if v else None,
                "blocked": bool(blocked >> s & 1),
            }
        )
    geo = state._geo
    cities = []
    for p in range(n):
        city = state.city(p)
        squares: list[dict[str, Any] | None] = []
        for q, b in enumerate(city):
            if b is None:
                squares.append(None)
                continue
            squares.append(
                {
                    "square": geo.names[q],
                    "code": b.code,
                    "floors": b.floors,
                    "tiles": [TILES[t].id for t in state.city_stack(p, q)],
                }
            )
        cities.append({"rows": city_rows(state._mode, city), "squares": squares})
    played = len(rounds) if finished else state._round + 1
    public_rounds = [[TILES[t].id if up[t] else None for t in rounds[r]] for r in range(played)]
    expert = state._mode == "expert"
    view: dict[str, Any] = {
        "game": "quadropolis",
        "mode": state._mode,
        "players": n,
        "player": player,
        "current_player": state.current_player(),
        "moves": list(state.history),
        "options": state.options(),
        "round": state.round_number,
        "rounds": len(rounds),
        "turn": 4 if finished else state._turn // n + 1,
        "action": 4 * n if finished else state._turn,
        "finished": finished,
        "starting_player": state._first0,
        "first_player": state._first,
        "mayor": state._mayor,
        "site": site,
        "spots": spots,
        "urbanist": site_square_name(state._urb) if state._urb >= 0 else None,
        "architects": None
        if expert
        else [[k for k in range(1, 5) if not state._used[p] >> k & 1] for p in range(n)],
        "pool": {str(k): state._pool[k] for k in range(1, 6)} if expert else None,
        "cities": cities,
        "inhabitants": list(state._inh),
        "energy": list(state._en),
        "discarded": [TILES[t].id for t in state._discards],
        "public_rounds": public_rounds,
    }
    if finished:
        view["result"] = state.game.result_json(state.result())
    return view
