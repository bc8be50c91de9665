"""A game's compiled (numba) package in a process: its disk cache kept true to its sources,
compiled aside when cold, and used only once it is there.

A game may have a compiled twin of its engine (``polis.games.<game>.compiled``) for speed:
playouts, batches, benchmarks. Two things about numba's disk cache (``cache=True``) shape how
a process brings such a package in:

* numba keys a cached function by its own file's time stamp only, yet the machine code holds
  what it read from other files (a row's offsets, board tables, the bots' constants, the
  functions it calls in sibling modules). So the package writes a digest of every source its
  code freezes beside its cached functions and, when the digest differs, removes them before
  any is loaded (:meth:`CompiledPackage.ensure_fresh`).
* Compiling a whole engine takes 10-30 s of CPU; loading it from the cache a second or two.
  A server's bot or a search must never stand still for the compiler, so a process that
  finds the cache cold starts one compile in a separate, lowered process
  (``python -m polis.core.compiled <package>``, one at a time per cache folder) and keeps the
  Python engine until that compile has written its "ready" stamp (the digest it compiled),
  which it looks for every :data:`PROBE_SECONDS`.

``POLIS_COMPILED`` chooses: ``auto`` (the default: as above), ``on`` (compile in this process
if need be: benchmarks, tests, the arena), ``off`` (the Python engines only).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import logging
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: Seconds between looks for the ready stamp while a compile runs elsewhere.
PROBE_SECONDS = 10.0
#: The variable that chooses: auto, on or off.
SETTING = "POLIS_COMPILED"


def setting() -> str:
    """``POLIS_COMPILED`` (auto, on or off; anything else counts as auto)."""
    value = os.environ.get(SETTING, "auto").strip().lower()
    return value if value in ("on", "off") else "auto"


@dataclass
class CompiledPackage:
    """One game's compiled package, as its ``freshness`` module declares it.

    ``probe`` is a cached njit function of the package (its cache folder is the package's),
    ``modules`` the package's modules holding cached functions, ``sources`` every file their
    code freezes, ``warm`` the ``"module:function"`` that calls every compiled function once
    (so a compile aside leaves all of them in the cache and a load finds them all).
    """

    package: str
    probe: Any
    modules: tuple[str, ...]
    sources: tuple[Path, ...]
    warm: str
    _spawned: bool = field(default=False, repr=False)
    _warmed: bool = field(default=False, repr=False)
    _next_probe: float = field(default=0.0, repr=False)

    def folder(self) -> Path | None:
        """numba's cache folder of the package, or None where numba cannot cache."""
        try:
            return Path(self.probe._cache.cache_path)
        except Exception:  # numba's insides changed, or no locator: no cache to keep
            return None

    def digest(self) -> str:
        """The digest of every source the compiled code depends on."""
        h = hashlib.sha256()
        for path in self.sources:
            with contextlib.suppress(OSError):
                h.update(path.read_bytes())
        return h.hexdigest()

    def _stamp(self, kind: str) -> Path | None:
        folder = self.folder()
        return None if folder is None else folder / f"{self.package}.{kind}"

    def ensure_fresh(self) -> None:
        """Remove the package's cached functions if they were compiled from other sources."""
        stamp = self._stamp("stamp")
        if stamp is None:
            return
        now = self.digest()
        with contextlib.suppress(OSError):
            if stamp.read_text() == now:
                return
        prefixes = tuple(f"{m}." for m in self.modules)
        with contextlib.suppress(OSError):
            for name in os.listdir(stamp.parent):
                if name.startswith(prefixes) and name.endswith((".nbi", ".nbc")):
                    with contextlib.suppress(OSError):
                        (stamp.parent / name).unlink()
            with contextlib.suppress(OSError):
                self._stamp("ready").unlink()  # type: ignore[union-attr]
            stamp.write_text(now)

    def ready(self) -> bool:
        """Whether a whole compile of these very sources lies in the cache (never compiles)."""
        stamp = self._stamp("ready")
        if stamp is None:
            return False
        try:
            return stamp.read_text() == self.digest()
        except OSError:
            return False

    def warm_here(self) -> None:
        """Call every compiled function once in this process (loading each from the cache,
        or compiling it), then say so with the ready stamp."""
        if self._warmed:
            return
        self.ensure_fresh()
        module, _, function = self.warm.partition(":")
        getattr(importlib.import_module(module), function)()
        self._warmed = True
        stamp = self._stamp("ready")
        if stamp is not None:
            with contextlib.suppress(OSError):
                stamp.write_text(self.digest())

    def compile_aside(self) -> bool:
        """Start a compile into the cache in a separate, lowered process (once per process).
        True if one was started now."""
        if self._spawned:
            return False
        self._spawned = True
        if not start_aside("polis.core.compiled", self.package):
            return False
        log.info("compiling %s into numba's cache aside; Python until then", self.package)
        return True

    def available(self) -> bool:
        """Whether this process may use the package now (see the module's docstring):
        ``on`` warms it here, ``auto`` only once a compile of these sources is cached (else
        one is started aside and looked for again every :data:`PROBE_SECONDS`)."""
        mode = setting()
        if mode == "off":
            return False
        if self._warmed:
            return True
        if mode == "on":
            self.warm_here()
            return True
        now = time.monotonic()
        if now < self._next_probe:
            return False
        self._next_probe = now + PROBE_SECONDS
        if self.ready():
            self.warm_here()
            return True
        self.compile_aside()
        return False


def start_aside(module: str, *args: str) -> bool:
    """Run ``python -m module args`` in a process of its own (its output dropped, not stopped
    with this process: what it compiles is for every process); False if it cannot start."""
    try:
        subprocess.Popen(
            [sys.executable, "-m", module, *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as exc:
        log.info("cannot start python -m %s: %s", module, exc)
        return False
    return True


def load(package: str) -> CompiledPackage | None:
    """The :class:`CompiledPackage` a game's compiled package declares (its ``freshness``
    module's ``PACKAGE``), or None where numba is missing or cannot cache there."""
    try:
        module = importlib.import_module(f"{package}.freshness")
    except ImportError:  # numba (an extra) is not installed
        return None
    except RuntimeError as exc:  # "cannot cache function ...: no locator available"
        log.info("%s off: %s (set NUMBA_CACHE_DIR to a writable folder)", package, exc)
        return None
    found: CompiledPackage = module.PACKAGE
    return found if found.folder() is not None else None


_LOADED: dict[str, CompiledPackage | None] = {}


def package(name: str) -> CompiledPackage | None:
    """``load(name)``, once per process (importing numba on the first call only, so
    importing a game never does)."""
    if name not in _LOADED:
        _LOADED[name] = load(name)
    return _LOADED[name]


def main() -> None:
    """Compile a package into numba's cache (what :meth:`CompiledPackage.compile_aside`
    runs): ``python -m polis.core.compiled polis.games.quadropolis.compiled``."""
    with contextlib.suppress(OSError):
        os.nice(10)
    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m polis.core.compiled PACKAGE")
    found = load(sys.argv[1])
    if found is None:
        raise SystemExit("numba is missing or cannot cache: nothing compiled")
    folder = found.folder()
    assert folder is not None
    folder.mkdir(parents=True, exist_ok=True)
    started = time.process_time()
    import fcntl

    with open(folder / f"{found.package}.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            print(f"another process compiles into {folder}")
            return
        found.warm_here()
    print(f"{found.package} ready in {folder} after {time.process_time() - started:.1f} s of CPU")


if __name__ == "__main__":
    main()
