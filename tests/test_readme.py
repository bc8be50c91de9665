"""The Python examples of the README and of the guides in docs/ run as written (a newcomer
copies them first)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
GUIDES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCKS = [
    block
    for guide in GUIDES
    for block in re.findall(r"```python\n(.*?)```", guide.read_text(encoding="utf-8"), flags=re.S)
]


def test_the_guides_have_python_examples() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "```python" in readme and len(BLOCKS) >= 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int) -> None:
    code = BLOCKS[index]
    if "ismcts" in code:
        pytest.skip("the OpenSpiel IS-MCTS match is exercised by tests/research (too slow here)")
    exec(compile(code, f"README.md example {index}", "exec"), {"__name__": "readme_example"})
