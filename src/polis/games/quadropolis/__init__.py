"""Quadropolis (Days of Wonder, 2016): everything about the game lives in this folder.

Rules engine (:mod:`.state`, :mod:`.moves`, :mod:`.setup`, :mod:`.options`), components
(:mod:`.tiles`, :mod:`.city`, :mod:`.site`, ``data/``), the exact scorer (:mod:`.scoring`,
:mod:`.scoring_solver`, :mod:`.scoring_tables`), views and text (:mod:`.view`,
:mod:`.render`); and the game's parts for the layers above, loaded only when asked for:
bot knowledge (:mod:`.knowledge`), research observations (:mod:`.observation`), the
OpenSpiel chance model (:mod:`.chance`), web choices (:mod:`.choices`) and the web client
(``web/``). ``GAME`` is the registration object.
"""

from polis.games.quadropolis.game import GAME, QuadropolisGame
from polis.games.quadropolis.moves import QuadropolisMove
from polis.games.quadropolis.state import QuadropolisState
from polis.games.quadropolis.view import QuadropolisView

__all__ = ["GAME", "QuadropolisGame", "QuadropolisMove", "QuadropolisState", "QuadropolisView"]
