"""The tree shows the architecture: everything about a game lives in its own folder.

Outside ``src/polis/games/<game>/`` no file of the package (Python, client script,
catalogue, page, style) names the game or states one of its facts: its modes, its pieces,
its notation, its board sizes. Upper layers learn them from the game's registration object.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from polis.core import games

SRC = Path(__file__).resolve().parents[2] / "src" / "polis"
SUFFIXES = {".py", ".js", ".json", ".html", ".css", ".md", ".txt"}

#: Facts of each game beyond its name, title and modes: pieces, places, notation, numbers.
FACTS: dict[str, list[str]] = {
    "quadropolis": [
        r"urbanist",
        r"mayor",
        r"architects?",
        r"tower[ _]blocks?",
        r"office[ _]towers?",
        r"harbou?rs?",
        r"r1c1",
        r"TOSUPpFHM",
        r"1440",
        r"2200",
    ],
    "metropolys": [
        r"chic",
        r"archaeolog\w*",
        r"neighbourhoods?",
        r"bridges",
        r"statues",
        r"outskirts",
        r"7@12",
        r"715",
        r"716",
    ],
}


def _files_outside(folder: Path) -> list[Path]:
    return [
        p
        for p in SRC.rglob("*")
        if p.is_file()
        and p.suffix in SUFFIXES
        and folder not in p.parents
        and "__pycache__" not in p.parts
    ]


def _pattern(name: str, other: str | None = None) -> re.Pattern[str]:
    """The game's name and facts; in ``other`` game's folder, less the modes both share."""
    game = games()[name]
    shared = set(games()[other].modes) if other in games() else set()
    words = [re.escape(name), re.escape(game.title)]
    words += [re.escape(m) for m in game.modes if m not in shared]
    words += FACTS.get(name, [])
    # an attribute (``sock.family``) is Python's word, not the game's
    return re.compile(rf"(?<![\w.])({'|'.join(words)})(?![\w])", re.IGNORECASE)


@pytest.mark.parametrize("name", sorted(FACTS))
def test_a_games_name_and_facts_stay_in_its_folder(name: str) -> None:
    assert name in games(), f"{name} is not registered"
    home = SRC / "games" / name
    assert home.is_dir()
    stray = []
    for path in sorted(_files_outside(home)):
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = path.relative_to(SRC)
        other = rel.parts[1] if rel.parts[0] == "games" and len(rel.parts) > 2 else None
        for match in _pattern(name, other).finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            stray.append(f"{path.relative_to(SRC)}:{line}: {match.group(0)!r}")
    assert not stray, "game facts outside the game's folder:\n" + "\n".join(stray[:40])


def test_every_registered_game_has_one_folder_with_the_same_parts() -> None:
    """Both games are one shape: the same module names in each folder."""
    shapes = {}
    for name in games():
        folder = SRC / "games" / name
        if not folder.is_dir():
            continue  # a test or plug-in game registered from elsewhere
        shapes[name] = {p.name for p in folder.glob("*.py")}
    common = set.intersection(*shapes.values())
    for part in (
        "game.py",
        "state.py",
        "moves.py",
        "setup.py",
        "options.py",
        "view.py",
        "render.py",
        "scoring.py",
        "knowledge.py",
        "observation.py",
        "chance.py",
        "choices.py",
    ):
        assert part in common, f"not every game has {part}"


@pytest.mark.parametrize("name", sorted(FACTS))
def test_slots_take_effect_in_the_hot_objects(name: str) -> None:
    """States, views and moves carry no per-object dict (``__slots__`` all the way up)."""
    game = games()[name]
    state = game.new_game(game.default_mode, 2, seed=1)
    for thing in (state, state.view(0), state.legal_moves()[0], state.clone()):
        assert not hasattr(thing, "__dict__"), type(thing).__name__
