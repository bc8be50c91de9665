"""This package as :mod:`polis.core.compiled` keeps it: numba's disk cache in step with every
source its code freezes, and the function that compiles (or loads) all of it.

numba keys a cached function by its own file's time stamp only, yet compiled code holds
what it called and read from other files: the row's offsets and tables (:mod:`.row`) are
frozen into every function, the scorer kernel (``scoring_kernel.py``) into the final
scoring, the core's batch kernels (``polis.core.parts.batch_kernel``) into the batch, its sort
(``search_rows``) into the search.
After an edit of one of those files the other modules' cached code would silently use the
old layout, so the package's cached functions are removed whenever those sources change
(they compile anew, about 17 s of CPU).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from numba import njit

from polis.core.compiled import CompiledPackage

_HERE: Final = Path(__file__).parent
#: The core's compiled parts the batch (``observe``) calls.
_CORE: Final = _HERE.parents[2] / "core" / "parts"
#: The modules of this package holding cached compiled code (removed together).
_MODULES: Final = ("generator", "step", "final", "playouts", "policy", "observe", "search")


@njit(cache=True)
def _probe() -> int:
    """A cached function of this folder: its cache path is the package's."""
    return 0


PACKAGE: Final = CompiledPackage(
    package="polis.games.quadropolis.compiled",
    probe=_probe,
    modules=_MODULES,
    # Every file whose content some module's compiled code holds. A module's own file is
    # numba's business; ``observe``'s is left out since nothing here calls into it, so its
    # edits cost only its own recompile.
    sources=(
        *(_HERE / f"{m}.py" for m in ("row", "bitops", "copies", *_MODULES) if m != "observe"),
        *(_CORE / f"{m}.py" for m in ("batch_kernel", "search_rows")),
        *(
            _HERE.parent / f"{m}.py"
            for m in (
                "scoring_kernel",
                "scoring_solver",
                "knowledge",
                "batch_kernels",
                "tensors",
                "observation",
                "tiles",
                "site",
                "city",
            )
        ),
        _HERE.parent / "data" / "tiles.json",
        _HERE.parent / "data" / "mats.json",
    ),
    warm="polis.games.quadropolis.compiled.search:warm",
)
ensure_fresh = PACKAGE.ensure_fresh
