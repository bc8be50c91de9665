"""Every command checks the optional packages it needs (pyproject's extras) before any work:
issue 43 found ``polis arena`` playing all its games and then dying with a
``ModuleNotFoundError`` traceback for openskill."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from polis.arena import Tournament, run_tournament
from polis.cli import extras
from polis.cli.main import app
from polis.core.errors import InputError

ROOT = Path(__file__).parents[2]
runner = CliRunner()

#: Put first on PYTHONPATH, it makes the modules named in POLIS_TEST_HIDE missing as on a
#: machine without them: Python's path finder does not find them (find_spec gives None,
#: ``import`` raises ModuleNotFoundError).
HIDE = """
import os
from importlib.machinery import PathFinder

hidden = set(os.environ.get("POLIS_TEST_HIDE", "").split(","))
original = PathFinder.find_spec.__func__

def find_spec(cls, name, path=None, target=None):
    if name.partition(".")[0] in hidden:
        return None
    return original(cls, name, path, target)

PathFinder.find_spec = classmethod(find_spec)
"""


def without(tmp_path: Path, modules: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``polis *args`` in a new process where ``modules`` are not installed; its stderr
    starts with the modules it imported (``-X importtime``), one ``import time:`` line
    each."""
    (tmp_path / "sitecustomize.py").write_text(HIDE, encoding="utf-8")
    path = os.pathsep.join([str(tmp_path), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONPATH=path, POLIS_TEST_HIDE=modules)
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "polis.cli.main", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )


def split_imports(stderr: str) -> tuple[set[str], str]:
    """The modules a process imported, and the rest of its stderr."""
    imported, rest = set(), []
    for line in stderr.splitlines():
        if line.startswith("import time:"):
            imported.add(line.rsplit("|", 1)[-1].strip())
        else:
            rest.append(line)
    return imported, "\n".join(rest)


def one_line_refusal(stdout: str, stderr: str) -> str:
    assert "Traceback" not in stdout + stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def test_arena_without_openskill_stops_at_once_with_the_install_line(tmp_path: Path) -> None:
    """Before any work: no game is played, and the machinery that would play them (the
    tournament runner) is not even imported. (How long that takes is the machine's: 0.7 s
    here when idle.)"""
    args = ["arena", "quadropolis", "--agents", "random,easy", "--games", "4"]
    done = without(tmp_path, "openskill", *args)
    imported, stderr = split_imports(done.stderr)
    assert done.returncode == 2, stderr
    line = one_line_refusal(done.stdout, stderr)
    assert "openskill" in line and "'arena' extra" in line
    assert "install -e '.[arena]'" in line  # this checkout's own line
    assert "game 1/4" not in stderr  # no game was played first
    assert "polis.cli.arena" in imported
    assert not {"polis.arena.runner", "polis.arena.match"} & imported


def test_the_hiding_works_and_the_arena_runs_with_openskill(tmp_path: Path) -> None:
    """The same command with openskill present plays (the test above can fail)."""
    args = ["arena", "toygame:GAME", "--mode", "basic", "--agents", "random", "--games", "2"]
    done = without(tmp_path, "numba_nothing", *args, "--json")
    assert done.returncode == 0, done.stderr
    hidden = without(tmp_path, "openskill", "-h")
    assert hidden.returncode == 0  # help needs nothing


def test_arena_on_ray_names_ray_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    result = runner.invoke(app, ["arena", "quadropolis", "--agents", "random", "--ray", "local"])
    assert result.exit_code == 2
    assert "(ray missing)" in result.stderr and "'arena' extra" in result.stderr


def test_the_library_refuses_before_playing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openskill", None)
    played: list[int] = []
    with pytest.raises(InputError, match=r"openskill.*polis-boardgames\[arena\]"):
        run_tournament(
            Tournament("toygame:GAME", "basic", 2, ("random",), 2),
            progress=lambda o, d, n: played.append(d),
        )
    assert played == []


@pytest.mark.parametrize(
    ("hidden", "args", "needle"),
    [
        ("fastapi", [], "polis serve needs the 'server' extra of polis (fastapi missing)"),
        ("redis", ["--redis", "redis://localhost:1/0"], "polis serve --redis needs"),
        ("psycopg", ["--db", "postgresql://p:secret@localhost/p"], "(psycopg missing)"),
        ("ray", ["--bots", "ray"], "polis serve --bots ray needs the 'arena' extra"),
    ],
)
def test_serve_checks_the_extras_its_options_need(
    monkeypatch: pytest.MonkeyPatch, hidden: str, args: list[str], needle: str
) -> None:
    pytest.importorskip("fastapi")
    monkeypatch.setitem(sys.modules, hidden, None)
    result = runner.invoke(app, ["serve", "--port", "1", *args])  # port 1: never reached
    assert result.exit_code == 2, result.output
    assert needle in result.stderr, result.stderr
    assert "secret" not in result.stderr and "cannot listen" not in result.stderr
    assert "install" in result.stderr


def test_every_package_is_named_with_the_extra_pyproject_gives_it() -> None:
    """After a split of an extra the messages follow pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    table = project["optional-dependencies"]
    packages = [extras.OPENSKILL, extras.RAY, extras.PSYCOPG, extras.REDIS, *extras.SERVER]
    for _, dist in packages:
        extra = extras.extra_of(dist)
        listed = [extras._name(r) for r in table[extra]]
        assert dist in listed, (dist, extra)
    assert extras.extra_of("numpy") == "rl"  # the first extra that brings it


def test_the_install_line_outside_a_checkout_names_the_distribution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(extras, "checkout", lambda: None)
    assert extras.install_line(["arena"]).endswith("install 'polis-boardgames[arena]'")
