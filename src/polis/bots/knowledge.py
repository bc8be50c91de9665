"""Game-specific knowledge the bots plug in: evaluation, playout policy, sampling, rewards.

The interface a game implements lives in the core (:mod:`polis.core.parts.knowledge`, so a
game's ``knowledge`` module imports nothing of the bots); it is re-exported here, where the
bots find a game's own with :func:`knowledge_for`.
"""

from __future__ import annotations

import random

from polis.core.parts import KNOWLEDGE
from polis.core.parts.knowledge import RANK_WEIGHTS, USUAL_WEIGHTS, Knowledge, blended_reward
from polis.core.protocol import Game


def knowledge_for(game: Game, *, compiled: bool = True) -> Knowledge:
    """A fresh knowledge object for one agent in one game of ``game``: the game's own
    (its ``knowledge`` part, :data:`~polis.core.parts.KNOWLEDGE`), else the default.
    ``compiled=False`` keeps it on the Python engine (the reference a gain is measured by)."""
    if KNOWLEDGE.name not in game.plugins:
        return Knowledge(game)
    knowledge = game.plugin(KNOWLEDGE)(game)
    assert isinstance(knowledge, Knowledge)
    if not compiled:
        knowledge.compiled = None
    return knowledge


def warm_game(game: Game) -> None:
    """Finish a random game of ``game``, read its result and warm its bots' knowledge: what
    a first result loads (the compiled scorer from numba's cache, 0.5-1 s) and the searches'
    compiled playouts (1-2 s; with ``POLIS_COMPILED=on`` a compile if the cache is stale)
    then come before a bot thinks, not inside its first move's budget."""
    rng = random.Random(0)
    state = game.new_game(game.modes[0], game.min_players, seed=0)
    while not state.is_terminal():
        state.apply(state.random_move(rng))
    state.result()
    knowledge_for(game).warm()


__all__ = [
    "RANK_WEIGHTS",
    "USUAL_WEIGHTS",
    "Knowledge",
    "blended_reward",
    "knowledge_for",
    "warm_game",
]
