"""Bringing the compiled scorer key (:mod:`~polis.games.quadropolis.scoring_kernel`) into a
process without making anyone wait for numba's compiler.

Compiling the kernel takes 15-20 s of CPU; loading it from numba's disk cache (``cache=True``)
about 0.5 s, after 0.3 s for importing numba. The cache lies in ``__pycache__`` beside the
kernel when that folder is writable, else in the user's cache (``~/.cache/numba``), or
wherever ``NUMBA_CACHE_DIR`` says; it is valid for one copy of ``scoring_kernel.py`` (its
content's hash), one Python and one CPU type. With neither folder writable numba refuses to
cache at all, and the kernel is not used.

So a process that meets its first game result with a cold cache (a fresh install, or the
kernel just edited) does not compile in its own thread (a server's event loop or a bot's
move would stand still for the compile): it starts one compile in a separate, lowered
process (``python -m polis.games.quadropolis.scoring_loader``, one at a time per cache
folder) and keeps the Python solver until the compiled code is in the cache, which it looks
for again every :data:`PROBE_SECONDS`.

The numba internals used to look into the cache without compiling (the dispatcher's cache
index) are guarded: should they change, the kernel is found cold and compiled aside, then
loaded from the cache the ordinary way.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from polis.core.compiled import start_aside

if TYPE_CHECKING:
    from polis.games.quadropolis.city import City
    from polis.games.quadropolis.scoring import _Options

    KeyFunction = Callable[[str, City, int, int, _Options], int]

log = logging.getLogger(__name__)

#: Seconds between looks into the cache while a compile runs elsewhere.
PROBE_SECONDS = 10.0

#: Whether this process started a compile already (one per process at most).
_spawned = False


def kernel() -> Any:
    """The kernel module, or None when numba is missing or cannot cache (the reason logged)."""
    try:
        module = importlib.import_module("polis.games.quadropolis.scoring_kernel")
    except ImportError:  # numba (an extra) is not installed
        return None
    except RuntimeError as exc:  # "cannot cache function ...: no locator available"
        log.info("compiled scorer off: %s (set NUMBA_CACHE_DIR to a writable folder)", exc)
        return None
    return module


def _signature(module: Any) -> tuple[Any, ...]:
    """The argument types :func:`~polis.games.quadropolis.scoring_kernel.city_key` calls the
    kernel with (a city of any mode gives the same)."""
    g, neighbours, district = module._mat("classic")
    import numpy as np

    args = (np.zeros(g.size, np.uint8), neighbours, district, g.districts, g.cols)
    args += (g.shop_capacity, 0, 0, False, 5, True)  # type: ignore[assignment]
    return tuple(module.best_key.typeof_pyval(a) for a in args)


def cached(module: Any) -> bool:
    """Whether the kernel's compiled code is loaded, or lies in numba's disk cache (then it is
    loaded: about 0.5 s). Never compiles."""
    dispatcher = module.best_key
    if dispatcher.overloads:
        return True
    try:
        sig = _signature(module)
        cache = dispatcher._cache
        key = cache._index_key(sig, dispatcher.targetctx.codegen())
        if key not in cache._cache_file._load_index():
            return False
    except Exception:  # numba's insides changed: count it as cold, compiled aside
        log.debug("cannot look into numba's cache", exc_info=True)
        return False
    dispatcher.compile(sig)  # a cache hit: loads, does not compile
    return True


def compile_here(module: Any) -> KeyFunction:
    """The compiled key, compiled in this process if the cache does not hold it."""
    from polis.games.quadropolis.city import geometry
    from polis.games.quadropolis.scoring import _Options

    city_key: KeyFunction = module.city_key
    city_key("classic", (None,) * geometry("classic").size, 0, 0, _Options(False, 5, True))
    return city_key


def compile_aside() -> bool:
    """Start a compile into the disk cache in a separate, lowered process (once per process;
    the process itself gives way when another compiles into the same folder). True if one
    was started now."""
    global _spawned
    if _spawned:
        return False
    _spawned = True
    if not start_aside("polis.games.quadropolis.scoring_loader"):
        return False
    log.info("compiling the scorer into numba's cache aside; the Python solver until then")
    return True


class Waiting:
    """The key function while a compile runs aside: the Python solver, looking into the cache
    every :data:`PROBE_SECONDS`; ``switch`` gets the compiled key once it is there."""

    def __init__(
        self, module: Any, solver: KeyFunction, switch: Callable[[KeyFunction], None]
    ) -> None:
        self.module = module
        self.solver = solver
        self.switch = switch
        self.next_probe = time.monotonic() + PROBE_SECONDS

    def __call__(self, mode: str, city: City, inh: int, en: int, opts: _Options) -> int:
        now = time.monotonic()
        if now >= self.next_probe:
            self.next_probe = now + PROBE_SECONDS
            if cached(self.module):
                self.switch(self.module.city_key)
        return self.solver(mode, city, inh, en, opts)


def main() -> None:
    """Compile the kernel into numba's disk cache (what :func:`compile_aside` runs); prints
    the cache folder and the seconds it took."""
    with contextlib.suppress(OSError):
        os.nice(10)
    module = kernel()
    if module is None:
        print("numba is missing or cannot cache: nothing compiled")
        sys.exit(1)
    folder = module.best_key._cache.cache_path
    started = time.process_time()
    import fcntl

    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "polis-scoring-kernel.lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            print(f"another process compiles into {folder}")
            return
        state = "loaded from" if cached(module) else "compiled into"
        compile_here(module)
    print(f"scorer kernel {state} {folder} in {time.process_time() - started:.1f} s of CPU")


if __name__ == "__main__":
    main()
