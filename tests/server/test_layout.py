"""The server's parts talk to each other through what they make public: no module reaches
into another object's private members (``room._store``, ``hub._tasks``), so a part's insides
can change without breaking another (the room's pipeline is the one way into a game)."""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src" / "polis" / "server"


def private_reaches(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, ``owner._name``) for every private member used on anything but ``self``,
    ``cls`` or ``super()``."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if not name.startswith("_") or (name.startswith("__") and name.endswith("__")):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        if isinstance(owner, ast.Call) and ast.unparse(owner.func) == "super":
            continue  # a subclass extending its own base
        found.append((node.lineno, f"{ast.unparse(owner)}.{name}"))
    return found


def test_no_module_reaches_into_another_objects_private_members() -> None:
    problems = []
    for path in sorted(SOURCE.rglob("*.py")):
        for line, what in private_reaches(ast.parse(path.read_text(encoding="utf-8"))):
            problems.append(f"{path.relative_to(SOURCE)}:{line}: {what}")
    assert problems == []


def test_the_check_sees_a_reach_into_the_room() -> None:
    source = "async def f(room):\n    await room._store(x)\n    self._ok = room.commit\n"
    assert private_reaches(ast.parse(source)) == [(2, "room._store")]
