"""Imports point down the layers: games stand on the core alone, the core on nothing of polis.

``polis.core`` holds the protocol and the interfaces of every part a game offers the layers
above (:mod:`polis.core.parts`), so a game implements them importing nothing above the
core: no module under ``src/polis/games`` imports the bots, the research adapters, the
server, the command line or the arena, nor another game; no module of ``src/polis/core``
imports any of those or a game. Every import counts, at any depth of the module and under
``TYPE_CHECKING`` too: a type is a dependency.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from polis.core import games
from polis.core.parts import PARTS

SRC = Path(__file__).resolve().parents[2] / "src"
POLIS = SRC / "polis"
#: The layers above the games, which neither a game nor the core may import.
UPPER = ("polis.bots", "polis.research", "polis.server", "polis.cli", "polis.arena")


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """Every module ``source`` (the text of ``module``) imports, with its line: absolute
    names, relative ones resolved."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from polis import games`` imports polis.games: name what is imported too
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def wrong_imports(path: Path) -> list[str]:
    """The imports of the module at ``path`` that point up (or sideways, between games)."""
    module = module_name(path)
    names = imported(path.read_text(encoding="utf-8"), module, path.name == "__init__.py")
    if within(module, "polis.core"):
        allowed: tuple[str, ...] = ("polis.core",)
    else:
        assert within(module, "polis.games"), module
        # a game: the core, its own package, and what the games share (their package's
        # ``text`` helpers)
        own = ".".join(module.split(".")[:3])
        allowed = ("polis.core", own, "polis.games.text")
    return [
        f"{path.relative_to(SRC)}:{line}: imports {name}"
        for line, name in names
        if within(name, "polis") and not any(within(name, ok) for ok in allowed)
    ]


def modules_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize("layer", ["core", "games"])
def test_no_import_points_up(layer: str) -> None:
    paths = modules_under(POLIS / layer)
    assert len(paths) > 5
    wrong = [line for path in paths for line in wrong_imports(path)]
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("module", "source", "bad"),
    [
        ("polis.games.g.knowledge", "from polis.bots.knowledge import Knowledge", True),
        ("polis.games.g.chance", "if TYPE_CHECKING:\n    from polis.research import chance", True),
        ("polis.games.g.view", "def f():\n    import polis.server.live.room", True),
        ("polis.games.g.moves", "from polis.games.other.moves import X", True),
        ("polis.games.g.moves", "from polis import cli", True),
        ("polis.games.g.moves", "from ...cli import text", True),
        ("polis.core.protocol", "from polis.games.text import LETTERS", True),
        ("polis.core.parts.knowledge", "from polis.bots import Knowledge", True),
        ("polis.games.g.knowledge", "from polis.core.parts.knowledge import Knowledge", False),
        ("polis.games.g.knowledge", "from .state import State\nimport numpy as np", False),
        ("polis.games.g.render", "from polis.games.text import LETTERS", False),
        ("polis.core.parts", "from polis.core.protocol import Game", False),
    ],
)
def test_the_check_can_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str, source: str, bad: bool
) -> None:
    """The checker finds an upward import wherever it is written, and only such imports."""
    path = tmp_path.joinpath(*module.split(".")).with_suffix(".py")
    path.parent.mkdir(parents=True)
    path.write_text(source, encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "SRC", tmp_path)
    assert bool(wrong_imports(path)) is bad


def test_importing_the_core_and_the_games_loads_no_upper_layer_nor_numpy() -> None:
    """The parts load only when asked for (``game.plugin(key)``), so a game is light."""
    code = (
        "import sys, polis.core, polis.core.parts\n"
        "from polis.core import games\n"
        "games()\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] == 'numpy' or m.startswith({UPPER!r})]\n"
        "print(','.join(sorted(bad)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("name", sorted(n for n in games() if (POLIS / "games" / n).is_dir()))
def test_every_part_a_game_names_has_a_key_and_lives_in_the_game(name: str) -> None:
    game = games()[name]
    package = f"polis.games.{name}"
    for part, target in game.plugins.items():
        assert part in PARTS, f"{name} offers {part!r}, which no key of polis.core.parts names"
        assert within(target.partition(":")[0], package), f"{name}'s {part} is {target}"
        assert game.plugin(PARTS[part]) is game.plugin(part)  # loads, and a name still works
