"""Every benchmark answers ``-h`` at once: its usage, what it measures, each option and how
long a run takes, and no figure (a script that ignored the flag would start measuring)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
#: Modules the scripts import, not run on their own.
HELPERS = {"bench_args", "loadkit"}
SCRIPTS = sorted(
    path.stem
    for path in BENCHMARKS.glob("*.py")
    if 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")
)
#: Seconds ``-h`` may take on a loaded machine (well under one on an idle one: the scripts
#: import their heavy modules after reading their options where that takes long).
PATIENCE = 60.0


def test_every_module_is_a_script_or_a_helper() -> None:
    every = {path.stem for path in BENCHMARKS.glob("*.py")}
    assert every - set(SCRIPTS) == HELPERS
    assert len(SCRIPTS) >= 14


def undocumented(text: str) -> list[str]:
    """The options in ``-h``'s text that have no help (argparse puts the help after the
    option on its line, or on the lines below it, indented)."""
    lines = text.split("\noptions:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    missing = []
    for i, line in enumerate(lines):
        if not line.startswith("  -"):
            continue
        follows = lines[i + 1] if i + 1 < len(lines) else ""
        helped = re.search(r"\S\s{2,}\S", line.strip()) is not None or (
            follows.startswith(" " * 6) and not follows.lstrip().startswith("-")
        )
        if not helped:
            missing.append(line.strip())
    return missing


@pytest.mark.parametrize("script", SCRIPTS)
def test_help_tells_the_options_and_the_duration_and_runs_nothing(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / f"{script}.py"), "-h"],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        cwd=BENCHMARKS.parent,
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith(f"usage: {script}.py "), text[:300]
    assert "Duration:" in text, text
    duration = " ".join(text.split("Duration:", 1)[1].split())
    assert re.search(r"\b(seconds|minutes?|hours?|day|input closes)\b", duration), duration
    assert undocumented(text) == []


def test_the_check_sees_an_option_without_help() -> None:
    text = (
        "usage: x.py\n\noptions:\n  -h, --help  show this help\n  --games GAMES\n"
        "  --long-name LONG_NAME\n                        its help\n  --seed SEED  seed\n"
    )
    assert undocumented(text) == ["--games GAMES"]
