"""The Quadropolis game state: rules §3-§8 of the spec on small lists of ints.

Hot path design: a tile is an int (index into :data:`~polis.games.quadropolis.tiles.TILES`),
a city square is ``kind << 3 | floors`` (0 = empty), spot occupancy is a bit mask, all
geometry comes from precomputed tables (:mod:`~polis.games.quadropolis.site`), and moves
are the interned objects of the mode's action space. ``clone`` copies a handful of short
lists; ``random_move`` draws an architect and a spot instead of listing every move;
``apply`` validates with table look-ups and raises :class:`IllegalMove` (naming the rule)
before touching anything. Events are worked out by :meth:`QuadropolisState.play` around
``apply``, so the hot path never builds them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from operator import itemgetter
from typing import Any, ClassVar, Self

from polis.core.errors import IllegalMove
from polis.core.events import Event
from polis.core.moves import MoveList
from polis.core.protocol import Game, GameState
from polis.core.result import GameResult
from polis.core.view import TERMINAL
from polis.games.quadropolis.city import Building, City
from polis.games.quadropolis.moves import (
    DISCARD,
    NOTHING,
    ROWS,
    SPACES,
    STRIDE,
    QuadropolisMove,
    parse_move,
)
from polis.games.quadropolis.options import Options
from polis.games.quadropolis.setup import Setup
from polis.games.quadropolis.site import (
    ARCHITECTS,
    BLOCKED,
    GEOMETRY,
    MAX_FLOORS,
    N_SPOTS,
    SELECT,
    SPOT_NAMES,
    site_square_name,
    site_square_words,
    spot_line,
)
from polis.games.quadropolis.tiles import (
    FACE_UP,
    KIND_CODES,
    KIND_NAMES,
    T_EN,
    T_INH,
    T_KIND,
    T_MAYOR,
    TILES,
)
from polis.games.quadropolis.view import QuadropolisView, view_of

#: _UNUSED[mask]: Classic architect numbers whose bit is not set in a player's used mask.
_UNUSED = tuple(tuple(k for k in range(1, 5) if not mask >> k & 1) for mask in range(32))

#: Free spots for a 10-bit half of the blocked/occupied mask (rows: spots 0-9, columns 10-19).
_FREE_LO = tuple(tuple(s for s in range(10) if not m >> s & 1) for m in range(1024))
_FREE_HI = tuple(tuple(s + 10 for s in range(10) if not m >> s & 1) for m in range(1024))

_SIDE_WORDS = ("left end of row", "right end of row", "top end of column", "bottom end of column")


def _spot_words(spot: int) -> str:
    return f"the {_SIDE_WORDS[spot // 5]} {spot % 5 + 1}"


class QuadropolisState(GameState):
    """One game of Quadropolis in progress (mutable; ``apply`` changes it in place)."""

    game: ClassVar[Game]

    __slots__ = (
        "_cells",
        "_current",
        "_discards",
        "_energy",
        "_expert",
        "_face_up",
        "_first",
        "_geometry",
        "_inhabitants",
        "_max_floors",
        "_mayor",
        "_mode",
        "_moves",
        "_occupied",
        "_options",
        "_players",
        "_pool",
        "_public",
        "_result",
        "_round",
        "_setup",
        "_site",
        "_size",
        "_space",
        "_spots",
        "_stacks",
        "_stride",
        "_turn",
        "_unselectable",
        "_urbanist",
        "_used",
    )

    def __init__(self, setup: Setup, options: Options) -> None:
        mode, players = setup.mode, setup.players
        # Immutable, shared between clones.
        self._setup = setup
        self._mode = mode
        self._players = players
        self._options = options
        self._geometry = GEOMETRY[mode]
        self._size = self._geometry.size
        self._expert = ARCHITECTS[mode] == 5
        self._max_floors = MAX_FLOORS[mode]
        self._face_up = FACE_UP[players]
        self._unselectable = options.face_down_tiles == "unselectable"
        self._space = SPACES[mode].moves
        self._stride = STRIDE[mode]
        # Mutable.
        self._round = 0  # 0-based; == number of rounds once the game is over
        self._turn = 0  # actions taken this round, 0 .. 4 * players - 1
        self._current = setup.first_player  # player to move, TERMINAL once the game is over
        self._first = setup.first_player
        self._mayor = setup.first_player
        self._site = list(setup.rounds[0])  # tile index per site square, -1 = empty
        self._spots = [0] * N_SPOTS  # 0 = free, else architect + 8 * player
        self._occupied = 0  # bit mask of occupied spots
        self._urbanist = -1  # Urbanist's site square, -1 = beside the board
        self._used = [0] * players  # Classic: bit k set = own architect k used this round
        self._pool = [0, *([players] * 5)] if self._expert else [0] * 6
        self._cells = [0] * (players * self._size)  # kind << 3 | floors
        self._stacks: list[tuple[int, ...]] = [()] * (players * self._size)
        self._inhabitants = [0] * players
        self._energy = [0] * players
        self._moves: list[QuadropolisMove] = []
        self._discards: list[int] = []
        self._result: GameResult | None = None
        #: (round, public layouts of the rounds started, backs of the current layout).
        self._public: tuple[int, tuple[tuple[int, ...], ...], tuple[str | None, ...]] | None
        self._public = None

    # -- who acts ---------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._players

    @property
    def mode(self) -> str:
        return self._mode

    def current_player(self) -> int:
        return self._current

    def is_terminal(self) -> bool:
        return self._current < 0

    # -- helpers ----------------------------------------------------------------------------
    def _architects(self, player: int) -> tuple[int, ...]:
        """Architect numbers the player may place now (§5.1)."""
        if self._expert:
            pool = self._pool
            return tuple(k for k in range(1, 6) if pool[k])
        return _UNUSED[self._used[player]]

    def _free_spots(self) -> tuple[int, ...]:
        """Spots neither occupied nor blocked by the Urbanist (§5.1)."""
        mask = self._occupied | BLOCKED[self._urbanist]
        return _FREE_LO[mask & 1023] + _FREE_HI[mask >> 10]

    def _targets(self, player: int, kind: int, k: int) -> list[int]:
        """City squares where architect ``k`` may put a tile of ``kind`` (§6.1-§6.3)."""
        cells = self._cells
        base = player * self._size
        if kind > 2:
            return [q for q in self._geometry.reach[k] if not cells[base + q]]
        out = []
        reach = self._geometry.reach_mask[k]
        max_floors = self._max_floors[kind]
        below = k - 1
        for q in range(self._size):
            c = cells[base + q]
            if c == 0:
                if reach >> q & 1:
                    out.append(q)
            elif c >> 3 == kind:
                f = c & 7
                if f < max_floors and (reach >> q & 1 or f == below):
                    out.append(q)
        return out

    def _selectable_faceup_exists(self, player: int) -> bool:
        """Under A5 "unselectable": can any architect/spot select a non-face-down square?"""
        site, up = self._site, self._face_up
        for k in self._architects(player):
            for s in self._free_spots():
                t = site[SELECT[s][k]]
                if t < 0 or up[t]:
                    return True
        return False

    # -- moves ------------------------------------------------------------------------------
    def legal_moves(self) -> MoveList[QuadropolisMove]:
        p = self._current
        if p == TERMINAL:
            return MoveList()
        site, up = self._site, self._face_up
        rows = ROWS[self._mode]
        discard = self._stride - 2
        free = self._free_spots()
        strict = self._unselectable and self._selectable_faceup_exists(p)
        # Every spot of one architect that selects the same kind offers the same squares:
        # pick them out of the spot's row of moves with one itemgetter per (kind, architect).
        pickers: dict[int, Callable[[tuple[QuadropolisMove, ...]], Any]] = {}
        out: list[QuadropolisMove] = []
        for k in self._architects(p):
            row_k = rows[k]
            for s in free:
                t = site[SELECT[s][k]]
                if t >= 0 and up[t]:
                    kind = T_KIND[t]
                    pick = pickers.get(kind)
                    if pick is None:
                        pick = pickers[kind] = itemgetter(
                            *self._targets(p, kind, k), discard, discard
                        )
                    out.extend(pick(row_k[s])[:-1])
                elif t < 0 or not strict:
                    out.append(row_k[s][discard + 1])
            pickers.clear()
        return MoveList(out)

    def random_move(self, rng: random.Random) -> QuadropolisMove:
        p = self._current
        if p < 0:
            raise IllegalMove("the game is over")
        rnd = rng.random
        site = self._site
        up = self._face_up
        mask = self._occupied | BLOCKED[self._urbanist]
        stride = self._stride
        for _ in range(8):
            # Rejection sampling: cheaper than listing architects and spots (a free spot and
            # an available architect always exist, §5.1 and A22).
            if self._expert:
                pool = self._pool
                k = 1 + int(rnd() * 5)
                while not pool[k]:
                    k = 1 + int(rnd() * 5)
            else:
                archs = _UNUSED[self._used[p]]
                k = archs[int(rnd() * len(archs))]
            free = _FREE_LO[mask & 1023] + _FREE_HI[mask >> 10]
            s = free[int(rnd() * len(free))]
            base = ((k - 1) * N_SPOTS + s) * stride
            t = site[SELECT[s][k]]
            if t >= 0 and up[t]:
                targets = self._targets(p, T_KIND[t], k)
                i = int(rnd() * (len(targets) + 1))
                return self._space[base + (targets[i] if i < len(targets) else stride - 2)]
            if t < 0 or not self._unselectable:
                return self._space[base + stride - 1]
        moves = self.legal_moves()
        return moves[int(rnd() * len(moves))]

    def apply(self, move: Any) -> None:
        if move.__class__ is not QuadropolisMove or move.mode != self._mode:
            raise IllegalMove(f"{move!r} is not a Quadropolis {self._mode} move")
        k: int = move.architect
        s: int = move.spot
        target: int = move.target
        p = self._current
        if p < 0:
            raise IllegalMove("the game is over: no more architects may be placed")
        expert = self._expert
        if expert:
            if not self._pool[k]:
                raise IllegalMove(f"no architect {k} is left in the pool", rule="quadropolis §5.1")
        elif self._used[p] >> k & 1:
            raise IllegalMove(f"architect {k} is already used this round", rule="quadropolis §5.1")
        bit = 1 << s
        if self._occupied & bit:
            raise IllegalMove(
                f"an architect already occupies {_spot_words(s)} this round",
                rule="quadropolis §5.1",
            )
        if BLOCKED[self._urbanist] & bit:
            raise IllegalMove(f"the Urbanist blocks {spot_line(s)}", rule="quadropolis §5.1")
        q = SELECT[s][k]
        t = self._site[q]
        taken = t >= 0 and self._face_up[t]
        kind = 0
        if not taken:
            if t >= 0 and self._unselectable and self._selectable_faceup_exists(p):
                raise IllegalMove(
                    f"architect {k} at {SPOT_NAMES[s]} would select the face-down tile in "
                    f"{site_square_words(q)}, and face-down tiles may not be selected",
                    rule="quadropolis A5",
                )
            if target != NOTHING:
                what = "is empty" if t < 0 else "holds a face-down tile, which is not in play"
                raise IllegalMove(
                    f"architect {k} at {SPOT_NAMES[s]} selects {site_square_words(q)}, "
                    f"which {what}: nothing is taken, so the target is -",
                    rule="quadropolis §5.2",
                )
        elif target == NOTHING:
            raise IllegalMove(
                f"architect {k} at {SPOT_NAMES[s]} takes the {KIND_NAMES[T_KIND[t]]} from "
                f"{site_square_words(q)}: build it in your city or discard it (x)",
                rule="quadropolis §5.4",
            )
        elif target != DISCARD:
            kind = T_KIND[t]
            self._check_build(p, kind, k, target)
        # -- the move is legal: change the state -------------------------------------------
        self._spots[s] = k + 8 * p
        self._occupied |= bit
        if expert:
            self._pool[k] -= 1
        else:
            self._used[p] |= 1 << k
        self._urbanist = q
        if taken:
            self._site[q] = -1
            if target == DISCARD:
                self._discards.append(t)
            else:
                i = p * self._size + target
                c = self._cells[i]
                self._cells[i] = c + 1 if c else kind << 3 | 1
                self._stacks[i] = (*self._stacks[i], t)
                self._inhabitants[p] += T_INH[t]
                self._energy[p] += T_EN[t]
                if T_MAYOR[t]:
                    self._mayor = p
        self._moves.append(move)
        turn = self._turn + 1
        if turn == 4 * self._players:
            self._end_round()
        else:
            self._turn = turn
            self._current = (self._first + turn) % self._players

    def _check_build(self, p: int, kind: int, k: int, target: int) -> None:
        """Raise IllegalMove unless a tile of ``kind`` may go on ``target`` (§6)."""
        geo = self._geometry
        name = geo.names[target]
        c = self._cells[p * geo.size + target]
        in_reach = geo.reach_mask[k] >> target & 1
        if c == 0:
            if not in_reach:
                raise IllegalMove(
                    f"architect {k} may build only {geo.where[k]}; {name} is not",
                    rule="quadropolis §6.1" if geo.size == 16 else "quadropolis §6.2",
                )
            return
        have = c >> 3
        if have != kind or kind > 2:
            why = ""
            if kind <= 2:
                why = f" (a {KIND_NAMES[kind]} may be stacked only on a {KIND_NAMES[kind]})"
            raise IllegalMove(
                f"square {name} of your city is already occupied by a {KIND_NAMES[have]}{why}",
                rule="quadropolis §6.3",
            )
        floors = c & 7
        if floors >= self._max_floors[kind]:
            raise IllegalMove(
                f"the {KIND_NAMES[kind]} on {name} already has {floors} floors, the maximum",
                rule="quadropolis §6.3",
            )
        if not in_reach and floors != k - 1:
            raise IllegalMove(
                f"architect {k} may add a floor only {geo.where[k]} or as floor {k}; "
                f"the new floor on {name} would be floor {floors + 1}",
                rule="quadropolis §6.3",
            )

    def _end_round(self) -> None:
        """§4.2: architects back, site cleared, Urbanist beside the board, Mayor leads."""
        players = self._setup.players
        rounds = self._setup.rounds
        self._round += 1
        self._turn = 0
        self._urbanist = -1
        self._occupied = 0
        self._spots = [0] * N_SPOTS
        if self._expert:
            self._pool = [0, *([players] * 5)]
        else:
            self._used = [0] * players
        self._first = self._mayor
        if self._round < len(rounds):
            self._site = list(rounds[self._round])
            self._current = self._first
        else:
            self._site = [-1] * 25
            self._current = TERMINAL

    def parse_move(self, text: str) -> QuadropolisMove:
        try:
            return parse_move(self._mode, text)
        except IllegalMove:
            if self._current < 0:
                raise IllegalMove("the game is over: no more architects may be placed") from None
            raise

    @property
    def history(self) -> Sequence[QuadropolisMove]:
        return self._moves

    # -- events -----------------------------------------------------------------------------
    def opening_events(self) -> tuple[Event, ...]:
        setup = self._setup
        start = Event(
            "game_started",
            {"mode": setup.mode, "players": setup.players, "first_player": setup.first_player},
        )
        return (start, *self._round_start_events(0))

    def _round_start_events(self, r: int) -> tuple[Event, ...]:
        """A round starts: who leads, and the construction site as everybody sees it."""
        up = self._face_up
        layout = [TILES[t].id if up[t] else None for t in self._setup.rounds[r]]
        return (
            Event("round_started", {"round": r + 1, "first_player": self._first}),
            Event("site_revealed", {"round": r + 1, "layout": layout}),
        )

    def play(self, move: Any) -> tuple[Event, ...]:
        p = self._current
        before_round, mayor = self._round, self._mayor
        q = SELECT[move.spot][move.architect] if move.__class__ is QuadropolisMove else 0
        selected = self._site[q]
        self.apply(move)  # raises before anything changes
        k, s, target = move.architect, move.spot, move.target
        square = site_square_name(q)
        out = [
            Event(
                "architect_placed",
                {"player": p, "architect": k, "spot": SPOT_NAMES[s], "square": square},
            ),
            Event("urbanist_moved", {"square": square}),
        ]
        if target == NOTHING:
            why = "empty" if selected < 0 else "face_down"
            out.append(Event("nothing_taken", {"player": p, "square": square, "reason": why}))
        elif target == DISCARD:
            tile = self._discards[-1]
            out.append(Event("tile_discarded", _tile_params(p, tile, square)))
        else:
            i = p * self._size + target
            tile = self._stacks[i][-1]
            params = _tile_params(p, tile, square)
            params["city_square"] = self._geometry.names[target]
            params["floors"] = self._cells[i] & 7
            out.append(Event("building_built", params))
        if self._mayor != mayor:
            out.append(Event("mayor_moved", {"player": self._mayor, "from": mayor}))
        if self._round != before_round:
            out.append(Event("round_ended", {"round": before_round + 1}))
            if self._current == TERMINAL:
                result = self.result()
                out.append(
                    Event(
                        "game_ended",
                        {
                            "scores": list(result.scores),
                            "ranking": [list(g) for g in result.ranking],
                        },
                    )
                )
            else:
                out.extend(self._round_start_events(self._round))
        return tuple(out)

    # -- outcome ----------------------------------------------------------------------------
    def result(self) -> GameResult:
        if self._result is None:
            if not self.is_terminal():
                raise IllegalMove("the game is not over yet: there is no result")
            from polis.games.quadropolis.scoring import game_result

            self._result = game_result(self)
        return self._result

    # -- information ------------------------------------------------------------------------
    def view(self, player: int | None) -> QuadropolisView:
        return view_of(self, player)

    def render_text(self, player: int | None = None) -> str:
        from polis.games.quadropolis.render import render_text

        return render_text(self.view(player))

    def public_layouts(self) -> tuple[tuple[tuple[int, ...], ...], tuple[str | None, ...]]:
        """Per round started, the layout as dealt with face-down squares as -2; and the
        backs of the face-down tiles now on the site. Cached per round: views share them."""
        cached = self._public
        if cached is not None and cached[0] == self._round:
            return cached[1], cached[2]
        up = self._face_up
        rounds = self._setup.rounds
        started = min(self._round + 1, len(rounds))
        layouts = tuple(tuple(t if up[t] else -2 for t in rounds[r]) for r in range(started))
        backs = tuple(TILES[t].back if t >= 0 and not up[t] else None for t in self._site)
        self._public = (self._round, layouts, backs)
        return layouts, backs

    # -- copies and records -----------------------------------------------------------------
    def clone(self) -> Self:
        new = object.__new__(type(self))
        new._setup = self._setup
        new._mode = self._mode
        new._players = self._players
        new._options = self._options
        new._geometry = self._geometry
        new._size = self._size
        new._expert = self._expert
        new._max_floors = self._max_floors
        new._face_up = self._face_up
        new._unselectable = self._unselectable
        new._space = self._space
        new._stride = self._stride
        new._round = self._round
        new._turn = self._turn
        new._current = self._current
        new._first = self._first
        new._mayor = self._mayor
        new._site = self._site[:]
        new._spots = self._spots[:]
        new._occupied = self._occupied
        new._urbanist = self._urbanist
        new._used = self._used[:]
        new._pool = self._pool[:]
        new._cells = self._cells[:]
        new._stacks = self._stacks[:]
        new._inhabitants = self._inhabitants[:]
        new._energy = self._energy[:]
        new._moves = self._moves[:]
        new._discards = self._discards[:]
        new._result = self._result
        new._public = self._public
        return new

    def setup(self) -> dict[str, Any]:
        return self._setup.to_json()

    def options(self) -> dict[str, Any]:
        return dict(self._options.to_json())

    # -- read-only accessors (for views, scoring, bots' own samples and tests) ---------------
    @property
    def setup_data(self) -> Setup:
        """The validated set-up (hidden tiles included)."""
        return self._setup

    @property
    def rules(self) -> Options:
        return self._options

    @property
    def round_number(self) -> int:
        """Current round, 1-based (the last round's number once the game is over)."""
        return min(self._round + 1, len(self._setup.rounds))

    def city(self, player: int) -> City:
        """The player's city as the scorer's :data:`~polis.games.quadropolis.city.City`."""
        return city_of(self._cells, self._stacks, player, self._size)

    def kinds(self, player: int) -> str:
        """Kind letter of each square of the player's city ("." when empty), in one string:
        cheap enough for bots that look at neighbours in every playout move."""
        base = player * self._size
        return "".join([KIND_CODES[c >> 3] for c in self._cells[base : base + self._size]])

    def floors_at(self, player: int, square: int) -> int:
        """Floors of the building on a city square (0 when empty)."""
        return self._cells[player * self._size + square] & 7

    def offer(self, architect: int, spot: int) -> int:
        """The tile ``architect`` placed at ``spot`` would take (-1: nothing, the square is
        empty or face down; §5.2)."""
        t = self._site[SELECT[spot][architect]]
        return t if t >= 0 and self._face_up[t] else -1

    def targets(self, player: int, architect: int, tile: int) -> list[int]:
        """City squares where ``player`` may build ``tile`` with ``architect`` (§6)."""
        return self._targets(player, T_KIND[tile], architect)

    @property
    def turns_played(self) -> int:
        """Actions taken so far in the game (``len(history)``)."""
        return len(self._moves)

    def resources(self, player: int) -> tuple[int, int]:
        """(inhabitants, energy) the player has gained so far."""
        return self._inhabitants[player], self._energy[player]


def city_of(
    cells: Sequence[int], stacks: Sequence[tuple[int, ...]], player: int, size: int
) -> City:
    """One player's city as the scorer's tuple, from a state's or a view's square lists."""
    out: list[Building | None] = []
    for i in range(player * size, (player + 1) * size):
        c = cells[i]
        if c:
            vp = sum(TILES[t].vp for t in stacks[i]) if c >> 3 > 2 else 0
            out.append(_building(c >> 3, c & 7, vp))
        else:
            out.append(None)
    return tuple(out)


def _tile_params(player: int, tile: int, square: str) -> dict[str, Any]:
    t = TILES[tile]
    return {"player": player, "tile": t.id, "kind": t.type, "code": t.code, "square": square}


@cache
def _building(kind: int, floors: int, vp: int) -> Building:
    return Building(KIND_CODES[kind], floors, vp)


__all__ = ["QuadropolisState", "city_of"]
