"""Opponents of the one-seat environments: polis bots by name, ``random`` played fast.

An opponent is a function from a state where it is to move to its move. Bots decide
through the core match step (:class:`polis.core.match.Turn`, :func:`polis.bots.agent_seat`):
their own view and the legal moves. ``random`` draws uniformly among the legal action ids of
the encoder's mask (straight from the state): the same distribution as the ``random`` bot,
without building a view and a move list for a move that reads neither.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from polis.core.match import Seat, Turn
from polis.core.moves import Move
from polis.core.protocol import Game, GameState
from polis.research.observations import Encoder

#: An opponent: the move it plays in a state where it is to move.
Opponent = Callable[[GameState], Move]


def random_opponent(enc: Encoder[Any], space: Sequence[Move], rng: random.Random) -> Opponent:
    """Uniform over the legal moves: the encoder's pick among its legal ids."""
    pick, draw = enc.pick_legal_id, rng.random

    def play(state: GameState) -> Move:
        return space[pick(state, draw())]

    return play


def bot_opponent(seat: Seat) -> Opponent:
    """A polis bot's seat as an opponent: it decides through the core match step."""

    def play(state: GameState) -> Move:
        move: Move = seat(Turn(state))
        return move

    return play


def make_opponent(
    spec: Any, seed: int, game: Game, enc: Encoder[Any], space: Sequence[Move]
) -> Opponent:
    """The opponent of a parsed agent spec (:func:`polis.bots.parse_agent_spec`), seeded."""
    from polis.bots import agent_seat

    if spec.kind == "random" and spec.level_budgets is None:
        return random_opponent(enc, space, random.Random(seed))
    return bot_opponent(agent_seat(spec.make(seed), spec.budget, game))


__all__ = ["Opponent", "bot_opponent", "make_opponent", "random_opponent"]
