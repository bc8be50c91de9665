"""The chance-model protocol the games implement for OpenSpiel.

It lives in the core (:mod:`polis.core.parts.chance`), so a game's ``chance`` module imports
nothing of the research layer; it is re-exported here, where the OpenSpiel adapter
(:mod:`polis.research.openspiel_game`) and the rollout evaluator use it.
"""

from polis.core.parts.chance import NEVER, ChanceModel, Deal

__all__ = ["NEVER", "ChanceModel", "Deal"]
