"""The Metropolys game state: bidding rounds exactly as spec §5, hot-path friendly.

Representation (all plain ints, lists and one bytearray, so ``clone`` is a handful of
copies):

* ``_cells[f]``: a bytearray: ``player * 16 + value`` (at most 61) for a building, else
  :data:`FREE` (255) or :data:`OUT_OF_PLAY` (254, a field of an unused district); so a
  building is any byte below OUT_OF_PLAY, and the bytes are the encoders' field codes as
  they are. A building is a bid when its field is in ``_bids`` (this round), otherwise it
  is built. Views show the rules' numbers (-1 free, -2 not in play).
* ``_supply[p]``: bit mask of the values in player p's supply (bit v = building v); a bid
  leaves the supply while it stands and comes back when the round is lost.
* ``_tokens[f]``: token code still on field f (0 none, 1 chic, 2 metro, 3 archaeology).
* ``_collected[p * 4 + code]``: tokens collected by p.
* ``_bids``: fields bid this round, in order (the last one is the current bid).
* ``_passed``: bit mask of players who passed this round.

Moves are the interned objects of :mod:`~polis.games.metropolys.moves`; the engine reads
their packed ``code``. Events are worked out by :meth:`MetropolysState.play` around
``apply``, so the hot path never builds them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any, ClassVar, Final, Self

from polis.core.errors import IllegalMove
from polis.core.events import Event
from polis.core.moves import MoveList
from polis.core.protocol import Game, GameState
from polis.core.result import GameResult
from polis.core.view import TERMINAL
from polis.games.metropolys.board import (
    ADJACENT,
    ARCHAEOLOGY,
    DISTRICT,
    DISTRICTS,
    METRO,
    NUM_FIELDS,
    TOKENS,
    VALUES_OF,
)
from polis.games.metropolys.moves import BY_CODE, NUM_CODES, PASS, MetropolysMove
from polis.games.metropolys.options import Options
from polis.games.metropolys.scoring import EndPosition, game_result, player_breakdowns
from polis.games.metropolys.setup import Setup
from polis.games.metropolys.view import MetropolysView, view_of

FREE: Final = 255
OUT_OF_PLAY: Final = 254
FULL_SUPPLY: Final = sum(1 << v for v in range(1, 14))


#: BIDS[field][value]: the bid of that building on that field (index 0: pass, unused).
BIDS: Final = tuple(
    tuple(BY_CODE[f << 4 | v] if v else PASS for v in range(14)) for f in range(NUM_FIELDS)
)
_PICKERS: dict[int, Callable[[tuple[MetropolysMove, ...]], tuple[MetropolysMove, ...]]] = {}


def _picker(supply: int) -> Callable[[tuple[MetropolysMove, ...]], tuple[MetropolysMove, ...]]:
    """Picks the bids of the values in ``supply`` (a bit mask) out of a field's BIDS row."""
    pick = _PICKERS.get(supply)
    if pick is None:
        values = VALUES_OF[supply]
        if len(values) == 1:
            (only,) = values
            pick = _PICKERS[supply] = lambda row: (row[only],)
        else:
            pick = _PICKERS[supply] = itemgetter(*values)
    return pick


class GameFacts:
    """What never changes during one game: set-up, options and the board restricted to play."""

    __slots__ = ("adjacent", "all_mask", "mode", "options", "play_fields", "players", "setup")

    def __init__(self, setup: Setup, options: Options) -> None:
        self.setup = setup
        self.options = options
        self.mode: str = setup.mode
        self.players: int = setup.players
        self.all_mask: int = (1 << setup.players) - 1
        self.play_fields, self.adjacent = _board_in_play(setup.unused_codes)


@lru_cache(maxsize=64)
def _board_in_play(
    unused: frozenset[int],
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The fields in play and each one's neighbours in play, without the ``unused``
    districts (a handful of combinations, so worked out once each rather than per deal)."""
    play_fields = tuple(f for f in range(NUM_FIELDS) if DISTRICT[f] not in unused)
    in_play = set(play_fields)
    #: R14: a bridge into an unused district leads nowhere playable.
    adjacent = tuple(
        tuple(g for g in ADJACENT[f] if g in in_play) if f in in_play else ()
        for f in range(NUM_FIELDS)
    )
    return play_fields, adjacent


class MetropolysState(GameState):
    """One game of Metropolys in progress (mutable; ``apply`` plays one bid or pass)."""

    game: ClassVar[Game]

    __slots__ = (
        "_archaeology_holder",
        "_bids",
        "_built",
        "_cells",
        "_collected",
        "_current",
        "_facts",
        "_metro_holder",
        "_moves",
        "_passed",
        "_result",
        "_start",
        "_supply",
        "_tokens",
    )

    def __init__(self, setup: Setup, options: Options) -> None:
        facts = GameFacts(setup, options)
        self._facts = facts
        n = setup.players
        in_play = set(facts.play_fields)
        self._cells = bytearray(FREE if f in in_play else OUT_OF_PLAY for f in range(NUM_FIELDS))
        self._tokens = list(setup.tokens)
        self._supply = [FULL_SUPPLY] * n
        self._built = [0] * n
        self._collected = [0] * (4 * n)
        self._metro_holder = -1
        self._archaeology_holder = -1
        self._bids: list[int] = []
        self._passed = 0
        self._current = setup.first_player
        self._start = setup.first_player
        self._moves: list[MetropolysMove] = []
        self._result: GameResult | None = None

    # -- who acts ---------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._facts.players

    @property
    def mode(self) -> str:
        return self._facts.mode

    def current_player(self) -> int:
        return self._current

    @property
    def start_player(self) -> int:
        """Who opened (or opens) the current round."""
        return self._start

    # -- moves ------------------------------------------------------------------------------
    def legal_moves(self) -> MoveList[MetropolysMove]:
        cur = self._current
        if cur < 0:
            return MoveList()
        cells = self._cells
        bids = self._bids
        out: list[MetropolysMove] = []
        if not bids:
            pick = _picker(self._supply[cur])
            for f in self._facts.play_fields:
                if cells[f] == FREE:
                    out.extend(pick(BIDS[f]))
            return MoveList(out)
        last = bids[-1]
        lv = cells[last] & 15
        higher = self._supply[cur] >> (lv + 1) << (lv + 1)
        out.append(PASS)
        if higher:
            pick = _picker(higher)
            for f in self._facts.adjacent[last]:
                if cells[f] == FREE:
                    out.extend(pick(BIDS[f]))
        return MoveList(out)

    def random_move(self, rng: random.Random) -> MetropolysMove:
        cur = self._current
        if cur < 0:
            raise IllegalMove("the game is over")
        cells = self._cells
        bids = self._bids
        by_code = BY_CODE
        if not bids:
            fields = self._facts.play_fields
            f = fields[int(rng.random() * len(fields))]
            while cells[f] != FREE:
                f = fields[int(rng.random() * len(fields))]
            values = VALUES_OF[self._supply[cur]]
            return by_code[f << 4 | values[int(rng.random() * len(values))]]
        last = bids[-1]
        lv = cells[last] & 15
        higher = VALUES_OF[self._supply[cur] >> (lv + 1) << (lv + 1)]
        if not higher:
            return PASS
        free = [f for f in self._facts.adjacent[last] if cells[f] == FREE]
        k = int(rng.random() * (len(free) + 1))
        if k == len(free):
            return PASS
        return by_code[free[k] << 4 | higher[int(rng.random() * len(higher))]]

    def _reject(self, move: object) -> IllegalMove:
        """The IllegalMove naming the first rule ``move`` breaks (the state is untouched)."""
        if self._current < 0:
            return IllegalMove("the game is over: no more bids or passes")
        if not isinstance(move, MetropolysMove):
            return IllegalMove(f"{move!r} is not a Metropolys move")
        if move is PASS:
            return IllegalMove("the opening bid is mandatory: the start player cannot pass")
        value, field = move.value, move.field
        cell = self._cells[field]
        if cell == OUT_OF_PLAY:
            district = DISTRICTS[DISTRICT[field]]
            return IllegalMove(
                f"field {field} is in the {district} district, which is not used "
                f"with {self._facts.players} players"
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
            if field not in self._facts.adjacent[last]:
                return IllegalMove(f"field {field} is not adjacent to field {last}")
        return IllegalMove(f"{move} is not legal here")  # pragma: no cover

    def apply(self, move: Any) -> None:
        cur = self._current
        cells = self._cells
        bids = self._bids
        if move is PASS:
            if cur < 0 or not bids:
                raise self._reject(move)
            self._passed |= 1 << cur
        else:
            if cur < 0 or move.__class__ is not MetropolysMove:
                raise self._reject(move)
            value = move.value
            field = move.field
            if (
                cells[field] != FREE
                or not self._supply[cur] >> value & 1
                or (
                    bids
                    and (
                        value <= cells[bids[-1]] & 15 or field not in self._facts.adjacent[bids[-1]]
                    )
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
        facts = self._facts
        active = facts.all_mask & ~self._passed & ~(1 << lp)
        if active:
            free = False
            for g in facts.adjacent[last]:
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
                        n = facts.players
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
                holder = self._metro_holder
                if holder < 0 or (
                    holder != winner
                    and collected[winner * 4 + METRO] > collected[holder * 4 + METRO]
                ):
                    self._metro_holder = winner
            elif token == ARCHAEOLOGY:
                self._archaeology_holder = winner
        self._built[winner] += 1
        if self._built[winner] == 13:
            self._current = TERMINAL
        else:
            self._current = winner
            self._start = winner

    @property
    def history(self) -> Sequence[MetropolysMove]:
        return self._moves

    # -- events -----------------------------------------------------------------------------
    def opening_events(self) -> tuple[Event, ...]:
        setup = self._facts.setup
        out = [
            Event(
                "game_started",
                {
                    "mode": setup.mode,
                    "players": setup.players,
                    "first_player": setup.first_player,
                    "unused_districts": list(setup.unused),
                },
            )
        ]
        for p in range(setup.players):
            cards = {"player": p, "area_card": setup.area_cards[p]}
            if setup.neighbourhood_cards is not None:
                cards["neighbourhood_card"] = setup.neighbourhood_cards[p]
            out.append(Event("cards_dealt", cards, to=(p,)))
        out.append(Event("round_started", {"round": 1, "player": setup.first_player}))
        return tuple(out)

    def _end_reason(self, move: MetropolysMove) -> tuple[int, str] | None:
        """Before ``move`` is applied: (the bid field, why) if it ends the round (§5.1.4)."""
        cells, bids = self._cells, self._bids
        if move is PASS:
            last = bids[-1]
            bidder = cells[last] >> 4
            value = cells[last] & 15
            passed = self._passed | 1 << self._current
        else:
            last, bidder, value, passed = move.field, self._current, move.value, self._passed
        facts = self._facts
        active = facts.all_mask & ~passed & ~(1 << bidder)
        if not active:
            return last, "all_passed"
        if not any(cells[g] == FREE and g != last for g in facts.adjacent[last]):
            return last, "no_free_neighbour"
        for q in range(facts.players):
            if active >> q & 1 and self._supply[q] >> (value + 1):
                return None
        return last, "nobody_higher"

    def play(self, move: Any) -> tuple[Event, ...]:
        p = self._current
        opening = not self._bids
        previous = self._bids[-1] if self._bids else -1
        # Read before apply: a raise that ends the round frees the field it raised over.
        previous_value = self._cells[previous] & 15 if previous >= 0 else 0
        # An opening pass is illegal (apply says why): _end_reason needs a bid to look at.
        judged = p >= 0 and isinstance(move, MetropolysMove) and not (opening and move is PASS)
        ending = self._end_reason(move) if judged else None
        bids = [(f, self._cells[f]) for f in self._bids]
        tokens = list(self._tokens)
        metro, archaeology = self._metro_holder, self._archaeology_holder
        self.apply(move)  # raises before anything changes
        out: list[Event] = []
        if move is PASS:
            out.append(Event("player_passed", {"player": p}))
        elif opening:
            out.append(Event("bid_placed", {"player": p, "value": move.value, "field": move.field}))
        else:
            out.append(
                Event(
                    "bid_raised",
                    {
                        "player": p,
                        "value": move.value,
                        "field": move.field,
                        "over_field": previous,
                        "over_value": previous_value,
                    },
                )
            )
        if ending is None:
            return tuple(out)
        field, reason = ending
        winner = self._cells[field] >> 4
        returned = [{"player": c >> 4, "value": c & 15, "field": f} for f, c in bids if f != field]
        out.append(
            Event(
                "bid_won",
                {
                    "player": winner,
                    "value": self._cells[field] & 15,
                    "field": field,
                    "reason": reason,
                    "returned": returned,
                },
            )
        )
        if tokens[field]:
            token = TOKENS[tokens[field] - 1]
            out.append(Event("token_collected", {"player": winner, "token": token, "field": field}))
        for card, before, after in (
            ("metro", metro, self._metro_holder),
            ("archaeology", archaeology, self._archaeology_holder),
        ):
            if before != after:
                previous_holder = before if before >= 0 else None
                out.append(
                    Event(
                        "card_changed_hands",
                        {"card": card, "player": after, "from": previous_holder},
                    )
                )
        rounds = sum(self._built)
        out.append(Event("round_ended", {"round": rounds, "player": winner}))
        if self._current == TERMINAL:
            result = self.result()
            setup = self._facts.setup
            cards = [
                {
                    "player": q,
                    "area_card": setup.area_cards[q],
                    "neighbourhood_card": setup.neighbourhood_cards[q]
                    if setup.neighbourhood_cards is not None
                    else None,
                }
                for q in range(setup.players)
            ]
            out.append(
                Event(
                    "game_ended",
                    {
                        "scores": list(result.scores),
                        "ranking": [list(g) for g in result.ranking],
                        "cards": cards,
                    },
                )
            )
        else:
            out.append(Event("round_started", {"round": rounds + 1, "player": winner}))
        return tuple(out)

    # -- outcome ----------------------------------------------------------------------------
    def end_position(self) -> EndPosition:
        """The built buildings, tokens and (revealed) cards as they stand now."""
        n = self._facts.players
        setup = self._facts.setup
        built: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        bids = set(self._bids)
        for f, c in enumerate(self._cells):
            if c < OUT_OF_PLAY and f not in bids:
                built[c >> 4].append((f, c & 15))
        col = self._collected
        return EndPosition(
            mode=self._facts.mode,
            players=n,
            unused=setup.unused_codes,
            buildings=tuple(tuple(b) for b in built),
            tokens=tuple((col[p * 4 + 1], col[p * 4 + 2], col[p * 4 + 3]) for p in range(n)),
            metro_card=self._metro_holder if self._metro_holder >= 0 else None,
            archaeology_card=self._archaeology_holder if self._archaeology_holder >= 0 else None,
            area_cards=setup.area_cards,
            neighbourhood_cards=setup.neighbourhood_cards,
            options=self._facts.options,
        )

    def result(self) -> GameResult:
        if self._result is None:
            if self._current != TERMINAL:
                raise IllegalMove("the game is not over yet: no result")
            self._result = game_result(self.end_position(), self._built)
        return self._result

    def scores_now(self) -> tuple[int, ...]:
        """Points each player would score if the game ended now (bids do not count)."""
        return tuple(sum(b.values()) for b in player_breakdowns(self.end_position()))

    # -- information ------------------------------------------------------------------------
    def view(self, player: int | None) -> MetropolysView:
        return view_of(self, player)

    def render_text(self, player: int | None = None) -> str:
        from polis.games.metropolys.render import render_text

        return render_text(self.view(player))

    # -- copies and records -----------------------------------------------------------------
    def clone(self) -> Self:
        new = object.__new__(type(self))
        new._facts = self._facts
        new._cells = self._cells[:]
        new._tokens = self._tokens[:]
        new._supply = self._supply[:]
        new._built = self._built[:]
        new._collected = self._collected[:]
        new._metro_holder = self._metro_holder
        new._archaeology_holder = self._archaeology_holder
        new._bids = self._bids[:]
        new._passed = self._passed
        new._current = self._current
        new._start = self._start
        new._moves = self._moves[:]
        new._result = self._result
        return new

    def setup(self) -> dict[str, Any]:
        return self._facts.setup.to_json()

    def options(self) -> dict[str, Any]:
        return dict(self._facts.options.to_json())

    @property
    def setup_data(self) -> Setup:
        """The validated set-up object (hidden cards included)."""
        return self._facts.setup

    @property
    def rules(self) -> Options:
        return self._facts.options

    # -- read access for views, renderers and the bots' own samples --------------------------
    def building_at(self, field: int) -> tuple[int, int, bool] | None:
        """(player, value, built) of the building on ``field``, or None."""
        c = self._cells[field]
        if c >= OUT_OF_PLAY:
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
        return self._built[player]

    def collected(self, player: int) -> dict[str, int]:
        base = player * 4
        return {name: self._collected[base + i] for i, name in enumerate(TOKENS, start=1)}

    @property
    def metro_card(self) -> int | None:
        return self._metro_holder if self._metro_holder >= 0 else None

    @property
    def archaeology_card(self) -> int | None:
        return self._archaeology_holder if self._archaeology_holder >= 0 else None

    @property
    def bids(self) -> tuple[tuple[int, int, int], ...]:
        """(field, value, player) of each bid this round, in order; the last is current."""
        cells = self._cells
        return tuple((f, cells[f] & 15, cells[f] >> 4) for f in self._bids)

    @property
    def passed(self) -> tuple[int, ...]:
        return tuple(p for p in range(self._facts.players) if self._passed >> p & 1)


assert len(BY_CODE) == NUM_CODES

__all__ = ["FREE", "OUT_OF_PLAY", "VALUES_OF", "GameFacts", "MetropolysState"]
