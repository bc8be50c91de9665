"""The optional parts of polis (pyproject's extras) a command needs, checked before any work.

A command that needs a package polis does not always install (openskill for the arena's
ratings, the web app's server) checks for it first and, when it is missing, stops with one
line that names the extra and the command that installs it (exit 2), instead of a traceback
after minutes of work. Which extra brings a package is read where pip reads it: the
checkout's ``pyproject.toml`` for an editable install, else the installed distribution's
metadata; :data:`DEFAULT_EXTRA` is the answer when neither says.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import sys
import tomllib
from collections.abc import Iterable
from functools import cache
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from polis.core.errors import InputError

#: The distribution name on the package index (``polis`` there is another project); the
#: import package and the command stay ``polis``.
DISTRIBUTION = "polis-boardgames"

#: A package a command may need: its import name and its distribution name.
Package = tuple[str, str]

OPENSKILL: Package = ("openskill", "openskill")
RAY: Package = ("ray", "ray")
#: What the web app imports whatever its options (the rest of the extra is checked by the
#: server where it is used).
SERVER: tuple[Package, ...] = (
    ("fastapi", "fastapi"),
    ("uvicorn", "uvicorn"),
    ("websockets", "websockets"),
    ("sqlalchemy", "sqlalchemy"),
    ("alembic", "alembic"),
)
#: PostgreSQL's driver (``--db postgresql://...``) and Redis (``--redis``).
PSYCOPG: Package = ("psycopg", "psycopg")
REDIS: Package = ("redis", "redis")

#: The extra of each distribution when neither pyproject.toml nor the metadata says.
DEFAULT_EXTRA = {
    "openskill": "arena",
    "ray": "arena",
    "psycopg": "cluster",
    "redis": "cluster",
    "pywebpush": "push",
}


def _name(requirement: str) -> str:
    """``redis[hiredis]>=5.0`` -> ``redis`` (normalised as pip compares names)."""
    found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return re.sub(r"[-_.]+", "-", found[1]).lower() if found else ""


@cache
def checkout() -> Path | None:
    """The source folder of an editable install (pip's ``direct_url.json``), else None."""
    try:
        text = distribution(DISTRIBUTION).read_text("direct_url.json")
    except PackageNotFoundError:
        text = None
    if text:
        data = json.loads(text)
        url = str(data.get("url", ""))
        if data.get("dir_info", {}).get("editable") and url.startswith("file://"):
            folder = Path(url.removeprefix("file://"))
            if (folder / "pyproject.toml").is_file():
                return folder
    return None


@cache
def extras() -> dict[str, tuple[str, ...]]:
    """Each extra's distribution names, from where pip would read them."""
    folder = checkout()
    if folder is not None:
        project = tomllib.loads((folder / "pyproject.toml").read_text("utf-8"))["project"]
        table = project.get("optional-dependencies", {})
        return {extra: tuple(_name(r) for r in reqs) for extra, reqs in table.items()}
    found: dict[str, list[str]] = {}
    try:
        requirements = distribution(DISTRIBUTION).requires or []
    except PackageNotFoundError:
        requirements = []
    for requirement in requirements:
        marker = re.search(r"""extra\s*==\s*["']([^"']+)["']""", requirement)
        if marker:
            found.setdefault(marker[1], []).append(_name(requirement))
    return {extra: tuple(names) for extra, names in found.items()}


def extra_of(dist: str) -> str:
    """The extra that installs ``dist``: the first that lists it (``numpy`` is in ``rl``,
    ``openspiel`` and ``rl-train``: ``rl``), ``dev`` last."""
    dist = _name(dist)
    holding = [extra for extra, names in extras().items() if dist in names]
    holding.sort(key=lambda extra: extra == "dev")
    return holding[0] if holding else DEFAULT_EXTRA.get(dist, "server")


def _pip() -> str:
    """How to call the pip of the Python running polis: ``pip`` when that is the one on the
    PATH, else its path (a venv's polis run without activating the venv)."""
    own = Path(sys.executable).parent / "pip"
    found = shutil.which("pip")
    if not own.exists() or (found and Path(found).resolve() == own.resolve()):
        return "pip"
    try:
        return str(own.relative_to(Path.cwd()))
    except ValueError:
        return str(own)


def install_line(extra_names: Iterable[str]) -> str:
    """The command that installs ``extra_names`` into the Python running polis."""
    joined = ",".join(dict.fromkeys(extra_names))
    folder = checkout()
    if folder is None:
        return f"{_pip()} install '{DISTRIBUTION}[{joined}]'"
    where = "." if Path.cwd().resolve() == folder.resolve() else str(folder)
    return f"{_pip()} install -e '{where}[{joined}]'"


def present(module: str) -> bool:
    """Can ``module`` be imported? (Looked up, not imported: a check costs milliseconds.)"""
    if module in sys.modules:
        return sys.modules[module] is not None
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def require(what: str, packages: Iterable[Package]) -> None:
    """InputError naming the missing packages, their extras and the install line, when any
    of ``packages`` cannot be imported; ``what`` says who needs them (``polis arena``)."""
    missing = [(module, dist) for module, dist in packages if not present(module)]
    if not missing:
        return
    names = " and ".join(dist for _, dist in missing)
    wanted = list(dict.fromkeys(extra_of(dist) for _, dist in missing))
    which = " and ".join(f"'{e}'" for e in wanted)
    plural = "extras" if len(wanted) > 1 else "extra"
    raise InputError(
        f"{what} needs the {which} {plural} of polis ({names} missing): "
        f"install with {install_line(wanted)}"
    )
