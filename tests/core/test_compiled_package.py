"""How a process brings in a game's compiled package (polis.core.compiled): the cache kept true
to its sources, a cold cache compiled aside, the package used only once it is ready."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from polis.core import compiled
from polis.core.compiled import CompiledPackage

WARMED: list[str] = []


def warm() -> None:
    """What a package's warm function does: call every compiled function (here: count)."""
    WARMED.append("warm")


def made(tmp_path: Path) -> CompiledPackage:
    source = tmp_path / "engine.py"
    source.write_text("rules = 1\n")
    cache = tmp_path / "cache"
    cache.mkdir(exist_ok=True)
    probe = SimpleNamespace(_cache=SimpleNamespace(cache_path=str(cache)))
    return CompiledPackage(
        package="polis.games.toy.compiled",
        probe=probe,
        modules=("engine",),
        sources=(source,),
        warm=f"{__name__}:warm",
    )


def test_an_edited_source_clears_the_packages_cached_functions_and_its_ready_stamp(
    tmp_path: Path,
) -> None:
    package = made(tmp_path)
    cache = package.folder()
    assert cache is not None
    package.ensure_fresh()
    kept = [cache / "engine.apply-12.py311.nbi", cache / "engine.apply-12.py311.1.nbc"]
    other = cache / "scoring_kernel.best_key-264.py311.nbi"  # not this package's module
    for path in (*kept, other):
        path.write_text("compiled")
    package.warm_here()
    assert package.ready()
    package.ensure_fresh()  # the same sources: nothing removed
    assert all(p.exists() for p in kept) and package.ready()
    package.sources[0].write_text("rules = 2\n")
    assert not package.ready()  # compiled from other sources
    package.ensure_fresh()
    assert not any(p.exists() for p in kept) and other.exists()
    assert not package.ready()


def test_auto_compiles_aside_once_and_uses_the_package_only_once_it_is_ready(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(compiled.SETTING, raising=False)
    started: list[list[str]] = []
    monkeypatch.setattr(compiled.subprocess, "Popen", lambda cmd, **kw: started.append(cmd))
    clock = [100.0]
    monkeypatch.setattr(compiled.time, "monotonic", lambda: clock[0])
    package = made(tmp_path)
    WARMED.clear()
    assert not package.available()  # cold: a compile aside, Python meanwhile
    assert started == [[compiled.sys.executable, "-m", "polis.core.compiled", package.package]]
    assert not package.available() and WARMED == []  # not looked for again at once
    clock[0] += compiled.PROBE_SECONDS
    assert not package.available()
    assert len(started) == 1  # one compile per process
    # the compile aside finishes: it warms everything and writes the ready stamp
    other = made(tmp_path)
    other.warm_here()
    WARMED.clear()
    clock[0] += compiled.PROBE_SECONDS
    assert package.available() and WARMED == ["warm"]  # loaded here, from the cache
    assert package.available() and WARMED == ["warm"]  # and once only


@pytest.mark.parametrize(("value", "expected"), [("off", False), ("on", True)])
def test_the_setting_turns_the_package_off_or_warms_it_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, expected: bool
) -> None:
    monkeypatch.setenv(compiled.SETTING, value)
    monkeypatch.setattr(compiled.subprocess, "Popen", _refuse)
    package = made(tmp_path)
    WARMED.clear()
    assert package.available() is expected
    assert len(WARMED) == int(expected)
    assert package.ready() is expected


def _refuse(*args: Any, **kwargs: Any) -> None:
    raise AssertionError("no compile aside was wanted")


_WARM_AND_REPORT = """
import sys, warnings
from polis.core.compiled import load
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    load(sys.argv[1]).warm_here()
print("\\n".join(str(w.message) for w in caught if "Cannot cache" in str(w.message)))
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["polis.games.metropolys.compiled", "polis.games.quadropolis.compiled"]
)
def test_every_compiled_function_of_a_game_lands_in_numbas_cache(name: str) -> None:
    """A function numba will not cache (one handed another compiled function, one reading a
    ctypes pointer) compiles anew in every process: a server's bot would stand still for it
    on its first search although the package says it is ready."""
    done = subprocess.run(
        [sys.executable, "-c", _WARM_AND_REPORT, name],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    assert done.stdout.strip() == ""
