"""The Metropolys game state: bidding rounds exactly as spec §5, hot-path friendly.

Representation (all plain ints and lists, so ``clone`` is a handful of list copies):

* ``_cells[f]``: -1 free, -2 not in play (unused district), else ``player * 16 + value``.
  A building is a bid when its field is in ``_bids`` (this round), otherwise it is built.
* ``_supply[p]``: bit mask of the values in player p's supply (bit v = building v); a bid
  leaves the supply while it stands and comes back when the round is lost.
* ``_tokens[f]``: token code still on field f (0 none, 1 chic, 2 metro, 3 archaeology).
* ``_collected[p * 4 + code]``: tokens collected by p.
* ``_bids``: fields bid this round, in order (the last one is the current bid).
* ``_passed``: bit mask of players who passed this round.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Self

from polis.core.errors import IllegalMove
from polis.core.protocol import TERMINAL, Game, GameResult, GameState, Move
from polis.metropolys import notation
from polis.metropolys.board import (
    ADJACENT,
    DISTRICT,
    DISTRICTS,
    METRO,
    NUM_FIELDS,
    TOKENS,
)
from polis.metropolys.cards import Options
from polis.metropolys.scoring import EndPosition, player_breakdowns, ranking
from polis.metropolys.setup import Setup

FREE: Final = -1
OUT_OF_PLAY: Final = -2
FULL_SUPPLY: Final = sum(1 << v for v in range(1, 14))
#: The values held in each supply mask, ascending (masks use bits 1-13).
VALUES_OF: Final = tuple(tuple(v for v in range(1, 14) if mask >> v & 1) for mask in range(1 << 14))
_PASS: Final = notation.PASS


@dataclass(frozen=True, slots=True)
class MetroResult(GameResult):
    """A finished game's result; knows its mode so the record's result can be written."""

    mode: str = "family"


class Table:
    """What never changes during one game: set-up, options and the board restricted to play."""

    __slots__ = ("adjacent", "all_mask", "mode", "options", "play_fields", "players", "setup")

    def __init__(self, setup: Setup, options: Options) -> None:
        self.setup = setup
        self.options = options
        self.mode: str = setup.mode
        self.players: int = setup.players
        self.all_mask: int = (1 << setup.players) - 1
        unused = setup.unused_codes
        self.play_fields: tuple[int, ...] = tuple(
            f for f in range(NUM_FIELDS) if DISTRICT[f] not in unused
        )
        in_play = set(self.play_fields)
        #: R14: a bridge into an unused district leads nowhere playable.
        self.adjacent: tuple[tuple[int, ...], ...] = tuple(
            tuple(g for g in ADJACENT[f] if g in in_play) if f in in_play else ()
            for f in range(NUM_FIELDS)
        )


class MetroState(GameState):
    """One game of Metropolys in progress (mutable; ``apply`` plays one bid or pass)."""

    game: ClassVar[Game]

    __slots__ = (
        "_arch",
        "_bids",
        "_cells",
        "_collected",
        "_current",
        "_metro",
        "_moves",
        "_nbuilt",
        "_passed",
        "_result",
        "_start",
        "_supply",
        "_t",
        "_tokens",
    )

    def __init__(self, setup: Setup, options: Options) -> None:
        t = Table(setup, options)
        self._t = t
        n = setup.players
        in_play = set(t.play_fields)
        self._cells = [FREE if f in in_play else OUT_OF_PLAY for f in range(NUM_FIELDS)]
        self._tokens = list(setup.tokens)
        self._supply = [FULL_SUPPLY] * n
        self._nbuilt = [0] * n
        self._collected = [0] * (4 * n)
        self._metro = -1
        self._arch = -1
        self._bids: list[int] = []
        self._passed = 0
        self._current = setup.first_player
        self._start = setup.first_player
        self._moves: list[int] = []
        self._result: MetroResult | None = None

    # -- who acts ---------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._t.players

    @property
    def mode(self) -> str:
        return self._t.mode

    def current_player(self) -> int:
        return self._current

    @property
    def start_player(self) -> int:
        """Who opened (or opens) the current round."""
        return self._start

    # -- moves ------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        cur = self._current
        if cur < 0:
            return []
        cells = self._cells
        bids = self._bids
        if not bids:
            values = VALUES_OF[self._supply[cur]]
            return [f << 4 | v for f in self._t.play_fields if cells[f] == FREE for v in values]
        last = bids[-1]
        lv = cells[last] & 15
        higher = VALUES_OF[self._supply[cur] >> (lv + 1) << (lv + 1)]
        moves: list[Move] = [_PASS]
        if higher:
            adjacent = self._t.adjacent[last]
            moves.extend(f << 4 | v for f in adjacent if cells[f] == FREE for v in higher)
        return moves

    def random_move(self, rng: random.Random) -> int:
        cur = self._current
        if cur < 0:
            raise IllegalMove("the game is over")
        cells = self._cells
        bids = self._bids
        if not bids:
            fields = self._t.play_fields
            f = fields[int(rng.random() * len(fields))]
            while cells[f] != FREE:
                f = fields[int(rng.random() * len(fields))]
            values = VALUES_OF[self._supply[cur]]
            return f << 4 | values[int(rng.random() * len(values))]
        last = bids[-1]
        lv = cells[last] & 15
        higher = VALUES_OF[self._supply[cur] >> (lv + 1) << (lv + 1)]
        if not higher:
            return _PASS
        free = [f for f in self._t.adjacent[last] if cells[f] == FREE]
        k = int(rng.random() * (len(free) + 1))
        if k == len(free):
            return _PASS
        return free[k] << 4 | higher[int(rng.random() * len(higher))]

    def _coerce(self, move: object) -> int:
        """An int-like move (e.g. a numpy integer from a research adapter) as a plain int."""
        if not isinstance(move, bool):
            try:
                return operator.index(move)  # type: ignore[arg-type]
            except TypeError:
                pass
        raise self._reject(move)

    def _reject(self, move: object) -> IllegalMove:
        """The IllegalMove naming the first rule ``move`` breaks (the state is untouched)."""
        if self._current < 0:
            return IllegalMove("the game is over: no more bids or passes")
        if type(move) is not int or move < 0:
            return IllegalMove(f"{move!r} is not a Metropolys move")
        if move == _PASS:
            return IllegalMove("the opening bid is mandatory: the start player cannot pass")
        value, field = move & 15, move >> 4
        if field >= NUM_FIELDS:
            return IllegalMove(f"there is no field {field} on the board (fields are 0-54)")
        if not 1 <= value <= 13:
            return IllegalMove(f"there is no building of value {value} (values are 1-13)")
        cell = self._cells[field]
        if cell == OUT_OF_PLAY:
            district = DISTRICTS[DISTRICT[field]]
            return IllegalMove(
                f"field {field} is in the {district} district, which is not used "
                f"with {self._t.players} players"
            )
        if cell != FREE:
            what = "a bid" if field in self._bids else "a building"
            return IllegalMove(f"field {field} is not free: {what} already stands on it")
        cur = self._current
        if not self._supply[cur] >> value & 1:
            if cur << 4 | value in (self._cells[f] for f in self._bids):
                return IllegalMove(f"building {value} is already on the board as your bid")
            return IllegalMove(f"you have no building of value {value} left: it is already built")
        if self._bids:
            last = self._bids[-1]
            lv = self._cells[last] & 15
            if value <= lv:
                return IllegalMove(f"value {value} is not higher than the current bid {lv}")
            if field not in self._t.adjacent[last]:
                return IllegalMove(f"field {field} is not adjacent to field {last}")
        return IllegalMove(f"{notation.to_str(move)} is not legal here")  # pragma: no cover

    def apply(self, move: Any) -> None:
        if type(move) is not int:
            move = self._coerce(move)
        cur = self._current
        cells = self._cells
        bids = self._bids
        if move == _PASS:
            if cur < 0 or not bids:
                raise self._reject(move)
            self._passed |= 1 << cur
        else:
            if cur < 0 or not 0 < move < notation.NUM_ACTIONS:
                raise self._reject(move)
            value = move & 15
            field = move >> 4
            if (
                cells[field] != FREE
                or not self._supply[cur] >> value & 1
                or (
                    bids
                    and (value <= cells[bids[-1]] & 15 or field not in self._t.adjacent[bids[-1]])
                )
            ):
                raise self._reject(move)
            cells[field] = cur << 4 | value
            self._supply[cur] &= ~(1 << value)
            bids.append(field)
        self._moves.append(move)
        # End conditions (a), (b), (c) after every bid and pass (§5.1.4).
        last = bids[-1]
        lp = cells[last] >> 4
        active = self._t.all_mask & ~self._passed & ~(1 << lp)
        if active:
            free = False
            for g in self._t.adjacent[last]:
                if cells[g] == FREE:
                    free = True
                    break
            if free:
                shift = (cells[last] & 15) + 1
                supply = self._supply
                p = 0
                while active:
                    if active & 1 and supply[p] >> shift:
                        # The round goes on: next player clockwise who has not passed.
                        n = self._t.players
                        passed = self._passed
                        q = cur + 1 if cur + 1 < n else 0
                        while passed >> q & 1:
                            q = q + 1 if q + 1 < n else 0
                        self._current = q
                        return
                    active >>= 1
                    p += 1
        self._resolve(last, lp)

    def _resolve(self, last: int, winner: int) -> None:
        """§5.2: build the last bid, collect its token, return every other bid."""
        cells = self._cells
        supply = self._supply
        for f in self._bids:
            if f != last:
                c = cells[f]
                supply[c >> 4] |= 1 << (c & 15)
                cells[f] = FREE
        self._bids = []
        self._passed = 0
        token = self._tokens[last]
        if token:
            self._tokens[last] = 0
            collected = self._collected
            collected[winner * 4 + token] += 1
            if token == METRO:
                holder = self._metro
                if holder < 0 or (
                    holder != winner
                    and collected[winner * 4 + METRO] > collected[holder * 4 + METRO]
                ):
                    self._metro = winner
            elif token == 3:
                self._arch = winner
        self._nbuilt[winner] += 1
        if self._nbuilt[winner] == 13:
            self._current = TERMINAL
        else:
            self._current = winner
            self._start = winner

    def move_to_str(self, move: Any) -> str:
        if type(move) is not int or not 0 <= move < notation.NUM_ACTIONS:
            raise IllegalMove(f"{move!r} is not a Metropolys move")
        return notation.to_str(move)

    def parse_move(self, text: str) -> int:
        return notation.parse(text)

    @property
    def history(self) -> Sequence[str]:
        to_str = notation.to_str
        return [to_str(m) for m in self._moves]

    @property
    def moves(self) -> Sequence[int]:
        """Every move played so far (ints)."""
        return tuple(self._moves)

    # -- outcome ----------------------------------------------------------------------------
    def end_position(self) -> EndPosition:
        """The built buildings, tokens and (revealed) cards as they stand now."""
        n = self._t.players
        setup = self._t.setup
        built: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        bids = set(self._bids)
        for f, c in enumerate(self._cells):
            if c >= 0 and f not in bids:
                built[c >> 4].append((f, c & 15))
        col = self._collected
        return EndPosition(
            mode=self._t.mode,
            players=n,
            unused=setup.unused_codes,
            buildings=tuple(tuple(b) for b in built),
            tokens=tuple((col[p * 4 + 1], col[p * 4 + 2], col[p * 4 + 3]) for p in range(n)),
            metro_card=self._metro if self._metro >= 0 else None,
            archaeology_card=self._arch if self._arch >= 0 else None,
            area_cards=setup.area_cards,
            neighbourhood_cards=setup.neighbourhood_cards,
            options=self._t.options,
        )

    def result(self) -> MetroResult:
        if self._result is not None:
            return self._result
        if self._current != TERMINAL:
            raise IllegalMove("the game is not over yet: no result")
        pos = self.end_position()
        breakdowns = player_breakdowns(pos)
        totals = tuple(sum(b.values()) for b in breakdowns)
        built = self._nbuilt
        reports = tuple(
            {"total": t, "built": built[p], "breakdown": b}
            for p, (t, b) in enumerate(zip(totals, breakdowns, strict=True))
        )
        self._result = MetroResult(
            scores=totals,
            ranking=tuple(tuple(g) for g in ranking(totals, built)),
            reports=reports,
            mode=self._t.mode,
        )
        return self._result

    def scores_now(self) -> tuple[int, ...]:
        """Points each player would score if the game ended now (bids do not count)."""
        return tuple(sum(b.values()) for b in player_breakdowns(self.end_position()))

    # -- information ------------------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any]:
        from polis.metropolys.views import make_view

        return make_view(self, player)

    def render_text(self, player: int | None = None) -> str:
        from polis.metropolys.render import render_text

        return render_text(self, player)

    # -- copies and records -----------------------------------------------------------------
    def clone(self) -> Self:
        new = object.__new__(type(self))
        new._t = self._t
        new._cells = self._cells[:]
        new._tokens = self._tokens[:]
        new._supply = self._supply[:]
        new._nbuilt = self._nbuilt[:]
        new._collected = self._collected[:]
        new._metro = self._metro
        new._arch = self._arch
        new._bids = self._bids[:]
        new._passed = self._passed
        new._current = self._current
        new._start = self._start
        new._moves = self._moves[:]
        new._result = self._result
        return new

    def setup(self) -> dict[str, Any]:
        return self._t.setup.to_json()

    def options(self) -> dict[str, Any]:
        return self._t.options.to_json()

    @property
    def setup_data(self) -> Setup:
        """The validated set-up object (hidden cards included)."""
        return self._t.setup

    @property
    def rules_options(self) -> Options:
        return self._t.options

    # -- read access for views, renderers and tests -----------------------------------------
    def building_at(self, field: int) -> tuple[int, int, bool] | None:
        """(player, value, built) of the building on ``field``, or None."""
        c = self._cells[field]
        if c < 0:
            return None
        return c >> 4, c & 15, field not in self._bids

    def in_play(self, field: int) -> bool:
        return self._cells[field] != OUT_OF_PLAY

    def token_at(self, field: int) -> str | None:
        code = self._tokens[field]
        return TOKENS[code - 1] if code else None

    def supply(self, player: int) -> tuple[int, ...]:
        """Values in ``player``'s supply, ascending."""
        return VALUES_OF[self._supply[player]]

    def built_count(self, player: int) -> int:
        return self._nbuilt[player]

    def collected(self, player: int) -> dict[str, int]:
        base = player * 4
        return {name: self._collected[base + i] for i, name in enumerate(TOKENS, start=1)}

    @property
    def metro_card(self) -> int | None:
        return self._metro if self._metro >= 0 else None

    @property
    def archaeology_card(self) -> int | None:
        return self._arch if self._arch >= 0 else None

    @property
    def bids(self) -> tuple[tuple[int, int, int], ...]:
        """(field, value, player) of each bid this round, in order; the last is current."""
        cells = self._cells
        return tuple((f, cells[f] & 15, cells[f] >> 4) for f in self._bids)

    @property
    def passed(self) -> tuple[int, ...]:
        return tuple(p for p in range(self._t.players) if self._passed >> p & 1)
