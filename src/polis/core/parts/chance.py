"""The ``chance`` part: what a game tells OpenSpiel about its chance and its length.

OpenSpiel wants chance as explicit nodes of the game tree, not as a seed, and it wants a few
bounds of the game up front. Both are facts of one game, so each game answers them in its
``chance`` part (``game.plugin(CHANCE)``, a :class:`ChanceModel`; :mod:`polis.core.parts`);
the OpenSpiel adapter (:mod:`polis.research.openspiel_game`) and the rollout evaluator only
call the protocol.

A *deal* (:class:`Deal`) is the chance record of one game: it turns the set-up of formats §3
into small chance decisions, each uniform (or weighted exactly as the physical shuffle) over
what is still possible, and writes what has been dealt as a set-up dict the engine accepts,
so the engine stays the only judge of the rules. A game may deal everything before the first
move or deal parts when play reaches them (so search bots cannot peek at them).
"""

from __future__ import annotations

import random
from typing import Any, Protocol, Self

from polis.core.protocol import JSON, GameState
from polis.core.view import View

#: ``free_until`` of a deal with nothing left to deal.
NEVER = 1 << 30


class Deal(Protocol):
    """The chance record of one game, filled one chance node at a time."""

    def copy(self) -> Self:
        """An independent copy (OpenSpiel clones states often: keep it cheap)."""
        ...

    def free_until(self) -> int:
        """How many player moves the game has when the next chance node is due: 0 while a
        part is being dealt, :data:`NEVER` once everything is dealt."""
        ...

    def ready(self) -> bool:
        """Is enough dealt to build the engine (everything the first move needs)?"""
        ...

    def outcomes(self) -> list[tuple[int, float]]:
        """The chance node due now: (outcome, probability) pairs, probabilities summing to 1."""
        ...

    def apply(self, outcome: int) -> bool:
        """Record ``outcome``; True when the engine must be (re)built from :meth:`setup`."""
        ...

    def outcome_str(self, outcome: int) -> str:
        """``outcome`` of the node due now, in words."""
        ...

    def setup(self) -> dict[str, JSON]:
        """The engine's set-up (formats §3) for what is dealt; parts not dealt yet are
        placeholders that no view shows before they are dealt."""
        ...

    def describe(self) -> str:
        """Everything dealt so far, hidden facts included (OpenSpiel's ``str(state)``)."""
        ...

    def resampled(self, world: GameState) -> Self:
        """The record of ``world``, a determinization of this record's position: the same
        chance nodes dealt as here, their outcomes read from ``world``."""
        ...

    def world(self, engine: GameState, rng: random.Random) -> GameState:
        """A complete state at ``engine``'s position (built from this record) whose parts not
        dealt yet are drawn from ``rng``, so a rollout never plays on placeholders."""
        ...


class ChanceModel(Protocol):
    """A game's ``chance`` part: makes the deal of a table and bounds the game.

    The plugin is usually the deal's class, with the bounds as class methods.
    """

    def __call__(self, mode: str, players: int, first: int | None) -> Deal:
        """A fresh deal; ``first`` fixes the first player (None: a chance node decides)."""
        ...

    def max_outcomes(self, mode: str, players: int) -> int:
        """Most outcomes of one chance node."""
        ...

    def max_chance_nodes(self, mode: str, players: int) -> int:
        """Most chance nodes in one game."""
        ...

    def max_game_length(self, mode: str, players: int) -> int:
        """Most player moves in one game."""
        ...

    def recall(self, view: View) -> dict[str, Any]:
        """The facts of ``view`` that together hold everything its player has seen so far
        (the information state: own secrets, public set-up facts, every public move), as
        JSON-able values."""
        ...


__all__ = ["NEVER", "ChanceModel", "Deal"]
