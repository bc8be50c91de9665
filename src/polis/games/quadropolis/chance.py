"""Quadropolis chance for OpenSpiel: the first player, then each round's layout as it starts.

The research chance model (:class:`polis.core.parts.chance.ChanceModel`) of Quadropolis:
:class:`QuadropolisDeal` deals the first player (unless the table fixes it), then each
round's layout when that round starts: one chance node per site square r1c1 .. r5c5,
outcome = the position of the tile in the round's pool sorted by tile id. So the rounds to
come are genuinely undecided during play, and search bots cannot peek at them.
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any, Final, Self

from polis.core.parts.chance import NEVER
from polis.core.protocol import GameState
from polis.core.view import View
from polis.games.quadropolis.setup import Setup
from polis.games.quadropolis.state import QuadropolisState
from polis.games.quadropolis.tiles import POOLS, ROUNDS, TILES
from polis.games.quadropolis.view import QuadropolisView

if TYPE_CHECKING:
    from polis.core.parts.chance import ChanceModel

#: Site squares dealt per round.
SQUARES: Final = 25
#: Per mode and round, the pool's tile indices sorted by tile id: outcome i is ``POOL[r][i]``.
POOL: Final = {
    mode: tuple(tuple(sorted(pool, key=lambda t: TILES[t].id)) for pool in pools)
    for mode, pools in POOLS.items()
}
_POSITION: Final = {
    mode: tuple({t: i for i, t in enumerate(pool)} for pool in pools)
    for mode, pools in POOL.items()
}


class QuadropolisDeal:
    """Chance record of a Quadropolis game: first player and the layouts dealt so far.

    The class methods are the table's bounds for OpenSpiel (the chance-model protocol).
    """

    __slots__ = ("first", "mode", "players", "rounds")

    def __init__(self, mode: str, players: int, first: int | None) -> None:
        self.mode = mode
        self.players = players
        self.first = first
        #: Per round dealt or being dealt: pool positions, row-major site squares.
        self.rounds: list[list[int]] = []

    # -- the table's bounds ----------------------------------------------------------------
    @classmethod
    def max_outcomes(cls, mode: str, players: int) -> int:
        return max(SQUARES, players)

    @classmethod
    def max_chance_nodes(cls, mode: str, players: int) -> int:
        return 1 + SQUARES * ROUNDS[mode]

    @classmethod
    def max_game_length(cls, mode: str, players: int) -> int:
        """Four turns per player and round."""
        return ROUNDS[mode] * 4 * players

    @classmethod
    def recall(cls, view: View) -> dict[str, Any]:
        """Whose view, the first player, every layout dealt as seen (face-down tiles unknown)
        and every move: all a Quadropolis player has seen."""
        assert isinstance(view, QuadropolisView)
        return {
            "player": view.player,
            "starting_player": view.starting_player,
            "public_rounds": [
                [TILES[t].id if t >= 0 else None for t in layout] for layout in view.public_rounds
            ],
            "moves": [m.text for m in view.moves],
        }

    # -- dealing -----------------------------------------------------------------------------
    def copy(self) -> Self:
        out = type(self)(self.mode, self.players, self.first)
        out.rounds = [list(r) for r in self.rounds]
        return out

    def _dealing(self) -> bool:
        """Is a round's layout half dealt?"""
        return bool(self.rounds) and len(self.rounds[-1]) < SQUARES

    def free_until(self) -> int:
        """A round is dealt when the moves of the rounds before it are played."""
        if self.first is None or not self.rounds or self._dealing():
            return 0
        if len(self.rounds) == ROUNDS[self.mode]:
            return NEVER
        return len(self.rounds) * 4 * self.players

    def ready(self) -> bool:
        return self.first is not None and bool(self.rounds) and len(self.rounds[0]) == SQUARES

    def outcomes(self) -> list[tuple[int, float]]:
        if self.first is None:
            return [(p, 1.0 / self.players) for p in range(self.players)]
        current = self.rounds[-1] if self._dealing() else []
        left = sorted(set(range(SQUARES)) - set(current))
        return [(i, 1.0 / len(left)) for i in left]

    def apply(self, outcome: int) -> bool:
        """Record ``outcome``; True when a round's layout (the engine's input) is complete."""
        if self.first is None:
            self.first = outcome
            return False
        if not self._dealing():
            self.rounds.append([])
        self.rounds[-1].append(outcome)
        return len(self.rounds[-1]) == SQUARES

    def outcome_str(self, outcome: int) -> str:
        if self.first is None:
            return f"first player {outcome}"
        if self._dealing():
            r, square = len(self.rounds), len(self.rounds[-1])
        else:
            r, square = len(self.rounds) + 1, 0
        tile = TILES[POOL[self.mode][r - 1][outcome]].id
        return f"round {r} r{square // 5 + 1}c{square % 5 + 1}: {tile}"

    def setup(self) -> dict[str, Any]:
        """The engine set-up: dealt rounds, later rounds as placeholders (never shown, since
        a round is re-dealt before it starts)."""
        pools = POOL[self.mode]
        rounds = [
            [TILES[pools[r][i]].id for i in layout]
            for r, layout in enumerate(self.rounds)
            if len(layout) == SQUARES
        ]
        rounds += [[TILES[t].id for t in pools[r]] for r in range(len(rounds), len(pools))]
        return {"first_player": self.first, "rounds": rounds}

    def describe(self) -> str:
        if not self.ready():
            return f"first player {self.first}, dealing round 1: {self.rounds}"
        head = json.dumps(self.setup(), sort_keys=True)
        if self._dealing():
            head += f"\ndealing round {len(self.rounds)}: {self.rounds[-1]}"
        return head

    def resampled(self, world: GameState) -> Self:
        """The first player and the layouts of the rounds dealt here, as ``world`` has them."""
        assert isinstance(world, QuadropolisState)
        setup = world.setup_data
        out = type(self)(self.mode, self.players, setup.first_player)
        positions = _POSITION[self.mode]
        out.rounds = [
            [positions[r][t] for t in setup.rounds[r]]
            for r in range(len(self.rounds))
            if len(self.rounds[r]) == SQUARES
        ]
        return out

    def world(self, engine: GameState, rng: random.Random) -> GameState:
        """``engine`` with the rounds not dealt yet shuffled from their pools."""
        assert isinstance(engine, QuadropolisState)
        setup = engine.setup_data
        dealt = sum(1 for layout in self.rounds if len(layout) == SQUARES)
        rounds = list(setup.rounds)
        for r in range(dealt, len(rounds)):
            order = list(POOL[self.mode][r])
            rng.shuffle(order)
            rounds[r] = tuple(order)
        world = QuadropolisState(
            Setup(setup.mode, setup.players, setup.first_player, tuple(rounds)), engine.rules
        )
        for move in engine.history:
            world.apply(move)
        return world


if TYPE_CHECKING:
    _MODEL: ChanceModel = QuadropolisDeal  # mypy checks the class against the protocol

__all__ = ["POOL", "QuadropolisDeal"]
