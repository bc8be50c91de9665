"""Keeping numba's disk cache of this package honest across files.

numba keys a cached function by its own file's time stamp only, yet compiled code holds
what it called and read from other files: the row's offsets and tables (:mod:`.row`) are
frozen into every function, the scorer kernel (``scoring_kernel.py``) into the final
scoring. After an edit of one of those files the other modules' cached code would silently
use the old layout. So the package stamps its cache folder with a digest of every source
its compiled code depends on, and when the digest differs it removes the package's cached
functions (they compile anew, about 10 s) before any is loaded.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Any

from numba import njit

_HERE = Path(__file__).parent
#: The modules of this package holding cached compiled code (removed together).
MODULES = ("generator", "step", "final", "playouts", "policy", "observe")
#: Every file whose content some module's compiled code holds. A module's own file is
#: numba's business; ``observe``'s is left out since nothing here calls into it, so its
#: edits cost only its own recompile.
SOURCES = (
    *(_HERE / f"{m}.py" for m in ("row", "bitops", *MODULES) if m != "observe"),
    _HERE.parent / "scoring_kernel.py",
    _HERE.parent / "scoring_solver.py",
    _HERE.parent / "knowledge.py",
    _HERE.parent / "batch_kernels.py",
    _HERE.parent / "tensors.py",
    _HERE.parent / "observation.py",
    _HERE.parent / "tiles.py",
    _HERE.parent / "site.py",
    _HERE.parent / "city.py",
    _HERE.parent / "data" / "tiles.json",
    _HERE.parent / "data" / "mats.json",
)
STAMP = "polis-quadropolis-compiled.stamp"


@njit(cache=True)
def _probe() -> int:
    """A cached function of this folder: its cache path is the package's."""
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
    try:
        if stamp.read_text() == now:
            return
    except OSError:
        pass
    prefixes = tuple(f"{m}." for m in MODULES)
    with contextlib.suppress(OSError):
        for name in os.listdir(folder):
            if name.startswith(prefixes) and name.endswith((".nbi", ".nbc")):
                with contextlib.suppress(OSError):
                    (folder / name).unlink()
        stamp.write_text(now)
