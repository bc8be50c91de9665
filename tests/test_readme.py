"""The README's Python examples run as written (a newcomer copies them first)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int) -> None:
    code = BLOCKS[index]
    if "ismcts" in code:
        pytest.skip("the OpenSpiel IS-MCTS match is exercised by tests/research (too slow here)")
    exec(compile(code, f"README.md example {index}", "exec"), {"__name__": "readme_example"})
