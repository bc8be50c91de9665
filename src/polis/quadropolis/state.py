"""The Quadropolis game state: rules §3-§8 of the spec on small lists of ints.

Hot path design: a tile is an int (index into :data:`~polis.quadropolis.tiles.TILES`), a
city square is ``kind << 3 | floors`` (0 = empty), spot occupancy is a bit mask, and all
geometry comes from precomputed tables (:mod:`polis.quadropolis.site`). ``clone`` copies a
handful of short lists; ``random_move`` draws an architect and a spot instead of listing
every move; ``apply`` validates with table look-ups and raises :class:`IllegalMove` (naming
the rule) before touching anything.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar, Self, cast

from polis.core.errors import IllegalMove, NotationError
from polis.core.protocol import TERMINAL, Game, GameResult, GameState
from polis.core.protocol import Move as AnyMove
from polis.quadropolis import notation
from polis.quadropolis.city import Building, City
from polis.quadropolis.notation import DISCARD, NOTHING, Move
from polis.quadropolis.setup import Options
from polis.quadropolis.site import (
    ARCHITECTS,
    BLOCKED,
    GEOMETRY,
    MAX_FLOORS,
    N_SPOTS,
    SELECT,
    SPOT_NAMES,
    site_square_name,
    spot_line,
)
from polis.quadropolis.tiles import (
    FACE_UP,
    KIND_CODES,
    KIND_NAMES,
    ROUNDS,
    T_EN,
    T_INH,
    T_KIND,
    T_MAYOR,
    TILES,
)

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
        "_cur",
        "_discards",
        "_en",
        "_first",
        "_first0",
        "_geo",
        "_inh",
        "_maxf",
        "_mayor",
        "_mode",
        "_moves",
        "_n",
        "_narch",
        "_occ",
        "_opts",
        "_pool",
        "_result",
        "_round",
        "_rounds",
        "_site",
        "_size",
        "_spots",
        "_turn",
        "_unselectable",
        "_up",
        "_urb",
        "_used",
    )

    def __init__(
        self,
        mode: str,
        players: int,
        first_player: int,
        rounds: tuple[tuple[int, ...], ...],
        options: Options,
    ) -> None:
        # Immutable, shared between clones.
        self._mode = mode
        self._n = players
        self._first0 = first_player
        self._rounds = rounds
        self._opts = options
        self._geo = GEOMETRY[mode]
        self._size = self._geo.size
        self._narch = ARCHITECTS[mode]
        self._maxf = MAX_FLOORS[mode]
        self._up = FACE_UP[players]
        self._unselectable = options.face_down_tiles == "unselectable"
        # Mutable.
        self._round = 0  # 0-based; == number of rounds once the game is over
        self._turn = 0  # actions taken this round, 0 .. 4 * players - 1
        self._cur = first_player  # player to move, TERMINAL once the game is over
        self._first = first_player
        self._mayor = first_player
        self._site = list(rounds[0])  # tile index per site square, -1 = empty
        self._spots = [0] * N_SPOTS  # 0 = free, else architect + 8 * player
        self._occ = 0  # bit mask of occupied spots
        self._urb = -1  # Urbanist's site square, -1 = beside the board
        self._used = [0] * players  # Classic: bit k set = own architect k used this round
        self._pool = [0, *([players] * 5)] if mode == "expert" else [0] * 6
        self._cells = [0] * (players * self._size)  # kind << 3 | floors
        self._stacks: list[tuple[int, ...]] = [()] * (players * self._size)
        self._inh = [0] * players
        self._en = [0] * players
        self._moves: list[Move] = []
        self._discards: list[int] = []
        self._result: GameResult | None = None

    # -- who acts ---------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._n

    @property
    def mode(self) -> str:
        return self._mode

    def current_player(self) -> int:
        return self._cur

    def is_terminal(self) -> bool:
        return self._cur < 0

    # -- helpers ----------------------------------------------------------------------------
    def _architects(self, player: int) -> tuple[int, ...]:
        """Architect numbers the player may place now (§5.1)."""
        if self._narch == 5:
            pool = self._pool
            return tuple(k for k in range(1, 6) if pool[k])
        return _UNUSED[self._used[player]]

    def _free_spots(self) -> list[int]:
        """Spots neither occupied nor blocked by the Urbanist (§5.1)."""
        mask = self._occ | BLOCKED[self._urb]
        return list(_FREE_LO[mask & 1023] + _FREE_HI[mask >> 10])

    def _targets(self, player: int, kind: int, k: int) -> list[int]:
        """City squares where architect ``k`` may put a tile of ``kind`` (§6.1-§6.3)."""
        cells = self._cells
        base = player * self._size
        if kind > 2:
            return [q for q in self._geo.reach[k] if not cells[base + q]]
        out = []
        reach = self._geo.reach_mask[k]
        maxf = self._maxf[kind]
        below = k - 1
        for q in range(self._size):
            c = cells[base + q]
            if c == 0:
                if reach >> q & 1:
                    out.append(q)
            elif c >> 3 == kind:
                f = c & 7
                if f < maxf and (reach >> q & 1 or f == below):
                    out.append(q)
        return out

    def _selectable_faceup_exists(self, player: int) -> bool:
        """Under A5 "unselectable": can any architect/spot select a non-face-down square?"""
        site, up = self._site, self._up
        for k in self._architects(player):
            for s in self._free_spots():
                t = site[SELECT[s][k]]
                if t < 0 or up[t]:
                    return True
        return False

    # -- moves ------------------------------------------------------------------------------
    def legal_moves(self) -> list[AnyMove]:
        p = self.current_player()
        if p == TERMINAL:
            return []
        site, up = self._site, self._up
        free = self._free_spots()
        strict = self._unselectable and self._selectable_faceup_exists(p)
        out: list[AnyMove] = []
        for k in self._architects(p):
            for s in free:
                t = site[SELECT[s][k]]
                if t >= 0 and up[t]:
                    for q in self._targets(p, T_KIND[t], k):
                        out.append((k, s, q))
                    out.append((k, s, DISCARD))
                elif t < 0 or not strict:
                    out.append((k, s, NOTHING))
        return out

    def random_move(self, rng: random.Random) -> Move:
        p = self._cur
        if p < 0:
            raise IllegalMove("the game is over")
        rnd = rng.random
        site = self._site
        up = self._up
        mask = self._occ | BLOCKED[self._urb]
        for _ in range(8):
            # Rejection sampling: cheaper than listing architects and spots (a free spot and
            # an available architect always exist, §5.1 and A22).
            if self._narch == 5:
                pool = self._pool
                k = 1 + int(rnd() * 5)
                while not pool[k]:
                    k = 1 + int(rnd() * 5)
            else:
                archs = _UNUSED[self._used[p]]
                k = archs[int(rnd() * len(archs))]
            free = _FREE_LO[mask & 1023] + _FREE_HI[mask >> 10]
            s = free[int(rnd() * len(free))]
            t = site[SELECT[s][k]]
            if t >= 0 and up[t]:
                targets = self._targets(p, T_KIND[t], k)
                i = int(rnd() * (len(targets) + 1))
                return (k, s, targets[i] if i < len(targets) else DISCARD)
            if t < 0 or not self._unselectable:
                return (k, s, NOTHING)
        moves = self.legal_moves()
        return cast(Move, moves[int(rnd() * len(moves))])

    def apply(self, move: AnyMove) -> None:
        k: int
        s: int
        target: int
        try:
            k, s, target = move  # type: ignore[misc]
        except (TypeError, ValueError):
            raise IllegalMove(f"{move!r} is not a Quadropolis move") from None
        if type(k) is not int or type(s) is not int or type(target) is not int:
            raise IllegalMove(f"{move!r} is not a Quadropolis move")
        p = self._cur
        if p < 0:
            raise IllegalMove("the game is over: no more architects may be placed")
        narch = self._narch
        if not 1 <= k <= narch:
            raise IllegalMove(
                f"there is no architect {k} in {self._mode} mode (architects 1 to {narch})",
                rule="quadropolis §2",
            )
        expert = narch == 5
        if expert:
            if not self._pool[k]:
                raise IllegalMove(f"no architect {k} is left in the pool", rule="quadropolis §5.1")
        elif self._used[p] >> k & 1:
            raise IllegalMove(f"architect {k} is already used this round", rule="quadropolis §5.1")
        if not 0 <= s < N_SPOTS:
            raise IllegalMove(f"there is no spot {s} at the construction site")
        bit = 1 << s
        if self._occ & bit:
            raise IllegalMove(
                f"an architect already occupies {_spot_words(s)} this round",
                rule="quadropolis §5.1",
            )
        if BLOCKED[self._urb] & bit:
            raise IllegalMove(f"the Urbanist blocks {spot_line(s)}", rule="quadropolis §5.1")
        q = SELECT[s][k]
        t = self._site[q]
        taken = t >= 0 and self._up[t]
        kind = 0
        if not taken:
            if t >= 0 and self._unselectable and self._selectable_faceup_exists(p):
                raise IllegalMove(
                    f"architect {k} at {SPOT_NAMES[s]} would select the face-down tile on "
                    f"{site_square_name(q)}, and face-down tiles may not be selected",
                    rule="quadropolis A5",
                )
            if target != NOTHING:
                what = "is empty" if t < 0 else "holds a face-down tile, which is not in play"
                raise IllegalMove(
                    f"architect {k} at {SPOT_NAMES[s]} selects {site_square_name(q)} of the "
                    f"construction site, which {what}: nothing is taken, so the target is -",
                    rule="quadropolis §5.2",
                )
        elif target == NOTHING:
            raise IllegalMove(
                f"architect {k} at {SPOT_NAMES[s]} takes the {KIND_NAMES[T_KIND[t]]} on "
                f"{site_square_name(q)}: build it in your city or discard it (x)",
                rule="quadropolis §5.4",
            )
        elif target != DISCARD:
            kind = T_KIND[t]
            self._check_build(p, kind, k, target)
        # -- the move is legal: change the state -------------------------------------------
        self._spots[s] = k + 8 * p
        self._occ |= bit
        if expert:
            self._pool[k] -= 1
        else:
            self._used[p] |= 1 << k
        self._urb = q
        if taken:
            self._site[q] = -1
            if target == DISCARD:
                self._discards.append(t)
            else:
                i = p * self._size + target
                c = self._cells[i]
                self._cells[i] = c + 1 if c else kind << 3 | 1
                self._stacks[i] = (*self._stacks[i], t)
                self._inh[p] += T_INH[t]
                self._en[p] += T_EN[t]
                if T_MAYOR[t]:
                    self._mayor = p
        self._moves.append((k, s, target))
        turn = self._turn + 1
        if turn == 4 * self._n:
            self._end_round()
        else:
            self._turn = turn
            self._cur = (self._first + turn) % self._n

    def _check_build(self, p: int, kind: int, k: int, target: int) -> None:
        """Raise IllegalMove unless a tile of ``kind`` may go on ``target`` (§6)."""
        geo = self._geo
        if not 0 <= target < geo.size:
            raise IllegalMove(f"there is no square {target} in a {self._mode} city")
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
        if floors >= self._maxf[kind]:
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
        self._round += 1
        self._turn = 0
        self._urb = -1
        self._occ = 0
        self._spots = [0] * N_SPOTS
        if self._narch == 5:
            self._pool = [0, *([self._n] * 5)]
        else:
            self._used = [0] * self._n
        self._first = self._mayor
        if self._round < len(self._rounds):
            self._site = list(self._rounds[self._round])
            self._cur = self._first
        else:
            self._site = [-1] * 25
            self._cur = TERMINAL

    def move_to_str(self, move: AnyMove) -> str:
        if not (isinstance(move, tuple) and len(move) == 3 and 0 <= move[1] < N_SPOTS):
            raise NotationError(f"{move!r} is not a Quadropolis move")
        return notation.move_to_str(self._mode, move)

    def parse_move(self, text: str) -> Move:
        return notation.parse_move(self._mode, text)

    @property
    def history(self) -> Sequence[str]:
        mode = self._mode
        return [notation.move_to_str(mode, m) for m in self._moves]

    # -- outcome ----------------------------------------------------------------------------
    def result(self) -> GameResult:
        if self._result is None:
            if not self.is_terminal():
                raise IllegalMove("the game is not over yet: there is no result")
            from polis.quadropolis.game import final_result

            self._result = final_result(self)
        return self._result

    # -- information ------------------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any]:
        from polis.quadropolis.view import build_view

        return build_view(self, player)

    def render_text(self, player: int | None = None) -> str:
        from polis.quadropolis.render import render_text

        return render_text(self.view(player))

    # -- copies and records -----------------------------------------------------------------
    def clone(self) -> Self:
        new = object.__new__(type(self))
        new._mode = self._mode
        new._n = self._n
        new._first0 = self._first0
        new._rounds = self._rounds
        new._opts = self._opts
        new._geo = self._geo
        new._size = self._size
        new._narch = self._narch
        new._maxf = self._maxf
        new._up = self._up
        new._unselectable = self._unselectable
        new._round = self._round
        new._turn = self._turn
        new._cur = self._cur
        new._first = self._first
        new._mayor = self._mayor
        new._site = self._site[:]
        new._spots = self._spots[:]
        new._occ = self._occ
        new._urb = self._urb
        new._used = self._used[:]
        new._pool = self._pool[:]
        new._cells = self._cells[:]
        new._stacks = self._stacks[:]
        new._inh = self._inh[:]
        new._en = self._en[:]
        new._moves = self._moves[:]
        new._discards = self._discards[:]
        new._result = self._result
        return new

    def setup(self) -> dict[str, Any]:
        return {
            "first_player": self._first0,
            "rounds": [[TILES[i].id for i in layout] for layout in self._rounds],
        }

    def options(self) -> dict[str, Any]:
        return self._opts.to_json()

    # -- read-only accessors (for views, scoring and tests) -----------------------------------
    @property
    def round_number(self) -> int:
        """Current round, 1-based (the last round's number once the game is over)."""
        return min(self._round + 1, len(self._rounds))

    @property
    def rules(self) -> Options:
        return self._opts

    def city(self, player: int) -> City:
        """The player's city as the scorer's :data:`~polis.quadropolis.city.City` tuple."""
        size = self._size
        cells, stacks = self._cells, self._stacks
        out: list[Building | None] = []
        for i in range(player * size, (player + 1) * size):
            c = cells[i]
            if c:
                vp = sum(TILES[t].vp for t in stacks[i]) if c >> 3 > 2 else 0
                out.append(_building(c >> 3, c & 7, vp))
            else:
                out.append(None)
        return tuple(out)

    def city_codes(self, player: int) -> list[str]:
        """Each square of the player's city as a formats §1.1 cell code."""
        return ["." if b is None else b.code for b in self.city(player)]

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
        return t if t >= 0 and self._up[t] else -1

    def targets(self, player: int, architect: int, tile: int) -> list[int]:
        """City squares where ``player`` may build ``tile`` with ``architect`` (§6)."""
        return self._targets(player, T_KIND[tile], architect)

    @property
    def turns_played(self) -> int:
        """Actions taken so far in the game (``len(moves)`` without the copy)."""
        return len(self._moves)

    def city_stack(self, player: int, square: int) -> tuple[int, ...]:
        """Tile indices built on a city square, bottom floor first."""
        return self._stacks[player * self._size + square]

    def resources(self, player: int) -> tuple[int, int]:
        """(inhabitants, energy) the player has gained so far."""
        return self._inh[player], self._en[player]

    @property
    def mayor(self) -> int:
        return self._mayor

    @property
    def discards(self) -> tuple[int, ...]:
        return tuple(self._discards)

    @property
    def site(self) -> tuple[int, ...]:
        """Tile index per construction-site square (-1 empty); hidden facts included."""
        return tuple(self._site)

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)


@cache
def _building(kind: int, floors: int, vp: int) -> Building:
    return Building(KIND_CODES[kind], floors, vp)


__all__ = ["ROUNDS", "QuadropolisState"]
