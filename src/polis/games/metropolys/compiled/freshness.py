"""numba's disk cache of this package, kept in step with every source its code freezes.

numba keys a cached function by the time stamp of its own file only, but the machine code
holds what it read from other files: the row's offsets (:mod:`.layout`), the board tables
(:mod:`.tables`, from ``board.py`` and ``data/board.json``), the card points, the bots'
constants (``knowledge.py``) and every compiled function it calls in the other modules. An
edit of :mod:`.engine` would leave ``random_games`` playing the old rules from the cache.
So the package writes a digest of all those sources beside its cached functions and, when
the digest differs, removes them (they compile anew, about 10 s) before any is loaded.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Any, Final

from numba import njit

_HERE: Final = Path(__file__).parent
#: The modules of this package with compiled code (a module named here that does not exist
#: has no cached functions to remove).
MODULES: Final = ("rng", "engine", "deal", "score", "playouts", "policy", "observe")
SOURCES: Final = (
    *(_HERE / f"{m}.py" for m in ("layout", "tables", *MODULES)),
    *(_HERE.parent / f"{m}.py" for m in ("board", "cards", "knowledge", "batch_kernels")),
    _HERE.parent / "data" / "board.json",
)
STAMP: Final = "polis-metropolys-compiled.stamp"


@njit(cache=True)
def _probe() -> int:
    """A cached function of this folder, whose cache path is the package's."""
    return 0


def digest() -> str:
    """The digest of every source the compiled code depends on."""
    h = hashlib.sha256()
    for path in SOURCES:
        with contextlib.suppress(OSError):
            h.update(path.read_bytes())
    return h.hexdigest()


def ensure_fresh() -> None:
    """Remove the package's cached functions if they were compiled from other sources."""
    probe: Any = _probe
    try:
        folder = Path(probe._cache.cache_path)
    except Exception:  # numba's insides changed: nothing to guard, it keys by file as ever
        return
    stamp = folder / STAMP
    now = digest()
    with contextlib.suppress(OSError):
        if stamp.read_text() == now:
            return
    prefixes = tuple(f"{m}." for m in MODULES)
    with contextlib.suppress(OSError):
        for name in os.listdir(folder):
            if name.startswith(prefixes) and name.endswith((".nbi", ".nbc")):
                with contextlib.suppress(OSError):
                    (folder / name).unlink()
        stamp.write_text(now)
