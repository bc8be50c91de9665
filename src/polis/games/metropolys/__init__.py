"""Metropolys (Ystari, 2008): everything about the game lives in this folder.

Rules engine (:mod:`.state`, :mod:`.moves`, :mod:`.setup`, :mod:`.options`), components
(:mod:`.board`, :mod:`.cards`, ``data/``), scoring (:mod:`.scoring`, :mod:`.scorefile`),
views and text (:mod:`.view`, :mod:`.render`); and the game's parts for the layers above,
loaded only when asked for: bot knowledge (:mod:`.knowledge`), research observations
(:mod:`.observation`), the OpenSpiel chance model (:mod:`.chance`), web choices
(:mod:`.choices`) and the web client (``web/``). ``GAME`` is the registration object.
"""

from polis.games.metropolys.game import GAME, MetropolysGame
from polis.games.metropolys.moves import PASS, MetropolysMove, bid
from polis.games.metropolys.state import MetropolysState
from polis.games.metropolys.view import MetropolysView

__all__ = [
    "GAME",
    "PASS",
    "MetropolysGame",
    "MetropolysMove",
    "MetropolysState",
    "MetropolysView",
    "bid",
]
