"""What one player may see of a Metropolys game: :class:`MetropolysView`, with no other
player's secret card in it until the game is over (then every card is revealed).

The view holds plain numbers (packed fields, supply masks, the move objects); ``to_json``
writes its JSON only where the view leaves the process. The JSON's keys, their types and
what each means are :class:`MetropolysViewJSON` (:mod:`polis.games.metropolys.view_json`):
``game``, ``mode``, ``players``, ``player``, ``current_player`` (-1 once over),
``terminal``, ``moves``; ``first_player``, ``start_player``, ``unused_districts``,
``layout``, ``options``; ``fields`` (55), ``bid``, ``bids``, ``passed``; ``supplies``,
``built``, ``tokens_collected``, ``metro_card``, ``archaeology_card``, ``running_score``
(the public points as they stand; everything once over); the viewer's own
``area_card`` and ``neighbourhood_card``; and only once the game is over ``cards`` (every
player's, revealed) and ``result``.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from polis.core.errors import InputError
from polis.core.result import GameResult
from polis.core.view import TERMINAL, View
from polis.games.metropolys.board import (
    COLOUR,
    DISTRICT,
    DISTRICTS,
    NUM_FIELDS,
    TOKENS,
    VALUES_OF,
)
from polis.games.metropolys.moves import MetropolysMove
from polis.games.metropolys.options import Options
from polis.games.metropolys.scoring import public_breakdowns
from polis.games.metropolys.view_json import (
    BidJSON,
    FieldJSON,
    MetropolysRunningScoreJSON,
    MetropolysViewJSON,
)

if TYPE_CHECKING:
    from polis.games.metropolys.state import MetropolysState


@dataclass(frozen=True, slots=True)
class MetropolysView(View):
    """One seat's (or a spectator's) information state; see the module docstring."""

    game: ClassVar[str] = "metropolys"

    mode: str
    players: int
    player: int | None
    current_player: int
    moves: tuple[MetropolysMove, ...]
    options: Options
    first_player: int
    start_player: int
    unused_districts: tuple[str, ...]
    #: Token code dealt on each field (0 none, 1 chic, 2 metro, 3 archaeology): public.
    layout: tuple[int, ...]
    #: 55 fields: -1 free, -2 out of play, else player * 16 + value.
    cells: tuple[int, ...]
    #: Token code still lying on each field.
    tokens: tuple[int, ...]
    #: Fields bid this round, in order (the last is the current bid).
    bids: tuple[int, ...]
    #: Bit mask of the players who passed this round.
    passed: int
    #: Per player, the supply as a bit mask (bit v = building v).
    supplies: tuple[int, ...]
    built: tuple[int, ...]
    #: players x 4: tokens collected, by token code (index 0 unused).
    collected: tuple[int, ...]
    #: Holder of the metro / archaeology card, or -1.
    metro_card: int
    archaeology_card: int
    #: The viewer's own secret cards (None for a spectator; neighbourhood None in Family).
    area_card: str | None
    neighbourhood_card: str | None
    #: Once the game is over: every player's (area card, neighbourhood card), revealed.
    revealed: tuple[tuple[str, str | None], ...] | None
    result: GameResult | None

    def supply(self, player: int) -> tuple[int, ...]:
        """Values in ``player``'s supply, ascending."""
        return VALUES_OF[self.supplies[player]]

    def building_at(self, field: int) -> tuple[int, int, bool] | None:
        """(player, value, built) of the building on ``field``, or None."""
        c = self.cells[field]
        if c < 0:
            return None
        return c >> 4, c & 15, field not in self.bids

    def running_score(self) -> list[MetropolysRunningScoreJSON]:
        """Each player's score as far as everybody may know it (the table's running score):
        the public points during the game, never a secret card's (so every seat's is the
        same); once over, the result's total and breakdown."""
        if self.result is not None:
            report = self.result.to_json()["players"]
            return [{"total": r["total"], "categories": dict(r["breakdown"])} for r in report]
        buildings: list[list[tuple[int, int]]] = [[] for _ in range(self.players)]
        for f in range(NUM_FIELDS):
            b = self.building_at(f)
            if b is not None and b[2]:
                buildings[b[0]].append((f, b[1]))
        rows = public_breakdowns(
            self.mode,
            frozenset(DISTRICTS.index(d) for d in self.unused_districts),
            buildings,
            [
                (self.collected[p * 4 + 1], self.collected[p * 4 + 2], self.collected[p * 4 + 3])
                for p in range(self.players)
            ],
            self.metro_card if self.metro_card >= 0 else None,
            self.archaeology_card if self.archaeology_card >= 0 else None,
        )
        return [{"total": sum(row.values()), "categories": row} for row in rows]

    def to_json(self) -> MetropolysViewJSON:
        n = self.players
        fields: list[FieldJSON] = []
        for f in range(NUM_FIELDS):
            b = self.building_at(f)
            token = self.tokens[f]
            fields.append(
                {
                    "id": f,
                    "district": DISTRICTS[DISTRICT[f]],
                    "colour": COLOUR[f],
                    "in_play": self.cells[f] != -2,
                    "token": TOKENS[token - 1] if token else None,
                    "building": None
                    if b is None
                    else {"player": b[0], "value": b[1], "built": b[2]},
                }
            )
        bids: list[BidJSON] = [
            {"field": f, "value": self.cells[f] & 15, "player": self.cells[f] >> 4}
            for f in self.bids
        ]
        out: MetropolysViewJSON = {
            "game": "metropolys",
            "mode": self.mode,
            "players": n,
            "player": self.player,
            "current_player": self.current_player,
            "terminal": self.finished,
            "moves": [m.text for m in self.moves],
            "first_player": self.first_player,
            "start_player": self.start_player,
            "unused_districts": list(self.unused_districts),
            "layout": {str(f): TOKENS[c - 1] for f, c in enumerate(self.layout) if c},
            "options": self.options.to_json(),
            "fields": fields,
            "bid": bids[-1] if bids else None,
            "bids": bids,
            "passed": [p for p in range(n) if self.passed >> p & 1],
            "supplies": [list(self.supply(p)) for p in range(n)],
            "built": list(self.built),
            "tokens_collected": [  # by token code: 1 chic, 2 metro, 3 archaeology (TOKENS)
                {
                    "chic": self.collected[p * 4 + 1],
                    "metro": self.collected[p * 4 + 2],
                    "archaeology": self.collected[p * 4 + 3],
                }
                for p in range(n)
            ],
            "metro_card": self.metro_card if self.metro_card >= 0 else None,
            "archaeology_card": self.archaeology_card if self.archaeology_card >= 0 else None,
            "running_score": self.running_score(),
            "area_card": self.area_card,
            "neighbourhood_card": self.neighbourhood_card,
        }
        if self.revealed is not None:
            out["cards"] = [
                {"area_card": area, "neighbourhood_card": colour} for area, colour in self.revealed
            ]
        if self.result is not None:
            out["result"] = self.result.to_json()
        return out


def view_of(state: MetropolysState, player: int | None) -> MetropolysView:
    """The view of ``player`` (or of a spectator): a few tuple copies of the state."""
    n = state.num_players
    if player is not None and (isinstance(player, bool) or not 0 <= player < n):
        raise InputError(f"no player {player!r} in a {n}-player game")
    setup = state.setup_data
    colours = setup.neighbourhood_cards
    own_area = own_colour = None
    if player is not None:
        own_area = setup.area_cards[player]
        if colours is not None:
            own_colour = colours[player]
    finished = state._current == TERMINAL
    revealed = None
    if finished:
        revealed = tuple(
            (setup.area_cards[p], colours[p] if colours is not None else None) for p in range(n)
        )
    return MetropolysView(
        mode=setup.mode,
        players=n,
        player=player,
        current_player=state._current,
        moves=tuple(state._moves),
        options=state.rules,
        first_player=setup.first_player,
        start_player=state._start,
        unused_districts=setup.unused,
        layout=setup.tokens,
        cells=tuple(array("b", state._cells)),  # the bytes as signed: -1 free, -2 out of play
        tokens=tuple(state._tokens),
        bids=tuple(state._bids),
        passed=state._passed,
        supplies=tuple(state._supply),
        built=tuple(state._built),
        collected=tuple(state._collected),
        metro_card=state._metro_holder,
        archaeology_card=state._archaeology_holder,
        area_card=own_area,
        neighbourhood_card=own_colour,
        revealed=revealed,
        result=state.result() if finished else None,
    )


__all__ = ["MetropolysView", "view_of"]
