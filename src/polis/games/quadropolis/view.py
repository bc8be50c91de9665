"""What a player (or a spectator) may know of a Quadropolis game: :class:`QuadropolisView`.

Nothing hidden is ever in it: a face-down tile shows only its back (``"#2 Classic"``) and
future rounds are absent, although the set-up fixes both. Quadropolis has no private
information, so ``view(p)`` differs from ``view(None)`` only in ``player``. The view holds
plain numbers (tile indices, packed city squares, the move objects); ``to_json`` writes its
JSON only where the view leaves the process.

The JSON's keys, their types and what each means are :class:`QuadropolisViewJSON`
(:mod:`polis.games.quadropolis.view_json`): ``game``, ``mode``, ``players``, ``player``,
``current_player`` (-1 when over) and ``moves`` (the protocol's keys); ``options``;
``round``, ``rounds``, ``turn``, ``action``, ``finished``; ``starting_player``,
``first_player``, ``mayor``; ``site`` (25 squares: empty, face-down with its back, face-up
with its tile), ``spots`` (20), ``urbanist``; ``architects`` (Classic) or ``pool``
(Expert); ``cities``, ``inhabitants``, ``energy``, ``discarded``, ``running_score`` (each city's
score as it stands: the exact scorer, public like the cities), ``public_rounds``; and
``result`` once the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from polis.core.result import GameResult
from polis.core.view import TERMINAL, View
from polis.games.quadropolis.city import City, city_rows
from polis.games.quadropolis.moves import QuadropolisMove
from polis.games.quadropolis.options import Options
from polis.games.quadropolis.site import (
    BLOCKED,
    GEOMETRY,
    N_SPOTS,
    SELECT,
    SPOT_NAMES,
    site_square_name,
)
from polis.games.quadropolis.tiles import TILES, tile_json
from polis.games.quadropolis.view_json import (
    CityJSON,
    CitySquareJSON,
    QuadropolisRunningScoreJSON,
    QuadropolisViewJSON,
    SiteSquareJSON,
    SpotJSON,
)

if TYPE_CHECKING:
    from polis.games.quadropolis.state import QuadropolisState

#: ``site`` entries that are not a face-up tile.
EMPTY = -1
FACE_DOWN = -2


@dataclass(frozen=True, slots=True)
class QuadropolisView(View):
    """One seat's (or a spectator's) information state; see the module docstring."""

    game: ClassVar[str] = "quadropolis"

    mode: str
    players: int
    player: int | None
    current_player: int
    moves: tuple[QuadropolisMove, ...]
    options: Options
    #: 1-based round (the last round's number once over) and the mode's number of rounds.
    round: int
    rounds: int
    #: Actions taken this round (4 * players once over).
    action: int
    starting_player: int
    first_player: int
    mayor: int
    #: 25 site squares: a face-up tile's index, EMPTY or FACE_DOWN.
    site: tuple[int, ...]
    #: 25 site squares: the back of a face-down tile, else None.
    backs: tuple[str | None, ...]
    #: 20 spots: 0 free, else architect + 8 * player.
    spots: tuple[int, ...]
    #: The Urbanist's site square, -1 beside the board.
    urbanist: int
    #: Classic: per player, bit k set = architect k used this round; Expert: ().
    used: tuple[int, ...]
    #: Expert: architects left of each number (index 1-5); Classic: ().
    pool: tuple[int, ...]
    #: players x city size squares: kind << 3 | floors (0 empty).
    cells: tuple[int, ...]
    #: Tile indices built on each city square, bottom first.
    stacks: tuple[tuple[int, ...], ...]
    inhabitants: tuple[int, ...]
    energy: tuple[int, ...]
    discarded: tuple[int, ...]
    #: Per round started, the layout as dealt: tile index, or FACE_DOWN.
    public_rounds: tuple[tuple[int, ...], ...]
    result: GameResult | None

    # -- derived facts -----------------------------------------------------------------------
    @property
    def turn(self) -> int:
        """1-based turn within the round (1-4)."""
        return 4 if self.finished else self.action // self.players + 1

    def city(self, player: int) -> City:
        """The player's city as the scorer's tuple."""
        from polis.games.quadropolis.state import city_of

        return city_of(self.cells, self.stacks, player, GEOMETRY[self.mode].size)

    def architects(self, player: int) -> list[int]:
        """Classic: the player's architects not used this round."""
        return [k for k in range(1, 5) if not self.used[player] >> k & 1]

    def offer(self, architect: int, spot: int) -> int:
        """The face-up tile ``architect`` at ``spot`` would take, or EMPTY / FACE_DOWN."""
        return self.site[SELECT[spot][architect]]

    def blocked(self, spot: int) -> bool:
        """Does the Urbanist block ``spot``?"""
        return bool(BLOCKED[self.urbanist] >> spot & 1)

    # -- JSON --------------------------------------------------------------------------------
    def to_json(self) -> QuadropolisViewJSON:
        n = self.players
        site: list[SiteSquareJSON] = []
        for q, t in enumerate(self.site):
            name = site_square_name(q)
            if t >= 0:
                site.append({"square": name, "state": "face-up", "tile": tile_json(t)})
            elif t == FACE_DOWN:
                site.append({"square": name, "state": "face-down", "back": self.backs[q]})
            else:
                site.append({"square": name, "state": "empty"})
        spots: list[SpotJSON] = []
        for s in range(N_SPOTS):
            v = self.spots[s]
            spots.append(
                {
                    "spot": SPOT_NAMES[s],
                    "architect": v % 8 if v else None,
                    "player": v // 8 if v else None,
                    "selects": site_square_name(SELECT[s][v % 8]) if v else None,
                    "blocked": self.blocked(s),
                }
            )
        names = GEOMETRY[self.mode].names
        size = len(names)
        cities: list[CityJSON] = []
        city_tuples: list[City] = []
        for p in range(n):
            city = self.city(p)
            city_tuples.append(city)
            squares: list[CitySquareJSON | None] = []
            for q, b in enumerate(city):
                if b is None:
                    squares.append(None)
                    continue
                squares.append(
                    {
                        "square": names[q],
                        "code": b.code,
                        "floors": b.floors,
                        "tiles": [TILES[t].id for t in self.stacks[p * size + q]],
                    }
                )
            cities.append({"rows": city_rows(self.mode, city), "squares": squares})
        expert = self.mode == "expert"
        out: QuadropolisViewJSON = {
            "game": "quadropolis",
            "mode": self.mode,
            "players": n,
            "player": self.player,
            "current_player": self.current_player,
            "moves": [m.text for m in self.moves],
            "options": self.options.to_json(),
            "round": self.round,
            "rounds": self.rounds,
            "turn": self.turn,
            "action": self.action,
            "finished": self.finished,
            "starting_player": self.starting_player,
            "first_player": self.first_player,
            "mayor": self.mayor,
            "site": site,
            "spots": spots,
            "urbanist": site_square_name(self.urbanist) if self.urbanist >= 0 else None,
            "architects": None if expert else [self.architects(p) for p in range(n)],
            "pool": {str(k): self.pool[k] for k in range(1, 6)} if expert else None,
            "cities": cities,
            "inhabitants": list(self.inhabitants),
            "energy": list(self.energy),
            "discarded": [TILES[t].id for t in self.discarded],
            "running_score": self._running_score(city_tuples),
            "public_rounds": [
                [TILES[t].id if t >= 0 else None for t in layout] for layout in self.public_rounds
            ],
        }
        if self.result is not None:
            out["result"] = self.result.to_json()
        return out

    def _running_score(self, cities: list[City]) -> list[QuadropolisRunningScoreJSON]:
        """Each city's score as it stands (the exact scorer, cached per city)."""
        from polis.games.quadropolis.scoring import running_reports

        resources = list(zip(self.inhabitants, self.energy, strict=True))
        reports = running_reports(self.mode, cities, resources, self.options.scoring)
        return [r.running_json() for r in reports]


def view_of(state: QuadropolisState, player: int | None) -> QuadropolisView:
    """The view of ``player`` (``None``: spectator): a few tuple copies of the state."""
    setup = state.setup_data
    n = setup.players
    finished = state._current == TERMINAL
    layouts, backs = state.public_layouts()
    up = state._face_up
    expert = state._expert
    return QuadropolisView(
        mode=setup.mode,
        players=n,
        player=player,
        current_player=state._current,
        moves=tuple(state._moves),
        options=state._options,
        round=state.round_number,
        rounds=len(setup.rounds),
        action=4 * n if finished else state._turn,
        starting_player=setup.first_player,
        first_player=state._first,
        mayor=state._mayor,
        site=tuple([t if t < 0 or up[t] else FACE_DOWN for t in state._site]),
        backs=backs,
        spots=tuple(state._spots),
        urbanist=state._urbanist,
        used=() if expert else tuple(state._used),
        pool=tuple(state._pool) if expert else (),
        cells=tuple(state._cells),
        stacks=tuple(state._stacks),
        inhabitants=tuple(state._inhabitants),
        energy=tuple(state._energy),
        discarded=tuple(state._discards),
        public_rounds=layouts,
        result=state.result() if finished else None,
    )


__all__ = ["EMPTY", "FACE_DOWN", "QuadropolisView", "view_of"]
