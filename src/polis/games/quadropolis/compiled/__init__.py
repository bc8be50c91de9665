"""A compiled (numba) Quadropolis engine beside the Python one, for playouts and batches.

A table is one ``int32`` row (:mod:`.row` names its offsets); :mod:`.step` holds the rules
on it (``legal``, ``apply``, ``current_player``, ``is_terminal``, ``random_action``,
``new_game``), :mod:`.final` the end (keys from the compiled scorer, totals, places),
:mod:`.generator` the row's own random generator, :mod:`.policy` the bots' greedy-biased
playout policy, :mod:`.playouts` whole games in one compiled loop, :mod:`.bridge` the row of
a Python state and the deals installed in a row, and :mod:`.check` the comparison of the two
engines position by position (:mod:`.bitops`: bit counting; :mod:`.freshness`: numba's cache
kept in step with the sources compiled into it). The Python engine stays the readable
reference: every rule here is one of :mod:`~polis.games.quadropolis.state`, and ``check``
holds them equal.

numba is an extra: importing this package needs it.
"""

from polis.games.quadropolis.compiled.freshness import ensure_fresh

ensure_fresh()
