"""Game-specific knowledge the bots plug in: evaluation, playout policy, sampling, rewards.

The interface a game implements lives in the core (:mod:`polis.core.parts.knowledge`, so a
game's ``knowledge`` module imports nothing of the bots); it is re-exported here, where the
bots find a game's own with :func:`knowledge_for`.
"""

from __future__ import annotations

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


__all__ = ["RANK_WEIGHTS", "USUAL_WEIGHTS", "Knowledge", "blended_reward", "knowledge_for"]
