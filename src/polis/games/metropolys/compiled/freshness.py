"""This package as :mod:`polis.core.compiled` keeps it: numba's disk cache in step with every
source its code freezes, and the function that compiles (or loads) all of it.

numba keys a cached function by the time stamp of its own file only, but the machine code
holds what it read from other files: the row's offsets (:mod:`.layout`), the board tables
(:mod:`.tables`, from ``board.py``, ``scoring.py`` and ``data/board.json``), the card
points, the bots' constants (``knowledge.py``), the learned value's weights (``value.py``)
and every compiled function it calls in the other modules and in the core
(``polis.core.parts.batch_kernel``, for the batch). An edit of :mod:`.engine` would leave
``random_games`` playing the old rules from the cache, so the package's cached functions are
removed whenever those sources change (they compile anew, about 10 s).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from numba import njit

from polis.core.compiled import CompiledPackage

_HERE: Final = Path(__file__).parent


@njit(cache=True)
def _probe() -> int:
    """A cached function of this folder, whose cache path is the package's."""
    return 0


PACKAGE: Final = CompiledPackage(
    package="polis.games.metropolys.compiled",
    probe=_probe,
    # the modules with compiled code (one named here that does not exist has nothing cached)
    modules=("rng", "engine", "deal", "score", "playouts", "policy", "observe", "search"),
    sources=(
        *(
            _HERE / f"{m}.py"
            for m in ("layout", "tables", "rng", "engine", "deal", "score", "playouts")
        ),
        *(_HERE / f"{m}.py" for m in ("policy", "observe", "search")),
        *(
            _HERE.parent / f"{m}.py"
            for m in ("board", "cards", "scoring", "knowledge", "value", "batch_kernels")
        ),
        _HERE.parent / "data" / "board.json",
        *(_HERE.parents[2] / "core" / "parts" / f"{m}.py" for m in ("batch_kernel", "search_rows")),
    ),
    warm="polis.games.metropolys.compiled.search:warm",
)
ensure_fresh = PACKAGE.ensure_fresh
