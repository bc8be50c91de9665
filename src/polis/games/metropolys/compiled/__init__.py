"""A compiled (numba) Metropolys engine beside the Python one, for speed.

A table is one int32 row (:mod:`.layout` names its slots); the compiled functions step it
in place: :func:`.engine.legal`, :func:`.engine.apply`, :func:`.engine.current_player`,
:func:`.engine.is_terminal`, :func:`.score.score` (totals and places), and the chance of a
game, all in its set-up: :func:`.deal.deal` (a given outcome) and :func:`.deal.deal_random`
(from the row's own generator, :mod:`.rng`). :func:`.playouts.random_games` plays whole
random games without Python per game; :mod:`.policy` is the bots' greedy-biased playout
policy on a row; :mod:`.search` does a search's work (tree moves, learned value, playout) on
a row that follows the state the search walks. The Python engine stays the reference:
:mod:`.check` holds the two equal position by position (:func:`.bridge.to_row` is the exact
row of a Python state), and the policy's values equal to the bots' own.

numba is an extra: importing this package needs it (nothing else in the game imports it).
Functions compile (or load from numba's cache) on their first call; the import clears the
cache when a source the compiled code freezes has changed (:mod:`.freshness`).
"""

from polis.games.metropolys.compiled.freshness import ensure_fresh

ensure_fresh()
