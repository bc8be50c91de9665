"""Metropolys chance for OpenSpiel: the whole set-up, dealt before the first bid.

The research chance model (:class:`polis.core.parts.chance.ChanceModel`) of Metropolys:
:class:`MetropolysDeal` deals the unused district(s) (2-3 players), then per district in
play each token's field and type, then the secret cards (area, and neighbourhood in
Expert), then (unless the table fixes it) the first player. Every chance outcome of
Metropolys happens before the first bid, so the engine is built once, when all is dealt.
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any, Final, Self

from polis.core.parts.chance import NEVER
from polis.core.protocol import GameState
from polis.core.view import View
from polis.games.metropolys.board import (
    ADJACENT_PERIPHERAL_PAIRS,
    CENTER_TOKENS,
    COLOURS,
    DISTRICTS,
    PERIPHERAL_TOKENS,
    TOKEN_COUNTS,
    TOKEN_FIELDS,
    TOKENS,
    VALUES,
)
from polis.games.metropolys.cards import area_deck
from polis.games.metropolys.state import MetropolysState
from polis.games.metropolys.view import MetropolysView

if TYPE_CHECKING:
    from polis.core.parts.chance import ChanceModel

#: Most outcomes of a node: a token's field among the 55.
FIELDS: Final = 55


class MetropolysDeal:
    """Chance record of a Metropolys set-up, filled one chance node at a time.

    The class methods are the table's bounds for OpenSpiel (the chance-model protocol).
    """

    __slots__ = ("area", "first", "mode", "neighbourhood", "players", "tokens", "unused")

    def __init__(self, mode: str, players: int, first: int | None) -> None:
        self.mode = mode
        self.players = players
        self.first = first
        self.unused: tuple[str, ...] | None = () if players == 4 else None
        self.tokens: list[tuple[int, int]] = []  # (field, type) in dealing order
        self.area: list[str] = []
        self.neighbourhood: list[str] = []

    # -- the table's bounds ----------------------------------------------------------------
    @classmethod
    def max_outcomes(cls, mode: str, players: int) -> int:
        return FIELDS

    @classmethod
    def max_chance_nodes(cls, mode: str, players: int) -> int:
        """Unused districts, each token's field and type, the cards, the first player."""
        slots = CENTER_TOKENS + PERIPHERAL_TOKENS * (players - 1)
        return 1 + 2 * slots + 2 * players + 1

    @classmethod
    def max_game_length(cls, mode: str, players: int) -> int:
        """The game ends with someone's last building; a round is at most every rising bid
        1..13 and then the passes."""
        buildings = len(VALUES)
        builds = buildings + (buildings - 1) * (players - 1)
        return builds * (buildings + players - 1)

    @classmethod
    def recall(cls, view: View) -> dict[str, Any]:
        """Whose view, the public set-up, the player's own secret cards and every move: all
        a Metropolys player has seen."""
        assert isinstance(view, MetropolysView)
        return {
            "player": view.player,
            "first_player": view.first_player,
            "unused_districts": list(view.unused_districts),
            "layout": {str(f): TOKENS[c - 1] for f, c in enumerate(view.layout) if c},
            "area_card": view.area_card,
            "neighbourhood_card": view.neighbourhood_card,
            "moves": [m.text for m in view.moves],
        }

    # -- dealing -----------------------------------------------------------------------------
    def copy(self) -> Self:
        out = type(self)(self.mode, self.players, self.first)
        out.unused = self.unused
        out.tokens = list(self.tokens)
        out.area = list(self.area)
        out.neighbourhood = list(self.neighbourhood)
        return out

    # The dealing order: unused, tokens (field then type, per slot), area, neighbourhood, first.
    def _slots(self) -> list[int]:
        """District code of every token slot, in dealing order."""
        assert self.unused is not None
        out = []
        for d, name in enumerate(DISTRICTS):
            if name not in self.unused:
                out += [d] * (CENTER_TOKENS if d == 0 else PERIPHERAL_TOKENS)
        return out

    def _step(self) -> str:
        if self.unused is None:
            return "unused"
        if self.tokens and self.tokens[-1][1] < 0:
            return "type"
        if len(self.tokens) < len(self._slots()):
            return "field"
        if len(self.area) < self.players:
            return "area"
        if self.mode == "expert" and len(self.neighbourhood) < self.players:
            return "neighbourhood"
        if self.first is None:
            return "first"
        return "done"

    def free_until(self) -> int:
        """Nothing is dealt once play has begun."""
        return NEVER if self.ready() else 0

    def ready(self) -> bool:
        return self._step() == "done"

    def outcomes(self) -> list[tuple[int, float]]:
        step = self._step()
        if step == "unused":
            k = 4  # 3 players: one of 4 districts (code 1-4); 2 players: one of 4 pairs
            return [(i, 1.0 / k) for i in range(k)]
        if step == "field":
            district = self._slots()[len(self.tokens)]
            taken = {f for f, _ in self.tokens}
            left = [f for f in TOKEN_FIELDS[district] if f not in taken]
            return [(f, 1.0 / len(left)) for f in left]
        if step == "type":
            counts = [TOKEN_COUNTS[self.players][t] for t in TOKENS]
            for _, t in self.tokens[:-1]:
                counts[t] -= 1
            total = sum(counts)
            return [(t, c / total) for t, c in enumerate(counts) if c]
        if step == "area":
            deck = area_deck(self.mode, self.players)
            left = [i for i, c in enumerate(deck) if c not in self.area]
            return [(i, 1.0 / len(left)) for i in left]
        if step == "neighbourhood":
            left = [i for i, c in enumerate(COLOURS) if c not in self.neighbourhood]
            return [(i, 1.0 / len(left)) for i in left]
        return [(p, 1.0 / self.players) for p in range(self.players)]

    def apply(self, outcome: int) -> bool:
        """Record ``outcome``; True once the whole set-up is dealt."""
        step = self._step()
        if step == "unused":
            pairs = ADJACENT_PERIPHERAL_PAIRS
            self.unused = (DISTRICTS[1 + outcome],) if self.players == 3 else pairs[outcome]
        elif step == "field":
            self.tokens.append((outcome, -1))
        elif step == "type":
            self.tokens[-1] = (self.tokens[-1][0], outcome)
        elif step == "area":
            self.area.append(area_deck(self.mode, self.players)[outcome])
        elif step == "neighbourhood":
            self.neighbourhood.append(COLOURS[outcome])
        else:
            self.first = outcome
        return self._step() == "done"

    def outcome_str(self, outcome: int) -> str:
        step = self._step()
        if step == "unused":
            if self.players == 3:
                return f"unused district {DISTRICTS[1 + outcome]}"
            return f"unused districts {'+'.join(ADJACENT_PERIPHERAL_PAIRS[outcome])}"
        if step == "field":
            return f"token on field {outcome}"
        if step == "type":
            return f"token type {TOKENS[outcome]}"
        if step == "area":
            card = area_deck(self.mode, self.players)[outcome]
            return f"area card {card} to player {len(self.area)}"
        if step == "neighbourhood":
            return f"neighbourhood card {COLOURS[outcome]} to player {len(self.neighbourhood)}"
        return f"first player {outcome}"

    def setup(self) -> dict[str, Any]:
        assert self.unused is not None and self.first is not None
        out: dict[str, Any] = {
            "first_player": self.first,
            "unused_districts": list(self.unused),
            "tokens": {str(f): TOKENS[t] for f, t in self.tokens},
            "area_cards": list(self.area),
        }
        if self.mode == "expert":
            out["neighbourhood_cards"] = list(self.neighbourhood)
        return out

    def describe(self) -> str:
        if self.ready():
            return json.dumps(self.setup(), sort_keys=True)
        return repr({k: getattr(self, k) for k in self.__slots__})

    def resampled(self, world: GameState) -> Self:
        """``world``'s whole set-up (everything is dealt before play; the token dealing
        order is by district, then by field id)."""
        assert isinstance(world, MetropolysState)
        setup = world.setup_data
        out = type(self)(self.mode, self.players, setup.first_player)
        out.unused = setup.unused
        out.tokens = [
            (f, setup.tokens[f] - 1) for fields in TOKEN_FIELDS for f in fields if setup.tokens[f]
        ]
        out.area = list(setup.area_cards)
        out.neighbourhood = list(setup.neighbourhood_cards or ())
        return out

    def world(self, engine: GameState, rng: random.Random) -> GameState:
        """Everything is dealt before play: a copy of ``engine``."""
        return engine.clone()


if TYPE_CHECKING:
    _MODEL: ChanceModel = MetropolysDeal  # mypy checks the class against the protocol

__all__ = ["MetropolysDeal"]
