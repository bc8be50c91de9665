"""The command line every benchmark shares: ``-h`` tells what the script measures (the first
paragraph of its docstring), every option with its default, and how long a run takes, then
exits before any work (tests/test_benchmarks.py runs each script with ``-h``).

Durations are for the project's 2-core machine with nothing else running; a loaded machine
takes longer.
"""

from __future__ import annotations

import argparse


class _Formatter(argparse.ArgumentDefaultsHelpFormatter):
    """Each option's default after its help, unless it has none (None, False) or the help
    says it already."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if action.default is None or action.default is False or "default" in text:
            return text
        return super()._get_help_string(action) or text


def parser(doc: str | None, duration: str) -> argparse.ArgumentParser:
    """A parser for a benchmark documented by ``doc``; ``duration`` says how long it runs
    (with the defaults, and what the options change)."""
    first = (doc or "").strip().split("\n\n")[0]
    return argparse.ArgumentParser(
        description=" ".join(first.split()),
        epilog=f"Duration: {duration}",
        formatter_class=_Formatter,
    )
